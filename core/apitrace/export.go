package apitrace

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
	"d3dsim/core/scenario"
)

// Exporting a run: each API call a scenario's run makes becomes the
// D3D11 or DXGI call a Windows program would make, with the arguments
// apitrace's D3D11 tracer records for it (dxgitrace.py and specs/d3d11.py
// in apitrace's sources): descriptors as structs behind pointers, initial
// data, UpdateSubresource data and mapped writes as blobs (a mapped write
// is a fake memcpy to the address Map returned, as the tracer records the
// bytes an application wrote), shader bytecode as a repr of the
// D3DDisassemble text and the bytes. Object pointers are deterministic:
// the nth object made is at 0x10000 + 0x100·n. What D3D11 has no call for
// (an option, an inject, a driver-private Escape, a void call the runtime
// dropped) goes in as a D3DPERF_SetMarker whose text starts "d3dsim: ",
// which the importer reads back and replay tools ignore.

// MarkerPrefix starts the text of the markers that carry what D3D11 has no
// call for.
const MarkerPrefix = "d3dsim: "

// Exporter writes a run as an apitrace capture. Make one with NewExporter,
// have the run report to Observer(), and Close it when the run is done.
type Exporter struct {
	w       *Writer
	threads map[string]uint64
	addr    map[any]uint64
	typ     map[any]string
	refs    map[any]int
	code    map[any][]byte    // a vertex shader's bytecode (CreateInputLayout VS)
	dims    map[any][3]uint32 // a texture's width, height and DXGI format
	size    map[any]uint32    // a buffer's size
	maps    map[any]mapping   // mapped resources
	objects uint64
	heap    uint64
	// annDepth and perfDepth count the open BeginEvent groups, per
	// context and of D3DPERF, for the values BeginEvent and EndEvent return.
	annDepth  map[any]int64
	perfDepth int64
	factory   uint64
	hwnds     uint64
	maxBytes  int64
	err       error

	// Dropped counts scenario calls that have no D3D11 form and no
	// marker: a Write to memory that is not mapped.
	Dropped int
}

type mapping struct {
	addr uint64
	size int
}

// ExportLimit bounds the stream an export writes (a scenario in a loop
// can make calls without end; the run's own budgets stop it long before).
const ExportLimit = 512 << 20

// NewExporter starts a capture of a run of script: the process name
// apitrace's header carries, then the script's options as markers.
func NewExporter(w io.Writer, script *scenario.Script, name string) *Exporter {
	e := &Exporter{w: NewWriter(w, []Property{{"process.name", name}}), threads: map[string]uint64{}, addr: map[any]uint64{},
		typ: map[any]string{}, refs: map[any]int{}, code: map[any][]byte{}, dims: map[any][3]uint32{}, size: map[any]uint32{},
		maps: map[any]mapping{}, heap: 0x7f000000, maxBytes: ExportLimit}
	for _, o := range script.Options {
		e.marker("main", "option "+o.Key+"="+o.Value)
	}
	return e
}

// SetLimit bounds the stream the capture may write (ExportLimit by
// default): past it the capture stops with an error.
func (e *Exporter) SetLimit(n int64) { e.maxBytes = n }

// Observer is what the run reports to.
func (e *Exporter) Observer() *scenario.Observer {
	return &scenario.Observer{Call: e.call, Inject: e.inject, Expect: e.expect}
}

// Close releases the factory the capture created and ends the stream.
func (e *Exporter) Close() error {
	if e.factory != 0 {
		e.write(0, fnFactoryRelease, []Arg{{0, PtrV(e.factory)}}, nil, ptrU(UintV(0)), 0)
	}
	if err := e.w.Close(); err != nil && e.err == nil {
		e.err = err
	}
	return e.err
}

// Err is the first error writing met (the limit, or the writer's).
func (e *Exporter) Err() error { return e.err }

// Calls is the number of calls written so far.
func (e *Exporter) Calls() uint64 { return e.w.Calls() }

func ptrU(v Value) *Value { return &v }

func (e *Exporter) thread(name string) uint64 {
	n, ok := e.threads[name]
	if !ok {
		n = uint64(len(e.threads))
		e.threads[name] = n
	}
	return n
}

// write writes one call: its enter event with the input arguments and its
// leave event with the output ones and the return value.
func (e *Exporter) write(thread uint64, sig *FuncSig, in, out []Arg, ret *Value, flags CallFlags) {
	if e.err != nil {
		return
	}
	if e.w.Streamed > e.maxBytes {
		e.err = fmt.Errorf("apitrace: the capture passed %d MiB after %d calls, the limit", e.maxBytes>>20, e.w.Calls())
		return
	}
	no := e.w.Enter(thread, sig, in, flags, nil)
	e.w.Leave(no, out, ret)
}

// obj is the pointer value of an object (NULL for nil), giving an object
// seen for the first time the next address.
func (e *Exporter) obj(o any) Value {
	if o == nil {
		return Null
	}
	a, ok := e.addr[o]
	if !ok {
		e.objects++
		a = 0x10000 + 0x100*e.objects
		e.addr[o] = a
		e.typ[o] = scenario.TypeOf(o)
	}
	return PtrV(a)
}

// made notes an object a call created: one reference.
func (e *Exporter) made(o any) Value {
	if o == nil {
		return Null
	}
	v := e.obj(o)
	e.refs[o] = 1
	return v
}

func (e *Exporter) marker(thread, text string) {
	e.write(e.thread(thread), fnD3DPERFSetMarker, []Arg{{0, UintV(0)}, {1, WStrV(MarkerPrefix + text)}}, nil, nil, 0)
}

// markerRef writes an object reference in a marker: <0xADDR>.
func (e *Exporter) markerRef(o any) string {
	return "<0x" + fmt.Sprintf("%x", e.obj(o).Uint) + ">"
}

func (e *Exporter) inject(r *scenario.InjectRecord) {
	var b strings.Builder
	b.WriteString("inject " + string(r.Stmt.Fault))
	for _, a := range r.Stmt.Args {
		b.WriteString(" " + a.Key + "=")
		text := a.Value.Text
		name, rest := text, ""
		if i := strings.IndexByte(text, '.'); i >= 0 {
			name, rest = text[:i], text[i:]
		}
		if o, ok := r.Objects[name]; ok {
			text = e.markerRef(o) + rest
		}
		b.WriteString(text)
	}
	e.marker(r.Thread, b.String())
}

// expect writes an expect statement that reads a resource back as a
// marker: an import keeps the check and the wait for the GPU it makes. An
// expected violation goes the same way: the capture of a run that breaks a
// rule on purpose (an inject's driver bug) replays with the same verdict.
func (e *Exporter) expect(r *scenario.ExpectRecord) {
	if e.err != nil {
		return
	}
	if r.Stmt.Kind == scenario.ExpectViolation {
		e.marker(r.Thread, r.Stmt.Format(""))
		return
	}
	if r.Object == nil {
		return
	}
	e.marker(r.Thread, r.Stmt.Format(e.markerRef(r.Object)))
}

// call writes one call of the run, by the table of mappings.
func (e *Exporter) call(r *scenario.CallRecord) {
	if e.err != nil {
		return
	}
	m := exportMappings[r.TargetType+"."+r.Method]
	if m == nil {
		m = exportMappings["."+r.Method] // Release, AddRef on any object
	}
	th := e.thread(r.Thread)
	if m == nil {
		// No D3D11 form (a driver-private call): a marker the importer reads back.
		e.marker(r.Thread, e.stmtText(r))
		return
	}
	m(e, th, r)
	if r.Dropped {
		e.marker(r.Thread, "expect hr == DROPPED")
	}
}

// stmtText is a call as a scenario statement, objects by address.
func (e *Exporter) stmtText(r *scenario.CallRecord) string {
	var b strings.Builder
	if r.Target != nil {
		b.WriteString(e.markerRef(r.Target) + ".")
	}
	b.WriteString(r.Method)
	for _, a := range r.Args {
		if !a.Given {
			continue
		}
		b.WriteByte(' ')
		if !a.Positional {
			b.WriteString(a.Name + "=")
		}
		if a.Kind == scenario.ParamObject && a.Obj != nil {
			b.WriteString(e.markerRef(a.Obj))
		} else {
			b.WriteString(a.Value.Text)
		}
	}
	return b.String()
}

// hr is the return value of an HRESULT method.
func hr(r *scenario.CallRecord) *Value { v := hrValue(r.HR); return &v }

// ok says whether the call succeeded: the tracer writes output arguments
// only then.
func succeeded(r *scenario.CallRecord) bool { return !r.HR.Failed() }

func (e *Exporter) this(r *scenario.CallRecord) Arg { return Arg{0, e.obj(r.Target)} }

// outObj is an output object argument (ppBuffer = &<addr>), written on
// success only.
func (e *Exporter) outObj(r *scenario.CallRecord, n int, i int) []Arg {
	if !succeeded(r) || i >= len(r.Results) || r.Results[i] == nil {
		return nil
	}
	return []Arg{{n, ArrayV(e.made(r.Results[i]))}}
}

func uintArg(r *scenario.CallRecord, name string) uint64 {
	if a := r.Arg(name); a != nil {
		return uint64(a.Num)
	}
	return 0
}

func floatArg(r *scenario.CallRecord, name string) float32 {
	if a := r.Arg(name); a != nil {
		return float32(a.Num)
	}
	return 0
}

func bitsArg(r *scenario.CallRecord, name string, def uint32) uint32 {
	if a := r.Arg(name); a != nil && a.Given {
		return a.Bits
	}
	return def
}

func boolArg(r *scenario.CallRecord, name string, def bool) bool {
	if a := r.Arg(name); a != nil && a.Given {
		return a.Bool
	}
	return def
}

func boolV(b bool) Value {
	if b {
		return EnumV(sigBOOL, 1)
	}
	return EnumV(sigBOOL, 0)
}

func objArg(r *scenario.CallRecord, name string) any {
	if a := r.Arg(name); a != nil {
		return a.Obj
	}
	return nil
}

// formatSize is the bytes per element of a DXGI format (0 for the ones
// the simulator does not have).
func formatSize(f uint32) uint32 { return d3d11.FormatSize(d3d11.Format(f)) }

// exportFunc writes one scenario method's calls.
type exportFunc func(e *Exporter, th uint64, r *scenario.CallRecord)

func expCreateDevice(e *Exporter, th uint64, r *scenario.CallRecord) {
	in := []Arg{{0, Null}, {1, EnumV(sigDriverType, 1)}, {2, Null}, {3, BitmaskV(sigCreateFlag, uint64(bitsArg(r, "Flags", 0)))},
		{4, Null}, {5, UintV(0)}, {6, UintV(7)}}
	var out []Arg
	if succeeded(r) && len(r.Results) == 2 {
		out = []Arg{{7, ArrayV(e.made(r.Results[0]))}, {8, ArrayV(EnumV(sigFeatureLevel, 0xb000))}, {9, ArrayV(e.made(r.Results[1]))}}
	}
	e.write(th, fnD3D11CreateDevice, in, out, hr(r), 0)
}

func expCreateSwapChain(e *Exporter, th uint64, r *scenario.CallRecord) {
	if e.factory == 0 {
		e.objects++
		e.factory = 0x10000 + 0x100*e.objects
		e.write(th, fnCreateDXGIFactory, []Arg{{0, guidValue("IID_IDXGIFactory")}}, []Arg{{1, ArrayV(PtrV(e.factory))}}, ptrU(hrValue(hresult.S_OK)), 0)
	}
	e.hwnds++
	w, h := uint32(uintArg(r, "Width")), uint32(uintArg(r, "Height"))
	format := uint32(bitsArg(r, "Format", 28))
	desc := StructV(stSwapChainDesc,
		StructV(stModeDesc, UintV(uint64(w)), UintV(uint64(h)), StructV(stRational, UintV(60), UintV(1)),
			EnumV(sigDXGIFormat, int64(format)), EnumV(sigScanline, 0), EnumV(sigScaling, 0)),
		StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)),
		BitmaskV(sigDXGIUsage, 0x20), UintV(uintArg(r, "BufferCount")), PtrV(0x20000+0x10*e.hwnds), boolV(true),
		EnumV(sigSwapEffect, int64(bitsArg(r, "SwapEffect", 0))), BitmaskV(sigSwapFlags, 0))
	var out []Arg
	if succeeded(r) && len(r.Results) == 1 && r.Results[0] != nil {
		out = []Arg{{3, ArrayV(e.made(r.Results[0]))}}
		e.dims[r.Results[0]] = [3]uint32{w, h, format}
	}
	e.write(th, fnFactoryCreateSwap, []Arg{{0, PtrV(e.factory)}, {1, e.obj(r.Target)}, {2, ArrayV(desc)}}, out, hr(r), 0)
}

func expGetBuffer(e *Exporter, th uint64, r *scenario.CallRecord) {
	var out []Arg
	if succeeded(r) && len(r.Results) == 1 && r.Results[0] != nil {
		b := r.Results[0]
		if _, seen := e.addr[b]; seen {
			e.refs[b]++
			out = []Arg{{3, ArrayV(e.obj(b))}}
		} else {
			out = []Arg{{3, ArrayV(e.made(b))}}
		}
		e.dims[b] = e.dims[r.Target]
	}
	e.write(th, fnSwapGetBuffer, []Arg{e.this(r), {1, UintV(uintArg(r, "INDEX"))}, {2, guidValue("IID_ID3D11Texture2D")}}, out, hr(r), 0)
}

func expCreateBuffer(e *Exporter, th uint64, r *scenario.CallRecord) {
	data := r.Arg("Data")
	width := uint32(uintArg(r, "ByteWidth"))
	if a := r.Arg("ByteWidth"); a == nil || !a.Given {
		width = uint32(len(data.Bytes))
	}
	desc := StructV(stBufferDesc, UintV(uint64(width)), EnumV(sigUsage, int64(bitsArg(r, "Usage", 0))),
		BitmaskV(sigBindFlag, uint64(bitsArg(r, "BindFlags", 0))), BitmaskV(sigCPUAccess, uint64(bitsArg(r, "CPUAccessFlags", 0))),
		BitmaskV(sigMiscFlag, uint64(bitsArg(r, "MiscFlags", 0))), UintV(uintArg(r, "StructureByteStride")))
	init := Null
	if data != nil && data.Given {
		b := data.Bytes
		if len(b) < int(width) {
			b = append(append([]byte(nil), b...), make([]byte, int(width)-len(b))...)
		}
		init = ArrayV(StructV(stSubresource, BlobV(b), UintV(0), UintV(0)))
	}
	out := e.outObj(r, 3, 0)
	if out != nil {
		e.size[r.Results[0]] = width
	}
	e.write(th, fnCreateBuffer, []Arg{e.this(r), {1, ArrayV(desc)}, {2, init}}, out, hr(r), 0)
}

// expCreateView writes a view: pDesc NULL for the texture's own format, a
// 2D descriptor with the view's Format (and a depth-stencil view's Flags)
// otherwise.
func expCreateView(sig *FuncSig, typ string) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		desc := Null
		format := int64(bitsArg(r, "Format", 0))
		flags := uint64(bitsArg(r, "Flags", 0))
		res, _ := objArg(r, "RES").(*d3d11.Resource)
		if typ == "srv" {
			f := format
			if f == 0 && res != nil && res.Kind != d3d11.KindBuffer {
				f = int64(res.Desc.Format)
			}
			if d, ok := srvDescValue(r, res, f); ok {
				e.write(th, sig, []Arg{e.this(r), {1, e.obj(objArg(r, "RES"))}, {2, d}}, e.outObj(r, 3, 0), hr(r), 0)
				return
			}
		}
		if typ != "srv" {
			f := format
			if f == 0 {
				f = int64(e.dims[objArg(r, "RES")][2])
			}
			if d, ok := targetDescValue(r, res, typ, f, flags); ok { // (rtvdesc.go)
				e.write(th, sig, []Arg{e.this(r), {1, e.obj(objArg(r, "RES"))}, {2, d}}, e.outObj(r, 3, 0), hr(r), 0)
				return
			}
		}
		if format != 0 || flags != 0 {
			if format == 0 {
				format = int64(e.dims[objArg(r, "RES")][2])
			}
			if d, ok := msViewDesc(typ, res, format, flags); ok {
				desc = d // (msaa.go)
			} else {
				switch typ {
				case "rtv":
					desc = ArrayV(StructV(stRTVDesc, EnumV(sigDXGIFormat, format), EnumV(sigRTVDim, 4), StructV(stRTVUnion, StructV(stTex2DRTV, UintV(0)))))
				case "srv":
					desc = ArrayV(StructV(stSRVDesc, EnumV(sigDXGIFormat, format), EnumV(sigSRVDim, 4), StructV(stSRVUnion, StructV(stTex2DSRV, UintV(0), UintV(1)))))
				case "dsv":
					desc = ArrayV(StructV(stDSVDesc, EnumV(sigDXGIFormat, format), EnumV(sigDSVDim, 3), BitmaskV(sigDSVFlag, flags), StructV(stDSVUnion, StructV(stTex2DDSV, UintV(0)))))
				}
			}
		}
		e.write(th, sig, []Arg{e.this(r), {1, e.obj(objArg(r, "RES"))}, {2, desc}}, e.outObj(r, 3, 0), hr(r), 0)
	}
}

func expCheckFormatSupport(e *Exporter, th uint64, r *scenario.CallRecord) {
	var out []Arg
	if succeeded(r) {
		out = []Arg{{2, ArrayV(BitmaskV(sigFormatSupport, r.Data))}}
	}
	e.write(th, fnCheckFormat, []Arg{e.this(r), {1, EnumV(sigDXGIFormat, int64(bitsArg(r, "FORMAT", 0)))}}, out, hr(r), 0)
}

// shaderValue is bytecode as the tracer writes it: the disassembly and the
// bytes, or the bytes alone when they do not disassemble.
func shaderValue(code []byte) Value {
	if text, err := dxbc.D3DDisassemble(code); err == nil {
		return ReprV(StrV(text), BlobV(code))
	}
	return BlobV(code)
}

func expCreateShader(sig *FuncSig) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		code := r.Arg("PROGRAM").Bytes
		out := e.outObj(r, 4, 0)
		if out != nil {
			e.code[r.Results[0]] = code
		}
		e.write(th, sig, []Arg{e.this(r), {1, shaderValue(code)}, {2, UintV(uint64(len(code)))}, {3, Null}}, out, hr(r), 0)
	}
}

func expCreateInputLayout(e *Exporter, th uint64, r *scenario.CallRecord) {
	var elems []Value
	for _, a := range r.Args {
		if a.Kind != scenario.ParamElem || !a.Given {
			continue
		}
		d := a.Elem
		class := int64(0)
		if d.PerInstance {
			class = 1
		}
		elems = append(elems, StructV(stInputElement, StrV(d.SemanticName), UintV(uint64(d.SemanticIndex)),
			EnumV(sigDXGIFormat, int64(d.Format)), UintV(uint64(d.InputSlot)), EnumV(sigAppendAlign, int64(d.AlignedByteOffset)),
			EnumV(sigInputClass, class), UintV(uint64(d.InstanceDataStepRate))))
	}
	vs := r.Arg("VS")
	code := vs.Bytes
	if vs.Obj != nil {
		code = e.code[vs.Obj]
	}
	e.write(th, fnCreateInputLayout, []Arg{e.this(r), {1, ArrayV(elems...)}, {2, UintV(uint64(len(elems)))},
		{3, shaderValue(code)}, {4, UintV(uint64(len(code)))}}, e.outObj(r, 5, 0), hr(r), 0)
}

func expCreateBlend(e *Exporter, th uint64, r *scenario.CallRecord) {
	d := d3d11.DefaultBlendDesc().RenderTarget[0]
	rts := make([]Value, 8)
	for i := range rts {
		sfx := ""
		if i > 0 {
			sfx = strconv.Itoa(i)
		}
		mask := uint64(15)
		if a := r.Arg("RenderTargetWriteMask" + sfx); a != nil && a.Given {
			mask = uint64(a.Num)
		}
		rts[i] = StructV(stRTBlend, boolV(boolArg(r, "BlendEnable"+sfx, false)),
			EnumV(sigBlend, int64(bitsArg(r, "SrcBlend"+sfx, uint32(d.SrcBlend)))), EnumV(sigBlend, int64(bitsArg(r, "DestBlend"+sfx, uint32(d.DestBlend)))),
			EnumV(sigBlendOp, int64(bitsArg(r, "BlendOp"+sfx, uint32(d.BlendOp)))), EnumV(sigBlend, int64(bitsArg(r, "SrcBlendAlpha"+sfx, uint32(d.SrcBlendAlpha)))),
			EnumV(sigBlend, int64(bitsArg(r, "DestBlendAlpha"+sfx, uint32(d.DestBlendAlpha)))), EnumV(sigBlendOp, int64(bitsArg(r, "BlendOpAlpha"+sfx, uint32(d.BlendOpAlpha)))),
			UintV(mask))
	}
	desc := StructV(stBlendDesc, boolV(boolArg(r, "AlphaToCoverageEnable", false)), boolV(boolArg(r, "IndependentBlendEnable", false)), ArrayV(rts...))
	e.write(th, fnCreateBlend, []Arg{e.this(r), {1, ArrayV(desc)}}, e.outObj(r, 2, 0), hr(r), 0)
}

func expCreateRaster(e *Exporter, th uint64, r *scenario.CallRecord) {
	d := d3d11.DefaultRasterizerDesc()
	desc := StructV(stRasterDesc, EnumV(sigFill, int64(bitsArg(r, "FillMode", uint32(d.FillMode)))),
		EnumV(sigCull, int64(bitsArg(r, "CullMode", uint32(d.CullMode)))), boolV(boolArg(r, "FrontCounterClockwise", false)),
		IntV(int64(floatArg(r, "DepthBias"))), FloatV(floatArg(r, "DepthBiasClamp")), FloatV(floatArg(r, "SlopeScaledDepthBias")),
		boolV(boolArg(r, "DepthClipEnable", true)), boolV(boolArg(r, "ScissorEnable", false)), boolV(boolArg(r, "MultisampleEnable", false)),
		boolV(boolArg(r, "AntialiasedLineEnable", false)))
	e.write(th, fnCreateRaster, []Arg{e.this(r), {1, ArrayV(desc)}}, e.outObj(r, 2, 0), hr(r), 0)
}

// stencilOps is a face's D3D11_DEPTH_STENCILOP_DESC from the scenario's
// FrontFace... or BackFace... fields.
func stencilOps(r *scenario.CallRecord, face string) Value {
	d := d3d11.DefaultDepthStencilDesc().FrontFace
	return StructV(stStencilOpDesc, EnumV(sigStencilOp, int64(bitsArg(r, face+"StencilFailOp", uint32(d.StencilFailOp)))),
		EnumV(sigStencilOp, int64(bitsArg(r, face+"StencilDepthFailOp", uint32(d.StencilDepthFailOp)))),
		EnumV(sigStencilOp, int64(bitsArg(r, face+"StencilPassOp", uint32(d.StencilPassOp)))),
		EnumV(sigComparison, int64(bitsArg(r, face+"StencilFunc", uint32(d.StencilFunc)))))
}

func expCreateDepth(e *Exporter, th uint64, r *scenario.CallRecord) {
	d := d3d11.DefaultDepthStencilDesc()
	mask := func(n string) Value {
		if a := r.Arg(n); a != nil && a.Given {
			return UintV(uint64(a.Num))
		}
		return UintV(0xff)
	}
	desc := StructV(stDepthDesc, boolV(boolArg(r, "DepthEnable", true)), EnumV(sigDepthWrite, int64(bitsArg(r, "DepthWriteMask", 1))),
		EnumV(sigComparison, int64(bitsArg(r, "DepthFunc", uint32(d.DepthFunc)))), boolV(boolArg(r, "StencilEnable", false)),
		mask("StencilReadMask"), mask("StencilWriteMask"), stencilOps(r, "FrontFace"), stencilOps(r, "BackFace"))
	e.write(th, fnCreateDepth, []Arg{e.this(r), {1, ArrayV(desc)}}, e.outObj(r, 2, 0), hr(r), 0)
}

func expCreateSampler(e *Exporter, th uint64, r *scenario.CallRecord) {
	d := d3d11.DefaultSamplerDesc()
	var border [4]float32
	if a := r.Arg("BorderColor"); a != nil && a.Given && len(a.Bytes) == 4 {
		for i := range 4 {
			border[i] = float32(a.Bytes[i]) / 255
		}
	}
	num := func(n string, def float32) float32 {
		if a := r.Arg(n); a != nil && a.Given {
			return float32(a.Num)
		}
		return def
	}
	desc := StructV(stSamplerDesc, EnumV(sigFilter, int64(bitsArg(r, "Filter", uint32(d.Filter)))),
		EnumV(sigAddress, int64(bitsArg(r, "AddressU", uint32(d.AddressU)))), EnumV(sigAddress, int64(bitsArg(r, "AddressV", uint32(d.AddressV)))),
		EnumV(sigAddress, int64(bitsArg(r, "AddressW", uint32(d.AddressW)))), FloatV(num("MipLODBias", d.MipLODBias)),
		UintV(uint64(num("MaxAnisotropy", float32(d.MaxAnisotropy)))), EnumV(sigComparison, int64(bitsArg(r, "ComparisonFunc", uint32(d.ComparisonFunc)))),
		ArrayV(FloatV(border[0]), FloatV(border[1]), FloatV(border[2]), FloatV(border[3])), FloatV(num("MinLOD", d.MinLOD)), FloatV(num("MaxLOD", d.MaxLOD)))
	e.write(th, fnCreateSampler, []Arg{e.this(r), {1, ArrayV(desc)}}, e.outObj(r, 2, 0), hr(r), 0)
}

func expCreateQuery(e *Exporter, th uint64, r *scenario.CallRecord) {
	desc := StructV(stQueryDesc, EnumV(sigQuery, int64(bitsArg(r, "Query", 0))), BitmaskV(sigQueryMisc, 0))
	out := e.outObj(r, 2, 0)
	if out != nil {
		e.dims[r.Results[0]] = [3]uint32{bitsArg(r, "Query", 0)}
	}
	e.write(th, fnCreateQuery, []Arg{e.this(r), {1, ArrayV(desc)}}, out, hr(r), 0)
}

// dxgiDevice asks the device for its IDXGIDevice1 interface
// (QueryInterface, a reference) for one call, which release gives back:
// IDXGIDevice1 is another interface of the device, at another address.
func (e *Exporter) dxgiDevice(th uint64, dev any) (addr uint64, release func()) {
	a := e.obj(dev).Uint + 0x8
	e.write(th, fnDeviceQI, []Arg{{0, e.obj(dev)}, {1, guidValue("IID_IDXGIDevice1")}}, []Arg{{2, ArrayV(PtrV(a))}}, ptrU(hrValue(0)), 0)
	n := e.refs[dev]
	return a, func() {
		e.write(th, fnDXGIDeviceRelease, []Arg{{0, PtrV(a)}}, nil, ptrU(UintV(uint64(max(n, 1)))), 0)
	}
}

func expSetLatency(e *Exporter, th uint64, r *scenario.CallRecord) {
	a, release := e.dxgiDevice(th, r.Target)
	e.write(th, fnDXGISetLatency, []Arg{{0, PtrV(a)}, {1, UintV(uintArg(r, "N"))}}, nil, hr(r), 0)
	release()
}

func expGetLatency(e *Exporter, th uint64, r *scenario.CallRecord) {
	a, release := e.dxgiDevice(th, r.Target)
	var out []Arg
	if succeeded(r) {
		out = []Arg{{1, ArrayV(UintV(r.Data))}}
	}
	e.write(th, fnDXGIGetLatency, []Arg{{0, PtrV(a)}}, out, hr(r), 0)
	release()
}

func expCreateFence(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnCreateFence, []Arg{e.this(r), {1, UintV(uintArg(r, "InitialValue"))}, {2, EnumV(sigFenceFlag, 0)},
		{3, guidValue("IID_ID3D11Fence")}}, e.outObj(r, 4, 0), hr(r), 0)
}

func expIASetVertexBuffers(e *Exporter, th uint64, r *scenario.CallRecord) {
	objs := posObjects(r, "BUF")
	bufs, strides, offsets := make([]Value, len(objs)), make([]Value, len(objs)), make([]Value, len(objs))
	perBuffer := func(key string, i int, def uint64) uint64 {
		if a := r.Arg(key + "s"); a != nil && a.Given && i < len(a.Value.U32) {
			return uint64(a.Value.U32[i])
		}
		if a := r.Arg(key); a != nil && a.Given {
			return uint64(a.Num)
		}
		return def
	}
	for i, o := range objs {
		bufs[i] = e.obj(o)
		strides[i] = UintV(perBuffer("Stride", i, 36))
		offsets[i] = UintV(perBuffer("Offset", i, 0))
	}
	e.write(th, fnIASetVertexBuffers, []Arg{e.this(r), {1, UintV(uintArg(r, "SLOT"))}, {2, UintV(uint64(len(objs)))},
		{3, ArrayV(bufs...)}, {4, ArrayV(strides...)}, {5, ArrayV(offsets...)}}, nil, nil, 0)
}

// posObjects are a ranged setter's objects (param repeated) up to the last
// one written, at least one (a missing first is NULL), as the scenario
// binds them.
func posObjects(r *scenario.CallRecord, param string) []any {
	var all []any
	n := 1
	for _, a := range r.Args {
		if a.Name != param {
			continue
		}
		all = append(all, a.Obj)
		if a.Given {
			n = len(all)
		}
	}
	if len(all) < n {
		all = append(all, make([]any, n-len(all))...)
	}
	return all[:n]
}

// expSlots writes a StartSlot, Num, ppObjects call for the statement's
// range of slots.
func expSlots(sig *FuncSig, param string) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		objs := posObjects(r, param)
		vals := make([]Value, len(objs))
		for i, o := range objs {
			vals[i] = e.obj(o)
		}
		e.write(th, sig, []Arg{e.this(r), {1, UintV(uintArg(r, "SLOT"))}, {2, UintV(uint64(len(objs)))}, {3, ArrayV(vals...)}}, nil, nil, 0)
	}
}

func expSetShader(sig *FuncSig) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		e.write(th, sig, []Arg{e.this(r), {1, e.obj(objArg(r, "SHADER"))}, {2, Null}, {3, UintV(0)}}, nil, nil, 0)
	}
}

func expOMSetRenderTargets(e *Exporter, th uint64, r *scenario.CallRecord) {
	// The scenario's views in slot order, the last one the depth-stencil
	// view when it is one (execOMSetRenderTargets).
	var rtvs []Value
	var dsv any
	var views []any
	for _, a := range r.Args {
		if a.Name == "VIEW" && a.Given {
			views = append(views, a.Obj)
		}
	}
	for i, v := range views {
		if w, ok := v.(*d3d11.View); ok && w.ViewKind == d3d11.ViewDSV && i == len(views)-1 {
			dsv = v
			continue
		}
		rtvs = append(rtvs, e.obj(v))
	}
	n, arr := UintV(uint64(len(rtvs))), Null
	if len(rtvs) > 0 {
		arr = ArrayV(rtvs...)
	}
	e.write(th, fnOMSetRT, []Arg{e.this(r), {1, n}, {2, arr}, {3, e.obj(dsv)}}, nil, nil, 0)
}

func expOMSetBlendState(e *Exporter, th uint64, r *scenario.CallRecord) {
	factor := Null
	if a := r.Arg("BlendFactor"); a != nil && a.Given && len(a.Value.F32) == 4 {
		f := a.Value.F32
		factor = ArrayV(FloatV(f[0]), FloatV(f[1]), FloatV(f[2]), FloatV(f[3]))
	}
	mask := int64(0xffffffff)
	if a := r.Arg("SampleMask"); a != nil && a.Given {
		mask = int64(uint32(a.Num))
	}
	e.write(th, fnOMSetBlend, []Arg{e.this(r), {1, e.obj(objArg(r, "STATE"))}, {2, factor}, {3, EnumV(sigSampleMask, mask)}}, nil, nil, 0)
}

func expOMSetDepthStencilState(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnOMSetDepth, []Arg{e.this(r), {1, e.obj(objArg(r, "STATE"))}, {2, UintV(uintArg(r, "STENCILREF"))}}, nil, nil, 0)
}

func expRSSetViewports(e *Exporter, th uint64, r *scenario.CallRecord) {
	var xywh []float32
	for _, a := range r.Args {
		switch a.Name {
		case "X", "Y", "W", "H":
			if a.Given {
				xywh = append(xywh, float32(a.Num))
			}
		}
	}
	var vps []Value
	for i := 0; i+4 <= len(xywh); i += 4 {
		vps = append(vps, StructV(stViewport, FloatV(xywh[i]), FloatV(xywh[i+1]), FloatV(xywh[i+2]), FloatV(xywh[i+3]),
			FloatV(floatArg(r, "MinDepth")), FloatV(floatArg(r, "MaxDepth"))))
	}
	arr := Null
	if len(vps) > 0 {
		arr = ArrayV(vps...)
	}
	e.write(th, fnRSSetViewports, []Arg{e.this(r), {1, UintV(uint64(len(vps)))}, {2, arr}}, nil, nil, 0)
}

func expClearRTV(e *Exporter, th uint64, r *scenario.CallRecord) {
	var c [4]float32
	if a := r.Arg("R"); a != nil && a.IsColor {
		c = a.Color
	} else {
		c = [4]float32{floatArg(r, "R"), floatArg(r, "G"), floatArg(r, "B"), floatArg(r, "A")}
		if a := r.Arg("A"); a == nil || !a.Given {
			c[3] = 1
		}
	}
	e.write(th, fnClearRTV, []Arg{e.this(r), {1, e.obj(objArg(r, "RTV"))}, {2, ArrayV(FloatV(c[0]), FloatV(c[1]), FloatV(c[2]), FloatV(c[3]))}}, nil, nil, 0)
}

func expClearDSV(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnClearDSV, []Arg{e.this(r), {1, e.obj(objArg(r, "DSV"))}, {2, BitmaskV(sigClearFlag, 1)}, {3, FloatV(floatArg(r, "DEPTH"))}, {4, UintV(0)}}, nil, nil, 0)
}

func expUpdateSubresource(e *Exporter, th uint64, r *scenario.CallRecord) {
	res := objArg(r, "RES")
	data := r.Arg("Data").Bytes
	box, pitch, depth := Null, uint64(0), uint64(0)
	if d, isTex := e.dims[res]; isTex && e.typ[res] == "texture" {
		pitch = uint64(d[0] * formatSize(d[2]))
		depth = pitch * uint64(d[1])
	} else if size, ok := e.size[res]; ok && uint32(len(data)) != size {
		// a buffer written in part: the box says which bytes
		box = ArrayV(StructV(stBox, UintV(0), UintV(0), UintV(0), UintV(uint64(len(data))), UintV(1), UintV(1)))
	}
	e.write(th, fnUpdateSubresource, []Arg{e.this(r), {1, e.obj(res)}, {2, UintV(0)}, {3, box}, {4, BlobV(data)}, {5, UintV(pitch)}, {6, UintV(depth)}}, nil, nil, 0)
}

func expMap(e *Exporter, th uint64, r *scenario.CallRecord) {
	res := objArg(r, "RES")
	var out []Arg
	if succeeded(r) && r.Mapped != nil {
		n := len(r.Mapped)
		addr := e.heap
		e.heap += (uint64(n) + 0xfff) &^ 0xfff
		if n == 0 {
			e.heap += 0x1000
		}
		e.maps[res] = mapping{addr, n}
		row := uint64(n)
		if d, isTex := e.dims[res]; isTex && e.typ[res] == "texture" && d[1] > 0 {
			row = uint64(n) / uint64(d[1])
		}
		out = []Arg{{5, ArrayV(StructV(stMapped, PtrV(addr), UintV(row), UintV(uint64(n))))}}
	}
	e.write(th, fnMap, []Arg{e.this(r), {1, e.obj(res)}, {2, UintV(0)}, {3, EnumV(sigMap, int64(bitsArg(r, "TYPE", 0)))},
		{4, BitmaskV(sigMapFlag, uint64(bitsArg(r, "Flags", 0)))}}, out, hr(r), 0)
}

func expWrite(e *Exporter, th uint64, r *scenario.CallRecord) {
	m, mapped := e.maps[r.Target]
	data := r.Arg("DATA").Bytes
	if !mapped || !succeeded(r) {
		e.Dropped++ // a write to memory that is not mapped: no API call
		return
	}
	dest := m.addr + uintArg(r, "Offset")
	e.write(th, fnMemcpy, []Arg{{0, PtrV(dest)}, {1, BlobV(data)}, {2, UintV(uint64(len(data)))}}, nil, nil, FlagFake)
}

func expUnmap(e *Exporter, th uint64, r *scenario.CallRecord) {
	res := objArg(r, "RES")
	delete(e.maps, res)
	e.write(th, fnUnmap, []Arg{e.this(r), {1, e.obj(res)}, {2, UintV(0)}}, nil, nil, 0)
}

func expGetData(e *Exporter, th uint64, r *scenario.CallRecord) {
	q := objArg(r, "QUERY")
	kind := d3d11.QueryType(e.dims[q][0])
	size := uint64(kind.DataSize())
	var out []Arg
	if succeeded(r) {
		d := r.Query // (zeros while S_FALSE: nothing was written)
		if r.HR != hresult.S_OK {
			d = d3d11.QueryData{}
		}
		out = []Arg{{2, ArrayV(queryDataValue(kind, d))}}
	}
	e.write(th, fnGetData, []Arg{e.this(r), {1, e.obj(q)}, {3, UintV(size)}, {4, BitmaskV(sigAsyncFlag, 0)}}, out, hr(r), 0)
}

func expFinishCommandList(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnFinishCommandList, []Arg{e.this(r), {1, boolV(boolArg(r, "RESTORE", false))}}, e.outObj(r, 2, 0), hr(r), 0)
}

func expGetCompletedValue(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnFenceCompleted, []Arg{e.this(r)}, nil, ptrU(UintV(r.Data)), 0)
}

// expRef writes AddRef and Release with the reference count the
// application holds after the call.
func expRef(delta int) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		o := r.Target
		e.obj(o)
		if _, known := e.refs[o]; !known {
			e.refs[o] = 1
		}
		e.refs[o] += delta
		n := e.refs[o]
		if n < 0 {
			n = 0
		}
		m := "AddRef"
		if delta < 0 {
			m = "Release"
		}
		e.write(th, refSig(interfaces[r.TargetType], m), []Arg{e.this(r)}, nil, ptrU(UintV(uint64(n))), 0)
	}
}

// expSimple writes a call whose arguments are the scenario's, by the row's
// argument list.
func expSimple(m *row) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		in := []Arg{e.this(r)}
		for i, a := range m.args {
			in = append(in, Arg{i + 1, a.export(e, r)})
		}
		var ret *Value
		if m.hr {
			ret = hr(r)
		}
		e.write(th, m.sig, in, nil, ret, 0)
	}
}
