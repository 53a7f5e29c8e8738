package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
	"math/bits"
)

// Element layouts (CalcPrivateElementLayoutSize, CreateElementLayout,
// DestroyElementLayout): the runtime hands the driver each element with
// the vertex-shader input register it feeds, resolved from the shader's
// input signature, and its byte offset. At a draw with a vertex shader
// from bytecode the driver turns the bound layout into the GPU's fetch
// descriptor, SET_LAYOUT.

// elementLayout is a CreateElementLayout's elements.
type elementLayout struct {
	elems []ddi.ElementDesc
}

const sizeElementLayout = 64

func (c *context) CalcPrivateElementLayoutSize(*ddi.CreateElementLayoutArgs) int {
	return sizeElementLayout
}

func (d *Device) CreateElementLayout(_ ddi.HDEVICE, a *ddi.CreateElementLayoutArgs, h ddi.HELEMENTLAYOUT, _ uint32) {
	l := &elementLayout{elems: append([]ddi.ElementDesc(nil), a.Elements...)}
	d.report(createObject(d, "CreateElementLayout", d.layouts, h, l, nil))
}

func (d *Device) DestroyElementLayout(_ ddi.HDEVICE, h ddi.HELEMENTLAYOUT) {
	destroyObject(d, d.layouts, h)
}

// vertexFormat is the GPU's vertex format of a DXGI format (VtxNone: the
// GPU cannot fetch it; the runtime accepts only those it can: "Format
// support for Direct3D feature level 11.0 hardware", IA vertex buffer).
func vertexFormat(f ddi.Format) isa.VertexFormat {
	if ddi.Required(f)&ddi.SupportIAVertexBuffer == 0 {
		return isa.VtxNone
	}
	return isa.VertexFormatOf(gpuFormat(f))
}

// fetch is the layout's SET_LAYOUT for vertex program p: each element to
// the ISA register of its input register (the translator keeps v# as it
// is), SV_VertexID and SV_InstanceID from p's inputs. An element whose
// register p does not declare is left out (the GPU checks registers
// against the program).
func (l *elementLayout) fetch(p *translate.Shader) isa.Layout {
	out := isa.Layout{VertexIDReg: isa.NoReg, InstanceIDReg: isa.NoReg}
	declared := map[uint32]uint32{}
	for _, in := range p.Inputs {
		switch in.SystemValue {
		case dxbc.SVVertexID:
			out.VertexIDReg = uint8(in.ISA)
		case dxbc.SVInstanceID:
			out.InstanceIDReg = uint8(in.ISA)
		default:
			declared[in.Reg] = in.ISA
		}
	}
	for _, e := range l.elems {
		reg, ok := declared[e.InputRegister]
		f := vertexFormat(e.Format)
		if !ok || f == isa.VtxNone || len(out.Elements) == isa.MaxVertexElements {
			continue
		}
		out.Elements = append(out.Elements, isa.VertexElement{Reg: uint8(reg), Slot: uint8(e.InputSlot), Format: f,
			PerInstance: e.PerInstance, Offset: e.AlignedByteOffset, StepRate: e.InstanceDataStepRate})
	}
	return out
}

// emitVertexBuffers binds vertex-buffer slots 1..31 (slot 0 is
// emitState's): a bound slot, and a slot the input layout reads that the
// GPU may still hold from an earlier binding, which is unset so it reads
// zeros.
func (c *context) emitVertexBuffers(rec recorder, st *state, vs *shader, layout *elementLayout) {
	if vs == nil {
		return // no draw without a vertex shader
	}
	b := &c.cmd
	g := &c.onGPU
	var reads uint32
	if layout != nil {
		for _, e := range layout.elems {
			reads |= 1 << (e.InputSlot & 31)
		}
	}
	for m := st.vbBound | g.vbMore&reads; m != 0; m &= m - 1 {
		slot := uint32(bits.TrailingZeros32(m))
		bit := uint32(1) << slot
		v := &st.vbMore[slot-1]
		if r := c.resource(v.buf); r != nil {
			b.SetVB(slot, rec.ref(r, false, 0), uint32(r.size), v.stride, v.offset)
			g.vbMore |= bit
		} else if g.vbMore&bit != 0 && reads&bit != 0 {
			b.SetVB(slot, isa.NullAddress, 0, 0, 0)
			g.vbMore &^= bit
		}
	}
}
