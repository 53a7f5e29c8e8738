package dxbc

import "fmt"

// InputType is what a resource binding binds (D3D_SHADER_INPUT_TYPE).
type InputType uint32

const (
	InputCBuffer               InputType = 0
	InputTBuffer               InputType = 1
	InputTexture               InputType = 2
	InputSampler               InputType = 3
	InputUAVRWTyped            InputType = 4
	InputStructured            InputType = 5
	InputUAVRWStructured       InputType = 6
	InputByteAddress           InputType = 7
	InputUAVRWByteAddress      InputType = 8
	InputUAVAppendStructured   InputType = 9
	InputUAVConsumeStructured  InputType = 10
	InputUAVRWStructuredWithCB InputType = 11 // a RWStructuredBuffer with its hidden counter
)

// String is the Type column of fxc's resource-binding table: read-only
// buffers are textures, every writable resource a UAV.
func (t InputType) String() string {
	switch t {
	case InputCBuffer:
		return "cbuffer"
	case InputTBuffer:
		return "tbuffer"
	case InputTexture, InputStructured, InputByteAddress:
		return "texture"
	case InputSampler:
		return "sampler"
	case InputUAVRWTyped, InputUAVRWStructured, InputUAVRWByteAddress, InputUAVAppendStructured,
		InputUAVConsumeStructured, InputUAVRWStructuredWithCB:
		return "UAV"
	}
	return fmt.Sprintf("input(%d)", uint32(t))
}

// IsUAV reports whether the binding is an unordered access view (a u#
// register).
func (t InputType) IsUAV() bool {
	return t >= InputUAVRWTyped && t != InputStructured && t != InputByteAddress && t <= InputUAVRWStructuredWithCB
}

// VariableClass and VariableType are D3D_SHADER_VARIABLE_CLASS and
// D3D_SHADER_VARIABLE_TYPE, the shape and element type of a variable.
type (
	VariableClass uint16
	VariableType  uint16
)

const (
	ClassScalar        VariableClass = 0
	ClassVector        VariableClass = 1
	ClassMatrixRows    VariableClass = 2
	ClassMatrixColumns VariableClass = 3
	ClassObject        VariableClass = 4
	ClassStruct        VariableClass = 5

	TypeVoid   VariableType = 0
	TypeBool   VariableType = 1
	TypeInt    VariableType = 2
	TypeFloat  VariableType = 3
	TypeUint   VariableType = 19
	TypeDouble VariableType = 39
)

// Type describes a variable's type; structs list their members.
type Type struct {
	Class    VariableClass
	Base     VariableType
	Rows     uint16
	Columns  uint16
	Elements uint16 // array length, 0 if not an array
	Members  []Member
	Name     string // "float4", written by shader model 5 only
}

// Member is one field of a struct type.
type Member struct {
	Name   string
	Type   *Type
	Offset uint32
}

// Variable flags (D3D_SHADER_VARIABLE_FLAGS).
const VariableUsed = 2

// Variable is one constant inside a constant buffer.
type Variable struct {
	Name   string
	Offset uint32 // bytes from the start of the buffer
	Size   uint32
	Flags  uint32
	Type   *Type
}

// ConstantBuffer is a cbuffer (or tbuffer) with its variables.
type ConstantBuffer struct {
	Name      string
	Variables []Variable
	Size      uint32 // bytes, a multiple of 16
	Flags     uint32
	Kind      uint32 // D3D_CBUFFER_TYPE: 0 cbuffer, 1 tbuffer
}

// SIFComparisonSampler is D3D_SIF_COMPARISON_SAMPLER, the flag of a
// SamplerComparisonState's binding (fxc's listing types it sampler_c).
const SIFComparisonSampler = 2

// Binding is one row of the resource-binding table: a cbuffer, texture or
// sampler and the register it is bound to.
type Binding struct {
	Name       string
	Type       InputType
	ReturnType uint32 // D3D_RESOURCE_RETURN_TYPE, textures only (5 = float)
	Dimension  uint32 // D3D_SRV_DIMENSION, textures only (4 = texture2d)
	Samples    uint32 // 0xFFFFFFFF for non-multisampled textures
	BindPoint  uint32
	BindCount  uint32
	Flags      uint32 // D3D_SHADER_INPUT_FLAGS
}

// Reflection is the RDEF chunk: what the shader binds and the layout of its
// constant buffers, as D3DReflect reports them.
type Reflection struct {
	Major, Minor    uint8
	ProgramType     uint16 // 0xFFFF pixel, 0xFFFE vertex
	Flags           uint32
	Creator         string
	ConstantBuffers []ConstantBuffer
	Bindings        []Binding
}

const (
	maxReflectionItems = 1 << 16
	maxTypeDepth       = 16
)

// ParseRDEF reads an RDEF chunk of shader model 4 or 5.
func ParseRDEF(data []byte) (*Reflection, error) {
	r := &reader{chunk: "RDEF", b: data}
	cbCount, cbOff := r.u32(0, "cbuffer count"), r.u32(4, "cbuffer offset")
	bCount, bOff := r.u32(8, "binding count"), r.u32(12, "binding offset")
	rf := &Reflection{
		Minor:       r.u8(16, "minor version"),
		Major:       r.u8(17, "major version"),
		ProgramType: r.u16(18, "program type"),
		Flags:       r.u32(20, "flags"),
	}
	rf.Creator = r.str(r.u32(24, "creator offset"), "creator")
	if r.err != nil {
		return nil, r.err
	}
	sm5 := rf.Major >= 5
	varSize, typeSize := uint32(24), uint32(16)
	if sm5 {
		if magic := r.u32(28, "RD11 tag"); r.err == nil && magic != 0x31314452 {
			return nil, fmt.Errorf("dxbc: RDEF: shader model %d.%d reflection lacks its RD11 tag", rf.Major, rf.Minor)
		}
		varSize, typeSize = 40, 36
	}
	if cbCount > maxReflectionItems || bCount > maxReflectionItems {
		return nil, fmt.Errorf("dxbc: RDEF: %d cbuffers and %d bindings is over the limit of %d", cbCount, bCount, maxReflectionItems)
	}
	if !r.table(bOff, bCount, 32, "bindings") || !r.table(cbOff, cbCount, 24, "cbuffers") {
		return nil, r.err
	}
	for i := uint32(0); i < bCount && r.err == nil; i++ {
		o := bOff + 32*i
		rf.Bindings = append(rf.Bindings, Binding{
			Name:       r.str(r.u32(o, "binding name"), "binding name"),
			Type:       InputType(r.u32(o+4, "binding type")),
			ReturnType: r.u32(o+8, "return type"),
			Dimension:  r.u32(o+12, "dimension"),
			Samples:    r.u32(o+16, "samples"),
			BindPoint:  r.u32(o+20, "bind point"),
			BindCount:  r.u32(o+24, "bind count"),
			Flags:      r.u32(o+28, "flags"),
		})
	}
	types := map[uint32]*Type{}
	budget := maxReflectionItems
	var readType func(off uint32, depth int) *Type
	readType = func(off uint32, depth int) *Type {
		if t, ok := types[off]; ok {
			return t
		}
		if depth > maxTypeDepth {
			r.fail("types nest deeper than %d at offset %d", maxTypeDepth, off)
			return nil
		}
		if budget--; budget < 0 {
			r.fail("more than %d types and members", maxReflectionItems)
			return nil
		}
		if !r.table(off, 1, typeSize, "type") {
			return nil
		}
		t := &Type{
			Class:    VariableClass(r.u16(off, "type class")),
			Base:     VariableType(r.u16(off+2, "type")),
			Rows:     r.u16(off+4, "rows"),
			Columns:  r.u16(off+6, "columns"),
			Elements: r.u16(off+8, "elements"),
		}
		members, mOff := r.u16(off+10, "member count"), r.u32(off+12, "member offset")
		if sm5 && r.err == nil {
			if n := r.u32(off+32, "type name offset"); n != 0 {
				t.Name = r.str(n, "type name")
			}
		}
		types[off] = t
		if budget -= int(members); budget < 0 {
			r.fail("more than %d types and members", maxReflectionItems)
			return nil
		}
		if members > 0 && r.table(mOff, uint32(members), 12, "struct members") {
			for j := uint32(0); j < uint32(members) && r.err == nil; j++ {
				mo := mOff + 12*j
				m := Member{Name: r.str(r.u32(mo, "member name"), "member name"), Offset: r.u32(mo+8, "member offset")}
				m.Type = readType(r.u32(mo+4, "member type"), depth+1)
				t.Members = append(t.Members, m)
			}
		}
		return t
	}
	for i := uint32(0); i < cbCount && r.err == nil; i++ {
		o := cbOff + 24*i
		cb := ConstantBuffer{
			Name:  r.str(r.u32(o, "cbuffer name"), "cbuffer name"),
			Size:  r.u32(o+12, "cbuffer size"),
			Flags: r.u32(o+16, "cbuffer flags"),
			Kind:  r.u32(o+20, "cbuffer type"),
		}
		vCount, vOff := r.u32(o+4, "variable count"), r.u32(o+8, "variable offset")
		if budget -= int(min(vCount, maxReflectionItems+1)); budget < 0 {
			return nil, fmt.Errorf("dxbc: RDEF: more than %d variables", maxReflectionItems)
		}
		if !r.table(vOff, vCount, varSize, "variables") {
			break
		}
		for j := uint32(0); j < vCount && r.err == nil; j++ {
			vo := vOff + varSize*j
			v := Variable{
				Name:   r.str(r.u32(vo, "variable name"), "variable name"),
				Offset: r.u32(vo+4, "variable offset"),
				Size:   r.u32(vo+8, "variable size"),
				Flags:  r.u32(vo+12, "variable flags"),
			}
			v.Type = readType(r.u32(vo+16, "variable type"), 0)
			cb.Variables = append(cb.Variables, v)
		}
		rf.ConstantBuffers = append(rf.ConstantBuffers, cb)
	}
	if r.err != nil {
		return nil, r.err
	}
	return rf, nil
}

// Bytes writes the reflection as an RDEF chunk body in the layout of its
// shader model (the RD11 header and the longer records for 5.x).
func (rf *Reflection) Bytes() []byte {
	sm5 := rf.Major >= 5
	w := &writer{}
	head := 28
	if sm5 {
		head = 60
	}
	w.b = make([]byte, head)
	w.set32(0, uint32(len(rf.ConstantBuffers)))
	w.set32(8, uint32(len(rf.Bindings)))
	w.b[16], w.b[17] = rf.Minor, rf.Major
	w.b[18], w.b[19] = byte(rf.ProgramType), byte(rf.ProgramType>>8)
	w.set32(20, rf.Flags)
	if sm5 {
		for i, v := range []uint32{0x31314452, 60, 24, 32, 40, 36, 12, 0} {
			w.set32(28+4*i, v)
		}
	}
	// Fixed-size records first, with name offsets patched once the strings
	// are laid out after them.
	type patch struct {
		at   int
		name string
	}
	var names []patch
	w.set32(12, uint32(len(w.b)))
	for _, b := range rf.Bindings {
		names = append(names, patch{len(w.b), b.Name})
		w.put32(0)
		for _, v := range []uint32{uint32(b.Type), b.ReturnType, b.Dimension, b.Samples, b.BindPoint, b.BindCount, b.Flags} {
			w.put32(v)
		}
	}
	w.set32(4, uint32(len(w.b)))
	var varTables []int
	for _, cb := range rf.ConstantBuffers {
		names = append(names, patch{len(w.b), cb.Name})
		w.put32(0)
		w.put32(uint32(len(cb.Variables)))
		varTables = append(varTables, len(w.b))
		w.put32(0)
		w.put32(cb.Size)
		w.put32(cb.Flags)
		w.put32(cb.Kind)
	}
	typeOffsets := map[*Type]uint32{}
	type typeRef struct {
		at int
		t  *Type
	}
	var typeRefs []typeRef
	for i, cb := range rf.ConstantBuffers {
		w.set32(varTables[i], uint32(len(w.b)))
		for _, v := range cb.Variables {
			names = append(names, patch{len(w.b), v.Name})
			w.put32(0)
			w.put32(v.Offset)
			w.put32(v.Size)
			w.put32(v.Flags)
			typeRefs = append(typeRefs, typeRef{len(w.b), v.Type})
			w.put32(0) // type
			w.put32(0) // default value: not kept
			if sm5 {
				w.put32(0xffffffff)
				w.put32(0)
				w.put32(0xffffffff)
				w.put32(0)
			}
		}
	}
	// Types, breadth first, each written once.
	for i := 0; i < len(typeRefs); i++ {
		t := typeRefs[i].t
		if t == nil {
			t = &Type{}
		}
		off, ok := typeOffsets[t]
		if !ok {
			off = uint32(len(w.b))
			typeOffsets[t] = off
			w.put16(uint16(t.Class))
			w.put16(uint16(t.Base))
			w.put16(t.Rows)
			w.put16(t.Columns)
			w.put16(t.Elements)
			w.put16(uint16(len(t.Members)))
			memberAt := len(w.b)
			w.put32(0)
			nameAt := -1
			if sm5 {
				w.b = append(w.b, make([]byte, 16)...)
				nameAt = len(w.b)
				w.put32(0)
			}
			if len(t.Members) > 0 {
				w.set32(memberAt, uint32(len(w.b)))
				for _, m := range t.Members {
					names = append(names, patch{len(w.b), m.Name})
					w.put32(0)
					typeRefs = append(typeRefs, typeRef{len(w.b), m.Type})
					w.put32(0)
					w.put32(m.Offset)
				}
			}
			if nameAt >= 0 && t.Name != "" {
				names = append(names, patch{nameAt, t.Name})
			}
		}
		w.set32(typeRefs[i].at, off)
	}
	for _, p := range names {
		w.set32(p.at, w.str(p.name))
	}
	w.set32(24, w.str(rf.Creator))
	w.align()
	return w.b
}

// ConstantBuffer returns the cbuffer with the name, or nil.
func (rf *Reflection) ConstantBuffer(name string) *ConstantBuffer {
	for i := range rf.ConstantBuffers {
		if rf.ConstantBuffers[i].Name == name {
			return &rf.ConstantBuffers[i]
		}
	}
	return nil
}
