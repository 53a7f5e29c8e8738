package hlsl

import (
	"os"
	"testing"
)

func BenchmarkCompilePhong(b *testing.B) {
	src, err := os.ReadFile("testdata/phong.hlsl")
	if err != nil {
		b.Fatal(err)
	}
	benchCompile(b, src, "phong.hlsl", "PSMain", "ps_5_0")
}

func BenchmarkRunPhong(b *testing.B) {
	src, err := os.ReadFile("testdata/phong.hlsl")
	if err != nil {
		b.Fatal(err)
	}
	r, err := Compile(src, "phong.hlsl", "PSMain", "ps_5_0")
	if err != nil {
		b.Fatal(err)
	}
	env := &Env{Inputs: make([][4]uint32, 5), CB: make([][][4]uint32, 2),
		Sample: func(int, int, float32, float32, float32) [4]float32 { return [4]float32{0.5, 0.5, 1, 1} }}
	for b.Loop() {
		if _, err := Run(r.Program, env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileSDLAdvanced compiles the largest shader of the tests:
// SDL's PixelShader_Advanced (its #include written in place).
func BenchmarkCompileSDLAdvanced(b *testing.B) {
	common, err := os.ReadFile("../dxbc/testdata/sdl_D3D11_PixelShader_Common.hlsli")
	if err != nil {
		b.Fatal(err)
	}
	main, err := os.ReadFile("../dxbc/testdata/sdl_D3D11_PixelShader_Advanced.hlsl")
	if err != nil {
		b.Fatal(err)
	}
	src := append(common, includeRe.ReplaceAll(main, nil)...)
	benchCompile(b, src, "advanced.hlsl", "main", "ps_5_0")
}

// The same without the optimiser: what it costs.
func BenchmarkCompileSDLAdvancedPlain(b *testing.B) {
	noOptimize = true
	defer func() { noOptimize = false }()
	BenchmarkCompileSDLAdvanced(b)
}

func BenchmarkCompilePhongPlain(b *testing.B) {
	noOptimize = true
	defer func() { noOptimize = false }()
	BenchmarkCompilePhong(b)
}
