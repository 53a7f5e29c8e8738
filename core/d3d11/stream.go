package d3d11

import (
	"slices"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
)

// Stream output: CreateGeometryShaderWithStreamOutput (over geometry- or
// vertex-shader bytecode, the declaration checked here as the reference
// page and the debug layer state it, its semantics resolved to output
// registers for the DDI), SOSetTargets, SOGetTargets and DrawAuto, each
// through its DDI (pfnCreateGeometryShaderWithStreamOutput, pfnSoSetTargets,
// pfnDrawAuto: ddi.StreamOutput). The immediate context runs them and a
// deferred context records them on its own table; the runtime's emulation
// of command lists records the API calls (emulated_more.go).

// SODeclarationEntry is D3D11_SO_DECLARATION_ENTRY. An empty SemanticName
// is a gap of ComponentCount components.
type SODeclarationEntry struct {
	Stream         uint32
	SemanticName   string
	SemanticIndex  uint32
	StartComponent uint8
	ComponentCount uint8
	OutputSlot     uint8
}

// Stream-output limits: D3D11_SO_BUFFER_SLOT_COUNT, D3D11_SO_STREAM_COUNT,
// D3D11_SO_OUTPUT_COMPONENT_COUNT, D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES, and
// D3D11_SO_NO_RASTERIZED_STREAM.
const (
	soSlots            = 4
	soStreams          = 4
	soComponents       = 128
	soMaxStride        = 2048
	NoRasterizedStream = ddi.NoRasterizedStream
)

// soRequest is what CreateGeometryShaderWithStreamOutput was given.
type soRequest struct {
	decl       []SODeclarationEntry
	strides    []uint32
	rasterized uint32
	vs         bool   // the bytecode is a vertex shader's
	sm5        bool   // a gs_5_0 shader's: streams past 0 allowed
	profile    string // the bytecode's (for the messages)
}

// shaderProfile is the bytecode's profile (gs_5_0) and whether it is
// shader model 5; the caller validated the bytecode.
func shaderProfile(code []byte) (string, bool) {
	c, err := dxbc.Parse(code)
	if err != nil {
		return "", false
	}
	p, err := c.Program()
	if err != nil {
		return "", false
	}
	return p.Profile(), p.Major == 5
}

// rasterizedOutputs is a geometry shader's output signature as the next
// stage sees it: the rasterized stream's elements (stream 0's without a
// stream-output declaration or with D3D11_SO_NO_RASTERIZED_STREAM).
// A signature of stream 0 only is returned as it is.
func rasterizedOutputs(out *dxbc.Signature, stream uint32) *dxbc.Signature {
	if out == nil || !slices.ContainsFunc(out.Elements, func(e dxbc.Element) bool { return e.Stream != 0 }) {
		return out
	}
	if stream == NoRasterizedStream {
		stream = 0 // nothing is drawn: the linkage is stream 0's
	}
	r := &dxbc.Signature{}
	for _, e := range out.Elements {
		if e.Stream == stream {
			r.Elements = append(r.Elements, e)
		}
	}
	return r
}

// CreateGeometryShaderWithStreamOutput is
// ID3D11Device::CreateGeometryShaderWithStreamOutput: code is a geometry
// shader's bytecode, or a vertex shader's for stream output without a
// geometry shader; decl the declaration (pSODeclaration), strides
// pBufferStrides (nil: each slot's entries packed), rasterized
// RasterizedStream (NoRasterizedStream for none).
func (d *Device) CreateGeometryShaderWithStreamOutput(name string, code []byte, decl []SODeclarationEntry, strides []uint32, rasterized uint32) (*Shader, error) {
	return d.createShaderBytecode(name, "gs", code, &soRequest{decl: slices.Clone(decl), strides: slices.Clone(strides), rasterized: rasterized})
}

// soArgs checks the declaration against the shader's output signature
// and resolves it for the DDI.
func (d *Device) soArgs(api, name string, so *soRequest, out *dxbc.Signature) (*ddi.SOShaderArgs, error) {
	switch {
	case len(so.decl) > soStreams*soComponents:
		return nil, d.invalid(api, name, "NumEntries %d: at most %d (D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT)", len(so.decl), soStreams*soComponents)
	case len(so.strides) > soSlots:
		return nil, d.invalid(api, name, "NumStrides %d: at most %d (D3D11_SO_BUFFER_SLOT_COUNT)", len(so.strides), soSlots)
	case so.rasterized != NoRasterizedStream && so.rasterized >= soStreams:
		return nil, d.invalid(api, name, "RasterizedStream %d: 0..3 or D3D11_SO_NO_RASTERIZED_STREAM", so.rasterized)
	case so.rasterized != NoRasterizedStream && so.rasterized != 0 && !so.sm5:
		return nil, d.invalid(api, name, "RasterizedStream %d: a stream past 0 needs a gs_5_0 shader (this bytecode is %s)", so.rasterized, so.profile)
	}
	for i, s := range so.strides {
		if s%4 != 0 || s > soMaxStride {
			return nil, d.invalid(api, name, "pBufferStrides[%d] %d: a multiple of 4 up to %d (D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES)", i, s, soMaxStride)
		}
	}
	a := &ddi.SOShaderArgs{Strides: slices.Clone(so.strides), RasterizedStream: so.rasterized}
	var fill [soSlots]uint32
	var slotStream [soSlots]uint32 // each slot's stream + 1 (0: none yet)
	for i, e := range so.decl {
		switch {
		case e.Stream >= soStreams:
			return nil, d.invalid(api, name, "pSODeclaration[%d].Stream %d: 0..3", i, e.Stream)
		case e.Stream != 0 && !so.sm5:
			return nil, d.invalid(api, name, "pSODeclaration[%d].Stream %d: a stream past 0 needs a gs_5_0 shader (this bytecode is %s)", i, e.Stream, so.profile)
		case e.OutputSlot >= soSlots:
			return nil, d.invalid(api, name, "pSODeclaration[%d].OutputSlot %d: 0..3", i, e.OutputSlot)
		case e.ComponentCount == 0:
			return nil, d.invalid(api, name, "pSODeclaration[%d].ComponentCount 0: an entry writes (or skips) at least one component", i)
		}
		if ss := &slotStream[e.OutputSlot]; *ss != 0 && *ss != e.Stream+1 {
			return nil, d.invalid(api, name, "pSODeclaration[%d]: OutputSlot %d takes stream %d already, and this entry is stream %d's (a buffer takes one stream)", i, e.OutputSlot, *ss-1, e.Stream)
		} else {
			*ss = e.Stream + 1
		}
		fill[e.OutputSlot] += 4 * uint32(e.ComponentCount)
		if e.SemanticName == "" {
			// A gap: ComponentCount components skipped, in entries of
			// at most four for the DDI.
			if e.StartComponent != 0 {
				return nil, d.invalid(api, name, "pSODeclaration[%d]: a gap (SemanticName NULL) has StartComponent 0", i)
			}
			for n := uint32(e.ComponentCount); n > 0; n -= min(n, 4) {
				a.Decl = append(a.Decl, ddi.SODeclEntry{Stream: e.Stream, OutputSlot: uint32(e.OutputSlot), RegisterIndex: ddi.SORegisterGap, RegisterMask: uint8(1<<min(n, 4) - 1)})
			}
			continue
		}
		if uint32(e.StartComponent)+uint32(e.ComponentCount) > 4 {
			return nil, d.invalid(api, name, "pSODeclaration[%d]: StartComponent %d + ComponentCount %d is past the 4 components of %s%d", i, e.StartComponent, e.ComponentCount, e.SemanticName, e.SemanticIndex)
		}
		mask := uint8(1<<(e.StartComponent+e.ComponentCount) - 1<<e.StartComponent)
		var el *dxbc.Element
		if out != nil {
			for k := range out.Elements {
				o := &out.Elements[k]
				if strings.EqualFold(o.Name, e.SemanticName) && o.Index == e.SemanticIndex && o.Stream == e.Stream {
					el = o
				}
			}
		}
		switch {
		case el == nil:
			return nil, d.invalid(api, name, "pSODeclaration[%d].SemanticName %s%d: not an output of the shader's signature", i, e.SemanticName, e.SemanticIndex)
		case el.Mask&mask != mask:
			return nil, d.invalid(api, name, "pSODeclaration[%d]: components %s of %s%d, whose output has %s", i, maskName(mask), e.SemanticName, e.SemanticIndex, maskName(el.Mask))
		}
		a.Decl = append(a.Decl, ddi.SODeclEntry{Stream: e.Stream, OutputSlot: uint32(e.OutputSlot), RegisterIndex: el.Register, RegisterMask: mask})
	}
	for slot, n := range fill {
		if slot < len(so.strides) && n > so.strides[slot] {
			return nil, d.invalid(api, name, "pBufferStrides[%d] %d: the entries of output slot %d take %d bytes of a vertex", slot, so.strides[slot], slot, n)
		}
	}
	return a, nil
}

func maskName(m uint8) string {
	s := ""
	for c, n := range "xyzw" {
		if m>>c&1 != 0 {
			s += string(n)
		}
	}
	return s
}

// streamContext is the context's driver kind for SOSetTargets and
// DrawAuto: a deferred context records them through its own table (an
// emulated one records the API calls: emulated_more.go).
func (c *DeviceContext) streamContext(call, obj string) (driverContext, error) {
	switch k := c.contextKind.(type) {
	case *immediateContext:
		return k.driverContext, nil
	case *deferredContext:
		return k.driverContext, nil
	}
	if dc, ok := c.emulated(); ok {
		return dc, nil // recorded (emulated_more.go)
	}
	return driverContext{}, c.dropCall(call, obj, "%s: the context is neither an immediate nor a deferred context", call)
}

// SOSetTargets is ID3D11DeviceContext::SOSetTargets: bufs to slots 0..
// (the rest unbound), each with its offset in bytes (nil offsets: 0;
// ^uint32(0), D3D11's -1: append at the buffer's filled size).
func (c *DeviceContext) SOSetTargets(bufs []*Resource, offsets []uint32) error {
	const call = "SOSetTargets"
	if stop, err := c.checkArgs(call, asObjects(bufs)...); stop {
		return err
	}
	obj := firstName(bufs)
	dc, err := c.streamContext(call, obj)
	if err != nil {
		return err
	}
	if len(bufs) > soSlots {
		return c.dropCall(call, obj, "NumBuffers %d: at most %d (D3D11_SO_BUFFER_SLOT_COUNT)", len(bufs), soSlots)
	}
	if offsets != nil && len(offsets) != len(bufs) {
		return c.dropCall(call, obj, "pOffsets has %d entries, NumBuffers is %d", len(offsets), len(bufs))
	}
	for i, b := range bufs {
		if b != nil && (b.Kind != KindBuffer || !b.Desc.BindFlags.Has(ddi.BindStreamOutput)) {
			return c.dropCall(call, b.name, "ppSOTargets[%d]: %s was not created as a buffer with BindFlags STREAM_OUTPUT", i, b.name)
		}
	}
	bufs = slices.Clone(bufs)
	offs := make([]uint32, len(bufs))
	copy(offs, offsets)
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.SOSetTargets(bufs, offs) }, func() {
		for i := range c.so {
			var b *Resource
			if i < len(bufs) {
				b = bufs[i]
			}
			bind(c, &c.so[i], b, nilRes)
		}
	}, anys(bufs)...); ok {
		return err
	}
	return dc.simple(call, obj, asObjects(bufs), func(w ddiCall) {
		hs := make([]ddi.HRESOURCE, len(bufs))
		for i := range c.so {
			var b *Resource
			if i < len(bufs) {
				b = bufs[i]
			}
			bind(c, &c.so[i], b, nilRes)
		}
		for i, b := range bufs {
			hs[i] = c.resH(b)
		}
		w.SoSetTargets(c.h, hs, offs)
	})
}

// SOGetTargets is ID3D11DeviceContext::SOGetTargets: the first n targets
// (each AddRef'd, as D3D11's getters do).
func (c *DeviceContext) SOGetTargets(n uint32) ([]*Resource, error) {
	if n > soSlots {
		return nil, c.dropCall("SOGetTargets", "", "NumBuffers %d: at most %d (D3D11_SO_BUFFER_SLOT_COUNT)", n, soSlots)
	}
	out := slices.Clone(c.so[:n])
	for _, b := range out {
		if b != nil {
			b.AddRef()
		}
	}
	return out, nil
}

// DrawAuto is ID3D11DeviceContext::DrawAuto: the vertices the
// stream-output buffer bound at input slot 0 holds, its filled size over
// the slot's stride, read by the GPU when the draw runs.
func (c *DeviceContext) DrawAuto() error {
	const call = "DrawAuto"
	if stop, err := c.checkArgs(call); stop {
		return err
	}
	dc, err := c.streamContext(call, "")
	if err != nil {
		return err
	}
	vb := c.vb[0]
	switch {
	case vb == nil:
		return c.dropCall(call, "", "no vertex buffer at input slot 0: DrawAuto draws what a stream-output buffer bound there holds")
	case !vb.Desc.BindFlags.Has(ddi.BindStreamOutput):
		return c.dropCall(call, vb.name, "the vertex buffer at input slot 0, %s, was not created with BindFlags STREAM_OUTPUT", vb.name)
	}
	if err := dc.checkLinkage(call); err != nil {
		return err
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.DrawAuto() }, nil); ok {
		return err
	}
	return dc.simple(call, vb.name, nil, func(w ddiCall) { w.DrawAuto(c.h) })
}

func (w ddiCall) stream() ddi.StreamOutput {
	u, _ := w.umd.(ddi.StreamOutput)
	return u
}

func (w ddiCall) CreateGeometryShaderWithStreamOutput(h ddi.HDEVICE, a *ddi.SOShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreateGeometryShaderWithStreamOutput")
	w.watchErrors()
	if u := w.stream(); u != nil {
		u.CreateGeometryShaderWithStreamOutput(h, a, s, rt)
	}
	err := w.reportedError("CreateGeometryShaderWithStreamOutput")
	sp.end(err)
	return err
}

func (w ddiCall) SoSetTargets(h ddi.HDEVICE, bufs []ddi.HRESOURCE, offsets []uint32) {
	sp := w.enter("SoSetTargets")
	if u := w.stream(); u != nil {
		u.SoSetTargets(h, bufs, offsets)
	}
	sp.end(nil)
}

func (w ddiCall) DrawAuto(h ddi.HDEVICE) {
	sp := w.enter("DrawAuto")
	if u := w.stream(); u != nil {
		u.DrawAuto(h)
	}
	sp.end(nil)
}
