package scenario

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/memlimit"
)

// FuzzParse checks that no input makes the parser panic or hang, and that
// every error is an *Error pointing inside the file.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		"\n\n",
		"option seed=1\ndev, imm = D3D11CreateDevice\nexpect calls DxgkDdiCreateDevice CreateDevice\n",
		"sc = dev.CreateSwapChain Width=64 Height=64\nimm.Draw 3 0\nsc.Present 0\nexpect pixel bb 32 40 == #ff0000ff\n",
		"thread t {\n  repeat 3 {\n    dc.Flush\n  }\n  signal a\n}\nwait a\n",
		"vb.Write f32[1, 2,\n 3 # c\n]\nib.Write u16[1 2 3] u32[0x10]\n",
		"inject E_OUTOFMEMORY at=dc.FinishCommandList count=2\nexpect hr == E_OUTOFMEMORY\n",
		"expect hash bb == 0123456789abcdef\nexpect violations == 0\nexpect violation CL-OOM\nexpect live == 0\n",
		"x.F A|B|C mesh:quad builtin:ps_solid #102030 -1e3 4KiB .5\n",
		"q = dev.CreateQuery Query=EVENT\nimm.End q\nuntil hr != S_FALSE max 1000 {\n  imm.GetData q\n}\nexpect data q == TRUE\n",
		"until data occ >= 0x10 max 5 {\n until hr == S_OK max 2 {\n  imm.GetData occ\n }\n}\nexpect data t2 > t1\nexpect data a != 0\nexpect data a <= 9\nexpect data a < b\n",
		// broken fragments
		"thread t {\n",
		"}\n",
		"repeat 2 { x.F }",
		"vb.Write f32[1 2",
		"expect pixel bb 1 1 == #f00",
		"option seed=1\nx.F\noption a=b",
		"a, = b.C",
		"x.F \xff\x00",
		"\uFEFF#x\r\n x.F Color=#",
		"expect hash x == " + string(bytes.Repeat([]byte{'f'}, 80)),
		"repeat 99999999999999999999 {\n}",
		"x.F 0x 1e 1e999 -- +. 0xKiB",
		"until hr == S_OK {\n x.F\n}",
		"until hr == S_OK max 3 {\n}",
		"until hr < S_OK max 0 { x.F }",
		"until data q max 3 {",
		"expect data q ! 3\nexpect data q => 3\nexpect data q == #ff0000ff\nexpect data q >= -1 <",
		"expect data st.PSInvocations == 64\nexpect data dj.Frequency > t.x\nexpect data q. == 1\nexpect data q == .x\nexpect data q.a.b < q..\n",
		// source blocks and shader values
		"hlsl s {\nfloat4 main(float4 p : POSITION) : SV_Position { return p; }\n}\ndev, imm = D3D11CreateDevice\nvs = dev.CreateVertexShader hlsl:s entry=main target=vs_4_0\n",
		"hlsl s { # c\n/* } */ // }\n\"}\"\n{\n}\n}\n",
		"fxc h {\nconst BYTE g_x[] = { 68, 88, 66, 67 };\n}\nps = dev.CreatePixelShader fxc:h\n",
		"ps = dev.CreatePixelShader bytes:44584243\nps = dev.CreatePixelShader bytes:4\nps = dev.CreatePixelShader bytes:zz\n",
		"hlsl s {\n",
		"hlsl s {\n/*",
		"hlsl s {\n\"",
		"hlsl {\n}\n",
		"hlsl s x\n",
		"repeat 1 {\nfxc h {\n}\n}\n",
		"hlsl s {\n}\nhlsl s {\n} x\n",
		"il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0 APPEND_ALIGNED PER_VERTEX 0] elem[C, 1, R32_UINT]\nimm.IASetInputLayout il\nimm.DrawInstanced 3 2 0 1\nimm.DrawIndexedInstanced 3 2 0 -1 1\n",
		"il = dev.CreateInputLayout vs elem[POSITION 0\n]\nx = elem[1 2 3 4 5 6 7 8]\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/*/*.d3ds")
	for _, name := range assets.Scenarios() {
		if src, ok := assets.Scenario(name); ok {
			f.Add(src)
		}
	}
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		// Loading 1 MiB of source allocates a few MiB (the tokens, the
		// statements, the lists); 64 MiB in all is a runaway.
		memlimit.Check(t, 64<<20, "Load", func() { fuzzParse(t, src) })
	})
}

func fuzzParse(t *testing.T, src []byte) {
	{
		s, err := Parse("f.d3ds", src)
		if err == nil {
			if s == nil {
				t.Fatal("nil script and nil error")
			}
			checkPositions(t, s.Stmts)
			// What parses goes through the checker too (Load): its
			// errors are *Error inside the file as well.
			if s, err = Load("f.d3ds", src); err == nil {
				return
			}
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %T %v is not an *Error", err, err)
		}
		// ('\r' alone ends a line too)
		lines := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) - bytes.Count(src, []byte("\r\n")) + 1
		if e.File != "f.d3ds" || e.Line < 1 || e.Col < 1 || e.Line > lines || e.Msg == "" {
			t.Fatalf("bad error %q (File %q, Line %d, Col %d; %d lines)", err, e.File, e.Line, e.Col, lines)
		}
		if s != nil {
			t.Fatal("script returned with an error")
		}
	}
}

func checkPositions(t *testing.T, stmts []Stmt) {
	t.Helper()
	for _, st := range stmts {
		if p := Position(st); p.Line < 1 || p.Col < 1 {
			t.Fatalf("statement %T at %v", st, p)
		}
		switch st := st.(type) {
		case *Thread:
			checkPositions(t, st.Body)
		case *Repeat:
			checkPositions(t, st.Body)
		case *Until:
			if st.Cond.Line < 1 || st.Cond.Col < 1 {
				t.Fatalf("until condition at %v", st.Cond.Pos)
			}
			checkPositions(t, st.Body)
		}
	}
}
