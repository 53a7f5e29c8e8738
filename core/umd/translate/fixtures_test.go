package translate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// fixture is one fxc /Fh header of core/dxbc's testdata.
type fixture struct {
	name  string
	bytes []byte
	stage dxbc.ProgramType
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	files, err := filepath.Glob("../../dxbc/testdata/*.h")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixture
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dxbc.ParseFxcHeader(string(text))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		stage := dxbc.PixelShader
		if strings.Contains(strings.ToLower(f), "vertex") {
			stage = dxbc.VertexShader
		}
		out = append(out, fixture{name: filepath.Base(f), bytes: b, stage: stage})
	}
	return out
}

// hasSampleD are the fixtures that sample with explicit gradients (SDL's
// advanced and PQ shaders take d(uv)/dx of one coordinate and sample at
// another): they translate to the ISA's sample_d.
var hasSampleD = map[string]bool{
	"sdl_D3D11_PixelShader_Advanced.h":    true,
	"sdl_D3D11_PixelShader_Textures_PQ.h": true,
}

func TestFixturesTranslate(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			sh, err := Translate(f.bytes, f.stage)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, in := range sh.Program.Code {
				if in.Op == shaderisa.OpSampleD {
					n++
				}
			}
			if n > 0 != hasSampleD[f.name] {
				t.Fatalf("%d sample_d in the ISA", n)
			}
			p, err := shaderisa.Decode(sh.Code)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got := p.Encode(); !equalWords(got, sh.Code) {
				t.Fatalf("Decode(Code).Encode() differs from Code")
			}
			if _, err := sh.Program.Check(); err != nil {
				t.Fatal(err)
			}
			if len(sh.Source) != len(sh.Program.Code) || sh.Listing() == "" {
				t.Fatalf("source map of %d for %d instructions", len(sh.Source), len(sh.Program.Code))
			}
			t.Logf("\n%s", sh.Listing())
		})
	}
}

func equalWords(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
