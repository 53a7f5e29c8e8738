package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Compute shaders ("Shader Model 5 Assembly", cs_4_0 to cs_5_0): the
// thread identifiers are the ISA program's inputs v0..v3
// (shaderisa.StageCompute), dcl_thread_group and dcl_tgsm_* become the
// ISA's declarations, u# keeps its slot, g# its number; sync with _t
// (GroupMemoryBarrierWithGroupSync and its kin) is the ISA's barrier, a
// sync without it (a memory barrier alone: GroupMemoryBarrier,
// DeviceMemoryBarrier) nothing, since the GPU's memory is coherent between
// the threads of a dispatch, which run one after another.

// UAV is one declared u# slot of a compute shader.
type UAV struct {
	Slot      uint32
	Dimension dxbc.ResourceDimension // DimBuffer or DimTexture2D (typed), DimRawBuffer, DimStructuredBuffer
	Return    [4]dxbc.ReturnType     // typed
	Stride    uint32                 // structured
	Counter   bool                   // dcl_uav_*_opc: the view has a hidden counter (append and consume)
}

// computeInputs maps the thread-identifier registers to the ISA's inputs.
var computeInputs = map[dxbc.RegisterType]uint32{
	dxbc.RegInputThreadID: 0, dxbc.RegInputThreadGroupID: 1, dxbc.RegInputThreadIDInGroup: 2,
	dxbc.RegInputThreadIDInGroupFlat: 3,
}

// computeOps are the instructions a compute shader may use that the
// other stages refuse (refusals).
var computeOps = map[dxbc.Opcode]bool{
	dxbc.OpDclThreadGroup: true, dxbc.OpDclTGSMRaw: true, dxbc.OpDclTGSMStructured: true, dxbc.OpSync: true,
	dxbc.OpDclUAVTyped: true, dxbc.OpDclUAVRaw: true, dxbc.OpDclUAVStructured: true,
	dxbc.OpLdUAVTyped: true, dxbc.OpStoreUAVTyped: true, dxbc.OpStoreRaw: true, dxbc.OpStoreStructured: true,
	dxbc.OpAtomicAnd: true, dxbc.OpAtomicOr: true, dxbc.OpAtomicXor: true, dxbc.OpAtomicCmpStore: true,
	dxbc.OpAtomicIadd: true, dxbc.OpAtomicImax: true, dxbc.OpAtomicImin: true, dxbc.OpAtomicUmax: true,
	dxbc.OpAtomicUmin: true, dxbc.OpImmAtomicAlloc: true, dxbc.OpImmAtomicConsume: true,
	dxbc.OpImmAtomicIadd: true, dxbc.OpImmAtomicAnd: true, dxbc.OpImmAtomicOr: true, dxbc.OpImmAtomicXor: true,
	dxbc.OpImmAtomicExch: true, dxbc.OpImmAtomicCmpExch: true, dxbc.OpImmAtomicImax: true,
	dxbc.OpImmAtomicImin: true, dxbc.OpImmAtomicUmax: true, dxbc.OpImmAtomicUmin: true,
}

// atomics maps the atomic instructions to the ISA's.
var atomics = map[dxbc.Opcode]shaderisa.Op{
	dxbc.OpAtomicAnd: shaderisa.OpAtomicAnd, dxbc.OpAtomicOr: shaderisa.OpAtomicOr, dxbc.OpAtomicXor: shaderisa.OpAtomicXor,
	dxbc.OpAtomicCmpStore: shaderisa.OpAtomicCmpStore, dxbc.OpAtomicIadd: shaderisa.OpAtomicIAdd,
	dxbc.OpAtomicImax: shaderisa.OpAtomicIMax, dxbc.OpAtomicImin: shaderisa.OpAtomicIMin,
	dxbc.OpAtomicUmax: shaderisa.OpAtomicUMax, dxbc.OpAtomicUmin: shaderisa.OpAtomicUMin,
	dxbc.OpImmAtomicIadd: shaderisa.OpImmAtomicIAdd, dxbc.OpImmAtomicAnd: shaderisa.OpImmAtomicAnd,
	dxbc.OpImmAtomicOr: shaderisa.OpImmAtomicOr, dxbc.OpImmAtomicXor: shaderisa.OpImmAtomicXor,
	dxbc.OpImmAtomicExch: shaderisa.OpImmAtomicExch, dxbc.OpImmAtomicCmpExch: shaderisa.OpImmAtomicCmpExch,
	dxbc.OpImmAtomicImax: shaderisa.OpImmAtomicIMax, dxbc.OpImmAtomicImin: shaderisa.OpImmAtomicIMin,
	dxbc.OpImmAtomicUmax: shaderisa.OpImmAtomicUMax, dxbc.OpImmAtomicUmin: shaderisa.OpImmAtomicUMin,
	dxbc.OpImmAtomicAlloc: shaderisa.OpImmAtomicAlloc, dxbc.OpImmAtomicConsume: shaderisa.OpImmAtomicConsume,
}

// uavCounterFlag is dcl_uav_*'s D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER
// (bit 23 of the opcode token: bit 12 of Controls).
const uavCounterFlag = 1 << 12

// computeDecl records a compute shader's declarations; the ISA's come
// first in the program (prependDecls).
func (t *translator) computeDecl(in *dxbc.Instruction) error {
	if in.Op == dxbc.OpDclThreadGroup {
		if len(in.Extra) != 3 {
			return t.fail("dcl_thread_group takes x, y and z")
		}
		x, y, z := in.Extra[0], in.Extra[1], in.Extra[2]
		if x == 0 || y == 0 || z == 0 || x > shaderisa.MaxGroupThreads || y > shaderisa.MaxGroupThreads ||
			z > shaderisa.MaxGroupThreadsZ || uint64(x)*uint64(y)*uint64(z) > shaderisa.MaxGroupThreads {
			return t.fail("numthreads(%d, %d, %d): x and y 1..1024, z 1..64, at most 1024 threads a group", x, y, z)
		}
		t.out.ThreadGroup = [3]uint32{x, y, z}
		t.decls = append(t.decls, shaderisa.Inst{Op: shaderisa.OpDclThreadGroup, Src: []shaderisa.Operand{shaderisa.L(x, y, z, 0)}})
		t.declSrc = append(t.declSrc, t.cur)
		return nil
	}
	if len(in.Operands) != 1 {
		return t.fail("%s takes one register", in.Op)
	}
	o := &in.Operands[0]
	slot, err := t.index(o, 0)
	if err != nil {
		return err
	}
	switch in.Op {
	case dxbc.OpDclTGSMRaw, dxbc.OpDclTGSMStructured:
		if o.Type != dxbc.RegTGSM || slot >= shaderisa.MaxTGSM {
			return t.fail("groupshared memory is g0..g%d", shaderisa.MaxTGSM-1)
		}
		var bytes, stride uint64
		if in.Op == dxbc.OpDclTGSMRaw {
			bytes = uint64(in.Extra[0])
		} else {
			stride, bytes = uint64(in.Extra[0]), uint64(in.Extra[0])*uint64(in.Extra[1])
		}
		t.sharedBytes += bytes
		if bytes == 0 || bytes%4 != 0 || stride%4 != 0 || t.sharedBytes > shaderisa.MaxTGSMBytes {
			return t.fail("g%d of %d bytes: groupshared memory is whole 32-bit words, %d bytes in all", slot, bytes, shaderisa.MaxTGSMBytes)
		}
		t.tgsm[slot] = uint32(stride) | 1<<31
		t.decls = append(t.decls, shaderisa.Inst{Op: shaderisa.OpDclTGSM,
			Src: []shaderisa.Operand{{File: shaderisa.FileTGSM, Index: slot, Swizzle: shaderisa.Identity}, shaderisa.L(uint32(bytes), uint32(stride), 0, 0)}})
		t.declSrc = append(t.declSrc, t.cur)
		return nil
	}
	if o.Type != dxbc.RegUAV || slot >= shaderisa.MaxUAVs {
		return t.fail("unordered access views are u0..u%d (feature level 11_0's compute stage)", shaderisa.MaxUAVs-1)
	}
	u := UAV{Slot: slot, Counter: in.Controls&uavCounterFlag != 0}
	switch in.Op {
	case dxbc.OpDclUAVRaw:
		u.Dimension = dxbc.DimRawBuffer
	case dxbc.OpDclUAVStructured:
		u.Dimension, u.Stride = dxbc.DimStructuredBuffer, in.Extra[0]
		if u.Stride == 0 || u.Stride%4 != 0 || u.Stride > 2048 {
			return t.fail("dcl_uav_structured u%d: a structure stride of 4..2048 bytes, a multiple of 4", slot)
		}
	default:
		u.Dimension = dxbc.ResourceDimension(in.Controls & 0x1F)
		if !typedUAVDims[u.Dimension] {
			return t.fail("dcl_uav_typed_%s u%d: this GPU's typed unordered access views are buffers and 1D, 2D and 3D textures and arrays (RWBuffer, RWTexture1D, RWTexture1DArray, RWTexture2D, RWTexture2DArray, RWTexture3D)", u.Dimension, slot)
		}
		for c := range u.Return {
			if len(in.Extra) > 0 {
				u.Return[c] = dxbc.ReturnType(in.Extra[0] >> (4 * c) & 0xF)
			}
		}
	}
	t.uavs[slot] = u.Dimension
	t.out.UAVs = append(t.out.UAVs, u)
	return nil
}

// memOperand maps a u# or g# operand (a source: its swizzle picks the
// components loaded; a destination: its mask the words stored).
func (t *translator) memOperand(o *dxbc.Operand, dst bool) (shaderisa.Operand, error) {
	var r shaderisa.Operand
	slot, err := t.index(o, 0)
	if err != nil {
		return r, err
	}
	switch o.Type {
	case dxbc.RegUAV:
		if _, ok := t.uavs[slot]; !ok {
			return r, t.fail("u%d is not declared", slot)
		}
		r = shaderisa.Operand{File: shaderisa.FileUAV, Index: slot}
	case dxbc.RegTGSM:
		if t.tgsm[slot] == 0 {
			return r, t.fail("g%d is not declared", slot)
		}
		r = shaderisa.Operand{File: shaderisa.FileTGSM, Index: slot}
	default:
		return r, t.fail("%s is not an unordered access view or groupshared memory", o.Type)
	}
	if dst {
		r.Mask = 0xF
		if o.Components == 4 && o.Mode == dxbc.SelectMask {
			r.Mask = o.WriteMask
		}
		return r, nil
	}
	if o.Components == 0 {
		// fxc writes the view of an imm_atomic_* with no components
		// (imm_atomic_iadd r5.x, u4, l(0), l(1)): nothing is selected.
		r.Swizzle = shaderisa.Identity
		return r, nil
	}
	r.Swizzle, err = t.swizzle(o)
	return r, err
}

// computeInst translates a compute instruction, or reports false for one
// that is not.
func (t *translator) computeInst(in *dxbc.Instruction) (bool, error) {
	ops := in.Operands
	want := map[dxbc.Opcode]int{dxbc.OpLdUAVTyped: 3, dxbc.OpStoreUAVTyped: 3, dxbc.OpStoreRaw: 3, dxbc.OpStoreStructured: 4,
		dxbc.OpLdRaw: 3, dxbc.OpLdStructured: 4, dxbc.OpImmAtomicAlloc: 2, dxbc.OpImmAtomicConsume: 2,
		dxbc.OpAtomicCmpStore: 4, dxbc.OpImmAtomicCmpExch: 5}
	if _, ok := atomics[in.Op]; ok && want[in.Op] == 0 {
		want[in.Op] = 3
		if in.Op >= dxbc.OpImmAtomicIadd {
			want[in.Op] = 4
		}
	}
	switch in.Op {
	case dxbc.OpResinfo:
		if len(ops) == 3 && ops[2].Type == dxbc.RegUAV {
			return true, t.uavResinfo(in)
		}
		return false, nil
	case dxbc.OpBufinfo:
		if len(ops) != 2 || ops[1].Type != dxbc.RegUAV {
			return false, nil // a t#: texture.go
		}
		if !t.takes(in.Op) {
			return true, t.refuse(in.Op)
		}
		m, err := t.memOperand(&ops[1], false)
		if err != nil {
			return true, err
		}
		if dim := t.uavs[m.Index]; dim != dxbc.DimBuffer && dim != dxbc.DimRawBuffer && dim != dxbc.DimStructuredBuffer {
			return true, t.fail("bufinfo of u%d, a %s view: GetDimensions of a buffer view", m.Index, dim)
		}
		d, ok, err := t.dst(&ops[0])
		if err != nil || !ok {
			return true, err
		}
		t.emit(shaderisa.Inst{Op: shaderisa.OpBufInfo, Dst: d, Src: []shaderisa.Operand{m}})
		return true, nil
	case dxbc.OpSync:
		if in.Controls&1 != 0 {
			t.emit(shaderisa.Inst{Op: shaderisa.OpSync})
		}
		return true, nil
	case dxbc.OpLdRaw, dxbc.OpLdStructured:
		if res := &ops[len(ops)-1]; res.Type != dxbc.RegUAV && res.Type != dxbc.RegTGSM {
			return false, nil // a t#: the texture unit's (texture.go)
		}
	}
	n, ok := want[in.Op]
	if !ok {
		return false, nil
	}
	if len(ops) != n {
		return true, t.fail("%d operands, want %d", len(ops), n)
	}
	if !t.takes(in.Op) {
		return true, t.refuse(in.Op)
	}
	isa := shaderisa.Inst{Op: map[dxbc.Opcode]shaderisa.Op{dxbc.OpLdUAVTyped: shaderisa.OpLdUAVTyped,
		dxbc.OpStoreUAVTyped: shaderisa.OpStoreUAVTyped, dxbc.OpStoreRaw: shaderisa.OpStoreRaw,
		dxbc.OpStoreStructured: shaderisa.OpStoreStructured, dxbc.OpLdRaw: shaderisa.OpLdRaw,
		dxbc.OpLdStructured: shaderisa.OpLdStructured}[in.Op]}
	if op, ok := atomics[in.Op]; ok {
		isa.Op = op
	}
	// Where the memory operand is: first for stores and atomics without a
	// result, second for the imm_ atomics, last for loads.
	mem := 0
	switch {
	case isa.Op == shaderisa.OpLdUAVTyped || isa.Op == shaderisa.OpLdRaw || isa.Op == shaderisa.OpLdStructured:
		mem = len(ops) - 1
	case !isa.Op.MemDst():
		mem = 1
	}
	m, err := t.memOperand(&ops[mem], mem == 0)
	if err != nil {
		return true, err
	}
	switch dim := t.uavs[m.Index]; {
	case m.File != shaderisa.FileUAV:
		if isa.Op == shaderisa.OpImmAtomicAlloc || isa.Op == shaderisa.OpImmAtomicConsume {
			return true, t.fail("%s of groupshared memory: a counter belongs to a view", in.Op)
		}
	case isa.Op == shaderisa.OpLdUAVTyped || isa.Op == shaderisa.OpStoreUAVTyped:
		if !typedUAVDims[dim] {
			return true, t.fail("%s of u%d, a %s view: typed access is for RWBuffer and the RWTexture views", in.Op, m.Index, dim)
		}
	case isa.Op == shaderisa.OpLdRaw || isa.Op == shaderisa.OpStoreRaw:
		if dim != dxbc.DimRawBuffer {
			return true, t.fail("%s of u%d, a %s view: raw access is for RWByteAddressBuffer", in.Op, m.Index, dim)
		}
	case isa.Op == shaderisa.OpLdStructured || isa.Op == shaderisa.OpStoreStructured:
		if dim != dxbc.DimStructuredBuffer {
			return true, t.fail("%s of u%d, a %s view: structured access is for RWStructuredBuffer", in.Op, m.Index, dim)
		}
	}
	if m.File == shaderisa.FileTGSM {
		structured := t.tgsm[m.Index]&^(1<<31) != 0
		if (isa.Op == shaderisa.OpLdStructured || isa.Op == shaderisa.OpStoreStructured) != structured &&
			(isa.Op == shaderisa.OpLdRaw || isa.Op == shaderisa.OpStoreRaw || isa.Op == shaderisa.OpLdStructured || isa.Op == shaderisa.OpStoreStructured) {
			return true, t.fail("%s of g%d, declared %s", in.Op, m.Index, map[bool]string{true: "structured", false: "raw"}[structured])
		}
	}
	if isa.Op.MemDst() {
		isa.Dst = m
	} else {
		d, ok, err := t.dst(&ops[0])
		if err != nil {
			return true, err
		}
		if !ok {
			// A result nobody reads: the operation still happens.
			d = shaderisa.R(t.newScratch())
			d.Mask = 1
		}
		isa.Dst = d
	}
	for k := range ops {
		switch {
		case k == mem && !isa.Op.MemDst():
			isa.Src = append(isa.Src, m)
			continue
		case k == mem, k == 0 && !isa.Op.MemDst():
			continue
		}
		s, err := t.src(&ops[k])
		if err != nil {
			return true, err
		}
		isa.Src = append(isa.Src, s)
	}
	if isa.Op.MemDst() && isa.Op != shaderisa.OpStoreRaw && isa.Op != shaderisa.OpStoreStructured {
		isa.Dst.Mask = 0xF
	}
	t.emit(isa)
	return true, nil
}
