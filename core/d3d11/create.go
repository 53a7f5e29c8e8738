package d3d11

import (
	"fmt"
	"math"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Views, shaders, states and queries: each a CalcPrivate*Size, a Create*
// and, with its last reference, a Destroy* on the immediate context's
// table, then CalcDeferredContextHandleSize for the context-local handles
// a deferred context may open onto it.

// ViewDesc is what a view's D3D11_*_VIEW_DESC says beyond its kind: its
// Format (0: the resource's own) and a depth-stencil view's Flags.
type ViewDesc struct {
	Format ddi.Format
	Flags  ddi.DSVFlag
	// SRV is a shader-resource view's dimension and ranges (textures.go);
	// its zero value views the whole texture as its own kind.
	SRV SRVDesc
	// UAV is an unordered access view's D3D11_UNORDERED_ACCESS_VIEW_DESC
	// beyond its format (compute.go).
	UAV ddi.UAVDesc
	// Target is a render-target or depth-stencil view's ViewDimension and
	// subresources (rtvdesc.go); a depth-stencil view's Dimension is its
	// D3D11_DSV_DIMENSION value. The zero value is mip 0, every slice.
	Target ddi.TargetDesc
}

// CreateView creates a render-target, shader-resource or depth-stencil view
// of the resource's own format (a NULL view description).
func (d *Device) CreateView(name string, kind ddi.ViewKind, res *Resource) (v *View, err error) {
	return d.CreateViewDesc(name, kind, res, ViewDesc{})
}

// CreateViewDesc creates a view with a description: a typed format of a
// typeless resource's family, and for a depth-stencil view read-only
// flags. The runtime's checks ("D3D11_DEPTH_STENCIL_VIEW_DESC structure",
// "Format support for Direct3D feature level 11.0 hardware"): a view of a
// typeless resource names a typed format, a typed resource's views keep its
// format, the format supports the view's use, and READ_ONLY_STENCIL needs a
// format with stencil.
func (d *Device) CreateViewDesc(name string, kind ddi.ViewKind, res *Resource, desc ViewDesc) (v *View, err error) {
	api := map[ddi.ViewKind]string{ddi.ViewRTV: "CreateRenderTargetView", ddi.ViewSRV: "CreateShaderResourceView", ddi.ViewDSV: "CreateDepthStencilView",
		ddi.ViewUAV: "CreateUnorderedAccessView"}[kind]
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	if err := res.checkAlive(api); err != nil {
		return nil, err
	}
	if o := d.foreign(res); o != nil { // (owner.go)
		return nil, d.invalid(api, name, "%s", d.foreignMsg(api, o))
	}
	need := map[ddi.ViewKind]ddi.BindFlag{ddi.ViewRTV: ddi.BindRenderTarget, ddi.ViewSRV: ddi.BindShaderResource, ddi.ViewDSV: ddi.BindDepthStencil,
		ddi.ViewUAV: ddi.BindUnorderedAccess}[kind]
	if !res.Desc.BindFlags.Has(need) {
		if kind == ddi.ViewUAV {
			return nil, d.invalid(api, name, "resource %s was not created with BindFlags UNORDERED_ACCESS", res.name)
		}
		return nil, d.invalid(api, name, "resource %s was not created with the bind flag this view needs", res.name)
	}
	if kind != ddi.ViewUAV && desc.UAV != (ddi.UAVDesc{}) {
		return nil, d.invalid(api, name, "the UAV description is an unordered access view's")
	}
	if kind == ddi.ViewUAV {
		if err := d.checkUAVDesc(api, name, res, &desc); err != nil {
			return nil, err
		}
	}
	if kind == ddi.ViewDSV && res.Kind == KindBuffer {
		return nil, d.invalid(api, name, "a buffer has no depth stencil views")
	}
	if kind != ddi.ViewSRV && desc.SRV != (SRVDesc{}) {
		return nil, d.invalid(api, name, "ViewDimension and its ranges are a shader resource view's")
	}
	if kind == ddi.ViewSRV {
		if err := d.checkSRVDesc(api, name, res, &desc); err != nil {
			return nil, err
		}
	}
	if err := d.checkTargetDesc(api, name, kind, res, &desc); err != nil { // (rtvdesc.go)
		return nil, err
	}
	if res.Kind != KindBuffer && kind != ddi.ViewUAV {
		if err := d.checkViewDesc(api, name, kind, res, &desc); err != nil {
			return nil, err
		}
	}
	args := ddi.CreateViewArgs{Kind: kind, Resource: res.h, Format: desc.Format, Flags: desc.Flags, Obj: name, SRV: desc.SRV, UAV: desc.UAV, Target: desc.Target}
	// Traced under the view kind's own DDI (CalcPrivateRenderTargetViewSize,
	// CalcPrivateShaderResourceViewSize, CalcPrivateDepthStencilViewSize).
	private := d.calcPrivate(name, "CalcPrivate"+viewDDINames[kind]+"Size", func(u ddi.Device) int { return u.CalcPrivateViewSize(&args) })
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	v = &View{ViewKind: kind, Res: res, Format: desc.Format, Flags: desc.Flags, UAV: desc.UAV, SRV: desc.SRV, Target: desc.Target, h: d.rt.newHandle()}
	// (res=: the resource the view depends on, so the trace names it)
	w := d.ddiIC().with(name, handleName(v.h), strArg(trace.KeyRes, handleName(uint32(res.h))))
	switch kind {
	case ddi.ViewRTV:
		err = w.CreateRenderTargetView(d.hDev, &args, ddi.HRENDERTARGETVIEW(v.h), v.h)
	case ddi.ViewSRV:
		err = w.CreateShaderResourceView(d.hDev, &args, ddi.HSHADERRESOURCEVIEW(v.h), v.h)
	case ddi.ViewDSV:
		err = w.CreateDepthStencilView(d.hDev, &args, ddi.HDEPTHSTENCILVIEW(v.h), v.h)
	case ddi.ViewUAV:
		err = w.CreateUnorderedAccessView(d.hDev, &args, ddi.HUNORDEREDACCESSVIEW(v.h), v.h)
	}
	if err != nil {
		d.unreserve(bytes)
		return nil, err
	}
	_, ht := ddiHandle(v)
	cls := d.calcCLS(ht, v.h, name)
	res.pin() // a view holds its resource
	v.primary = res.primary
	v.driverPart(private, cls)
	d.initChild(&v.object, name, bytes, func() {
		w := d.ddiIC().on(name, handleName(v.h))
		switch kind {
		case ddi.ViewRTV:
			w.DestroyRenderTargetView(d.hDev, ddi.HRENDERTARGETVIEW(v.h))
		case ddi.ViewSRV:
			w.DestroyShaderResourceView(d.hDev, ddi.HSHADERRESOURCEVIEW(v.h))
		case ddi.ViewDSV:
			w.DestroyDepthStencilView(d.hDev, ddi.HDEPTHSTENCILVIEW(v.h))
		case ddi.ViewUAV:
			w.DestroyUnorderedAccessView(d.hDev, ddi.HUNORDEREDACCESSVIEW(v.h))
		}
		res.unpin()
	})
	return v, nil
}

// checkViewDesc validates a view's description and fills in its format.
func (d *Device) checkViewDesc(api, name string, kind ddi.ViewKind, res *Resource, desc *ViewDesc) error {
	rf := res.Desc.Format
	if desc.Format == ddi.FormatUnknown {
		if ddi.Describe(rf).Typeless {
			return d.invalid(api, name, "Format: resource %s is %s, typeless: a view of it names a typed format of its family", res.name, formatName(rf))
		}
		desc.Format = rf
	}
	vf := desc.Format
	vd := ddi.Describe(vf)
	switch {
	case vd.Name == "":
		return d.invalid(api, name, "Format: %s is not a DXGI format", formatName(vf))
	case vd.Typeless:
		return d.invalid(api, name, "Format: %s is typeless: a view names a typed format", formatName(vf))
	case !ddi.SameFamily(rf, vf):
		if ddi.Describe(rf).Typeless {
			return d.invalid(api, name, "Format: %s is not of the family of resource %s (%s)", formatName(vf), res.name, formatName(rf))
		}
		return d.invalid(api, name, "Format: %s differs from resource %s's %s, which is not typeless", formatName(vf), res.name, formatName(rf))
	}
	need := map[ddi.ViewKind]ddi.FormatSupport{ddi.ViewRTV: ddi.SupportRenderTarget, ddi.ViewSRV: ddi.SupportShaderLoad, ddi.ViewDSV: ddi.SupportDepthStencil}[kind]
	if (ddi.Required(vf)|ddi.Optional(vf))&need == 0 {
		return d.invalid(api, name, "Format: %s cannot be a %s's format (%s)", formatName(vf),
			map[ddi.ViewKind]string{ddi.ViewRTV: "render target view", ddi.ViewSRV: "shader resource view", ddi.ViewDSV: "depth stencil view"}[kind],
			map[ddi.ViewKind]string{ddi.ViewRTV: "no render-target support", ddi.ViewSRV: "no shader-load support", ddi.ViewDSV: "not a depth format"}[kind])
	}
	if desc.Flags != 0 {
		switch {
		case kind != ddi.ViewDSV:
			return d.invalid(api, name, "Flags: only a depth stencil view has Flags")
		case desc.Flags&^(ddi.DSVReadOnlyDepth|ddi.DSVReadOnlyStencil) != 0:
			return d.invalid(api, name, "Flags %#x: D3D11_DSV_FLAG has READ_ONLY_DEPTH and READ_ONLY_STENCIL", uint32(desc.Flags))
		case desc.Flags&ddi.DSVReadOnlyStencil != 0 && vf != ddi.FormatD24UnormS8Uint && vf != ddi.FormatD32FloatS8X24Uint:
			return d.invalid(api, name, "Flags: READ_ONLY_STENCIL needs a format with stencil, and %s has none", formatName(vf))
		}
	}
	return nil
}

// CreateShaderBytecode creates a vertex ("vs") or pixel ("ps") shader from
// DXBC bytecode, as ID3D11Device::CreateVertexShader and
// CreatePixelShader do. The runtime validates the container first (its
// checksum, chunks and signatures, and that the program is of the stage
// the call creates): bad bytecode is E_INVALIDARG with the reason, and
// never reaches the driver.
func (d *Device) CreateShaderBytecode(name, stage string, code []byte) (s *Shader, err error) {
	return d.createShaderBytecode(name, stage, code, nil)
}

// createShaderBytecode is CreateShaderBytecode; with so, it is
// CreateGeometryShaderWithStreamOutput (stream.go): so checks the
// declaration against the validated signatures and makes the DDI's.
func (d *Device) createShaderBytecode(name, stage string, code []byte, so *soRequest) (s *Shader, err error) {
	api := map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader", "cs": "CreateComputeShader", "gs": "CreateGeometryShader",
		"hs": "CreateHullShader", "ds": "CreateDomainShader"}[stage]
	if so != nil {
		api = "CreateGeometryShaderWithStreamOutput"
	}
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	want := dxbc.VertexShader
	switch stage {
	case "ps":
		want = dxbc.PixelShader
	case "cs":
		want = dxbc.ComputeShader
	case "gs":
		want = dxbc.GeometryShader
	case "hs":
		want = dxbc.HullShader
	case "ds":
		want = dxbc.DomainShader
	}
	sigs, err := d.valid.validate(code, want)
	if err != nil && so != nil && want == dxbc.GeometryShader {
		// Stream output of a vertex shader: its bytecode, no geometry
		// shader ("ID3D11Device::CreateGeometryShaderWithStreamOutput").
		var err2 error
		if sigs, err2 = d.valid.validate(code, dxbc.VertexShader); err2 == nil {
			err = nil
			so.vs = true
		}
	}
	in, out := sigs.in, sigs.out
	if err != nil {
		return nil, d.invalid(api, name, "invalid shader bytecode: %v", err)
	}
	if err := d.checkShaderFeatures(api, name, sigs.feat); err != nil {
		return nil, err
	}
	var soArgs *ddi.SOShaderArgs
	if so != nil {
		so.profile, so.sm5 = shaderProfile(code)
		so.sm5 = so.sm5 && !so.vs
		if soArgs, err = d.soArgs(api, name, so, out); err != nil {
			return nil, err
		}
		if !so.vs {
			out = rasterizedOutputs(out, so.rasterized)
		}
	} else if want == dxbc.GeometryShader {
		out = rasterizedOutputs(out, 0)
	}
	code = append([]byte{}, code...)
	args := ddi.ShaderArgs{Bytecode: code, Obj: name}
	private := d.calcPrivate(name, "CalcPrivateShaderSize", func(u ddi.Device) int { return u.CalcPrivateShaderSize(&args) })
	// The bytecode the runtime copied lives as long as the shader (the
	// driver keeps it too, to list it again): it counts against the
	// device's memory with the object, so live shaders are bounded by
	// their size and not only by their number.
	bytes := ObjectOverhead + int64(private) + int64(len(code))
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	s = &Shader{Stage: stage, Inputs: in, Outputs: out, h: ddi.HSHADER(d.rt.newHandle()), code: code, ms: sigs.ms}
	if stage == "hs" {
		s.cps = hullControlPoints(code)
	}
	w := d.ddiIC().on(name, handleName(uint32(s.h)))
	switch stage {
	case "vs":
		err = w.CreateVertexShader(d.hDev, &args, s.h, uint32(s.h))
	case "cs":
		err = w.CreateComputeShader(d.hDev, &args, s.h, uint32(s.h))
	case "gs":
		if soArgs != nil {
			soArgs.ShaderArgs = args
			err = w.CreateGeometryShaderWithStreamOutput(d.hDev, soArgs, s.h, uint32(s.h))
			break
		}
		err = w.CreateGeometryShader(d.hDev, &args, s.h, uint32(s.h))
	case "hs":
		err = w.CreateHullShader(d.hDev, &args, s.h, uint32(s.h))
	case "ds":
		err = w.CreateDomainShader(d.hDev, &args, s.h, uint32(s.h))
	default:
		err = w.CreatePixelShader(d.hDev, &args, s.h, uint32(s.h))
	}
	if err != nil {
		d.unreserve(bytes)
		if d.debug {
			// The driver's reason (the DXBC instruction and the feature
			// this GPU lacks), as the debug layer shows a failed create:
			// E_INVALIDARG from the driver is its own error, not the
			// application's (rule ERR-APP), so CORRUPTION, not ERROR.
			d.message(api, name, fmt.Sprintf("D3D11 CORRUPTION: %s(%s): the driver refused the shader with E_INVALIDARG, an error of the driver (this GPU lacks what the shader needs), not of the application: %v", api, name, err))
		}
		return nil, err
	}
	_, ht := ddiHandle(s)
	s.driverPart(private, d.calcCLS(ht, uint32(s.h), name))
	d.initChild(&s.object, name, bytes, func() {
		d.ddiIC().on(name, handleName(uint32(s.h))).DestroyShader(d.hDev, s.h)
	})
	return s, nil
}

// CreateBlendState, CreateRasterizerState, CreateDepthStencilState and
// CreateSamplerState share one shape (createState): a descriptor equal to
// that of a live state object of the same kind and device gives that object
// back, with its reference count raised (ID3D11Device::CreateBlendState: "For
// each object created, the runtime checks to see if a previous object has the
// same state. If such a previous object exists, the runtime will return a
// pointer to previous instance instead of creating a duplicate object").
func (d *Device) CreateBlendState(name string, desc ddi.BlendDesc) (*State, error) {
	if msg := blendDescError(&desc); msg != "" {
		return nil, d.refuseState("CreateBlendState", name, msg)
	}
	return d.createState(name, "blend", "CreateBlendState", desc,
		"CalcPrivateBlendStateSize", func(u ddi.Device) int { return u.CalcPrivateBlendStateSize(&desc) },
		func(w ddiCall, h uint32) error { return w.CreateBlendState(d.hDev, &desc, ddi.HBLENDSTATE(h), h) },
		func(w ddiCall, h uint32) { w.DestroyBlendState(d.hDev, ddi.HBLENDSTATE(h)) })
}

func (d *Device) CreateRasterizerState(name string, desc ddi.RasterizerDesc) (*State, error) {
	if msg := rasterizerDescError(&desc); msg != "" {
		return nil, d.refuseState("CreateRasterizerState", name, msg)
	}
	return d.createState(name, "rasterizer", "CreateRasterizerState", desc,
		"CalcPrivateRasterizerStateSize", func(u ddi.Device) int { return u.CalcPrivateRasterizerStateSize(&desc) },
		func(w ddiCall, h uint32) error {
			return w.CreateRasterizerState(d.hDev, &desc, ddi.HRASTERIZERSTATE(h), h)
		},
		func(w ddiCall, h uint32) { w.DestroyRasterizerState(d.hDev, ddi.HRASTERIZERSTATE(h)) })
}

func (d *Device) CreateDepthStencilState(name string, desc ddi.DepthStencilDesc) (*State, error) {
	if msg := depthStencilDescError(&desc); msg != "" {
		return nil, d.refuseState("CreateDepthStencilState", name, msg)
	}
	return d.createState(name, "depthstencil", "CreateDepthStencilState", desc,
		"CalcPrivateDepthStencilStateSize", func(u ddi.Device) int { return u.CalcPrivateDepthStencilStateSize(&desc) },
		func(w ddiCall, h uint32) error {
			return w.CreateDepthStencilState(d.hDev, &desc, ddi.HDEPTHSTENCILSTATE(h), h)
		},
		func(w ddiCall, h uint32) { w.DestroyDepthStencilState(d.hDev, ddi.HDEPTHSTENCILSTATE(h)) })
}

func (d *Device) CreateSamplerState(name string, desc ddi.SamplerDesc) (*State, error) {
	if msg := samplerDescError(&desc); msg != "" {
		return nil, d.refuseState("CreateSamplerState", name, msg)
	}
	return d.createState(name, "sampler", "CreateSamplerState", desc,
		"CalcPrivateSamplerSize", func(u ddi.Device) int { return u.CalcPrivateSamplerSize(&desc) },
		func(w ddiCall, h uint32) error { return w.CreateSampler(d.hDev, &desc, ddi.HSAMPLER(h), h) },
		func(w ddiCall, h uint32) { w.DestroySampler(d.hDev, ddi.HSAMPLER(h)) })
}

// refuseState is a Create*State call the runtime refuses for its
// descriptor: E_INVALIDARG naming the field, as the debug layer does.
func (d *Device) refuseState(api, name, msg string) error {
	done := d.api(api, name, "")
	err := d.invalid(api, name, "%s", msg)
	done.end(err)
	return err
}

// blendDescError checks a D3D11_BLEND_DESC ("D3D11_RENDER_TARGET_BLEND_DESC
// structure", "D3D11_BLEND enumeration"): every factor a D3D11_BLEND value,
// the alpha factors none of the *_COLOR ones, every operation a
// D3D11_BLEND_OP, every write mask 4 bits; RenderTarget[1..7] are checked
// when IndependentBlendEnable makes them count.
func blendDescError(d *ddi.BlendDesc) string {
	n := 1
	if d.IndependentBlendEnable {
		n = len(d.RenderTarget)
	}
	for i := range n {
		t := &d.RenderTarget[i]
		for _, f := range []struct {
			name  string
			v     ddi.Blend
			alpha bool
		}{{"SrcBlend", t.SrcBlend, false}, {"DestBlend", t.DestBlend, false}, {"SrcBlendAlpha", t.SrcBlendAlpha, true}, {"DestBlendAlpha", t.DestBlendAlpha, true}} {
			name := enumName("Blend", uint32(f.v))
			switch {
			case name == "":
				return fmt.Sprintf("RenderTarget[%d].%s %d is not a D3D11_BLEND value", i, f.name, f.v)
			case f.alpha && strings.HasSuffix(name, "_COLOR"):
				return fmt.Sprintf("RenderTarget[%d].%s is D3D11_BLEND_%s: the alpha factors cannot be *_COLOR ones", i, f.name, name)
			}
		}
		for _, op := range []struct {
			name string
			v    ddi.BlendOp
		}{{"BlendOp", t.BlendOp}, {"BlendOpAlpha", t.BlendOpAlpha}} {
			if enumName("BlendOp", uint32(op.v)) == "" {
				return fmt.Sprintf("RenderTarget[%d].%s %d is not a D3D11_BLEND_OP value", i, op.name, op.v)
			}
		}
		if t.RenderTargetWriteMask > 0xF {
			return fmt.Sprintf("RenderTarget[%d].RenderTargetWriteMask %#x has bits past D3D11_COLOR_WRITE_ENABLE_ALL (0xf)", i, t.RenderTargetWriteMask)
		}
	}
	return ""
}

// depthStencilDescError checks a D3D11_DEPTH_STENCIL_DESC: the functions
// D3D11_COMPARISON_FUNC values, the operations D3D11_STENCIL_OP ones.
func depthStencilDescError(d *ddi.DepthStencilDesc) string {
	if enumName("Comparison", uint32(d.DepthFunc)) == "" {
		return fmt.Sprintf("DepthFunc %d is not a D3D11_COMPARISON_FUNC value", d.DepthFunc)
	}
	for _, f := range []struct {
		name string
		face *ddi.DepthStencilOpDesc
	}{{"FrontFace", &d.FrontFace}, {"BackFace", &d.BackFace}} {
		if enumName("Comparison", uint32(f.face.StencilFunc)) == "" {
			return fmt.Sprintf("%s.StencilFunc %d is not a D3D11_COMPARISON_FUNC value", f.name, f.face.StencilFunc)
		}
		for _, op := range []struct {
			name string
			v    ddi.StencilOp
		}{{"StencilFailOp", f.face.StencilFailOp}, {"StencilDepthFailOp", f.face.StencilDepthFailOp}, {"StencilPassOp", f.face.StencilPassOp}} {
			if enumName("StencilOp", uint32(op.v)) == "" {
				return fmt.Sprintf("%s.%s %d is not a D3D11_STENCIL_OP value", f.name, op.name, op.v)
			}
		}
	}
	return ""
}

// rasterizerDescError checks a D3D11_RASTERIZER_DESC: FillMode and
// CullMode values of their enumerations, the bias floats numbers.
func rasterizerDescError(d *ddi.RasterizerDesc) string {
	switch {
	case enumName("FillMode", uint32(d.FillMode)) == "":
		return fmt.Sprintf("FillMode %d is not a D3D11_FILL_MODE value", d.FillMode)
	case enumName("CullMode", uint32(d.CullMode)) == "":
		return fmt.Sprintf("CullMode %d is not a D3D11_CULL_MODE value", d.CullMode)
	case math.IsNaN(float64(d.DepthBiasClamp)) || math.IsInf(float64(d.DepthBiasClamp), 0):
		return fmt.Sprintf("DepthBiasClamp %g is not a number", d.DepthBiasClamp)
	case math.IsNaN(float64(d.SlopeScaledDepthBias)) || math.IsInf(float64(d.SlopeScaledDepthBias), 0):
		return fmt.Sprintf("SlopeScaledDepthBias %g is not a number", d.SlopeScaledDepthBias)
	}
	return ""
}

// enumName is the name of value v of the enum kind, "" for none.
func enumName(kind string, v uint32) string {
	name := ""
	for n, x := range ddi.Enums[kind] {
		if x == v && (name == "" || n < name) {
			name = n
		}
	}
	return name
}

// MaxUniqueStates is how many state objects of each kind a device may hold
// at once: "An application can create up to 4096 unique blend-state
// objects" (ID3D11Device::CreateBlendState; the same for the rasterizer,
// depth-stencil and sampler states). One more distinct descriptor fails
// with D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS: "There are too many
// unique instances of a particular type of state object" ("Direct3D 11
// Return Codes").
const MaxUniqueStates = 4096

// createState gives back the live state object with an equal descriptor
// (desc, a comparable value whose type tells the kinds apart), else makes
// one with the driver.
func (d *Device) createState(name, kind, api string, desc any, calcName string, calc func(ddi.Device) int, create func(ddiCall, uint32) error, destroy func(ddiCall, uint32)) (s *State, err error) {
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if s := d.sharedState(desc); s != nil {
		// No driver object, no DDI: the application holds one more
		// reference on the object it already has.
		d.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "StateShared", Obj: s.name,
			Msg: fmt.Sprintf("%s: %s has the descriptor of %s, a live %s state of device %s: the runtime returns %s (%d references)", api, name, s.name, kind, d.name, s.name, s.refs.Load())})
		return s, nil
	}
	d.mu.Lock()
	n := d.stateKinds[kind]
	d.mu.Unlock()
	if n >= MaxUniqueStates {
		msg := fmt.Sprintf("%s(%s): the device already holds %d unique %s state objects, the most D3D11 allows of each kind", api, name, n, kind)
		if d.debug {
			d.message(api, name, "D3D11 ERROR: "+msg)
		}
		return nil, hresult.Errorf(hresult.D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS, "%s", msg)
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	private := d.calcPrivate(name, calcName, calc)
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	s = &State{Kind: kind, h: d.rt.newHandle(), desc: desc}
	err = create(d.ddiIC().on(name, handleName(s.h)), s.h)
	if err != nil {
		d.unreserve(bytes)
		if d.debug {
			// The driver's reason (the DXBC instruction and the feature
			// this GPU lacks), as the debug layer shows a failed create:
			// E_INVALIDARG from the driver is its own error, not the
			// application's (rule ERR-APP), so CORRUPTION, not ERROR.
			d.message(api, name, fmt.Sprintf("D3D11 CORRUPTION: %s(%s): the driver refused the shader with E_INVALIDARG, an error of the driver (this GPU lacks what the shader needs), not of the application: %v", api, name, err))
		}
		return nil, err
	}
	_, ht := ddiHandle(s)
	s.driverPart(private, d.calcCLS(ht, s.h, name))
	d.initChild(&s.object, name, bytes, func() {
		d.forgetState(desc, s)
		destroy(d.ddiIC().on(name, handleName(s.h)), s.h)
	})
	d.keepState(desc, kind, s)
	return s, nil
}

// sharedState returns the live state object with descriptor desc, with one
// more reference, or nil.
func (d *Device) sharedState(desc any) *State {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.states[desc]
	if s == nil || !s.Alive() || (s.refs.Load() == 0 && s.pins.Load() == 0) {
		// (gone, or on its way: a final Release with nothing binding it)
		return nil
	}
	s.refs.Add(1) // (not AddRef: a state the application released but a context binds comes back to it)
	return s
}

// keepState records a new state object under its descriptor. (Two threads
// creating equal descriptors at once may both reach the driver: the first
// one recorded is the one later creations share.)
func (d *Device) keepState(desc any, kind string, s *State) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.states == nil {
		d.states, d.stateKinds = map[any]*State{}, map[string]int{}
	}
	if old := d.states[desc]; old == nil {
		d.stateKinds[kind]++
	} else if old.Alive() {
		return
	}
	d.states[desc] = s
}

// forgetState drops a destroyed state object from the device's table.
func (d *Device) forgetState(desc any, s *State) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.states[desc] == s {
		delete(d.states, desc)
		d.stateKinds[s.Kind]--
	}
}

// CreateQuery creates a query of any D3D11_QUERY kind, predicates
// included (queries.go).
func (d *Device) CreateQuery(name string, t ddi.QueryType) (q *Query, err error) {
	return d.createQuery("CreateQuery", name, t)
}

// createQuery is CreateQuery and CreatePredicate: the driver makes both
// with pfnCreateQuery.
func (d *Device) createQuery(api, name string, t ddi.QueryType) (q *Query, err error) {
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.checkQueryDesc(api, name, t); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	private := d.calcPrivate(name, "CalcPrivateQuerySize", func(u ddi.Device) int { return u.CalcPrivateQuerySize(t) })
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	q = &Query{Type: t, h: ddi.HQUERY(d.rt.newHandle())}
	err = d.ddiIC().on(name, handleName(uint32(q.h))).CreateQuery(d.hDev, t, q.h, uint32(q.h))
	if err != nil {
		d.unreserve(bytes)
		return nil, err
	}
	q.driverPart(private, d.calcCLS(ddi.HTQuery, uint32(q.h), name))
	d.initChild(&q.object, name, bytes, func() {
		d.ddiIC().on(name, handleName(uint32(q.h))).DestroyQuery(d.hDev, q.h)
	})
	return q, nil
}
