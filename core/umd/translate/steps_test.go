package translate

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// TestSteps: every ISA instruction names the DXBC instruction it came
// from (a lowering's several all the same one), at that instruction's
// word in the token stream, and its own first word in Shader.Code.
func TestSteps(t *testing.T) {
	r := dxbc.Temp
	b := newTestBuilder(dxbc.PixelShader)
	b.Emit(dxbc.OpSincos, r(0), r(1), r(2)) // two ISA instructions
	b.DclImmediateConstantBuffer([][4]uint32{{1, 2, 3, 4}, {5, 6, 7, 8}})
	b.Emit(dxbc.OpMov, r(3), dxbc.ICB(0).Rel(r(4).Select(0))) // the program carries icb: its header is longer
	p := finishProgram(t, b)
	sh, err := translateProgram(p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := sh.Steps()
	if len(steps) != len(sh.Program.Code) {
		t.Fatalf("%d steps for %d instructions", len(steps), len(sh.Program.Code))
	}
	words, err := p.Words()
	if err != nil {
		t.Fatal(err)
	}
	sincos := 0
	for _, s := range steps {
		if s.DXBC < 0 || s.DXBC >= len(p.Instructions) || s.DXBCText != p.Instructions[s.DXBC].String() {
			t.Fatalf("step %+v: no DXBC source", s)
		}
		if dxbc.Opcode(words[s.DXBCWord]&0x7FF) != p.Instructions[s.DXBC].Op {
			t.Errorf("step %d: word %d is not %s's token", s.PC, s.DXBCWord, p.Instructions[s.DXBC].Op)
		}
		if shaderisa.Op(sh.Code[s.Word]&0xFF) != sh.Program.Code[s.PC].Op || s.ISA != sh.Program.Code[s.PC].String() {
			t.Errorf("step %d: word %d is not %s", s.PC, s.Word, s.ISA)
		}
		if sh.SourceOf(s.PC) != s.DXBC {
			t.Errorf("SourceOf(%d) = %d, want %d", s.PC, sh.SourceOf(s.PC), s.DXBC)
		}
		if strings.HasPrefix(s.DXBCText, "sincos") {
			sincos++
		}
	}
	if sincos < 2 {
		t.Errorf("sincos became %d ISA instructions with it as their source, want its two halves at least", sincos)
	}
	if sh.SourceOf(-1) != -1 || sh.SourceOf(len(steps)) != -1 {
		t.Error("SourceOf past the program is not -1")
	}
}
