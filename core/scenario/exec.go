package scenario

import (
	"fmt"

	"d3dsim/core/d3d11"
)

// call is one API call being executed: the statement, its method and the
// resolved target.
type call struct {
	run  *Run
	st   *Call
	m    *method
	tgt  any
	lead int // the statement's leading positional arguments (stmtMemo.lead): posArgP finds them without its loop
}

// posArg is positional argument i. The arguments are read from the
// statement, not copied into maps: a statement runs millions of times in a
// loop, and two maps per call were most of its allocations.
func (x *call) posArg(i int) (Arg, bool) {
	if a := x.posArgP(i); a != nil {
		return *a, true
	}
	return Arg{}, false
}

// posArgP is posArg in place (nil when absent): an Arg is 150 bytes to copy.
func (x *call) posArgP(i int) *Arg {
	if i < x.lead {
		return &x.st.Args[i]
	}
	for j := range x.st.Args {
		if x.st.Args[j].Key == "" {
			if i == 0 {
				return &x.st.Args[j]
			}
			i--
		}
	}
	return nil
}

// namedArg is the argument Key=...; the last one when repeated.
func (x *call) namedArg(k string) (Arg, bool) {
	for i := len(x.st.Args) - 1; i >= 0; i-- {
		if x.st.Args[i].Key == k && k != "" {
			return x.st.Args[i], true
		}
	}
	return Arg{}, false
}

// badInput is a problem with the scenario found at run time (e.g. a feature
// not simulated yet): it stops the run with a message naming the line.
type badInput struct{ msg string }

func (e *badInput) Error() string { return e.msg }

func (x *call) bad(format string, args ...any) error {
	return &badInput{fmt.Sprintf("%s: %s", x.st.Method, fmt.Sprintf(format, args...))}
}

func (x *call) value(i int) Value { a, _ := x.posArg(i); return a.Value }

func (x *call) has(i int) bool { _, ok := x.posArg(i); return ok }

// obj resolves positional argument i (-1: the call's target) to an object.
func (x *call) obj(i int) any {
	if i < 0 {
		return x.tgt
	}
	a, ok := x.posArg(i)
	if !ok || a.Value.Ident == "NULL" {
		return nil
	}
	return x.run.vars[a.Value.Ident]
}

func (x *call) target() d3d11.Object      { return x.tgt.(d3d11.Object) }
func (x *call) ctx() *d3d11.DeviceContext { return x.tgt.(*d3d11.DeviceContext) }
func (x *call) dev() *d3d11.Device        { return x.tgt.(*d3d11.Device) }

func (x *call) res(i int) *d3d11.Resource {
	r, _ := x.obj(i).(*d3d11.Resource)
	return r
}

func (x *call) view(i int) *d3d11.View {
	v, _ := x.obj(i).(*d3d11.View)
	return v
}

func (x *call) state(i int) *d3d11.State {
	v, _ := x.obj(i).(*d3d11.State)
	return v
}

func (x *call) shader(i int) *d3d11.Shader {
	v, _ := x.obj(i).(*d3d11.Shader)
	return v
}

func (x *call) query(i int) *d3d11.Query {
	v, _ := x.obj(i).(*d3d11.Query)
	return v
}

func (x *call) num(i int) float64 {
	a := x.posArgP(i)
	if a == nil {
		if i < len(x.m.pos) {
			return x.m.pos[i].def
		}
		return 0
	}
	return a.Value.Num
}

func (x *call) uint(i int) uint32 { return uint32(x.num(i)) }
func (x *call) f32(i int) float32 { return clampF32(x.num(i)) }

func (x *call) namedParam(k string) *param {
	for i := range x.m.named {
		if x.m.named[i].name == k {
			return &x.m.named[i]
		}
	}
	return nil
}

func (x *call) numNamed(k string) float64 {
	if a, ok := x.namedArg(k); ok {
		return a.Value.Num
	}
	if p := x.namedParam(k); p != nil {
		return p.def
	}
	return 0
}

func (x *call) uintNamed(k string) uint32 { return uint32(x.numNamed(k)) }
func (x *call) f32Named(k string) float32 { return clampF32(x.numNamed(k)) }
func (x *call) hasNamed(k string) bool    { _, ok := x.namedArg(k); return ok }
func (x *call) enum(i int) uint32         { return enumValue(x.m.pos[i], x.value(i)) }
func (x *call) data(k string) []byte      { a, _ := x.namedArg(k); b, _ := dataBytes(a.Value); return b }
func (x *call) boolPos(i int) bool {
	a, ok := x.posArg(i)
	return ok && a.Value.Ident == "TRUE"
}

func (x *call) boolNamed(k string, def bool) bool {
	a, ok := x.namedArg(k)
	if !ok {
		return def
	}
	return a.Value.Ident == "TRUE"
}

func (x *call) enumNamed(k string, def uint32) uint32 {
	a, ok := x.namedArg(k)
	if !ok {
		return def
	}
	return enumValue(*x.namedParam(k), a.Value)
}

// enumValue decodes an enum or flags value already validated by the checker.
func enumValue(p param, v Value) uint32 {
	tbl := d3d11.Enum(p.enum)
	switch v.Kind {
	case VNumber:
		return uint32(v.Num)
	case VFlags:
		var out uint32
		for _, f := range v.Flags {
			out |= tbl[f]
		}
		return out
	}
	return tbl[v.Ident]
}

// bind stores result i of the call under its name.
func (x *call) bind(i int, v any) {
	if i < len(x.st.Results) {
		// The object the name held before: forgotten once it is gone, so
		// a loop that creates and releases into one name keeps one.
		if old, ok := x.run.vars[x.st.Results[i]].(d3d11.Object); ok && !old.Alive() {
			delete(x.run.names, old)
		}
		x.run.vars[x.st.Results[i]] = v
		x.run.binds++ // (the statements' memos are out of date)
		x.run.made[x.st.Results[i]] = signalled{x.run.sim.Now(), x.run.sim.Thread()}
		if o, ok := v.(d3d11.Object); ok {
			x.run.names[o] = x.st.Results[i]
		}
	}
}

func (x *call) result(i int) string {
	if i < len(x.st.Results) {
		return x.st.Results[i]
	}
	return fmt.Sprintf("%s@%d", x.st.Method, x.st.Line)
}

func execCreateDevice(x *call) error {
	flags := d3d11.CreateDeviceFlag(x.enumNamed("Flags", 0))
	dev, imm, err := x.run.rt.D3D11CreateDevice(x.result(0), flags)
	if err != nil {
		return err
	}
	x.bind(0, dev)
	x.bind(1, imm)
	return nil
}

func execCreateSwapChain(x *call) error {
	sc, err := x.dev().CreateSwapChainFormat(x.result(0), x.uintNamed("Width"), x.uintNamed("Height"), x.uintNamed("BufferCount"),
		d3d11.SwapEffect(x.enumNamed("SwapEffect", 0)), d3d11.Format(x.enumNamed("Format", uint32(d3d11.FormatR8G8B8A8Unorm))))
	if err == nil {
		x.bind(0, sc)
	}
	return err
}

func execCreateBuffer(x *call) error {
	var data []byte
	if x.hasNamed("Data") {
		data = x.data("Data")
	}
	w := x.uintNamed("ByteWidth")
	if !x.hasNamed("ByteWidth") {
		w = uint32(len(data))
	}
	desc := d3d11.BufferDesc{ByteWidth: w, Usage: d3d11.Usage(x.enumNamed("Usage", 0)),
		BindFlags: d3d11.BindFlag(x.enumNamed("BindFlags", 0)), CPUAccessFlags: d3d11.CPUAccess(x.enumNamed("CPUAccessFlags", 0)),
		MiscFlags: d3d11.ResourceMisc(x.enumNamed("MiscFlags", 0)), StructureByteStride: x.uintNamed("StructureByteStride")}
	r, err := x.dev().CreateBuffer(x.result(0), desc, data)
	if err == nil {
		x.bind(0, r)
	}
	return err
}

func execCreateTexture(x *call) error {
	var data []byte
	if x.hasNamed("Data") {
		data = x.data("Data")
	}
	desc := d3d11.Texture2DDesc{Width: x.uintNamed("Width"), Height: x.uintNamed("Height"), Format: d3d11.Format(x.enumNamed("Format", 0)),
		Usage: d3d11.Usage(x.enumNamed("Usage", 0)), BindFlags: d3d11.BindFlag(x.enumNamed("BindFlags", 0)),
		CPUAccessFlags: d3d11.CPUAccess(x.enumNamed("CPUAccessFlags", 0)), MiscFlags: d3d11.ResourceMisc(x.enumNamed("MiscFlags", 0)),
		MipLevels: x.mipLevels(), ArraySize: x.uintNamed("ArraySize"),
		SampleDesc: d3d11.SampleDesc{Count: x.uintNamed("SampleCount"), Quality: x.uintNamed("SampleQuality")}}
	r, err := x.dev().CreateTexture2D(x.result(0), desc, data)
	if err == nil {
		x.bind(0, r)
	}
	return err
}

// groups counts the positional arguments in groups of n: -1 when the
// last group is incomplete.
func (x *call) groups(n int) int {
	k := 0
	for i := range 16 * n {
		if _, ok := x.posArg(i); ok {
			k = i + 1
		}
	}
	if k%n != 0 {
		return -1
	}
	return k / n
}

func execCreateView(kind d3d11.ViewKind) func(*call) error {
	return func(x *call) error {
		res := x.res(0)
		if res == nil {
			return x.bad("needs a resource")
		}
		desc := d3d11.ViewDesc{Format: d3d11.Format(x.enumNamed("Format", 0))}
		if kind == d3d11.ViewDSV {
			desc.Flags = d3d11.DSVFlag(x.enumNamed("Flags", 0))
		}
		if kind == d3d11.ViewSRV {
			desc.SRV = x.srvDesc(res) // (textures.go)
		} else {
			desc.Target = x.targetDesc(res, kind == d3d11.ViewDSV) // (rtvdesc.go)
		}
		v, err := x.dev().CreateViewDesc(x.result(0), kind, res, desc)
		if err == nil {
			x.bind(0, v)
		}
		return err
	}
}

func execCreateShader(stage string) func(*call) error {
	return func(x *call) error {
		s, err := x.dev().CreateShaderBytecode(x.result(0), stage, x.value(0).Bytes)
		if err == nil {
			x.bind(0, s)
			x.run.noteShader(x, s)
		}
		return err
	}
}

// execCreateBlend builds a D3D11_BLEND_DESC: the fields without a suffix
// are RenderTarget[0]'s, those ending in 1 to 7 RenderTarget[1..7]'s (read
// with IndependentBlendEnable=TRUE).
func execCreateBlend(x *call) error {
	d := d3d11.DefaultBlendDesc()
	d.AlphaToCoverageEnable = x.boolNamed("AlphaToCoverageEnable", false)
	d.IndependentBlendEnable = x.boolNamed("IndependentBlendEnable", false)
	for i := range d.RenderTarget {
		sfx := ""
		if i > 0 {
			sfx = fmt.Sprint(i)
		}
		t := &d.RenderTarget[i]
		t.BlendEnable = x.boolNamed("BlendEnable"+sfx, false)
		t.SrcBlend = d3d11.Blend(x.enumNamed("SrcBlend"+sfx, uint32(t.SrcBlend)))
		t.DestBlend = d3d11.Blend(x.enumNamed("DestBlend"+sfx, uint32(t.DestBlend)))
		t.BlendOp = d3d11.BlendOp(x.enumNamed("BlendOp"+sfx, uint32(t.BlendOp)))
		t.SrcBlendAlpha = d3d11.Blend(x.enumNamed("SrcBlendAlpha"+sfx, uint32(t.SrcBlendAlpha)))
		t.DestBlendAlpha = d3d11.Blend(x.enumNamed("DestBlendAlpha"+sfx, uint32(t.DestBlendAlpha)))
		t.BlendOpAlpha = d3d11.BlendOp(x.enumNamed("BlendOpAlpha"+sfx, uint32(t.BlendOpAlpha)))
		t.RenderTargetWriteMask = uint8(x.uintNamed("RenderTargetWriteMask" + sfx))
	}
	s, err := x.dev().CreateBlendState(x.result(0), d)
	if err == nil {
		x.bind(0, s)
	}
	return err
}

func execCreateRaster(x *call) error {
	d := d3d11.DefaultRasterizerDesc()
	d.FillMode = d3d11.FillMode(x.enumNamed("FillMode", uint32(d.FillMode)))
	d.CullMode = d3d11.CullMode(x.enumNamed("CullMode", uint32(d.CullMode)))
	d.FrontCounterClockwise = x.boolNamed("FrontCounterClockwise", false)
	d.DepthClipEnable = x.boolNamed("DepthClipEnable", true)
	d.DepthBias = int32(x.numNamed("DepthBias"))
	d.DepthBiasClamp = x.f32Named("DepthBiasClamp")
	d.SlopeScaledDepthBias = x.f32Named("SlopeScaledDepthBias")
	d.ScissorEnable = x.boolNamed("ScissorEnable", false)
	d.MultisampleEnable = x.boolNamed("MultisampleEnable", false)
	d.AntialiasedLineEnable = x.boolNamed("AntialiasedLineEnable", false)
	s, err := x.dev().CreateRasterizerState(x.result(0), d)
	if err == nil {
		x.bind(0, s)
	}
	return err
}

func execCreateDepth(x *call) error {
	d := d3d11.DefaultDepthStencilDesc()
	d.DepthEnable = x.boolNamed("DepthEnable", true)
	d.DepthWriteMask = x.enumNamed("DepthWriteMask", 1) == 1
	d.DepthFunc = d3d11.ComparisonFunc(x.enumNamed("DepthFunc", uint32(d.DepthFunc)))
	d.StencilEnable = x.boolNamed("StencilEnable", false)
	d.StencilReadMask = uint8(x.uintNamed("StencilReadMask"))
	d.StencilWriteMask = uint8(x.uintNamed("StencilWriteMask"))
	for _, f := range []struct {
		face *d3d11.DepthStencilOpDesc
		name string
	}{{&d.FrontFace, "FrontFace"}, {&d.BackFace, "BackFace"}} {
		f.face.StencilFailOp = d3d11.StencilOp(x.enumNamed(f.name+"StencilFailOp", uint32(f.face.StencilFailOp)))
		f.face.StencilDepthFailOp = d3d11.StencilOp(x.enumNamed(f.name+"StencilDepthFailOp", uint32(f.face.StencilDepthFailOp)))
		f.face.StencilPassOp = d3d11.StencilOp(x.enumNamed(f.name+"StencilPassOp", uint32(f.face.StencilPassOp)))
		f.face.StencilFunc = d3d11.ComparisonFunc(x.enumNamed(f.name+"StencilFunc", uint32(f.face.StencilFunc)))
	}
	s, err := x.dev().CreateDepthStencilState(x.result(0), d)
	if err == nil {
		x.bind(0, s)
	}
	return err
}

func execCreateSampler(x *call) error {
	d := d3d11.DefaultSamplerDesc()
	d.Filter = d3d11.Filter(x.enumNamed("Filter", uint32(d.Filter)))
	d.AddressU = d3d11.AddressMode(x.enumNamed("AddressU", uint32(d.AddressU)))
	d.AddressV = d3d11.AddressMode(x.enumNamed("AddressV", uint32(d.AddressV)))
	if a, ok := x.namedArg("BorderColor"); ok && a.Value.Kind == VColor {
		for i := range 4 {
			d.BorderColor[i] = float32(a.Value.Color[i]) / 255
		}
	}
	d.AddressW = d3d11.AddressMode(x.enumNamed("AddressW", uint32(d.AddressW)))
	d.MipLODBias = x.f32Named("MipLODBias")
	d.MaxAnisotropy = x.uintNamed("MaxAnisotropy")
	d.ComparisonFunc = d3d11.ComparisonFunc(x.enumNamed("ComparisonFunc", uint32(d.ComparisonFunc)))
	d.MinLOD, d.MaxLOD = x.f32Named("MinLOD"), x.f32Named("MaxLOD")
	s, err := x.dev().CreateSamplerState(x.result(0), d)
	if err == nil {
		x.bind(0, s)
	}
	return err
}

func execCreateQuery(x *call) error {
	q, err := x.dev().CreateQuery(x.result(0), d3d11.QueryType(x.enumNamed("Query", 0)))
	if err == nil {
		x.bind(0, q)
	}
	return err
}

// execClearRTV accepts R G B A numbers or one #RRGGBBAA colour.
func execClearRTV(x *call) error {
	var c [4]float32
	if v := x.value(1); v.Kind == VColor {
		for i := range 4 {
			c[i] = float32(v.Color[i]) / 255
		}
	} else {
		c = [4]float32{x.f32(1), x.f32(2), x.f32(3), x.f32(4)}
		if !x.has(4) {
			c[3] = 1
		}
	}
	return x.ctx().ClearRenderTargetView(x.view(0), c)
}
