package translate

import (
	"math/bits"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Doubles ("Shader Model 5 Assembly": dadd ... ftod) map one for one: the
// ISA keeps a double in a pair of components, xy or zw, low word first,
// as DXBC does, with the same masks, swizzles and modifiers. deq, dge,
// dlt, dne and dtof write 32-bit components, the k-th written from the
// sources' k-th double; the ISA writes them to x and y, so another mask
// goes through a scratch temp.

var doubleOps = map[dxbc.Opcode]shaderisa.Op{
	dxbc.OpDadd: shaderisa.OpDAdd, dxbc.OpDmul: shaderisa.OpDMul, dxbc.OpDmin: shaderisa.OpDMin,
	dxbc.OpDmax: shaderisa.OpDMax, dxbc.OpDeq: shaderisa.OpDEq, dxbc.OpDge: shaderisa.OpDGe,
	dxbc.OpDlt: shaderisa.OpDLt, dxbc.OpDne: shaderisa.OpDNe, dxbc.OpDmov: shaderisa.OpDMov,
	dxbc.OpDmovc: shaderisa.OpDMovc, dxbc.OpDtof: shaderisa.OpDToF, dxbc.OpFtod: shaderisa.OpFToD,
}

func (t *translator) double(in *dxbc.Instruction) error {
	op := doubleOps[in.Op]
	if len(in.Operands) != 1+len(op.Srcs()) {
		return t.fail("%d operands, want %d", len(in.Operands), 1+len(op.Srcs()))
	}
	if in.Saturate() {
		return t.fail("_sat on a double instruction")
	}
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	x := shaderisa.Inst{Op: op}
	for i := range in.Operands[1:] {
		s, err := t.src(&in.Operands[1+i])
		if err != nil {
			return err
		}
		if op == shaderisa.OpDMovc && i == 0 && (s.Neg || s.Abs) {
			return t.fail("a dmovc condition with a source modifier")
		}
		x.Src = append(x.Src, s)
	}
	switch op {
	case shaderisa.OpDEq, shaderisa.OpDGe, shaderisa.OpDLt, shaderisa.OpDNe, shaderisa.OpDToF:
		n := bits.OnesCount8(dst.Mask)
		if n > 2 {
			return t.fail("%s writes one or two components, not %d", in.Op, n)
		}
		if dst.Mask&^3 == 0 && (n == 2 || dst.Mask == 1) {
			x.Dst = dst
			break
		}
		// The k-th component written takes double k: through x and y of
		// a scratch temp.
		tmp := t.newScratch()
		x.Dst = shaderisa.R(tmp)
		x.Dst.Mask = uint8(1)<<n - 1
		t.emit(x)
		mov := shaderisa.Inst{Op: shaderisa.OpMov, Dst: dst, Src: []shaderisa.Operand{shaderisa.R(tmp)}}
		k := uint8(0)
		for c := range 4 {
			if dst.Mask>>c&1 != 0 {
				mov.Src[0].Swizzle[c] = k
				k++
			}
		}
		t.emit(mov)
		return nil
	default:
		if m := dst.Mask; m != 0x3 && m != 0xC && m != 0xF {
			return t.fail("%s writes doubles: xy, zw or xyzw, not mask %#x", in.Op, m)
		}
		x.Dst = dst
	}
	t.emit(x)
	return nil
}

// eval translates eval_centroid and eval_sample_index: the centroid is
// taken as the pixel's centre, where the input is interpolated already
// (the attribute itself); a sample's position moves the value along the
// input's derivatives (evalSampleIndex).
func (t *translator) eval(in *dxbc.Instruction) error {
	if t.out.Stage != shaderisa.StagePixel {
		return t.fail("%s outside a pixel shader", in.Op)
	}
	if len(in.Operands) < 2 || in.Operands[1].Type != dxbc.RegInput {
		return t.fail("%s evaluates an input v#", in.Op)
	}
	if in.Op == dxbc.OpEvalSampleIndex && len(in.Operands) == 3 {
		return t.evalSampleIndex(in) // (msaa.go)
	}
	return t.alu2(in, 0, shaderisa.OpMov, in.Operands[1])
}
