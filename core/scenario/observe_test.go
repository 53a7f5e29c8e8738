package scenario

import (
	"strings"
	"testing"
)

// TestExpectFormat: an expect statement that reads a resource back is
// written as it was given (in its canonical form), so that an apitrace
// export can carry it in a marker and an import give it back.
func TestExpectFormat(t *testing.T) {
	lines := []string{
		"expect pixel tex 1 2 == #ff00ff80",
		"expect pixel tex 0 0 as R32_FLOAT == f32[0.5]",
		"expect pixel tex 3 3 == f32[0.25 -1 inf nan] within 0.001",
		"expect pixel tex 3 3 == f32[1e-07 -inf 3.5 0]",
		"expect pixel tex 3 3 == u32[1 2 3 4294967295]",
		"expect pixel tex 3 3 == i32[-1 2 -2147483648]",
		"expect hash tex == 0123abcd",
		"expect probe tex 1 2 == f32[1 0.5]",
		"expect probe tex 0 0 4 4 == f32[1 0.5 0 1] ulps=2",
		"expect probe tex 0 0 2 3 == i32[-7]",
		"expect probe tex 0 0 == u32[7 8]",
	}
	src := "dev, imm = D3D11CreateDevice\ntex = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET\n" + strings.Join(lines, "\n") + "\nexpect violations == 0\n"
	s, err := Load("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range s.Stmts {
		if e, ok := st.(*Expect); ok {
			if f := e.Format(e.Name); f != "" {
				got = append(got, f)
			} else if e.Kind != ExpectViolations {
				t.Errorf("line %d: no text", e.Line)
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(lines, "\n") {
		t.Errorf("written back:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(lines, "\n"))
	}
	if f := (&Expect{Kind: ExpectHR, Name: "S_OK"}).Format("x"); f != "" {
		t.Errorf("expect hr written as %q", f)
	}
}
