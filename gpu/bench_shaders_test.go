package gpu

import (
	"slices"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
	umdtranslate "d3dsim/core/umd/translate"
	"d3dsim/gpu/shaderisa"
)

// TestBenchShadersAreTheHLSL: the bench's Phong and loop scenes draw, at the
// GPU level, the programs the HLSL compiler and the UMD's translator make of
// their HLSL sources (the gpu package cannot compile HLSL, so it keeps the
// programs; this says when they drift apart).
func TestBenchShadersAreTheHLSL(t *testing.T) {
	for _, c := range []struct{ name, src, isa string }{
		{"phong", PhongHLSL, PhongPS},
		{"loop", LoopHLSL, LoopPS},
	} {
		res, err := hlsl.Compile([]byte(c.src), c.name+".hlsl", "main", "ps_4_0")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sh, err := umdtranslate.Translate(res.Bytecode, dxbc.PixelShader)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p, err := shaderisa.Assemble(c.isa)
		if err != nil {
			t.Fatalf("%s: the gpu package's program: %v", c.name, err)
		}
		if got := p.Encode(); !slices.Equal(got, sh.Code) {
			text, _ := shaderisa.Disassemble(sh.Code)
			t.Errorf("%s: the gpu package's program is not the translation of its HLSL, which is now:\n%s", c.name, text)
		}
	}
}
