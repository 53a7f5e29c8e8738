package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/machine"
	"d3dsim/gpu/isa"
)

// State is a context's pipeline state at one event, per stage: what the
// runtime holds (its bindings, with each object's descriptor) beside what
// the UMD encoded for it (the SET_* packets of the DMA buffer the state
// reaches the GPU in, with the allocations they name and their patch
// locations).
type State struct {
	Event   uint64  `json:"event"` // the event asked about
	Call    CallRef `json:"call"`  // the API call it belongs to
	Context string  `json:"context"`
	Stages  []Stage `json:"stages"`
	// Encoded says where the UMD's side comes from: the DMA buffer and the
	// packet the state applies to, or why there is none.
	Encoded Encoded `json:"encoded"`
}

// CallRef names one API call.
type CallRef struct {
	Seq    uint64 `json:"seq"`
	Name   string `json:"name"`
	Line   int    `json:"line"`
	Ctx    string `json:"ctx,omitempty"`
	Failed bool   `json:"failed,omitempty"`
	Index  int    `json:"index"` // its place among the run's calls (0 the first)
}

// Stage is one stage's rows.
type Stage struct {
	Name string `json:"name"` // IA, VS, PS, RS, OM
	Rows []Row  `json:"rows"`
}

// Row is one binding: the runtime's side and the UMD's.
type Row struct {
	Binding string  `json:"binding"`          // "vertex buffer 0", "blend state"
	Object  string  `json:"object,omitempty"` // the API object bound ("" none)
	Debug   string  `json:"debug,omitempty"`  // its debug name (WKPDID_D3DDebugObjectName)
	Handle  string  `json:"handle,omitempty"` // its driver handle (h5)
	Value   string  `json:"value"`            // what the runtime holds, in words
	Fields  []Field `json:"fields,omitempty"` // the descriptor's fields, a layout's elements
	// Allocations are the kernel allocations behind the object (a3).
	Allocations []string `json:"allocations,omitempty"`
	// Packets are the SET_* packets the UMD encoded for the binding,
	// the latest of each kind before the call's own packet.
	Packets []Packet `json:"packets,omitempty"`
	// Resource is the resource the binding reads or writes, for the
	// resource viewer ("" none).
	Resource string `json:"resource,omitempty"`
	// CBuffer is a constant buffer's layout from the shader's reflection
	// (name and variables), for decoding its contents.
	CBuffer *CBufferLayout `json:"cbuffer,omitempty"`
}

// Field is one named value.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Packet is one packet of a DMA buffer.
type Packet struct {
	DMA  uint64 `json:"dma"`
	Word int    `json:"word"` // its first word
	Text string `json:"text"`
	// Addresses are its address fields: the allocation each names and
	// the patch location DxgkDdiPatch writes it at.
	Addresses []Address `json:"addresses,omitempty"`
}

// Address is one address field of a packet.
type Address struct {
	Allocation string `json:"allocation"` // a3 ("" for an unbound slot)
	ListIndex  int    `json:"listIndex"`  // its allocation-list entry (-1: unbound)
	Offset     uint32 `json:"offset"`     // the byte offset in it
	Write      bool   `json:"write,omitempty"`
	Patch      int    `json:"patch"` // the patch location: the DMA buffer's word DxgkDdiPatch writes the address at (-1: none)
}

// Encoded is where the UMD's side of a state comes from.
type Encoded struct {
	DMA      uint64 `json:"dma,omitempty"`   // the DMA buffer (0: not submitted yet, or none)
	Fence    uint64 `json:"fence,omitempty"` // the context fence that signals it
	Word     int    `json:"word"`            // the call's own packet (the draw), -1: none
	Packet   string `json:"packet,omitempty"`
	Pending  bool   `json:"pending,omitempty"` // still in the UMD's command buffer (read from there)
	Note     string `json:"note,omitempty"`    // why there is no UMD side
	Patches  int    `json:"patches"`
	AllocLen int    `json:"allocations"`
}

// stageRow is one row of the table of bindings: which stage it belongs to
// and how to read it from the runtime's bindings. A new stage or binding
// (GS, HS, DS, CS, UAVs) is a new row here.
type stageRow struct {
	stage string
	rows  func(s *stateCtx) []Row
}

// stateRows is the table, in pipeline order.
var stateRows = []stageRow{
	{"IA", iaRows},
	{"VS", func(s *stateCtx) []Row { return s.shaderRows("vs", s.b.VS, &s.b.Stages[d3d11.StageVS]) }},
	{"RS", rsRows},
	{"PS", func(s *stateCtx) []Row { return s.shaderRows("ps", s.b.PS, &s.b.Stages[d3d11.StagePS]) }},
	{"OM", omRows},
	{"Predication", predicationRows},
}

// stateCtx is what the rows are made from.
type stateCtx struct {
	j       *Journal
	b       *d3d11.Bindings
	packets map[string][]Packet // the UMD's packets by key (packetKey)
}

// State answers the state of the context the call at event seq was made
// on (the immediate context for a call on another object; ctx names one
// explicitly: IC, DC1, ...).
func (j *Journal) State(seq uint64, ctx string) (*State, error) {
	k := j.callAt(seq)
	if k < 0 {
		return nil, fmt.Errorf("inspect: no API call at or before event %d", seq)
	}
	c := j.calls.at(k)
	ci := c.ctx
	if ctx != "" {
		ci = -1
		for i, x := range j.ctxs {
			if x.Name() == ctx && (c.dev < 0 || j.devIdx[x.Device()] == c.dev) {
				ci = int16(i)
			}
		}
		if ci < 0 {
			return nil, fmt.Errorf("inspect: no context %s at event %d", ctx, seq)
		}
	}
	if ci < 0 && c.dev >= 0 {
		// (the device's immediate context is journaled once it has made
		// a call: before that, as at D3D11CreateDevice itself, there is
		// no state to show)
		if i, ok := j.ctxIdx[j.devs[c.dev].ImmediateContext()]; ok {
			ci = i
		}
	}
	st := &State{Event: seq, Call: j.callRef(k)}
	si := int32(-1)
	if ci >= 0 {
		si = j.stateAt(ci, k)
		st.Context = j.ctxs[ci].Name()
	}
	if si < 0 {
		return nil, fmt.Errorf("inspect: the call at event %d has no context whose state the journal holds", seq)
	}
	s := &stateCtx{j: j, b: j.states[si].b}
	st.Encoded = j.encoded(k, ci, s)
	for _, sr := range stateRows {
		st.Stages = append(st.Stages, Stage{Name: sr.stage, Rows: sr.rows(s)})
	}
	return st, nil
}

// callRef names call k.
func (j *Journal) callRef(k int) CallRef {
	c := j.calls.at(k)
	r := CallRef{Seq: c.seq, Name: j.methods[c.method], Line: int(c.line), Failed: c.failed, Index: k}
	if c.ctx >= 0 {
		r.Ctx = j.ctxs[c.ctx].Name()
	}
	return r
}

// encoded finds the packets the UMD encoded for call k's state: those of
// the command buffer the call's packets went into, up to its last packet.
func (j *Journal) encoded(k int, ci int16, s *stateCtx) Encoded {
	c := j.calls.at(k)
	e := Encoded{Word: -1}
	if ci < 0 || j.ctxs[ci] != j.ctxs[ci].Device().ImmediateContext() {
		e.Note = "a deferred context records into a command list: the UMD encodes its state when ExecuteCommandList splices the list into the immediate context's command buffer"
		return e
	}
	if c.dev < 0 {
		e.Note = "the call's device is not known"
		return e
	}
	words, list, dma := j.commandBuffer(c.dev, c.sub)
	switch {
	case dma != nil:
		e.DMA, e.Fence = dma.info.ID, dma.info.Fence
		e.Patches, e.AllocLen = len(dma.info.Patches), len(dma.info.Allocations)
		if words == nil {
			e.Note = fmt.Sprintf("DMA buffer %d was let go (the journal keeps the newest %d MiB of DMA buffers)", dma.info.ID, 4*MaxDMAWords>>20)
			return e
		}
	case words != nil:
		e.Pending = true
		e.AllocLen = len(list)
	default:
		e.Note = "the command buffer the call went into is neither submitted nor the one being filled now"
		return e
	}
	pkts, _ := isa.Decode(words)
	// The packets before the call's end: the state in effect for its own
	// (last) packet.
	end := int(c.words)
	var own *isa.Packet
	latest := map[string][]Packet{}
	for i := range pkts {
		p := &pkts[i]
		if p.At >= end {
			break
		}
		if !isState(p.Op) {
			own = p
			continue
		}
		key := packetKey(*p)
		pk := j.packet(*p, dma, list, e.DMA)
		if p.Op == isa.OpSetBlend {
			// SET_BLEND sets every target's blend.
			for k := range isa.MaxRenderTargets {
				latest["blend"+strconv.Itoa(k)] = []Packet{pk}
			}
		}
		latest[key] = []Packet{pk}
	}
	if own != nil && prevCallEnd(j, k) <= own.At {
		e.Word, e.Packet = own.At, own.String()
	}
	s.packets = latest
	return e
}

// prevCallEnd is where the device's recording stood before call k (0:
// a fresh buffer).
func prevCallEnd(j *Journal, k int) int {
	c := j.calls.at(k)
	for i := k - 1; i >= 0; i-- {
		p := j.calls.at(i)
		if p.dev == c.dev {
			if p.sub != c.sub {
				return 0
			}
			return int(p.words)
		}
	}
	return 0
}

// commandBuffer is submission sub of device di: its DMA buffer if it was
// submitted, else the immediate context's command buffer being filled
// now, if it is that one.
func (j *Journal) commandBuffer(di int16, sub uint32) (words []uint32, list []machine.AllocationEntry, dma *dmaRec) {
	for i := len(j.dmas) - 1; i >= 0; i-- {
		d := &j.dmas[i]
		if d.dev == di && !d.info.Present && d.sub == sub {
			return d.info.Words, nil, d
		}
	}
	dev := j.devs[di]
	if _, now, _, ok := machine.Recording(dev); ok && uint32(now) == sub {
		w, l := machine.Pending(dev)
		return w, l, nil
	}
	return nil, nil, nil
}

// packet describes packet p of a DMA buffer (dma nil: of the UMD's command
// buffer, whose address words are list-relative).
func (j *Journal) packet(p isa.Packet, dma *dmaRec, list []machine.AllocationEntry, id uint64) Packet {
	out := Packet{DMA: id, Word: p.At, Text: p.String()}
	for _, f := range isa.AddrFields(p.Op) {
		w := p.At + 1 + f
		a := Address{ListIndex: -1, Patch: -1}
		if dma != nil {
			for _, pl := range dma.info.Patches {
				if int(pl.PatchOffset) == w {
					a.Patch = w
					a.ListIndex = int(pl.AllocationIndex)
					a.Offset = pl.AllocationOffset
					if a.ListIndex < len(dma.info.Allocations) {
						e := dma.info.Allocations[a.ListIndex]
						a.Allocation, a.Write = "a"+strconv.FormatUint(uint64(e.Allocation), 10), e.WriteOperation
					}
				}
			}
		} else if addr := p.Addr(f); addr != isa.NullAddress {
			a.ListIndex, a.Offset = int(uint32(addr)), uint32(addr>>32)
			if a.ListIndex < len(list) {
				a.Allocation, a.Write = "a"+strconv.FormatUint(uint64(list[a.ListIndex].Allocation), 10), list[a.ListIndex].WriteOperation
			}
		}
		out.Addresses = append(out.Addresses, a)
	}
	return out
}

// isState reports whether op sets pipeline state (it does not draw, clear
// or copy).
func isState(op isa.Opcode) bool {
	s := op.String()
	return strings.HasPrefix(s, "SET_")
}

// packetKey names the binding a SET_* packet sets: the rows name the keys
// of their packets.
func packetKey(p isa.Packet) string {
	a := p.Args
	arg := func(i int) string {
		if i < len(a) {
			return strconv.FormatUint(uint64(a[i]), 10)
		}
		return "?"
	}
	stage := func(i int) string {
		if i < len(a) && a[i] == isa.StagePS {
			return "ps"
		}
		return "vs"
	}
	switch p.Op {
	case isa.OpSetRT:
		return "rt0"
	case isa.OpSetRTSlot:
		return "rt" + arg(0)
	case isa.OpSetDS:
		return "ds"
	case isa.OpSetRTLayers: // a layered target's slot (isa/layers.go)
		if len(a) > 0 && a[0] == isa.DSLayers {
			return "ds"
		}
		return "rt" + arg(0)
	case isa.OpSetVB:
		return "vb" + arg(0)
	case isa.OpSetIB:
		return "ib"
	case isa.OpSetCB:
		return stage(0) + "cb" + arg(1)
	case isa.OpSetTex:
		return "pstex" + arg(0)
	case isa.OpSetScissor:
		return "scissor" + arg(0)
	case isa.OpSetViewportN:
		return "viewport" + arg(0)
	case isa.OpSetDepthBias:
		return "depthbias"
	case isa.OpSetClipDist: // the last stage's clip and cull distances, which the rasterizer takes
		return "clipdist"
	case isa.OpSetTexStage:
		return stage(0) + "tex" + arg(1)
	case isa.OpSetSampler:
		return "pssamp" + arg(0)
	case isa.OpSetSamplerStage:
		return stage(0) + "samp" + arg(1)
	case isa.OpSetProgram:
		return stage(0) + "program"
	case isa.OpSetLayout:
		return "layout"
	case isa.OpSetTopology:
		return "topology"
	case isa.OpSetViewport:
		return "viewport0"
	case isa.OpSetRaster:
		return "raster"
	case isa.OpSetBlend:
		return "blend"
	case isa.OpSetBlendRT:
		return "blend" + arg(0)
	case isa.OpSetBlendFactor:
		return "blendfactor"
	case isa.OpSetDepth:
		return "depth"
	case isa.OpSetStencil:
		return "stencil"
	}
	return strings.ToLower(p.Op.String())
}

// pk is the packets of the given keys.
func (s *stateCtx) pk(keys ...string) []Packet {
	var out []Packet
	seen := map[[2]uint64]bool{}
	for _, k := range keys {
		for _, p := range s.packets[k] {
			if id := [2]uint64{p.DMA, uint64(p.Word)}; !seen[id] {
				seen[id] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// object fills a row's object, handle and allocations.
func (s *stateCtx) object(r *Row, o d3d11.Object) {
	if o == nil {
		return
	}
	r.Object = o.Name()
	r.Debug = d3d11.DebugNameOf(o)
	if h := d3d11.Handle(o); h != 0 {
		r.Handle = "h" + strconv.FormatUint(uint64(h), 10)
	}
	var res *d3d11.Resource
	switch x := o.(type) {
	case *d3d11.Resource:
		res = x
	case *d3d11.View:
		res = x.Res
	}
	if res != nil {
		r.Resource = res.Name()
		if res.Alive() {
			for _, a := range s.j.mach.Allocations(res) {
				r.Allocations = append(r.Allocations, "a"+strconv.FormatUint(uint64(a), 10))
			}
		}
	}
}

func iaRows(s *stateCtx) []Row {
	b := s.b
	var rows []Row
	lr := Row{Binding: "input layout", Value: "none", Packets: s.pk("layout")}
	if b.Layout != nil {
		s.object(&lr, b.Layout)
		lr.Value = fmt.Sprintf("%d elements", len(b.Layout.Elements))
		for i, e := range b.Layout.Elements {
			off := strconv.FormatUint(uint64(e.AlignedByteOffset), 10)
			if e.AlignedByteOffset == d3d11.AppendAlignedElement {
				off = "APPEND_ALIGNED_ELEMENT"
			}
			v := fmt.Sprintf("%s%d %s slot %d offset %s", e.SemanticName, e.SemanticIndex, d3d11.FormatName(e.Format), e.InputSlot, off)
			if e.PerInstance {
				v += fmt.Sprintf(" per instance (step %d)", e.InstanceDataStepRate)
			}
			lr.Fields = append(lr.Fields, Field{Name: "element " + strconv.Itoa(i), Value: v})
		}
	}
	rows = append(rows, lr)
	for i := range b.VB {
		if b.VB[i] == nil && s.packets["vb"+strconv.Itoa(i)] == nil {
			continue
		}
		r := Row{Binding: "vertex buffer " + strconv.Itoa(i), Value: "none", Packets: s.pk("vb" + strconv.Itoa(i))}
		if b.VB[i] != nil {
			s.object(&r, b.VB[i])
			r.Value = fmt.Sprintf("stride %d, offset %d, %d bytes", b.VBStride[i], b.VBOffset[i], b.VB[i].Desc.Width)
		}
		rows = append(rows, r)
	}
	ib := Row{Binding: "index buffer", Value: "none", Packets: s.pk("ib")}
	if b.IB != nil {
		s.object(&ib, b.IB)
		ib.Value = fmt.Sprintf("%s, offset %d", d3d11.FormatName(b.IBFormat), b.IBOffset)
	}
	rows = append(rows, ib)
	rows = append(rows, Row{Binding: "primitive topology", Value: enumName("Topology", uint32(b.Topology)), Packets: s.pk("topology")})
	return rows
}

// shaderRows are a shader stage's rows: the shader, its constant buffers
// (with the layout its reflection gives), its shader resource views and
// samplers.
func (s *stateCtx) shaderRows(stage string, sh *d3d11.Shader, st *d3d11.StageBindings) []Row {
	cbs, srvs, samps := st.CB[:], st.SRV[:], st.Sampler[:]
	r := Row{Binding: "shader", Value: "none", Packets: s.pk(stage + "program")}
	var refl *reflection
	if sh != nil {
		s.object(&r, sh)
		r.Value = shaderSummary(sh)
		refl = reflectShader(sh.Bytecode())
	}
	rows := []Row{r}
	for i, cb := range cbs {
		key := stage + "cb" + strconv.Itoa(i)
		lay := refl.cbuffer(i)
		if cb == nil && s.packets[key] == nil && lay == nil {
			continue
		}
		row := Row{Binding: "constant buffer " + strconv.Itoa(i), Value: "none", Packets: s.pk(key), CBuffer: lay}
		if cb != nil {
			s.object(&row, cb)
			row.Value = fmt.Sprintf("%d bytes", cb.Desc.Width)
		}
		if lay != nil {
			row.Value += fmt.Sprintf("; the shader reads cbuffer %s (%d bytes)", lay.Name, lay.Size)
		}
		rows = append(rows, row)
	}
	for i, v := range srvs {
		key := stage + "tex" + strconv.Itoa(i)
		if v == nil && s.packets[key] == nil {
			continue
		}
		row := Row{Binding: "shader resource " + strconv.Itoa(i), Value: "none", Packets: s.pk(key)}
		if v != nil {
			s.object(&row, v)
			row.Value = fmt.Sprintf("view of %s as %s (%dx%d)", v.Res.Name(), d3d11.FormatName(v.Format), v.Res.Desc.Width, v.Res.Desc.Height)
		}
		rows = append(rows, row)
	}
	for i, sm := range samps {
		key := stage + "samp" + strconv.Itoa(i)
		if sm == nil && s.packets[key] == nil {
			continue
		}
		row := Row{Binding: "sampler " + strconv.Itoa(i), Value: "none", Packets: s.pk(key)}
		if sm != nil {
			s.object(&row, sm)
			row.Value, row.Fields = descFields(sm.Desc())
		}
		rows = append(rows, row)
	}
	return rows
}

func shaderSummary(sh *d3d11.Shader) string {
	parts := []string{strings.ToUpper(sh.Stage[:1]) + "S"}
	if sh.Inputs != nil {
		parts = append(parts, fmt.Sprintf("%d inputs", len(sh.Inputs.Elements)))
	}
	if sh.Outputs != nil {
		parts = append(parts, fmt.Sprintf("%d outputs", len(sh.Outputs.Elements)))
	}
	return strings.Join(parts, ", ")
}

func rsRows(s *stateCtx) []Row {
	b := s.b
	var rows []Row
	if len(b.Viewports) == 0 {
		rows = append(rows, Row{Binding: "viewport", Value: "none set: a draw covers nothing", Packets: s.pk("viewport0")})
	}
	for i, v := range b.Viewports {
		rows = append(rows, Row{Binding: "viewport " + strconv.Itoa(i), Packets: s.pk("viewport" + strconv.Itoa(i)),
			Value: fmt.Sprintf("%g %g %gx%g, depth %g..%g", v.X, v.Y, v.Width, v.Height, v.MinDepth, v.MaxDepth)})
	}
	for i, r := range b.Scissors {
		rows = append(rows, Row{Binding: "scissor " + strconv.Itoa(i), Packets: s.pk("scissor" + strconv.Itoa(i)),
			Value: fmt.Sprintf("left %d top %d right %d bottom %d", r.Left, r.Top, r.Right, r.Bottom)})
	}
	rs := Row{Binding: "rasterizer state", Packets: s.pk("raster", "depthbias", "clipdist")}
	if b.Raster != nil {
		s.object(&rs, b.Raster)
		rs.Value, rs.Fields = descFields(b.Raster.Desc())
	} else {
		rs.Value, rs.Fields = descFields(ddi.DefaultRasterizerDesc())
		rs.Value = "default: " + rs.Value
	}
	return append(rows, rs)
}

func omRows(s *stateCtx) []Row {
	b := s.b
	var rows []Row
	for i, v := range b.RTV {
		key := "rt" + strconv.Itoa(i)
		if v == nil && s.packets[key] == nil && i > 0 {
			continue
		}
		r := Row{Binding: "render target " + strconv.Itoa(i), Value: "none", Packets: s.pk(key)}
		if v != nil {
			s.object(&r, v)
			r.Value = fmt.Sprintf("view of %s as %s (%dx%d)", v.Res.Name(), d3d11.FormatName(v.Format), v.Res.Desc.Width, v.Res.Desc.Height)
		}
		rows = append(rows, r)
	}
	ds := Row{Binding: "depth-stencil view", Value: "none", Packets: s.pk("ds")}
	if b.DSV != nil {
		s.object(&ds, b.DSV)
		ds.Value = fmt.Sprintf("view of %s as %s (%dx%d)", b.DSV.Res.Name(), d3d11.FormatName(b.DSV.Format), b.DSV.Res.Desc.Width, b.DSV.Res.Desc.Height)
	}
	rows = append(rows, ds)
	bl := Row{Binding: "blend state", Packets: s.pk("blend0", "blend1", "blend2", "blend3", "blend4", "blend5", "blend6", "blend7", "blendfactor")}
	var desc any = ddi.DefaultBlendDesc()
	if b.Blend != nil {
		s.object(&bl, b.Blend)
		desc = b.Blend.Desc()
	}
	bl.Value, bl.Fields = descFields(desc)
	if b.Blend == nil {
		bl.Value = "default: " + bl.Value
	}
	bl.Fields = append(bl.Fields, Field{"BlendFactor", fmt.Sprintf("%g %g %g %g", b.BlendFactor[0], b.BlendFactor[1], b.BlendFactor[2], b.BlendFactor[3])},
		Field{"SampleMask", fmt.Sprintf("%#x", b.SampleMask)})
	rows = append(rows, bl)
	dr := Row{Binding: "depth-stencil state", Packets: s.pk("depth", "stencil")}
	desc = ddi.DefaultDepthStencilDesc()
	if b.Depth != nil {
		s.object(&dr, b.Depth)
		desc = b.Depth.Desc()
	}
	dr.Value, dr.Fields = descFields(desc)
	if b.Depth == nil {
		dr.Value = "default: " + dr.Value
	}
	dr.Fields = append(dr.Fields, Field{"StencilRef", strconv.FormatUint(uint64(b.StencilRef), 10)})
	rows = append(rows, dr)
	return rows
}

// predicationRows is SetPredication's predicate: the GPU skips the draws,
// clears, copies and updates while its data equals the value (the
// SET_PREDICATION packets the UMD sent).
func predicationRows(s *stateCtx) []Row {
	b := s.b
	r := Row{Binding: "predicate", Value: "none: every command is performed", Packets: s.pk("set_predication")}
	if b.Predicate != nil {
		s.object(&r, b.Predicate)
		r.Value = fmt.Sprintf("%s (%s): commands skipped while its data is %s", b.Predicate.Name(), b.Predicate.Type,
			map[bool]string{false: "FALSE", true: "TRUE"}[b.PredicateValue])
	}
	return []Row{r}
}
