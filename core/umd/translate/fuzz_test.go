package translate

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// FuzzTranslate feeds whole containers (the fixtures, mutated) to
// Translate: an error with the package prefix or a program the GPU
// decodes, never a panic. Most mutations fail the checksum in
// dxbc.Validate; FuzzTranslateTokens goes past it.
func FuzzTranslate(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		f.Add(fx.bytes, fx.stage == dxbc.PixelShader)
	}
	f.Fuzz(func(t *testing.T, b []byte, pixel bool) {
		stage := dxbc.VertexShader
		if pixel {
			stage = dxbc.PixelShader
		}
		checkResult(t, func() (*Shader, error) { return Translate(b, stage) })
	})
}

// FuzzTranslateTokens feeds token streams (the fixtures' and the opcode
// programs', mutated) to the translator directly, without the container's
// checksum or dxbc.Validate's checks in front.
func FuzzTranslateTokens(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		s, err := dxbc.Validate(fx.bytes, fx.stage)
		if err != nil {
			f.Fatal(err)
		}
		b, err := s.Program.Bytes()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// The hull and domain listings' (tess_test.go).
	for _, name := range []string{"quad_hs", "quad_ds"} {
		text, err := os.ReadFile("testdata/tess/" + name + ".asm")
		if err != nil {
			f.Fatal(err)
		}
		bc, err := dxbc.Assemble(string(text))
		if err != nil {
			f.Fatal(err)
		}
		c, err := dxbc.Parse(bc)
		if err != nil {
			f.Fatal(err)
		}
		p, err := c.Program()
		if err != nil {
			f.Fatal(err)
		}
		b, err := p.Bytes()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, tc := range loweringCases() {
		b := newTestBuilder(tc.stage)
		tc.body(b)
		b.Ret()
		p, err := b.Program()
		if err != nil {
			f.Fatal(err)
		}
		code, _ := p.Bytes()
		f.Add(code)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		b = b[:len(b)&^3]
		w := make([]uint32, len(b)/4)
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		p, err := dxbc.DecodeProgram(w)
		if err != nil {
			return
		}
		checkResult(t, func() (*Shader, error) { return translateProgram(p, nil, nil) })
	})
}

func checkResult(t *testing.T, tr func() (*Shader, error)) {
	t.Helper()
	sh, err := tr()
	if err != nil {
		if !strings.HasPrefix(err.Error(), "translate: ") {
			t.Fatalf("error without the package prefix: %v", err)
		}
		return
	}
	if _, err := shaderisa.Decode(sh.Code); err != nil {
		t.Fatalf("translated code does not decode: %v", err)
	}
}
