package gpu

import (
	"slices"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
	umdtranslate "d3dsim/core/umd/translate"
	"d3dsim/gpu/shader"
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

// BenchmarkShaderBlocks: the machine alone (no rasterizer, interpolation or
// output merger) running PhongPS and LoopPS over one whole block an
// iteration, v1 (the colour) and v2 (the uv) set once: for profiling its
// kernels and dispatch.
func BenchmarkShaderBlocks(b *testing.B) {
	for _, c := range []struct{ name, isa string }{{"phong", PhongPS}, {"loop", LoopPS}} {
		b.Run(c.name, func(b *testing.B) {
			p, err := shaderisa.Assemble(c.isa)
			if err != nil {
				b.Fatal(err)
			}
			m := shader.NewMachine(p)
			for y := range 8 {
				for x := range 8 {
					l := shader.QuadLane(x, y)
					for c := range 4 {
						m.In(1).F(c)[l] = float32(x+y+c) / 16
					}
					m.In(2).F(0)[l], m.In(2).F(1)[l] = (float32(x)+0.5)/8, (float32(y)+0.5)/8
				}
			}
			b.ResetTimer()
			cpu := cpuSeconds()
			for range b.N {
				if _, err := m.Run(shader.AllLanes); err != nil {
					b.Fatal(err)
				}
			}
			if cpu = cpuSeconds() - cpu; cpu > 0 {
				b.ReportMetric(float64(b.N)*shader.Lanes/cpu/1e6, "Mpixels/cpu-s")
			}
		})
	}
}
