package d3d11

import (
	"fmt"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
)

// Input layouts (ID3D11Device::CreateInputLayout, D3D11_INPUT_ELEMENT_DESC):
// the runtime checks the elements, matches each input of the vertex
// shader's input signature to the element of the same semantic, and hands
// the driver the elements with the input register each feeds and its byte
// offset resolved (CalcPrivateElementLayoutSize, CreateElementLayout).

// InputElementDesc mirrors D3D11_INPUT_ELEMENT_DESC.
type InputElementDesc struct {
	SemanticName         string
	SemanticIndex        uint32
	Format               ddi.Format
	InputSlot            uint32
	AlignedByteOffset    uint32 // or AppendAlignedElement
	PerInstance          bool   // InputSlotClass D3D11_INPUT_PER_INSTANCE_DATA
	InstanceDataStepRate uint32
}

// AppendAlignedElement is D3D11_APPEND_ALIGNED_ELEMENT.
const AppendAlignedElement = ddi.AppendAligned

// MaxInputElements is the most elements the simulated GPU fetches (the
// runtime allows 32, D3D11_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT; the GPU's
// SET_LAYOUT holds 16).
const MaxInputElements = 16

// InputLayout is an ID3D11InputLayout.
type InputLayout struct {
	object
	Elements []InputElementDesc
	h        uint32
}

// vertexFormat reports whether an element may have format f: "Format
// support for Direct3D feature level 11.0 hardware" gives it input-assembler
// vertex-buffer support.
func vertexFormat(f ddi.Format) bool { return ddi.Required(f)&ddi.SupportIAVertexBuffer != 0 }

// CreateInputLayout creates an input layout for the input signature of vs
// (the scenario's stand-in for the bytecode ID3D11Device::CreateInputLayout
// takes: the shader's, from which the runtime reads the signature).
func (d *Device) CreateInputLayout(name string, elems []InputElementDesc, vs *Shader) (l *InputLayout, err error) {
	return d.createInputLayout(name, elems, func() (*Shader, error) { return vs, nil })
}

// CreateInputLayoutBytecode is CreateInputLayout as the real call takes it:
// pShaderBytecodeWithInputSignature, the compiled vertex shader whose input
// signature (ISGN) the layout must feed. The runtime reads the signature
// from the bytes; no shader object is made.
func (d *Device) CreateInputLayoutBytecode(name string, elems []InputElementDesc, code []byte) (l *InputLayout, err error) {
	return d.createInputLayout(name, elems, func() (*Shader, error) {
		sig, err := dxbc.Validate(code, dxbc.VertexShader)
		if err != nil {
			return nil, d.invalid("CreateInputLayout", name, "pShaderBytecodeWithInputSignature: invalid vertex shader bytecode: %v", err)
		}
		return &Shader{Stage: "vs", Inputs: sig.Inputs, Outputs: sig.Outputs, object: object{name: "the shader bytecode"}}, nil
	})
}

// createInputLayout is both: signature gives the vertex shader whose input
// signature the layout is checked against.
func (d *Device) createInputLayout(name string, elems []InputElementDesc, signature func() (*Shader, error)) (l *InputLayout, err error) {
	const api = "CreateInputLayout"
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	vs, err := signature()
	if err != nil {
		return nil, err
	}
	args, err := d.elementLayout(name, elems, vs)
	if err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	private := d.calcPrivate(name, "CalcPrivateElementLayoutSize", func(u ddi.Device) int { return u.CalcPrivateElementLayoutSize(args) })
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	l = &InputLayout{Elements: append([]InputElementDesc(nil), elems...), h: d.rt.newHandle()}
	if err := d.ddiIC().on(name, handleName(l.h)).CreateElementLayout(d.hDev, args, ddi.HELEMENTLAYOUT(l.h), l.h); err != nil {
		d.unreserve(bytes)
		return nil, err
	}
	_, ht := ddiHandle(l)
	l.driverPart(private, d.calcCLS(ht, l.h, name))
	d.initChild(&l.object, name, bytes, func() {
		d.ddiIC().on(name, handleName(l.h)).DestroyElementLayout(d.hDev, ddi.HELEMENTLAYOUT(l.h))
	})
	return l, nil
}

// elementLayout checks the elements against the rules of
// ID3D11Device::CreateInputLayout and the shader's input signature, and
// builds the DDI's description: E_INVALIDARG naming the element and the
// rule.
func (d *Device) elementLayout(name string, elems []InputElementDesc, vs *Shader) (*ddi.CreateElementLayoutArgs, error) {
	const api = "CreateInputLayout"
	bad := func(format string, a ...any) error { return d.invalid(api, name, format, a...) }
	switch {
	case vs == nil:
		return nil, bad("no shader bytecode with an input signature")
	case vs.Stage != "vs":
		return nil, bad("%s is a pixel shader; the input signature is a vertex shader's", vs.name)
	case len(elems) > MaxInputElements:
		return nil, bad("%d elements; the simulated GPU fetches at most %d", len(elems), MaxInputElements)
	}
	args := &ddi.CreateElementLayoutArgs{Obj: name}
	var next [iaSlots]uint32 // APPEND_ALIGNED: the end of the slot's previous element
	seen := map[string]int{}
	for i, e := range elems {
		what := fmt.Sprintf("element %d (%s%d)", i, e.SemanticName, e.SemanticIndex)
		key := fmt.Sprintf("%s%d", strings.ToUpper(e.SemanticName), e.SemanticIndex)
		switch {
		case e.SemanticName == "":
			return nil, bad("element %d has no SemanticName", i)
		case !vertexFormat(e.Format):
			return nil, bad("%s: format %s cannot be fetched as vertex data", what, formatName(e.Format))
		case e.InputSlot >= iaSlots:
			return nil, bad("%s: InputSlot %d is outside 0..%d (D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)", what, e.InputSlot, iaSlots-1)
		case !e.PerInstance && e.InstanceDataStepRate != 0:
			return nil, bad("%s: InstanceDataStepRate must be 0 for PER_VERTEX data", what)
		}
		if j, dup := seen[key]; dup {
			return nil, bad("%s: semantic %s is also element %d", what, key, j)
		}
		seen[key] = i
		off := e.AlignedByteOffset
		if off == AppendAlignedElement {
			off = next[e.InputSlot]
		}
		if off%4 != 0 {
			return nil, bad("%s: AlignedByteOffset %d is not a multiple of 4", what, off)
		}
		next[e.InputSlot] = off + ddi.FormatSize(e.Format)
		reg := ^uint32(0) // an element the shader does not read
		if s := vs.Inputs.Find(e.SemanticName, e.SemanticIndex); s != nil && !systemGenerated(s.SystemValue) {
			reg = s.Register
		}
		args.Elements = append(args.Elements, ddi.ElementDesc{InputSlot: e.InputSlot, AlignedByteOffset: off, Format: e.Format,
			PerInstance: e.PerInstance, InstanceDataStepRate: e.InstanceDataStepRate, InputRegister: reg})
	}
	for _, in := range vs.Inputs.Elements {
		if systemGenerated(in.SystemValue) {
			continue
		}
		if _, ok := seen[fmt.Sprintf("%s%d", strings.ToUpper(in.Name), in.Index)]; !ok {
			return nil, bad("the input signature of %s expects to read an element with SemanticName/Index '%s'/%d, but the declaration does not provide a matching name", vs.name, in.Name, in.Index)
		}
	}
	return args, nil
}

// systemGenerated: the input assembler makes SV_VertexID and SV_InstanceID.
func systemGenerated(v dxbc.SystemValue) bool {
	return v == dxbc.SVVertexID || v == dxbc.SVInstanceID
}
