package hlsl

import (
	"strings"

	"d3dsim/core/dxbc"
)

// Structured and byte-address buffers, and groupshared memory.
//
// StructuredBuffer<T> and RWStructuredBuffer<T> hold elements of T packed
// four bytes a component with no padding (the element's size is the
// view's stride); ByteAddressBuffer and RWByteAddressBuffer are arrays of
// 32-bit words addressed in bytes. A groupshared variable lives in the
// thread group's shared memory, declared as fxc declares it:
// dcl_tgsm_structured g#, the size of an element (of the array, or the
// variable itself), and the count. Every read of an element is a load
// (ld_structured, ld_raw) made where the expression is, so that what other
// threads wrote after a barrier is seen; every store writes only the
// components it changes (store_structured at the component's byte
// offset), so that a thread that writes one member of an element never
// writes back another thread's member as it read it. The "Shader Model 5
// Assembly (DirectX HLSL)" pages (ld_structured, store_raw,
// dcl_tgsm_structured, sync, imm_atomic_alloc) and "RWStructuredBuffer",
// "RWByteAddressBuffer" and "groupshared" of the HLSL reference.

// BufKind tells structured and byte-address buffers from other views.
type BufKind uint8

// The buffer kinds.
const (
	BufNone BufKind = iota
	BufStructured
	BufRaw
)

// bufType is the type a buffer's name spells (its element type comes
// from the template argument, in resolveType).
func bufType(name string) *Type {
	switch name {
	case "StructuredBuffer":
		return &Type{Kind: KTexture, Dim: TexBuffer, Base: Uint, Cols: 1, Buf: BufStructured}
	case "RWStructuredBuffer":
		return &Type{Kind: KTexture, Dim: TexBuffer, Base: Uint, Cols: 1, Buf: BufStructured, UAV: true}
	case "ByteAddressBuffer":
		return &Type{Kind: KTexture, Dim: TexBuffer, Base: Uint, Cols: 1, Buf: BufRaw}
	case "RWByteAddressBuffer":
		return &Type{Kind: KTexture, Dim: TexBuffer, Base: Uint, Cols: 1, Buf: BufRaw, UAV: true}
	case "RasterizerOrderedStructuredBuffer":
		return &Type{Kind: KTexture, Dim: TexBuffer, Base: Uint, Cols: 1, Buf: BufStructured, UAV: true, ROV: true}
	case "RasterizerOrderedByteAddressBuffer":
		return &Type{Kind: KTexture, Dim: TexBuffer, Base: Uint, Cols: 1, Buf: BufRaw, UAV: true, ROV: true}
	}
	return nil
}

func bufTypeName(t *Type) string {
	s := "ByteAddressBuffer"
	if t.Buf == BufStructured {
		s = "StructuredBuffer"
		if t.BufElem != nil {
			s += "<" + t.BufElem.String() + ">"
		}
	}
	switch {
	case t.ROV:
		s = "RasterizerOrdered" + s
	case t.UAV:
		s = "RW" + s
	}
	return s
}

// bufElemType checks a structured buffer's element type: numbers, structs
// and arrays of them, never an object.
func (g *gen) bufElemType(p pos, t, elem *Type) *Type {
	if t.Buf != BufStructured {
		g.errorf(p, eSyntax, "syntax error: %s takes no element type", t)
		return poison.t
	}
	if elem == nil || elem == poison.t || !memType(elem) {
		g.errorf(p, eSyntax, "syntax error: the element type of a structured buffer is a number, a struct or an array of them, not an object")
		return poison.t
	}
	if g.refuseDoubles(p, elem, "a structured buffer's element") {
		return poison.t
	}
	c := *t
	c.BufElem = elem
	return &c
}

// memType reports the types memory holds: numbers, structs and arrays of
// them.
func memType(t *Type) bool {
	switch t.Kind {
	case KScalar, KVector, KMatrix:
		return true
	case KArray:
		return memType(t.Elem)
	case KStruct:
		for _, f := range t.Fields {
			if !memType(f.Type) {
				return false
			}
		}
		return len(t.Fields) > 0
	}
	return false
}

// memSize is a type's size in memory: four bytes a component, packed.
func memSize(t *Type) int {
	switch t.Kind {
	case KScalar, KVector, KMatrix:
		return 4 * t.comps()
	case KArray:
		return t.Len * memSize(t.Elem)
	case KStruct:
		n := 0
		for _, f := range t.Fields {
			n += memSize(f.Type)
		}
		return n
	}
	return 0
}

// bufStride is a structured buffer's stride (0 for other views).
func bufStride(t *Type) int {
	if t.Buf == BufStructured && t.BufElem != nil {
		return memSize(t.BufElem)
	}
	return 0
}

// declareBuffer writes dcl_resource_raw, dcl_resource_structured,
// dcl_uav_raw or dcl_uav_structured (_opc with a counter).
func declareBuffer(b *dxbc.Builder, d TexDecl, uav bool) {
	in := dxbc.Instruction{Op: dxbc.OpDclResourceRaw, Operands: []dxbc.Operand{{Type: dxbc.RegResource, Indices: []dxbc.Index{{Imm: uint64(d.Slot)}}}}}
	if uav {
		in.Op, in.Operands[0] = dxbc.OpDclUAVRaw, dxbc.UAVDecl(uint32(d.Slot))
	}
	if d.Buf == BufStructured {
		in.Op++ // dcl_resource_structured, dcl_uav_structured: the raw one's next
		in.Extra = []uint32{uint32(d.Stride)}
	}
	if d.Counter {
		in.Controls |= 1 << 12 // _opc: the counter of IncrementCounter
	}
	if d.ROV {
		in.Controls |= 1 << 6 // _rov: rasterizer ordered
	}
	b.Declare(in)
}

// bufferBinding is RDEF's entry for a buffer: D3D_SIT_STRUCTURED,
// D3D_SIT_UAV_RWSTRUCTURED (_WITH_COUNTER), D3D_SIT_BYTEADDRESS or
// D3D_SIT_UAV_RWBYTEADDRESS, the stride where fxc writes it (the sample
// count's place), dimension buffer (1: D3D_SRV_DIMENSION_BUFFER; 11 for a
// raw one, D3D_SRV_DIMENSION_BUFFEREX).
func bufferBinding(x dxbc.Binding, bd Binding) dxbc.Binding {
	x.ReturnType, x.Flags, x.Dimension = 6, 0, 1 // D3D_RETURN_TYPE_MIXED
	switch {
	case bd.Buf == BufRaw && bd.Kind == BindUAV:
		x.Type, x.Samples = dxbc.InputUAVRWByteAddress, 0
	case bd.Buf == BufRaw:
		x.Type, x.Samples, x.Dimension = dxbc.InputByteAddress, 0, 11
	case bd.Kind == BindUAV && bd.Counter:
		x.Type, x.Samples = dxbc.InputUAVRWStructuredWithCB, uint32(bd.Stride)
	case bd.Kind == BindUAV:
		x.Type, x.Samples = dxbc.InputUAVRWStructured, uint32(bd.Stride)
	default:
		x.Type, x.Samples = dxbc.InputStructured, uint32(bd.Stride)
	}
	return x
}

func tgsmOperand(n int) dxbc.Operand {
	return dxbc.Operand{Type: dxbc.RegTGSM, Components: 4, Mode: dxbc.SelectMask, WriteMask: dxbc.XYZW, Indices: []dxbc.Index{{Imm: uint64(n)}}}
}

// memArray is groupshared memory: g<slot>, count elements of t (the
// variable's type, or its array's element type), or a structured buffer's
// view.
type memArray struct {
	file  File // FileTGSM, FileUAV or FileTex
	slot  int  // g#; or the view's operand index (objSlot's placeholder)
	t     *Type
	count int  // elements (0: the variable is no array)
	ro    bool // an SRV: read only
}

// groupshared declares a groupshared global: a compute shader's g#.
func (g *gen) groupshared(d *varDecl, t *Type) {
	if g.stage != Compute {
		g.errorf(d.pos, eSyntax, "'%s': groupshared memory is a compute shader's", d.name)
		return
	}
	if g.refuseDoubles(d.pos, t, "groupshared memory") {
		return
	}
	if d.init != nil {
		g.errorf(d.pos, eSyntax, "'%s': groupshared variables cannot be initialized", d.name)
		return
	}
	et, n := t, 1
	if t.Kind == KArray {
		et, n = t.Elem, t.Len
	}
	if !memType(et) {
		g.errorf(d.pos, eNotImplemented, "not supported by this compiler: groupshared '%s' of type %s (numbers, structs and arrays of them)", d.name, t)
		return
	}
	total := 0
	for _, m := range g.tgsm {
		total += m.Stride * m.Count
	}
	if total+memSize(et)*n > 32768 {
		// D3D11_CS_TGSM_REGISTER_COUNT: 32 KiB of groupshared memory.
		g.errorf(d.pos, eSyntax, "'%s': the groupshared variables take more than 32768 bytes", d.name)
		return
	}
	m := &memArray{file: FileTGSM, slot: len(g.tgsm), t: et}
	if t.Kind == KArray {
		m.count = n
	}
	g.tgsm = append(g.tgsm, TGSMDecl{Stride: memSize(et), Count: n})
	g.declare(d.pos, d.name, &value{t: t, mem: m})
}

// memUse is a groupshared variable named in an expression: its value (an
// array is indexed on demand, memIndex).
func (g *gen) memUse(p pos, v *value) *value {
	if v.mem.count > 0 {
		return &value{t: v.t, mem: v.mem}
	}
	return g.memElem(p, v.mem, immU(0))
}

// memIndex is a groupshared array's element.
func (g *gen) memIndex(p pos, x, i *value) *value {
	if !i.t.numeric() || i.t.comps() != 1 {
		g.errorf(p, eTypeMismatch, "type mismatch")
		return poison
	}
	if allImm(i.c) {
		k := immInt(i.c[0], i.t.Base)
		if k < 0 || k >= int64(x.mem.count) {
			g.errorf(p, eSubscript, "array index out of bounds")
			return poison
		}
	}
	iv := g.convert(p, i, scalarT(Uint), false)
	if iv == poison {
		return poison
	}
	return g.memElem(p, x.mem, iv.c[0])
}

// memElem loads element idx of m: a value whose numbers are read now,
// and an l-value whose stores write memory (unless m is read only).
func (g *gen) memElem(p pos, m *memArray, idx Operand) *value {
	return g.memPart(p, m, m.t, idx, 0)
}

func (g *gen) memPart(p pos, m *memArray, t *Type, idx Operand, off int) *value {
	switch t.Kind {
	case KStruct:
		v := &value{t: t, ro: m.ro}
		for _, f := range t.Fields {
			v.fields = append(v.fields, g.memPart(p, m, f.Type, idx, off))
			off += memSize(f.Type)
		}
		return v
	case KArray:
		v := &value{t: t, ro: m.ro}
		for k := 0; k < t.Len; k++ {
			v.elems = append(v.elems, g.memPart(p, m, t.Elem, idx, off+k*memSize(t.Elem)))
		}
		return v
	case KMatrix:
		g.errorf(p, eNotImplemented, "not supported by this compiler: a matrix in a structured buffer or groupshared memory (%s)", t)
		return poison
	}
	n := t.comps()
	r := g.alloc()
	view := Operand{File: m.file, Index: m.slot, Swz: [4]uint8{0, 1, 2, 3}}
	g.emit(Instr{Op: OpLdStructured, Dst: []Operand{{File: FileTemp, Index: r, Mask: uint8(1)<<n - 1}},
		Src: []Operand{idx, immU(uint32(off)), view}})
	c := regComps(FileTemp, r, n)
	if m.ro {
		return &value{t: t, c: c, ro: true}
	}
	ref := &uavRef{slot: m.slot, file: m.file, kind: BufStructured, idx: idx, off: off}
	ref.addr = g.srcOp([]Operand{idx, immU(uint32(off))})
	base := &value{t: t, uav: ref}
	return &value{t: t, c: c, wb: &writeBack{base: base, merge: func(src *value) *value {
		ref.lanes = 0
		for i, s := range src.c {
			if !(s.File == c[i].File && s.Index == c[i].Index && s.Swz[0] == c[i].Swz[0] && !s.Neg && !s.Abs && s.Rel == nil) {
				ref.lanes |= 1 << i
			}
		}
		g.assign(c, src.c, false)
		return &value{t: t, c: c}
	}}}
}

// storeMem writes the changed components of a structured element: each
// run of consecutive lanes one store_structured at its byte offset.
func (g *gen) storeMem(p pos, dst, src *value) {
	v := g.convert(p, src, dst.t, true)
	if v == poison {
		return
	}
	u := dst.uav
	lanes := u.lanes
	if lanes == 0 {
		lanes = uint8(1)<<len(v.c) - 1
	}
	for a := 0; a < len(v.c); {
		if lanes&(1<<a) == 0 {
			a++
			continue
		}
		b := a
		for b < len(v.c) && lanes&(1<<b) != 0 {
			b++
		}
		g.emit(Instr{Op: OpStoreStructured, Dst: []Operand{{File: u.file, Index: u.slot, Mask: uint8(1)<<(b-a) - 1}},
			Src: []Operand{u.idx, immU(uint32(u.off + 4*a)), g.srcOp(v.c[a:b])}})
		a = b
	}
	u.lanes = 0
}

// bufIndex is b[i] of a structured buffer.
func (g *gen) bufIndex(p pos, tv, iv *value) *value {
	if tv.t.Buf != BufStructured {
		g.errorf(p, eSubscript, "invalid subscript: a %s is read with its Load methods", tv.t)
		return poison
	}
	if !g.bufStage(p, tv.t) {
		return poison
	}
	slot, ok := g.objSlot(p, tv)
	if !ok {
		return poison
	}
	if !iv.t.numeric() || iv.t.comps() != 1 {
		g.errorf(p, eSubscript, "invalid subscript: %s is indexed by one integer, not %s", tv.t, iv.t)
		return poison
	}
	i := g.convert(p, iv, scalarT(Uint), false)
	if i == poison {
		return poison
	}
	file := FileTex
	if tv.t.UAV {
		file = FileUAV
	}
	return g.memElem(p, &memArray{file: file, slot: slot, t: tv.t.BufElem, ro: !tv.t.UAV}, i.c[0])
}

// bufStage refuses views where Direct3D 11.0 has none.
func (g *gen) bufStage(p pos, t *Type) bool {
	if t.UAV && g.stage == Vertex {
		g.errorf(p, eNotImplemented, "not supported by this compiler: an unordered access view (%s) in a vertex shader (Direct3D 11.0 binds them to the pixel and compute stages)", t)
		return false
	}
	if g.major < 5 && t.UAV && g.stage != Compute { // (cs_4_x: cs4.go)
		g.errorf(p, eSyntax, "%s: unordered access views need shader model 5", t)
		return false
	}
	return true
}

// bufMethod lowers a buffer's methods: Load, Load2, Load3, Load4 and (of
// the RW view) Store .. Store4 of a byte-address buffer; Load,
// IncrementCounter and DecrementCounter of a structured one.
func (g *gen) bufMethod(e *callExpr, tv *value, args []*value) *value {
	p := e.pos
	if !g.bufStage(p, tv.t) {
		return poison
	}
	noMatch := func() *value {
		g.errorf(p, eNoOverload, "'%s': no matching %d parameter intrinsic method", e.name, len(args))
		return poison
	}
	switch {
	case tv.t.Buf == BufStructured && e.name == "Load" && len(args) == 1:
		v := g.bufIndex(p, tv, args[0])
		if v != poison {
			v = rvalue(v)
		}
		return v
	case tv.t.Buf == BufStructured && tv.t.UAV && (e.name == "IncrementCounter" || e.name == "DecrementCounter"):
		if len(args) != 0 {
			return noMatch()
		}
		slot, ok := g.objSlot(p, tv)
		if !ok {
			return poison
		}
		tv.res.counter = true
		op := OpImmAtomicAlloc
		if e.name == "DecrementCounter" {
			op = OpImmAtomicConsume
		}
		r := g.alloc()
		g.emit(Instr{Op: op, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{{File: FileUAV, Index: slot}}})
		return &value{t: scalarT(Uint), c: []Operand{comp(FileTemp, r, 0)}, ro: true}
	case tv.t.Buf == BufRaw && strings.HasPrefix(e.name, "Load"):
		n := loadWidth(e.name, "Load")
		if n == 0 || len(args) != 1 {
			return noMatch()
		}
		addr, ok := g.rawAddr(p, tv, args[0])
		if !ok {
			return poison
		}
		slot, _ := g.objSlot(p, tv)
		file := FileTex
		if tv.t.UAV {
			file = FileUAV
		}
		r := g.alloc()
		g.emit(Instr{Op: OpLdRaw, Dst: []Operand{{File: FileTemp, Index: r, Mask: uint8(1)<<n - 1}},
			Src: []Operand{addr, {File: file, Index: slot, Swz: [4]uint8{0, 1, 2, 3}}}})
		return &value{t: vecT(Uint, n), c: regComps(FileTemp, r, n), ro: true}
	case tv.t.Buf == BufRaw && tv.t.UAV && strings.HasPrefix(e.name, "Store"):
		n := loadWidth(e.name, "Store")
		if n == 0 || len(args) != 2 {
			return noMatch()
		}
		addr, ok := g.rawAddr(p, tv, args[0])
		if !ok {
			return poison
		}
		if !args[1].t.numeric() || args[1].t.comps() != n && args[1].t.comps() != 1 {
			g.errorf(p, eConvert, "cannot implicitly convert from '%s' to '%s'", args[1].t, vecT(Uint, n))
			return poison
		}
		v := g.convert(p, args[1], vecT(Uint, n), false)
		if v == poison {
			return poison
		}
		slot, _ := g.objSlot(p, tv)
		g.emit(Instr{Op: OpStoreRaw, Dst: []Operand{{File: FileUAV, Index: slot, Mask: uint8(1)<<n - 1}}, Src: []Operand{addr, g.srcOp(v.c)}})
		return &value{t: tVoid, ro: true}
	case e.name == "GetDimensions":
		g.errorf(p, eNotImplemented, "not supported by this compiler: GetDimensions of a %s", tv.t)
		return poison
	}
	return noMatch()
}

// loadWidth reads Load, Load2, Load3, Load4 (or Store...) as 1 to 4.
func loadWidth(name, prefix string) int {
	switch strings.TrimPrefix(name, prefix) {
	case "":
		return 1
	case "2":
		return 2
	case "3":
		return 3
	case "4":
		return 4
	}
	return 0
}

// rawAddr is a byte-address buffer's address operand: a uint.
func (g *gen) rawAddr(p pos, tv, a *value) (Operand, bool) {
	if _, ok := g.objSlot(p, tv); !ok {
		return Operand{}, false
	}
	if !a.t.numeric() || a.t.comps() != 1 {
		g.errorf(p, eConvert, "cannot implicitly convert from '%s' to 'uint'", a.t)
		return Operand{}, false
	}
	v := g.convert(p, a, scalarT(Uint), false)
	if v == poison {
		return Operand{}, false
	}
	return v.c[0], true
}

// barrier lowers the memory barriers to sync: _g for groupshared memory,
// _uglobal for views, _t to wait for the group's threads.
func (g *gen) barrier(e *callExpr, args []*value) *value {
	if len(args) != 0 {
		g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic function", e.name, len(args))
		return poison
	}
	if g.stage != Compute {
		g.errorf(e.pos, eNotImplemented, "not supported by this compiler: %s outside a compute shader", e.name)
		return poison
	}
	flags := map[string]uint8{
		"GroupMemoryBarrier": 2, "GroupMemoryBarrierWithGroupSync": 3, "DeviceMemoryBarrier": 8,
		"DeviceMemoryBarrierWithGroupSync": 9, "AllMemoryBarrier": 10, "AllMemoryBarrierWithGroupSync": 11,
	}[e.name]
	g.emit(Instr{Op: OpSync, Sync: flags})
	return &value{t: tVoid, ro: true}
}

// viewPos is where an instruction reads a view (u#, g#, or a buffer's t#)
// among its sources; -1 for none.
func viewPos(o Op) int {
	switch o {
	case OpLdUAVTyped, OpLdRaw:
		return 1
	case OpLdStructured:
		return 2
	case OpImmAtomicAlloc, OpImmAtomicConsume:
		return 0
	}
	return -1
}

// bufLoad reports the loads of a buffer's or memory's words.
func bufLoad(o Op) bool { return o == OpLdRaw || o == OpLdStructured }

// hasAttr reports an attribute of the function ([earlydepthstencil]) on
// any of its declarations.
func (g *gen) hasAttr(fn *funcDecl, name string) bool {
	for _, d := range append(g.funcs[fn.name], fn) {
		if d == fn || sameSignature(g, d, fn) {
			for _, a := range d.attrs {
				if strings.EqualFold(a.name, name) {
					return true
				}
			}
		}
	}
	return false
}
