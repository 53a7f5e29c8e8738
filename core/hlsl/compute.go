package hlsl

import (
	"fmt"
	"strings"

	"d3dsim/core/dxbc"
)

// Compute shaders (cs_5_0): the entry point runs once per thread of a
// Dispatch's thread groups, [numthreads(X, Y, Z)] giving a group's size
// (dcl_thread_group). Its inputs are the thread identifiers the hardware
// provides, not a signature: SV_DispatchThreadID (vThreadID),
// SV_GroupID (vThreadGroupID), SV_GroupThreadID (vThreadIDInGroup) and
// SV_GroupIndex (vThreadIDInGroupFlattened), each an input register of a
// type of its own (the "Compute Shader" pages of HLSL's semantics). In the
// IR they are inputs v0 to v3 in that order, which the encoder writes as
// those registers; the shader has no outputs: it writes unordered access
// views.

// The compute shader's thread identifiers, as SigElement.SysVal (never in
// a signature chunk: numbered past D3D_NAME's values).
const (
	SysDispatchThreadID SysVal = 240 + iota
	SysGroupID
	SysGroupThreadID
	SysGroupIndex
)

// computeInputs names the thread identifiers by semantic (upper case):
// the IR input register, its components and its DXBC register type.
var computeInputs = map[string]struct {
	reg, cols int
	typ       dxbc.RegisterType
}{
	"SV_DISPATCHTHREADID": {0, 3, dxbc.RegInputThreadID},
	"SV_GROUPID":          {1, 3, dxbc.RegInputThreadGroupID},
	"SV_GROUPTHREADID":    {2, 3, dxbc.RegInputThreadIDInGroup},
	"SV_GROUPINDEX":       {3, 1, dxbc.RegInputThreadIDInGroupFlat},
}

// computeRegType is the DXBC register type of the compute shader's IR
// input v<reg>.
func computeRegType(reg int) (dxbc.RegisterType, bool) {
	for _, c := range computeInputs {
		if c.reg == reg {
			return c.typ, true
		}
	}
	return 0, false
}

// computeInput is a compute shader's parameter of semantic sem: a thread
// identifier, an int or uint scalar or vector of at most its components.
func (g *gen) computeInput(p pos, what string, t *Type, sem string, input bool) (*value, []SigElement) {
	if !input {
		g.errorf(p, eNotImplemented, "'%s': a compute shader has no outputs (%s: it writes unordered access views)", g.fn.decl.name, what)
		return poison, nil
	}
	c, ok := computeInputs[strings.ToUpper(sem)]
	if !ok {
		g.errorf(p, eSyntax, "'%s': invalid compute shader input semantic '%s' (SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID or SV_GroupIndex)", g.fn.decl.name, sem)
		return poison, nil
	}
	if t.Kind != KScalar && t.Kind != KVector || t.Base != Int && t.Base != Uint || t.Cols > c.cols {
		g.errorf(p, eConvert, "'%s': %s of type '%s' cannot be %s (a uint%s)", g.fn.decl.name, what, t, sem, map[int]string{1: "", 3: "3"}[c.cols])
		return poison, nil
	}
	name, idx := parseSemantic(sem)
	el := SigElement{Semantic: name, Index: idx, Register: c.reg, Mask: uint8(1<<c.cols - 1), Type: CompUint32,
		SysVal: SysDispatchThreadID + SysVal(c.reg)}
	return &value{t: t, c: regComps(FileInput, c.reg, t.Cols), ro: true}, []SigElement{el}
}

// numThreads reads the entry point's [numthreads(X, Y, Z)]: three integer
// constants, X and Y 1 to 1024, Z 1 to 64, 1024 threads at most
// (D3D11_CS_THREAD_GROUP_MAX_*; cs_4_x: numThreadsLimits). As fxc for shader models below 6, the
// attributes are those of the function's first declaration (a prototype's,
// when it comes first); a later one's are dropped.
func (g *gen) numThreads(fn *funcDecl) [3]int {
	var at *attr
	var first *funcDecl
	for _, d := range g.funcs[fn.name] {
		if sameSignature(g, d, fn) && (first == nil || d.order < first.order) {
			first = d
		}
	}
	if first == nil {
		first = fn
	}
	for i := range first.attrs {
		if first.attrs[i].name == "numthreads" {
			at = &first.attrs[i]
		}
	}
	if at == nil {
		g.errorf(fn.pos, eSyntax, "'%s': compute shader entry points need a numthreads attribute", fn.name)
		return [3]int{}
	}
	var n [3]int
	if len(at.exprs) != 3 {
		g.errorf(at.pos, eSyntax, "syntax error: numthreads takes 3 arguments, not %d", len(at.exprs))
		return n
	}
	g.push()
	defer g.pop()
	g.constStatics()
	for i, x := range at.exprs {
		if c, ok := x.(*ctorExpr); x == nil || ok && c.typ != nil && strings.HasSuffix(c.typ.name, "1") {
			// A string, or a vector of one (uint1(1)): fxc wants a
			// scalar.
			g.errorf(at.pos, eSyntax, "syntax error: the arguments of numthreads are integer scalars")
			return n
		}
		saved, nCode := g.top, len(g.code)
		v := g.expr(x)
		g.top, g.code = saved, g.code[:nCode]
		if v == poison {
			return n
		}
		if v.t.Kind != KScalar || v.t.Base != Int && v.t.Base != Uint || !allImm(v.c) {
			g.errorf(x.at(), eSyntax, "syntax error: the arguments of numthreads are integer constants, not '%s'", v.t)
			return n
		}
		n[i] = int(int32(v.c[0].Imm[0]))
	}
	if xy, z, all := numThreadsLimits(g.major); n[0] < 1 || n[1] < 1 || n[2] < 1 || n[0] > xy || n[1] > xy || n[2] > z || n[0]*n[1]*n[2] > all {
		zs := fmt.Sprintf("Z 1 to %d", z)
		if z == 1 {
			zs = "Z 1"
		}
		g.errorf(at.pos, eSyntax, "numthreads(%d, %d, %d): X and Y are 1 to %d, %s, %d threads in all (cs_%d_%d)", n[0], n[1], n[2], xy, zs, all, g.major, g.minor)
	}
	return n
}

// computeOperands writes the IR's inputs v0..v3 of a compute shader's
// instruction as the thread-identifier registers.
func computeOperands(ops []dxbc.Operand) {
	for i := range ops {
		if ops[i].Type != dxbc.RegInput || len(ops[i].Indices) != 1 {
			continue
		}
		if typ, ok := computeRegType(int(ops[i].Indices[0].Imm)); ok {
			ops[i].Type, ops[i].Indices = typ, nil
		}
	}
}

// encodeComputeInputs declares the thread identifiers the shader reads and
// its thread group, as fxc places them (inputs after the resources, the
// thread group last).
func encodeComputeInputs(b *dxbc.Builder, p *Program) error {
	for _, in := range p.Inputs {
		typ, ok := computeRegType(in.Reg)
		if !ok {
			return fmt.Errorf("v%d is no compute shader input", in.Reg)
		}
		o := dxbc.Operand{Type: typ, Components: 4, Mode: dxbc.SelectMask, WriteMask: in.Mask}
		if typ == dxbc.RegInputThreadIDInGroupFlat {
			o = dxbc.Operand{Type: typ, Components: 1}
		}
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{o}})
	}
	return nil
}

// Typed unordered access views: RWTexture1D, RWTexture1DArray, RWTexture2D,
// RWTexture2DArray, RWTexture3D and RWBuffer of a scalar or vector, bound
// at u#. u[i] reads an element (ld_uav_typed) and, as an l-value, writes
// one whole (store_uav_typed writes the four lanes of the element; a
// store of part of it, u[i].x = v, writes the other lanes as read).
var uavDims = map[TexDim]bool{Tex1D: true, Tex1DArray: true, Tex2D: true, Tex2DArray: true, Tex3D: true, TexBuffer: true}

// uavIndex is u[i]: the element as read, an l-value whose stores write
// the view.
func (g *gen) uavIndex(p pos, tv, iv *value, slot int) *value {
	if g.stage == Vertex {
		g.errorf(p, eNotImplemented, "not supported by this compiler: an unordered access view (%s) in a vertex shader (Direct3D 11.0 binds them to the pixel and compute stages)", tv.t)
		return poison
	}
	n := tv.t.Dim.coords()
	if iv.t.comps() != n || !iv.t.numeric() || iv.t.Base == Float {
		g.errorf(p, eSubscript, "invalid subscript: %s is indexed by %d integer coordinates, not %s", tv.t, n, iv.t)
		return poison
	}
	loc := g.convert(p, iv, vecT(Uint, n), true)
	if loc == poison {
		return poison
	}
	lanes := make([]Operand, 4)
	for i := range lanes {
		lanes[i] = loc.c[min(i, n-1)]
	}
	addr := g.srcOp(lanes)
	u := Operand{File: FileUAV, Index: slot, Swz: [4]uint8{0, 1, 2, 3}}
	r := g.alloc()
	g.emit(Instr{Op: OpLdUAVTyped, Dim: tv.t.Dim, Dst: []Operand{{File: FileTemp, Index: r, Mask: 0xf}}, Src: []Operand{addr, u}})
	k := max(min(tv.t.Cols, 4), 1)
	et := vecT(tv.t.Base, k)
	if k == 1 {
		et = scalarT(tv.t.Base)
	}
	base := &value{t: et, uav: &uavRef{slot: slot, addr: addr, dim: tv.t.Dim}}
	c := regComps(FileTemp, r, 4)[:k]
	// A store also sets the element as read, which the assignment's
	// value (u[i] = u[j] += v) and later parts of the l-value read.
	return &value{t: et, c: c, wb: &writeBack{base: base, merge: func(src *value) *value {
		kept := 0
		for i, s := range src.c {
			if s.File == c[i].File && s.Index == c[i].Index && s.Swz[0] == c[i].Swz[0] && !s.Neg && !s.Abs && s.Rel == nil {
				kept++
			}
		}
		if kept > 0 && kept < len(c) {
			// u[i].xy = v: store_uav_typed writes the whole element.
			g.errorf(p, eTypeMismatch, "a %s element is written whole, in one statement (store_uav_typed writes every component)", tv.t)
			return poison
		}
		g.assign(c, src.c, false)
		return &value{t: et, c: c}
	}}}
}

// uavBase is the first u# a pixel shader's views may take: past its render
// targets (the highest SV_Target index plus one), which share the output
// merger's slots with them (OMSetRenderTargetsAndUnorderedAccessViews).
func uavBase(stage Stage, outs []SigElement) int {
	n := 0
	if stage == Pixel {
		for _, o := range outs {
			if o.SysVal == SysTarget {
				n = max(n, o.Index+1)
			}
		}
	}
	return n
}

// uavRef is the element of a view that a store writes.
type uavRef struct {
	slot int
	addr Operand
	dim  TexDim
	// A structured element's component (buffers.go): the view's file
	// (FileUAV, or FileTGSM for groupshared memory), the element and byte
	// offset, the lanes a store changes.
	file  File
	kind  BufKind
	idx   Operand
	off   int
	lanes uint8
}

// storeUAV writes src, of the element's type, to the view's element.
func (g *gen) storeUAV(p pos, dst, src *value) {
	if dst.uav.kind == BufStructured {
		g.storeMem(p, dst, src)
		return
	}
	v := g.convert(p, src, dst.t, true)
	if v == poison {
		return
	}
	lanes := make([]Operand, 4)
	for i := range lanes {
		lanes[i] = v.c[min(i, len(v.c)-1)]
	}
	u := dst.uav
	g.emit(Instr{Op: OpStoreUAVTyped, Dim: u.dim, Dst: []Operand{{File: FileUAV, Index: u.slot, Mask: 0xf}}, Src: []Operand{u.addr, g.srcOp(lanes)}})
}

// uavMethod is a method of a typed view: Load(i), as u[i] reads.
func (g *gen) uavMethod(e *callExpr, tv *value, args []*value) *value {
	if e.name == "Load" && len(args) == 1 {
		slot, ok := g.objSlot(e.pos, tv)
		if !ok {
			return poison
		}
		v := g.uavIndex(e.pos, tv, args[0], slot)
		if v != poison {
			v.wb, v.ro = nil, true
		}
		return v
	}
	if e.name == "GetDimensions" {
		g.errorf(e.pos, eNotImplemented, "not supported by this compiler: GetDimensions of an unordered access view")
		return poison
	}
	g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic method", e.name, len(args))
	return poison
}

// writesUAV reports the instructions whose destination may be a u#.
func writesUAV(o Op) bool {
	return o == OpStoreUAVTyped || o == OpStoreRaw || o == OpStoreStructured || o >= OpAtomicIadd && o <= OpImmAtomicCmpExch
}

// interlocked lowers InterlockedAdd, And, Or, Xor, Max, Min, Exchange,
// CompareStore and CompareExchange on an int or uint element of a typed
// view (u[i]) to atomic_* or, with the original value asked for,
// imm_atomic_* ("Interlocked functions" of the HLSL reference).
func (g *gen) interlocked(e *callExpr, args []*value) *value {
	p := e.pos
	noMatch := func() *value {
		g.errorf(p, eNoOverload, "'%s': no matching %d parameter intrinsic function", e.name, len(args))
		return poison
	}
	if len(args) < 2 {
		return noMatch()
	}
	dst := args[0]
	var u *uavRef
	if dst.wb != nil && dst.wb.base != nil {
		u = dst.wb.base.uav
	}
	if u == nil {
		g.errorf(p, eNotImplemented, "not supported by this compiler: %s of anything but an element of a RWTexture or RWBuffer (groupshared memory, structured and byte-address buffers)", e.name)
		return poison
	}
	t := dst.t
	if t.Kind != KScalar || t.Base != Int && t.Base != Uint {
		g.errorf(p, eNoOverload, "'%s': the destination is an int or uint element, not %s", e.name, t)
		return poison
	}
	vals := 1
	if e.name == "InterlockedCompareStore" || e.name == "InterlockedCompareExchange" {
		vals = 2
	}
	orig := false
	switch {
	case e.name == "InterlockedExchange" || e.name == "InterlockedCompareExchange":
		if len(args) != 2+vals {
			return noMatch()
		}
		orig = true
	case len(args) == 1+vals:
	case len(args) == 2+vals && e.name != "InterlockedCompareStore":
		orig = true
	default:
		return noMatch()
	}
	src := []Operand{u.addr}
	for _, a := range args[1 : 1+vals] {
		v := g.convert(p, a, scalarT(t.Base), false)
		if v == poison {
			return poison
		}
		src = append(src, v.c[0])
	}
	signed := t.Base == Int
	ops := map[string][2]Op{
		"InterlockedAdd": {OpAtomicIadd, OpImmAtomicIadd}, "InterlockedAnd": {OpAtomicAnd, OpImmAtomicAnd},
		"InterlockedOr": {OpAtomicOr, OpImmAtomicOr}, "InterlockedXor": {OpAtomicXor, OpImmAtomicXor},
		"InterlockedMax": {OpAtomicUmax, OpImmAtomicUmax}, "InterlockedMin": {OpAtomicUmin, OpImmAtomicUmin},
		"InterlockedExchange": {OpNop, OpImmAtomicExch}, "InterlockedCompareStore": {OpAtomicCmpStore, OpNop},
		"InterlockedCompareExchange": {OpNop, OpImmAtomicCmpExch},
	}[e.name]
	if signed && e.name == "InterlockedMax" {
		ops = [2]Op{OpAtomicImax, OpImmAtomicImax}
	}
	if signed && e.name == "InterlockedMin" {
		ops = [2]Op{OpAtomicImin, OpImmAtomicImin}
	}
	ud := Operand{File: FileUAV, Index: u.slot, Mask: 0xf}
	if u.file == FileTGSM {
		ud.File = FileTGSM
	}
	if !orig {
		g.emit(Instr{Op: ops[0], Dim: u.dim, Dst: []Operand{ud}, Src: src})
		return &value{t: tVoid, ro: true}
	}
	out := args[len(args)-1]
	if out.ro {
		g.errorf(e.args[len(args)-1].at(), eConst, "out parameters require l-value arguments")
		return poison
	}
	r := g.alloc()
	g.emit(Instr{Op: ops[1], Dim: u.dim, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}, ud}, Src: src})
	g.store(p, out, g.convert(p, &value{t: scalarT(t.Base), c: []Operand{comp(FileTemp, r, 0)}}, out.t, false), false)
	return &value{t: tVoid, ro: true}
}
