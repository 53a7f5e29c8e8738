package translate

import (
	"testing"

	"d3dsim/core/dxbc"
)

// BenchmarkTranslate: the whole CreateXShader path (validation and
// translation) for the biggest fixture that translates, and translation
// alone for the biggest fixture (SDL's advanced pixel shader, 200-odd
// instructions, with sample in place of its sample_d).
func BenchmarkTranslate(b *testing.B) {
	var biggest fixture
	var advanced *dxbc.Shader
	for _, fx := range loadFixtures(b) {
		if needsSampleD[fx.name] {
			if fx.name == "sdl_D3D11_PixelShader_Advanced.h" {
				s, err := dxbc.Validate(fx.bytes, fx.stage)
				if err != nil {
					b.Fatal(err)
				}
				for k := range s.Program.Instructions {
					in := &s.Program.Instructions[k]
					if in.Op == dxbc.OpSampleD {
						in.Op, in.Operands = dxbc.OpSample, in.Operands[:4]
					}
				}
				advanced = s
			}
			continue
		}
		if len(fx.bytes) > len(biggest.bytes) {
			biggest = fx
		}
	}
	b.Run(biggest.name, func(b *testing.B) {
		for b.Loop() {
			if _, err := Translate(biggest.bytes, biggest.stage); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sdl_D3D11_PixelShader_Advanced.h-sample", func(b *testing.B) {
		for b.Loop() {
			if _, err := FromShader(advanced); err != nil {
				b.Fatal(err)
			}
		}
	})
}
