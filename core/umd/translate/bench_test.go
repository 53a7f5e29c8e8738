package translate

import (
	"testing"

	"d3dsim/core/dxbc"
)

// BenchmarkTranslate: the whole CreateXShader path (validation and
// translation) for the biggest fixture, and translation alone for SDL's
// advanced pixel shader (200-odd instructions, sample_d among them).
func BenchmarkTranslate(b *testing.B) {
	var biggest fixture
	var advanced *dxbc.Shader
	for _, fx := range loadFixtures(b) {
		if fx.name == "sdl_D3D11_PixelShader_Advanced.h" {
			s, err := dxbc.Validate(fx.bytes, fx.stage)
			if err != nil {
				b.Fatal(err)
			}
			advanced = s
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
	b.Run("sdl_D3D11_PixelShader_Advanced.h-translate", func(b *testing.B) {
		for b.Loop() {
			if _, err := FromShader(advanced); err != nil {
				b.Fatal(err)
			}
		}
	})
}
