package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// A hull or domain shader's control points indexed by register as well as
// by point: fxc writes v[r0.x + 0][r0.y + 0] for ip[i][j] of an array in
// the point's structure, after dcl_indexrange v[N][0] COUNT. The
// translator lays every point's registers out one after the other (point
// n's register r at n*stride + r), so the whole patch is already one
// array: the range needs no registers of its own, and the operand is the
// patch indexed by point*stride + register, a read outside it 0.

// controlPointRange takes a dcl_indexrange of a control-point array
// (v[N][r] in a hull or domain shader, vicp, vocp) and reports whether it
// was one.
func (t *translator) controlPointRange(o *dxbc.Operand, count uint32) (bool, error) {
	tess := t.out.Stage == shaderisa.StageHull || t.out.Stage == shaderisa.StageDomain
	cp := o.Type == dxbc.RegInputControlPoint || o.Type == dxbc.RegOutputControlPoint || o.Type == dxbc.RegInput && tess
	if !tess || !cp || len(o.Indices) != 2 {
		return false, nil
	}
	start, err := t.index(o, 1)
	if err != nil {
		return true, err
	}
	if count == 0 || uint64(start)+uint64(count) > shaderisa.MaxInputs {
		return true, t.fail("dcl_indexrange %s[][%d] %d: past the GPU's %d registers", o.Type, start, count, shaderisa.MaxInputs)
	}
	return true, nil
}

// controlPointRel maps v[n][r# + k], vicp and vocp alike, n a constant or
// a register.
func (t *translator) controlPointRel(o *dxbc.Operand, hull bool, swz [4]uint8) (shaderisa.Operand, error) {
	ts := &t.ts
	points, stride, base := ts.inCP, ts.inStride, uint32(0)
	if o.Type == dxbc.RegOutputControlPoint {
		if !hull || ts.phase < phaseFork {
			return shaderisa.Operand{}, t.fail("vocp outside a hull shader's fork or join phase")
		}
		points, stride, base = ts.outCP, ts.outStride, ts.inCP*ts.inStride
	}
	pi, ri := o.Indices[0], o.Indices[1]
	n, k := uint32(min(pi.Imm, 1<<20)), uint32(min(ri.Imm, 1<<20))
	if k >= stride || pi.Rel == nil && n >= points {
		return shaderisa.Operand{}, t.fail("%s[%d][%d + ...]: past the patch's %d points of %d registers", o.Type, n, k, points, stride)
	}
	rr, rc, err := t.relReg(ri)
	if err != nil {
		return shaderisa.Operand{}, err
	}
	reg := shaderisa.R(rr)
	reg.Swizzle = [4]uint8{rc, rc, rc, rc}
	tmp := t.newScratch()
	if pi.Rel == nil {
		t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: shaderisa.R(tmp).WithMask("x"), Src: []shaderisa.Operand{reg, shaderisa.L(0, 0, 0, 0)}})
	} else {
		pr, pc, err := t.relReg(pi)
		if err != nil {
			return shaderisa.Operand{}, err
		}
		point := shaderisa.R(pr)
		point.Swizzle = [4]uint8{pc, pc, pc, pc}
		// tmp = point * stride + register
		t.emit(shaderisa.Inst{Op: shaderisa.OpIMul, Dst: shaderisa.R(tmp).WithMask("x"),
			Src: []shaderisa.Operand{point, shaderisa.L(stride, stride, stride, stride)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: shaderisa.R(tmp).WithMask("x"),
			Src: []shaderisa.Operand{shaderisa.R(tmp).WithSwizzle("xxxx"), reg}})
	}
	r := shaderisa.V(base).WithRel(n*stride+k, points*stride, tmp, 0)
	r.Swizzle = swz
	return r, nil
}
