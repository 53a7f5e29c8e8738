package umd

import (
	"math/bits"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
)

// Stream output (ddi.StreamOutput): a shader created with a stream-output
// declaration keeps it as SET_SO_DECL's words, sent when the shader is
// bound to the geometry stage (a vertex shader's bytecode makes a
// geometry stage with no program: stream output of the vertex shader's
// outputs); the targets go with SET_SO_TARGET after SoSetTargets and at
// the top of every buffer while bound; a buffer created with
// D3D11_BIND_STREAM_OUTPUT has its filled size in a word after its bytes
// in its own allocation (resource.soFilled), which DRAW_AUTO reads.

var _ ddi.StreamOutput = (*Device)(nil)

// soDecl is a shader's stream-output declaration, as SET_SO_DECL sends it.
type soDecl struct {
	flags   uint32
	strides [isa.MaxSOTargets]uint32
	entries []uint32
	noProg  bool // vertex-shader bytecode: the geometry stage runs no program
}

// soTarget is a bound stream-output buffer; offset is where writing
// starts at the next SET_SO_TARGET (isa.SOAppend once sent).
type soTarget struct {
	buf    ddi.HRESOURCE
	offset uint32
}

// soWords and soAllocs bound what the stage's packets take at a draw.
const (
	soWords  = (1 + 5 + isa.MaxSOEntries) + isa.MaxSOTargets*8
	soAllocs = 2 * isa.MaxSOTargets
)

func (d *Device) CreateGeometryShaderWithStreamOutput(_ ddi.HDEVICE, a *ddi.SOShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createSOShader(a, h))
}

// createSOShader translates the bytecode (a geometry shader's or a vertex
// shader's) and attaches the declaration.
func (d *Device) createSOShader(a *ddi.SOShaderArgs, h ddi.HSHADER) error {
	const name = "CreateGeometryShaderWithStreamOutput"
	vs := false
	if c, err := dxbc.Parse(a.Bytecode); err == nil {
		if p, err := c.Program(); err == nil && p.Type == dxbc.VertexShader {
			vs = true
		}
	}
	so := &soDecl{noProg: vs}
	if a.RasterizedStream < 4 {
		so.flags = isa.SORasterize | isa.SORasterizedStream(a.RasterizedStream)
	}
	var fill [isa.MaxSOTargets]uint32
	var slotStream [isa.MaxSOTargets]int // each slot's stream + 1 (0: none yet)
	for _, e := range a.Decl {
		if e.Stream > 3 || e.OutputSlot >= isa.MaxSOTargets || e.RegisterMask == 0 || e.RegisterMask > 0xF {
			return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: entry %+v: this GPU writes streams 0..3 to slots 0..3", name, e)
		}
		if ss := &slotStream[e.OutputSlot]; *ss != 0 && *ss != int(e.Stream)+1 {
			return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: slot %d takes streams %d and %d: a buffer takes one stream", name, e.OutputSlot, *ss-1, e.Stream)
		} else {
			*ss = int(e.Stream) + 1
		}
		so.flags |= isa.SOSlotStream(e.OutputSlot, e.Stream)
		start := uint32(bits.TrailingZeros8(e.RegisterMask))
		count := uint32(bits.OnesCount8(e.RegisterMask))
		reg := uint32(isa.SOGap)
		if e.RegisterIndex != ddi.SORegisterGap {
			if e.RegisterIndex >= isa.MaxVaryings {
				return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: o%d: this GPU streams out o0..o%d", name, e.RegisterIndex, isa.MaxVaryings-1)
			}
			reg = e.RegisterIndex
		}
		so.entries = append(so.entries, isa.SOEntry(e.OutputSlot, reg, start, count))
		fill[e.OutputSlot] += 4 * count
	}
	if len(so.entries) > isa.MaxSOEntries {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: %d entries, this GPU takes %d", name, len(so.entries), isa.MaxSOEntries)
	}
	for i := range so.strides {
		so.strides[i] = fill[i]
		if i < len(a.Strides) {
			so.strides[i] = a.Strides[i]
		}
	}
	stage := uint32(isa.StageGS)
	if vs {
		stage = isa.StageVS
	}
	if err := d.createShader(&a.ShaderArgs, h, stage, name); err != nil {
		return err
	}
	d.mu.Lock()
	if sh := d.shaders[h]; !vs && a.RasterizedStream < 4 {
		sh.sysReg = gsSysReg(sh.prog, uint8(a.RasterizedStream)) // the rasterized stream's SV_Position
		sh.clip = clipWord(sh.prog, uint8(a.RasterizedStream))
	}
	d.shaders[h].so = so
	d.mu.Unlock()
	return nil
}

// gsSysReg is a geometry shader's SET_PROGRAM system values for the
// rasterized stream: SV_Position's output register in bits 0..7 (a
// shader without one draws nothing: NoReg's), SV_ViewportArrayIndex's
// output + 1 in bits 8..15.
func gsSysReg(prog *translate.Shader, stream uint8) uint32 {
	r := uint32(isa.NoReg)
	for _, o := range prog.Outputs {
		if o.Stream != stream {
			continue
		}
		switch o.SystemValue {
		case dxbc.SVPosition:
			r = r&^0xFF | o.ISA
		case dxbc.SVViewportIndex:
			r |= (o.ISA + 1) << 8
		case dxbc.SVRenderTargetIndex:
			r |= (o.ISA + 1) << isa.RTArrayIndexShift // (rtview.go)
		}
	}
	return r
}

func (c *context) SoSetTargets(_ ddi.HDEVICE, bufs []ddi.HRESOURCE, offsets []uint32) {
	for i := range c.st.so {
		t := soTarget{}
		if i < len(bufs) {
			t.buf = bufs[i]
			if i < len(offsets) {
				t.offset = offsets[i]
			}
		}
		c.st.so[i] = t
	}
	c.st.soSet, c.st.dirty = true, true
}

// emitSO sends the stream-output declaration of the bound geometry-stage
// shader (or turns the stage off) and the targets when they were set or
// the buffer is fresh.
func (c *context) emitSO(rec recorder, gs *shader) {
	b := &c.cmd
	g := &c.onGPU
	if gs != nil && gs.so != nil {
		b.SetSODecl(gs.so.flags, gs.so.strides, gs.so.entries)
		g.so = true
	} else if g.so {
		b.SetSODecl(isa.SORasterize, [isa.MaxSOTargets]uint32{}, nil)
		g.so = false
	}
	st := &c.st
	dc, deferred := rec.(*deferredContext)
	for i := range st.so {
		t := &st.so[i]
		buf := t.buf
		if deferred {
			buf = ddi.HRESOURCE(dc.icHandle(uint32(buf))) // its context-local handle
		}
		r := c.resource(buf)
		if deferred && gs != nil && gs.so != nil {
			dc.sendSOTarget(rec, uint32(i), r, t)
			continue
		}
		if r == nil || r.soFilled == 0 {
			if st.soSet && g.soT&(1<<i) != 0 {
				b.SetSOTarget(uint32(i), isa.NullAddress, 0, isa.NullAddress, 0)
				g.soT &^= 1 << i
			}
			continue
		}
		if !st.soSet && g.soT&(1<<i) != 0 {
			continue // on the GPU already
		}
		b.SetSOTarget(uint32(i), rec.ref(r, true, 0), uint32(r.size), rec.ref(r, true, uint32(r.soFilled)), t.offset)
		t.offset = isa.SOAppend // the next buffer goes on where this one leaves off
		g.soT |= 1 << i
	}
	st.soSet = false
}

func (d *immediateContext) DrawAuto(_ ddi.HDEVICE) {
	d.busy()
	r := d.resource(d.st.vb)
	if d.st.vs == 0 || r == nil || r.soFilled == 0 || d.st.vbStride == 0 {
		return // nothing a stream-output buffer filled is bound at slot 0
	}
	d.drawStateAllocs(1)
	d.cmd.DrawAuto(d.ref(r, false, uint32(r.soFilled)), d.st.vbStride)
}
