package translate_test

import (
	"fmt"
	"os"

	"d3dsim/core/dxbc"
	"d3dsim/core/umd/translate"
)

// Translate the Nuklear pixel shader fxc compiled: the GPU program, its
// inputs and the resources it binds.
func ExampleTranslate() {
	text, err := os.ReadFile("../../dxbc/testdata/nuklear_d3d11_pixel_shader.h")
	if err != nil {
		panic(err)
	}
	bytecode, err := dxbc.ParseFxcHeader(string(text))
	if err != nil {
		panic(err)
	}
	sh, err := translate.Translate(bytecode, dxbc.PixelShader)
	if err != nil {
		panic(err)
	}
	fmt.Print(sh.Program)
	for _, in := range sh.Inputs {
		fmt.Printf("v%d <- %s%d (%s)\n", in.ISA, in.Semantic, in.SemanticIndex, in.Interp)
	}
	fmt.Println("textures", len(sh.Textures), "samplers", sh.Samplers, "words", len(sh.Code))
	// Output:
	// ps inputs=3 outputs=1 temps=1
	// sample r0, v2.xyxx, t0, s0
	// mul o0, r0, v1
	// ret
	// v1 <- COLOR0 (linear)
	// v2 <- TEXCOORD0 (linear)
	// textures 1 samplers [0] words 21
}
