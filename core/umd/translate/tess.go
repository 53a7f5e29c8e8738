package translate

import (
	"fmt"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Hull and domain shaders ("Tessellation Stages", hs_5_0 and ds_5_0).
//
// A hull shader's phases become one ISA program that the GPU runs twice a
// patch (shaderisa.HSDecl): in phase 0, a lane per output control point,
// the control-point phase (or, without one, a copy of input control point
// SV_OutputControlPointID); in phase 1, one lane, every fork phase then
// every join phase, each instance of a phase written out once with its
// vForkInstanceID (vJoinInstanceID) as an immediate. The input control
// points v[n][r] and vicp[n][r] are flattened as a geometry shader's input
// array is (control point n's register r at v(n*stride + r)), the output
// control points vocp[n][r] after them, then SV_PrimitiveID,
// SV_OutputControlPointID and the phase in one register's x, y and z. The
// control-point phase's o# are a control point's registers, the fork and
// join phases' o# the patch constants; dcl_output_siv names the tess
// factors (finalQuadUeq0EdgeTessFactor, ...), whose registers dcl_hs
// carries to the tessellator.
//
// A domain shader's inputs are the control points vicp[n][r] flattened the
// same way, the patch constants vpc[r] after them, then SV_DomainLocation
// (vDomain) and SV_PrimitiveID (shaderisa.DSDecl).

// tessOps are the instructions hull or domain shaders take that the other
// stages refuse (refusals).
var tessOps = map[dxbc.Opcode]bool{
	dxbc.OpHSDecls: true, dxbc.OpHSControlPointPhase: true, dxbc.OpHSForkPhase: true, dxbc.OpHSJoinPhase: true,
	dxbc.OpDclInputControlPointCount: true, dxbc.OpDclOutputControlPointCount: true, dxbc.OpDclTessDomain: true,
	dxbc.OpDclTessPartitioning: true, dxbc.OpDclTessOutputPrimitive: true, dxbc.OpDclHSMaxTessFactor: true,
	dxbc.OpDclHSForkPhaseInstanceCount: true, dxbc.OpDclHSJoinPhaseInstanceCount: true,
}

// maxPhaseInstances bounds a fork or join phase's instances (each is
// written out).
const maxPhaseInstances = 32

// HS phases.
const (
	phaseDecls = iota
	phaseCP
	phaseFork
	phaseJoin
)

// tsState is a hull or domain shader's declarations as the translator
// reads them.
type tsState struct {
	inCP, outCP          uint32
	domain, part, output uint32
	inStride             uint32 // one past the highest input control-point register (v[][r], vicp[][r])
	outStride            uint32 // one past the highest output control-point register
	sigStride            uint32 // one past the highest register of the input signature (passthrough.go)
	pcRegs               uint32 // one past the highest patch constant
	edge, inside         [4]uint8
	prim, cpID, domainIn bool
	phase                int
	instance             uint32 // the fork or join phase instance being written
	declAt               int
	// With a join phase, phase 1 writes the patch constants to temps
	// pcBase.. (a join phase reads them back as vpc#) and copies them to
	// the outputs at its end.
	pcTemps bool
	pcBase  uint32
}

// tessStage reports a hull or domain shader.
func (t *translator) tessStage() bool {
	return t.out.Stage == shaderisa.StageHull || t.out.Stage == shaderisa.StageDomain
}

// tessDecl records the declarations common to both stages: control-point
// counts and the tessellator's settings.
func (t *translator) tessDecl(in *dxbc.Instruction) error {
	ts := &t.ts
	switch in.Op {
	case dxbc.OpHSDecls:
		ts.declAt = t.cur
	case dxbc.OpDclInputControlPointCount:
		n := in.Controls & 0x3f
		if n == 0 || n > shaderisa.MaxControlPoints {
			return t.fail("%s %d: 1..%d control points", in.Op, n, shaderisa.MaxControlPoints)
		}
		ts.inCP = n
		if t.out.Stage == shaderisa.StageDomain {
			ts.declAt = t.cur
		}
	case dxbc.OpDclOutputControlPointCount:
		n := in.Controls & 0x3f
		if n == 0 || n > shaderisa.MaxControlPoints {
			return t.fail("%s %d: 1..%d control points (a hull shader outputs at least one)", in.Op, n, shaderisa.MaxControlPoints)
		}
		ts.outCP = n
	case dxbc.OpDclTessDomain:
		ts.domain = in.Controls & 3
		if ts.domain == 0 {
			return t.fail("dcl_tessellator_domain domain_undefined")
		}
	case dxbc.OpDclTessPartitioning:
		ts.part = in.Controls & 7
		if ts.part < shaderisa.TessPartInteger || ts.part > shaderisa.TessPartFractionalEven {
			return t.fail("dcl_tessellator_partitioning %d", ts.part)
		}
	case dxbc.OpDclTessOutputPrimitive:
		ts.output = in.Controls & 7
		if ts.output < shaderisa.TessOutPoint || ts.output > shaderisa.TessOutTriangleCCW {
			return t.fail("dcl_tessellator_output_primitive %d", ts.output)
		}
	case dxbc.OpDclHSMaxTessFactor:
		// A bound the shader promises; the tessellator clamps to 64 anyway.
	default:
		return t.fail("%s in a %s shader", in.Op, t.out.Stage)
	}
	return nil
}

// tessInput records a hull or domain shader's dcl_input.
func (t *translator) tessInput(in *dxbc.Instruction, o *dxbc.Operand) error {
	ts := &t.ts
	hull := t.out.Stage == shaderisa.StageHull
	switch o.Type {
	case dxbc.RegInputPrimitiveID:
		ts.prim = true
		return nil
	case dxbc.RegOutputControlPointID, dxbc.RegInputForkInstanceID, dxbc.RegInputJoinInstanceID:
		if !hull {
			return t.fail("%s in a domain shader", o.Type)
		}
		ts.cpID = ts.cpID || o.Type == dxbc.RegOutputControlPointID
		return nil
	case dxbc.RegInputDomainPoint:
		if hull {
			return t.fail("vDomain in a hull shader")
		}
		ts.domainIn = true
		return nil
	case dxbc.RegInputPatchConstant:
		if hull && ts.phase != phaseJoin {
			return t.fail("vpc in a hull shader's %s: only a join phase reads the patch constants back", phaseName(ts.phase))
		}
		reg, err := t.index(o, 0)
		if err != nil {
			return err
		}
		if reg >= shaderisa.MaxInputs {
			return t.fail("vpc%d: past the GPU's %d inputs", reg, shaderisa.MaxInputs)
		}
		ts.pcRegs = max(ts.pcRegs, reg+1)
		return nil
	case dxbc.RegInput, dxbc.RegInputControlPoint, dxbc.RegOutputControlPoint:
		if o.Type == dxbc.RegInput && !(hull && ts.phase == phaseCP) || o.Type == dxbc.RegOutputControlPoint && !hull {
			return t.fail("%s input in a %s shader's %s", o.Type, t.out.Stage, phaseName(ts.phase))
		}
	default:
		return t.fail("input register type %s in a %s shader", o.Type, t.out.Stage)
	}
	if len(o.Indices) != 2 {
		return t.fail("a control point input is %s[points][register]", o.Type)
	}
	reg, err := t.index(o, 1)
	if err != nil {
		return err
	}
	if reg >= shaderisa.MaxInputs {
		return t.fail("%s[][%d]: past the GPU's %d inputs", o.Type, reg, shaderisa.MaxInputs)
	}
	if len(in.Extra) == 1 && !passedOn(dxbc.SystemValue(in.Extra[0])) {
		return t.fail("system value %s as a control point's input: the GPU does not provide it", dxbc.SystemValue(in.Extra[0]))
	}
	if o.Type == dxbc.RegOutputControlPoint {
		ts.outStride = max(ts.outStride, reg+1)
		return nil
	}
	ts.inStride = max(ts.inStride, reg+1)
	if !t.ins[reg] {
		t.ins[reg] = true
		mask := uint8(0xF)
		if o.Components == 4 && o.Mode == dxbc.SelectMask {
			mask = o.WriteMask
		}
		t.out.Inputs = append(t.out.Inputs, Input{Reg: reg, ISA: reg, Mask: mask})
	}
	return nil
}

func phaseName(p int) string {
	return [...]string{"declarations", "control-point phase", "fork phase", "join phase"}[p]
}

// tessFactorNames are the D3D10_SB_NAME values of the tess factors: the
// quad's four edges and two inside factors, the triangle's three edges
// and inside factor, the isoline's detail and density.
const (
	nameQuadEdge0   = 11
	nameQuadInsideU = 15
	nameTriEdge0    = 17
	nameTriInside   = 20
	nameLineDetail  = 21
	nameLineDensity = 22
)

// tessOutput records a fork or join phase's dcl_output: a patch constant,
// and where a tess factor is.
func (t *translator) tessOutput(in *dxbc.Instruction, o *dxbc.Operand) error {
	ts := &t.ts
	if o.Type != dxbc.RegOutput {
		return t.fail("output register type %s in a hull shader's %s", o.Type, phaseName(ts.phase))
	}
	reg, err := t.index(o, 0)
	if err != nil {
		return err
	}
	if reg >= shaderisa.MaxOutputs {
		return t.fail("o%d: the GPU has %d outputs", reg, shaderisa.MaxOutputs)
	}
	t.outs[reg] = true
	t.outputs = max(t.outputs, reg+1)
	ts.pcRegs = max(ts.pcRegs, reg+1)
	if len(in.Extra) != 1 {
		return nil
	}
	name := in.Extra[0]
	comp := uint8(0)
	if o.Components == 4 && o.Mode == dxbc.SelectMask {
		for c := range 4 {
			if o.WriteMask>>c&1 != 0 {
				comp = uint8(c)
				break
			}
		}
	}
	loc := uint8(reg)<<2 | comp
	switch {
	case name >= nameQuadEdge0 && name < nameQuadInsideU:
		ts.edge[name-nameQuadEdge0] = loc
	case name == nameQuadInsideU || name == nameQuadInsideU+1:
		ts.inside[name-nameQuadInsideU] = loc
	case name >= nameTriEdge0 && name < nameTriInside:
		ts.edge[name-nameTriEdge0] = loc
	case name == nameTriInside:
		ts.inside[0] = loc
	case name == nameLineDensity:
		ts.edge[0] = loc // the tessellator's first isoline factor is the density
	case name == nameLineDetail:
		ts.edge[1] = loc
	default:
		return t.fail("system value %d as a patch constant: the GPU takes the tess factors only", name)
	}
	return nil
}

// tessSrc maps a hull or domain shader's input operand; the swizzle of a
// one-component register (vPrim, vOutputControlPointID) is its component.
func (t *translator) tessSrc(o *dxbc.Operand, swz [4]uint8) (shaderisa.Operand, error) {
	ts := &t.ts
	hull := t.out.Stage == shaderisa.StageHull
	one := func(reg uint32, c uint8) shaderisa.Operand {
		r := shaderisa.V(reg)
		r.Swizzle = [4]uint8{c, c, c, c}
		return r
	}
	idReg := ts.inCP*ts.inStride + ts.outCP*ts.outStride // the hull program's identifiers
	loc := ts.inCP*ts.inStride + ts.pcRegs               // the domain program's vDomain
	switch o.Type {
	case dxbc.RegInputPrimitiveID:
		if !ts.prim {
			return shaderisa.Operand{}, t.fail("vPrim is not declared")
		}
		if hull {
			return one(idReg, 0), nil
		}
		return one(loc+1, 0), nil
	case dxbc.RegOutputControlPointID:
		if !hull || ts.phase != phaseCP {
			return shaderisa.Operand{}, t.fail("vOutputControlPointID outside a hull shader's control-point phase")
		}
		return one(idReg, 1), nil
	case dxbc.RegInputForkInstanceID, dxbc.RegInputJoinInstanceID:
		if (o.Type == dxbc.RegInputForkInstanceID) != (ts.phase == phaseFork) || !hull {
			return shaderisa.Operand{}, t.fail("%s outside its phase", o.Type)
		}
		i := ts.instance
		return shaderisa.L(i, i, i, i), nil
	case dxbc.RegInputDomainPoint:
		if !ts.domainIn {
			return shaderisa.Operand{}, t.fail("vDomain is not declared")
		}
		r := shaderisa.V(loc)
		r.Swizzle = swz
		return r, nil
	case dxbc.RegInputPatchConstant:
		reg, err := t.index(o, 0)
		if err != nil {
			return shaderisa.Operand{}, err
		}
		if reg >= ts.pcRegs {
			return shaderisa.Operand{}, t.fail("vpc%d is not declared", reg)
		}
		r := shaderisa.V(ts.inCP*ts.inStride + reg)
		if hull {
			if !ts.pcTemps || ts.phase != phaseJoin {
				return shaderisa.Operand{}, t.fail("vpc%d outside a join phase", reg)
			}
			r = shaderisa.R(ts.pcBase + reg) // what the fork phases wrote
		}
		r.Swizzle = swz
		return r, nil
	}
	// A control point: v[n][r] or vicp[n][r] (the input patch), vocp[n][r]
	// (the output patch); n may be relative.
	if len(o.Indices) != 2 {
		return shaderisa.Operand{}, t.fail("%s is %s[point][register]", o.Type, o.Type)
	}
	ri := o.Indices[1]
	var reg uint32
	var err error
	if ri.Rel != nil {
		reg = uint32(min(ri.Imm, 1<<20)) // v[n][r#.c + reg]: over a dcl_indexrange of the point's registers
	} else if reg, err = t.index(o, 1); err != nil {
		return shaderisa.Operand{}, err
	}
	points, stride, base := ts.inCP, ts.inStride, uint32(0)
	if o.Type == dxbc.RegOutputControlPoint {
		if !hull || ts.phase < phaseFork {
			return shaderisa.Operand{}, t.fail("vocp outside a hull shader's fork or join phase")
		}
		points, stride, base = ts.outCP, ts.outStride, ts.inCP*ts.inStride
	}
	if reg >= stride {
		return shaderisa.Operand{}, t.fail("%s[][%d] is not declared", o.Type, reg)
	}
	ix := o.Indices[0]
	n := uint32(min(ix.Imm, 1<<20))
	var r shaderisa.Operand
	switch {
	case ix.Rel == nil && ri.Rel == nil:
		if n >= points {
			return r, t.fail("%s[%d][%d]: the patch has %d control points", o.Type, n, reg, points)
		}
		r = shaderisa.V(base + n*stride + reg)
	default:
		// The flattened register: point*stride + register, either or
		// both from a register (a read past the patch gives 0).
		tmp := t.newScratch()
		if ix.Rel != nil {
			rr, comp, err := t.relReg(ix)
			if err != nil {
				return r, err
			}
			idx := shaderisa.R(rr)
			idx.Swizzle = [4]uint8{comp, comp, comp, comp}
			t.emit(shaderisa.Inst{Op: shaderisa.OpIMul, Dst: shaderisa.R(tmp).WithMask("x"),
				Src: []shaderisa.Operand{idx, shaderisa.L(stride, stride, stride, stride)}})
		} else {
			t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(tmp).WithMask("x"), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
		}
		if ri.Rel != nil {
			rr, comp, err := t.relReg(ri)
			if err != nil {
				return r, err
			}
			idx := shaderisa.R(rr)
			idx.Swizzle = [4]uint8{comp, comp, comp, comp}
			t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: shaderisa.R(tmp).WithMask("x"),
				Src: []shaderisa.Operand{shaderisa.R(tmp).WithSwizzle("xxxx"), idx}})
		}
		r = shaderisa.V(base).WithRel(n*stride+reg, points*stride, tmp, 0)
	}
	r.Swizzle = swz
	return r, nil
}

// hull translates a hull shader: its declarations first (every phase's),
// then the two phases' code (see above).
func (t *translator) hull() error {
	p := t.prog
	ts := &t.ts
	type phase struct {
		kind      int
		start     int // the phase's first instruction after its marker
		end       int
		instances uint32
	}
	var phases []phase
	for i := range p.Instructions {
		in := &p.Instructions[i]
		t.cur = i
		switch in.Op {
		case dxbc.OpHSDecls:
			if len(phases) != 0 {
				return t.fail("hs_decls after a phase")
			}
			ts.declAt = i
			continue
		case dxbc.OpHSControlPointPhase, dxbc.OpHSForkPhase, dxbc.OpHSJoinPhase:
			k := map[dxbc.Opcode]int{dxbc.OpHSControlPointPhase: phaseCP, dxbc.OpHSForkPhase: phaseFork, dxbc.OpHSJoinPhase: phaseJoin}[in.Op]
			if len(phases) > 0 {
				phases[len(phases)-1].end = i
				if last := phases[len(phases)-1].kind; k < last || k == phaseCP && last == phaseCP {
					return t.fail("%s after a %s", in.Op, phaseName(last))
				}
			}
			phases = append(phases, phase{kind: k, start: i + 1, end: len(p.Instructions), instances: 1})
			ts.phase = k
			continue
		}
		if !isDecl(in.Op) {
			if len(phases) == 0 {
				return t.fail("an instruction before the first phase")
			}
			continue
		}
		if in.Op == dxbc.OpDclHSForkPhaseInstanceCount || in.Op == dxbc.OpDclHSJoinPhaseInstanceCount {
			if len(phases) == 0 || (in.Op == dxbc.OpDclHSForkPhaseInstanceCount) != (phases[len(phases)-1].kind == phaseFork) ||
				in.Op == dxbc.OpDclHSJoinPhaseInstanceCount && phases[len(phases)-1].kind != phaseJoin {
				return t.fail("%s outside its phase", in.Op)
			}
			ph := &phases[len(phases)-1]
			if len(in.Extra) != 1 || in.Extra[0] == 0 || in.Extra[0] > maxPhaseInstances {
				return t.fail("%s %v: 1..%d instances", in.Op, in.Extra, maxPhaseInstances)
			}
			ph.instances = in.Extra[0]
			continue
		}
		if tessOps[in.Op] {
			if err := t.tessDecl(in); err != nil {
				return err
			}
			continue
		}
		switch in.Op {
		case dxbc.OpDclTemps:
			if len(in.Extra) != 1 || in.Extra[0] > shaderisa.MaxTemps {
				return t.fail("the GPU has %d temporaries", shaderisa.MaxTemps)
			}
			t.temps = max(t.temps, in.Extra[0]) // the phases' temps overlap: they run one after the other
			continue
		case dxbc.OpDclIndexableTemp:
			// Each phase declares its own x# arrays; the phases run one
			// after the other, so one array of a number serves them all,
			// as long as the longest declaration.
			if len(in.Extra) == 3 {
				if x := t.xs[in.Extra[0]]; x != nil {
					x.count = max(x.count, min(in.Extra[1], shaderisa.MaxTemps))
					continue
				}
			}
		case dxbc.OpDclInput, dxbc.OpDclInputSGV, dxbc.OpDclInputSIV:
			if len(in.Operands) == 1 {
				if err := t.tessInput(in, &in.Operands[0]); err != nil {
					return err
				}
				continue
			}
		case dxbc.OpDclOutput, dxbc.OpDclOutputSIV, dxbc.OpDclOutputSGV:
			if len(in.Operands) == 1 && ts.phase >= phaseFork {
				if err := t.tessOutput(in, &in.Operands[0]); err != nil {
					return err
				}
				continue
			}
			if len(in.Operands) == 1 && ts.phase == phaseCP {
				o := &in.Operands[0]
				if r, err := t.index(o, 0); err == nil {
					ts.outStride = max(ts.outStride, r+1)
				}
			}
		}
		if err := t.decl(in); err != nil {
			return err
		}
	}
	if ts.inCP == 0 || ts.outCP == 0 || ts.domain == 0 || ts.part == 0 || ts.output == 0 {
		return &Error{Index: -1, Reason: "a hull shader declares its input and output control-point counts, domain, partitioning and output primitive"}
	}
	hasCP := len(phases) > 0 && phases[0].kind == phaseCP
	for _, ph := range phases {
		if ph.kind == phaseJoin && !ts.pcTemps {
			// The patch constants live in temps through phase 1.
			ts.pcTemps, ts.pcBase = true, t.temps
			t.temps += max(ts.pcRegs, 1)
			if t.temps > shaderisa.MaxTemps {
				return &Error{Index: -1, Reason: fmt.Sprintf("%d temporaries with the patch constants a join phase reads, the GPU has %d", t.temps, shaderisa.MaxTemps)}
			}
		}
	}
	if !hasCP {
		ts.inStride = max(ts.inStride, ts.sigStride)  // every register of the points, read or not
		ts.outStride = max(ts.outStride, ts.inStride) // the pass-through copies the input points
	}
	ts.inStride, ts.outStride = max(ts.inStride, 1), max(ts.outStride, 1)
	t.cur = -1
	if err := t.layout(); err != nil {
		return err
	}

	// Phase 0: the control points.
	idReg := ts.inCP*ts.inStride + ts.outCP*ts.outStride
	t.cur = ts.declAt
	t.next = 0
	cond := t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: shaderisa.R(cond).WithMask("x"),
		Src: []shaderisa.Operand{shaderisa.V(idReg).WithSwizzle("zzzz"), shaderisa.L(0, 0, 0, 0)}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpIf, NZ: true, Src: []shaderisa.Operand{shaderisa.R(cond).WithSwizzle("xxxx")}})
	if hasCP {
		ts.phase = phaseCP
		for i := phases[0].start; i < phases[0].end; i++ {
			in := &p.Instructions[i]
			if isDecl(in.Op) {
				continue
			}
			t.cur, t.next = i, 0
			if err := t.instruction(in); err != nil {
				return err
			}
		}
		if len(t.blocks) != 0 {
			return &Error{Index: -1, Reason: "unbalanced if/loop/switch blocks in the control-point phase"}
		}
		phases = phases[1:]
	} else {
		// Output control point i is input control point i, unchanged.
		t.next = 0
		tmp := t.newScratch()
		t.emit(shaderisa.Inst{Op: shaderisa.OpIMul, Dst: shaderisa.R(tmp).WithMask("x"),
			Src: []shaderisa.Operand{shaderisa.V(idReg).WithSwizzle("yyyy"), shaderisa.L(ts.inStride, ts.inStride, ts.inStride, ts.inStride)}})
		if ts.outCP > ts.inCP {
			return &Error{Index: -1, Reason: fmt.Sprintf("a hull shader without a control-point phase outputs its %d input control points, not %d", ts.inCP, ts.outCP)}
		}
		for r := range ts.inStride {
			t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.O(r),
				Src: []shaderisa.Operand{shaderisa.V(0).WithRel(r, ts.inCP*ts.inStride, tmp, 0)}})
		}
		t.outputs = max(t.outputs, ts.inStride)
	}
	t.emit(shaderisa.Inst{Op: shaderisa.OpRet})
	t.emit(shaderisa.Inst{Op: shaderisa.OpEndIf})

	// Phase 1: the patch constants, phase after phase, instance after
	// instance. A phase with a ret inside a block runs each instance as
	// a subroutine (call; its ret returns to the next instance), placed
	// after the program's end.
	type sub struct {
		ph    phase
		inst  uint32
		label uint32
	}
	var subs []sub
	for _, ph := range phases {
		ts.phase = ph.kind
		blockRet := t.blockRet(ph.start, ph.end)
		for inst := range ph.instances {
			ts.instance = inst
			if blockRet {
				lbl := uint32(shaderisa.MaxLabels - 1 - len(subs))
				if len(subs) >= shaderisa.MaxLabels/2 {
					return t.fail("more than %d fork and join phase instances with a ret inside a block", shaderisa.MaxLabels/2)
				}
				subs = append(subs, sub{ph, inst, lbl})
				t.cur = ph.start - 1
				t.emit(shaderisa.Inst{Op: shaderisa.OpCall, Label: lbl})
				continue
			}
			depth := len(t.blocks)
			for i := ph.start; i < ph.end; i++ {
				in := &p.Instructions[i]
				if isDecl(in.Op) {
					continue
				}
				t.cur, t.next = i, 0
				if in.Op == dxbc.OpRet && len(t.blocks) == depth {
					break // the phase's end (what follows an unconditional ret never runs)
				}
				if err := t.instruction(in); err != nil {
					return err
				}
			}
			if len(t.blocks) != depth {
				return &Error{Index: -1, Reason: "unbalanced if/loop/switch blocks in a " + phaseName(ph.kind)}
			}
		}
	}
	t.cur = ts.declAt
	if ts.pcTemps {
		for k := range ts.pcRegs {
			t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.O(k), Src: []shaderisa.Operand{shaderisa.R(ts.pcBase + k)}})
		}
	}
	t.emit(shaderisa.Inst{Op: shaderisa.OpRet})
	for _, sb := range subs {
		ts.phase, ts.instance = sb.ph.kind, sb.inst
		t.cur = sb.ph.start - 1
		t.emit(shaderisa.Inst{Op: shaderisa.OpLabel, Label: sb.label})
		for i := sb.ph.start; i < sb.ph.end; i++ {
			in := &p.Instructions[i]
			if isDecl(in.Op) {
				continue
			}
			t.cur, t.next = i, 0
			if err := t.instruction(in); err != nil {
				return err
			}
			if in.Op == dxbc.OpRet && len(t.blocks) == 0 {
				break // the phase's end
			}
		}
		if len(t.blocks) != 0 {
			return &Error{Index: -1, Reason: "unbalanced if/loop/switch blocks in a " + phaseName(sb.ph.kind)}
		}
		t.emit(shaderisa.Inst{Op: shaderisa.OpRet})
	}
	t.cur = -1
	return nil
}

// controlPointRange checks a hull or domain shader's dcl_indexrange over
// control points' registers (v[3][0] 2: registers 0 and 1 of every
// point), which a relative register index reads (tessSrc: the flattened
// patch, so nothing is recorded).
func (t *translator) controlPointRange(o *dxbc.Operand, count uint32) error {
	if o.Indices[1].Rel != nil || o.Indices[0].Rel != nil {
		return t.fail("dcl_indexrange of %s with a relative index", o.Type)
	}
	if r := o.Indices[1].Imm; count == 0 || r+uint64(count) > shaderisa.MaxInputs {
		return t.fail("dcl_indexrange %s[][%d] %d: past the GPU's %d registers", o.Type, r, count, shaderisa.MaxInputs)
	}
	return nil
}

// blockRet reports whether instructions [start, end) of a fork or join
// phase return from inside a block (or with retc): the phase then runs as
// a subroutine.
func (t *translator) blockRet(start, end int) bool {
	depth := 0
	for i := start; i < end; i++ {
		switch t.prog.Instructions[i].Op {
		case dxbc.OpIf, dxbc.OpLoop, dxbc.OpSwitch:
			depth++
		case dxbc.OpEndif, dxbc.OpEndloop, dxbc.OpEndswitch:
			depth--
		case dxbc.OpRetc:
			return true
		case dxbc.OpRet:
			if depth > 0 {
				return true
			}
		}
	}
	return false
}

// pcTempDst is a fork or join phase's o# (or o[r#.c + n] over its
// dcl_indexrange) when the patch constants live in temps.
func (t *translator) pcTempDst(o *dxbc.Operand, mask uint8) (shaderisa.Operand, error) {
	ts := &t.ts
	if len(o.Indices) == 1 && o.Indices[0].Rel != nil {
		ix := o.Indices[0]
		n := uint32(min(ix.Imm, 1<<20))
		for _, rg := range t.ranges {
			if rg.file == dxbc.RegOutput && n-rg.start < rg.count {
				reg, comp, err := t.relReg(ix)
				if err != nil {
					return shaderisa.Operand{}, err
				}
				r := shaderisa.R(ts.pcBase+rg.start).WithRel(ts.pcBase+n, rg.count, reg, comp)
				r.Mask = mask
				return r, nil
			}
		}
		return shaderisa.Operand{}, t.fail("o[%s + %d]: no dcl_indexrange holds register %d", ix.Rel.Type, n, n)
	}
	idx, err := t.index(o, 0)
	if err != nil {
		return shaderisa.Operand{}, err
	}
	if !t.outs[idx] || idx >= ts.pcRegs {
		return shaderisa.Operand{}, t.fail("o%d is not declared", idx)
	}
	r := shaderisa.R(ts.pcBase + idx)
	r.Mask = mask
	return r, nil
}

// finishTess checks a hull or domain shader's declarations, sizes its
// inputs and outputs and puts the ISA's dcl_hs or dcl_ds first.
func (t *translator) finishTess() error {
	ts := &t.ts
	var decl shaderisa.Inst
	if t.out.Stage == shaderisa.StageHull {
		e, i := shaderisa.TessFactors(ts.domain)
		d := shaderisa.HSDecl{InCP: ts.inCP, OutCP: ts.outCP, Domain: ts.domain, Part: ts.part, Output: ts.output,
			InStride: ts.inStride, OutStride: ts.outStride, PCRegs: max(ts.pcRegs, 1)}
		for k := range 4 {
			d.EdgeFactor[k], d.InsideFactor[k] = shaderisa.NoFactor, shaderisa.NoFactor
			if k < e {
				d.EdgeFactor[k] = ts.edge[k]
			}
			if k < i {
				d.InsideFactor[k] = ts.inside[k]
			}
		}
		names := [...][2]string{shaderisa.TessDomainTri: {"finalTri*EdgeTessFactor", "finalTriInsideTessFactor"},
			shaderisa.TessDomainQuad:    {"finalQuad*EdgeTessFactor", "finalQuad*InsideTessFactor"},
			shaderisa.TessDomainIsoline: {"finalLineDensityTessFactor and finalLineDetailTessFactor", ""}}
		for k := range e {
			if !ts.factorSet(ts.edge[k]) {
				return &Error{Index: -1, Reason: fmt.Sprintf("a hull shader of the %s domain declares its %s (edge %d is missing)", tessDomain(ts.domain), names[ts.domain][0], k)}
			}
		}
		for k := range i {
			if !ts.factorSet(ts.inside[k]) {
				return &Error{Index: -1, Reason: fmt.Sprintf("a hull shader of the %s domain declares its %s (inside %d is missing)", tessDomain(ts.domain), names[ts.domain][1], k)}
			}
		}
		if (ts.domain == shaderisa.TessDomainIsoline) != (ts.output == shaderisa.TessOutLine || ts.output == shaderisa.TessOutPoint && ts.domain == shaderisa.TessDomainIsoline) {
			return &Error{Index: -1, Reason: fmt.Sprintf("the %s domain does not output %s", tessDomain(ts.domain), tessOutput(ts.output))}
		}
		need := d.IDReg() + 1
		if need > shaderisa.MaxInputs {
			return &Error{Index: -1, Reason: fmt.Sprintf("%d input control points of %d registers and %d output control points of %d are past the GPU's %d hull inputs",
				ts.inCP, ts.inStride, ts.outCP, ts.outStride, shaderisa.MaxInputs)}
		}
		t.inputs = need
		t.outputs = max(t.outputs, d.OutStride, d.PCRegs)
		imm := d.Imm()
		decl = shaderisa.Inst{Op: shaderisa.OpDclHS, Src: []shaderisa.Operand{shaderisa.L(imm[0], imm[1], imm[2], imm[3])}}
		t.out.HS = d
	} else {
		if ts.inCP == 0 || ts.domain == 0 {
			return &Error{Index: -1, Reason: "a domain shader declares its control-point count and domain"}
		}
		d := shaderisa.DSDecl{CP: ts.inCP, Domain: ts.domain, Stride: max(ts.inStride, 1), PCRegs: ts.pcRegs}
		need := d.LocationReg() + 2
		if need > shaderisa.MaxInputs {
			return &Error{Index: -1, Reason: fmt.Sprintf("%d control points of %d registers and %d patch constants are past the GPU's %d domain inputs",
				ts.inCP, d.Stride, ts.pcRegs, shaderisa.MaxInputs)}
		}
		t.inputs = need
		imm := d.Imm()
		decl = shaderisa.Inst{Op: shaderisa.OpDclDS, Src: []shaderisa.Operand{shaderisa.L(imm[0], imm[1], imm[2], imm[3])}}
		t.out.DS = d
	}
	t.code = append([]shaderisa.Inst{decl}, t.code...)
	t.source = append([]int{max(ts.declAt, 0)}, t.source...)
	return nil
}

// factorSet: a tess factor's location was declared (they start as
// shaderisa.NoFactor).
func (ts *tsState) factorSet(loc uint8) bool { return loc != shaderisa.NoFactor }

func tessDomain(d uint32) string {
	return [...]string{"undefined", "isoline", "tri", "quad"}[d&3]
}

func tessOutput(o uint32) string {
	return [...]string{"undefined", "point", "line", "triangle_cw", "triangle_ccw", "5", "6", "7"}[o&7]
}
