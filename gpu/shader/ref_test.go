package shader

import (
	"errors"

	. "d3dsim/gpu/shaderisa"
)

// refRun is the slow, obviously correct reference for control flow: it
// runs one lane at a time with ordinary jumps (no masks), the ALU ops
// through the same kernels (tested on their own in ops_test.go) on lane 0
// of scratch arrays. No derivatives or textures: they need the quad.
func refRun(p *Program, in []Vec, lane int, limit int) (out [][4]uint32, alive bool, err error) {
	flow, err := p.Flow()
	if err != nil {
		return nil, false, err
	}
	temps := make([][4]uint32, p.Temps)
	out = make([][4]uint32, p.Outputs)
	// at is the register a relative operand names in this lane, and
	// whether it is inside its array.
	at := func(o *Operand) (uint32, bool) {
		e := o.Elem + temps[o.RelReg][o.RelComp]
		return e, e-o.Index < o.Len
	}
	reg := func(f File, i uint32) *[4]uint32 {
		switch f {
		case FileTemp:
			return &temps[i]
		case FileOutput:
			return &out[i]
		}
		return nil
	}
	// dstReg is the destination's register, nil for a relative one
	// outside its array (the write is dropped).
	dstReg := func(o *Operand) *[4]uint32 {
		if !o.Rel {
			return reg(o.File, o.Index)
		}
		if e, ok := at(o); ok {
			return reg(o.File, e)
		}
		return nil
	}
	src := func(o *Operand, intOp bool) [4]uint32 {
		var v [4]uint32
		idx := o.Index
		ok := true
		if o.Rel && o.File != FileCB {
			idx, ok = at(o)
		}
		switch {
		case !ok:
		case o.File == FileTemp:
			v = temps[idx]
		case o.File == FileInput:
			for c := range 4 {
				v[c] = in[idx][c][lane]
			}
		case o.File == FileICB:
			v = p.ICB[idx]
		case o.File == FileImm:
			v = o.Imm
		case o.File == FileCB:
			// refRun is used without constants: zero.
		}
		var r [4]uint32
		for c := range 4 {
			x := v[o.Swizzle[c]]
			if intOp {
				if o.Abs && int32(x) < 0 {
					x = -x
				}
				if o.Neg {
					x = -x
				}
			} else {
				if o.Abs {
					x &^= 1 << 31
				}
				if o.Neg {
					x ^= 1 << 31
				}
			}
			r[c] = x
		}
		return r
	}
	steps := 0
	var calls []int // return addresses
	for pc := 0; pc < len(p.Code); {
		if steps++; steps > limit {
			return out, true, errors.New("step limit")
		}
		ins := &p.Code[pc]
		cond := func() bool {
			v := src(&ins.Src[0], false)[0]
			return (v != 0) == ins.NZ
		}
		next := pc + 1
		switch ins.Op {
		case OpNop, OpEndIf, OpLoop:
		case OpIf:
			if !cond() {
				next = int(flow.Jump[pc]) + 1
			}
		case OpElse:
			next = int(flow.Jump[pc]) + 1
		case OpEndLoop:
			next = int(flow.Jump[pc]) + 1
		case OpBreak, OpBreakc:
			if ins.Op == OpBreak || cond() {
				next = int(flow.Jump[flow.Loop[pc]]) + 1
			}
		case OpContinue, OpContinuec:
			if ins.Op == OpContinue || cond() {
				next = int(flow.Loop[pc]) + 1
			}
		case OpRet, OpRetc, OpLabel:
			if ins.Op == OpLabel && len(calls) == 0 {
				return out, true, nil // the main program ends at the first label
			}
			if ins.Op != OpRetc || cond() {
				if len(calls) == 0 {
					return out, true, nil
				}
				next, calls = calls[len(calls)-1], calls[:len(calls)-1]
			}
		case OpCall, OpCallc:
			if ins.Op == OpCall || cond() {
				calls = append(calls, pc+1)
				next = int(flow.Jump[pc]) + 1
			}
		case OpBfi:
			var s [4][4]uint32
			for k := range s {
				s[k] = src(&ins.Src[k], true)
			}
			if d := dstReg(&ins.Dst); d != nil {
				for c := range 4 {
					if ins.Dst.Mask>>c&1 != 0 {
						d[c] = refBfi(s[0][c], s[1][c], s[2][c], s[3][c])
					}
				}
			}
		case OpDiscard:
			if cond() {
				return out, false, nil
			}
		case OpDp2, OpDp3, OpDp4:
			a, b := src(&ins.Src[0], false), src(&ins.Src[1], false)
			n := 2 + int(ins.Op-OpDp2)
			s := bitsf(a[0]) * bitsf(b[0])
			for k := 1; k < n; k++ {
				prod := bitsf(a[k]) * bitsf(b[k])
				s += prod
			}
			r := refFinish(ins, fbits(s))
			if d := dstReg(&ins.Dst); d != nil {
				for c := range 4 {
					if ins.Dst.Mask>>c&1 != 0 {
						d[c] = r
					}
				}
			}
		default:
			intOp := ins.Op.Kind() == KindInt
			var a, b, c [4]uint32
			a = src(&ins.Src[0], intOp)
			if len(ins.Src) > 1 {
				b = src(&ins.Src[1], intOp)
			}
			if len(ins.Src) > 2 {
				c = src(&ins.Src[2], intOp)
			}
			var res [4]uint32
			for k := range 4 {
				var ra, aa, ba, ca [Lanes]uint32
				aa[0], ba[0], ca[0] = a[k], b[k], c[k]
				if len(ins.Src) == 1 {
					ba[0], ca[0] = a[k], a[k]
				}
				kernels[ins.Op](&ra, &aa, &ba, &ca)
				res[k] = refFinish(ins, ra[0])
			}
			if d := dstReg(&ins.Dst); d != nil {
				for k := range 4 {
					if ins.Dst.Mask>>k&1 != 0 {
						d[k] = res[k]
					}
				}
			}
		}
		pc = next
	}
	return out, true, nil
}

// refFinish saturates or canonicalises one result, as commit does.
func refFinish(ins *Inst, v uint32) uint32 {
	switch {
	case ins.Sat:
		f := bitsf(v)
		if !(f > 0) {
			return 0
		}
		if f > 1 {
			return fbits(1)
		}
		return v
	case canonical[ins.Op] && v&0x7FFFFFFF > 0x7F800000:
		return canonNaN
	}
	return v
}
