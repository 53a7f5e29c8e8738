package translate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"d3dsim/core/dxbc"
)

// TestRandomPrograms: seeded random programs of every translated
// arithmetic opcode and lowering, with random swizzles, masks, modifiers,
// constants and immediates, some inside if/else and bounded loops, ISA
// against the reference. Operand combinations the per-opcode table does
// not list (aliasing across lowered instructions, scratch reuse) land here.
func TestRandomPrograms(t *testing.T) {
	var ops []dxbc.Opcode
	for op := range refOps {
		ops = append(ops, op)
	}
	ops = append(ops, dxbc.OpDp2, dxbc.OpDp3, dxbc.OpDp4, dxbc.OpSincos, dxbc.OpUdiv, dxbc.OpSwapc, dxbc.OpImul, dxbc.OpUmul, dxbc.OpBfi, dxbc.OpUaddc, dxbc.OpUsubb)
	slices.Sort(ops)
	for seed := range uint64(150) {
		r := rand.New(rand.NewPCG(seed, 77))
		stage := dxbc.VertexShader
		if seed%2 == 1 {
			stage = dxbc.PixelShader
		}
		b := newTestBuilder(stage)
		var dsts []int
		open := 0
		for range 8 + r.IntN(16) {
			switch k := r.IntN(12); {
			case k == 0 && open < 3:
				b.EmitTest(dxbc.OpIf, dxbc.Test(r.IntN(2)), randTemp(r).Select(uint8(r.IntN(4))))
				dsts = append(dsts, 0)
				open++
				continue
			case k == 1 && open > 0 && dsts[len(dsts)-1] == 0:
				b.Emit(dxbc.OpElse)
				dsts[len(dsts)-1] = 1
				continue
			case k == 2 && open > 0:
				b.Emit(dxbc.OpEndif)
				dsts = dsts[:len(dsts)-1]
				open--
				continue
			case k == 3 && stage == dxbc.PixelShader:
				b.EmitTest(dxbc.OpDiscard, dxbc.Test(r.IntN(2)), randTemp(r).Select(uint8(r.IntN(4))))
				continue
			}
			emitRandom(b, r, ops[r.IntN(len(ops))])
		}
		for ; open > 0; open-- {
			b.Emit(dxbc.OpEndif)
		}
		p := finishProgram(t, b)
		t.Run("", func(t *testing.T) { checkEquiv(t, p, seed, 2) })
	}
}

func randTemp(r *rand.Rand) dxbc.Operand { return dxbc.Temp(uint32(r.IntN(6))) }

func randSrc(r *rand.Rand) dxbc.Operand {
	var o dxbc.Operand
	switch r.IntN(8) {
	case 0:
		o = dxbc.CB(uint32(r.IntN(2)), uint32(r.IntN(4)))
	case 1:
		return dxbc.ImmUint(randWord(r), randWord(r), randWord(r), randWord(r))
	case 2:
		o = dxbc.Input(uint32(r.IntN(4)))
	default:
		o = randTemp(r)
	}
	o = o.Swizzle(uint8(r.IntN(4)), uint8(r.IntN(4)), uint8(r.IntN(4)), uint8(r.IntN(4)))
	switch r.IntN(6) {
	case 0:
		o = o.Neg()
	case 1:
		o = o.Abs()
	case 2:
		o = o.Abs().Neg()
	}
	return o
}

func randDst(r *rand.Rand) dxbc.Operand {
	return randTemp(r).Mask(uint8(1 + r.IntN(15)))
}

// twoDst returns two destinations in different registers: where both
// write one component, DXBC leaves the winner unsaid (the translator's
// is dst0's).
func twoDst(r *rand.Rand) (dxbc.Operand, dxbc.Operand) {
	a := r.IntN(6)
	b := (a + 1 + r.IntN(5)) % 6
	return dxbc.Temp(uint32(a)).Mask(uint8(1 + r.IntN(15))), dxbc.Temp(uint32(b)).Mask(uint8(1 + r.IntN(15)))
}

func emitRandom(b *dxbc.Builder, r *rand.Rand, op dxbc.Opcode) {
	switch op {
	case dxbc.OpSincos, dxbc.OpUdiv, dxbc.OpUaddc, dxbc.OpUsubb:
		d0, d1 := twoDst(r)
		if r.IntN(4) == 0 {
			d0 = dxbc.Null()
		}
		srcs := []dxbc.Operand{randSrc(r)}
		if op != dxbc.OpSincos {
			srcs = append(srcs, randSrc(r))
		}
		b.Emit(op, append([]dxbc.Operand{d0, d1}, srcs...)...)
	case dxbc.OpSwapc:
		d0, d1 := twoDst(r)
		b.Emit(op, d0, d1, randSrc(r), randSrc(r), randSrc(r))
	case dxbc.OpImul, dxbc.OpUmul:
		d0, d1 := twoDst(r)
		if r.IntN(3) == 0 {
			d0 = dxbc.Null()
		}
		b.Emit(op, d0, d1, randSrc(r), randSrc(r))
	case dxbc.OpBfi:
		b.Emit(op, randDst(r), randSrc(r), randSrc(r), randSrc(r), randSrc(r))
	default:
		n := 2
		if ro, ok := refOps[op]; ok {
			n = ro.n
		}
		args := []dxbc.Operand{randDst(r)}
		for range n {
			args = append(args, randSrc(r))
		}
		if floatResult(op) && r.IntN(4) == 0 {
			b.EmitSat(op, args...)
		} else {
			b.Emit(op, args...)
		}
	}
}
