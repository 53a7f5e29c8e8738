package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Views, shaders, states and queries: each a CalcPrivate*Size, a Create*
// and, with its last reference, a Destroy* on the immediate context's
// table, then CalcDeferredContextHandleSize for the context-local handles
// a deferred context may open onto it.

// CreateView creates a render-target, shader-resource or depth-stencil view.
func (d *Device) CreateView(name string, kind ddi.ViewKind, res *Resource) (v *View, err error) {
	api := map[ddi.ViewKind]string{ddi.ViewRTV: "CreateRenderTargetView", ddi.ViewSRV: "CreateShaderResourceView", ddi.ViewDSV: "CreateDepthStencilView"}[kind]
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
	need := map[ddi.ViewKind]ddi.BindFlag{ddi.ViewRTV: ddi.BindRenderTarget, ddi.ViewSRV: ddi.BindShaderResource, ddi.ViewDSV: ddi.BindDepthStencil}[kind]
	if !res.Desc.BindFlags.Has(need) {
		return nil, d.invalid(api, name, "resource %s was not created with the bind flag this view needs", res.name)
	}
	if kind == ddi.ViewSRV && res.Kind != KindTexture2D {
		return nil, d.invalid(api, name, "shader resource views onto buffers are not supported by the simulated GPU")
	}
	args := ddi.CreateViewArgs{Kind: kind, Resource: res.h, Format: res.Desc.Format, Obj: name}
	// Traced under the view kind's own DDI (CalcPrivateRenderTargetViewSize,
	// CalcPrivateShaderResourceViewSize, CalcPrivateDepthStencilViewSize).
	private := d.calcPrivate(name, "CalcPrivate"+viewDDINames[kind]+"Size", func(u ddi.Device) int { return u.CalcPrivateViewSize(&args) })
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	v = &View{ViewKind: kind, Res: res, h: d.rt.newHandle()}
	// (res=: the resource the view depends on, so the trace names it)
	w := d.ddiIC().with(name, handleName(v.h), strArg(trace.KeyRes, handleName(uint32(res.h))))
	switch kind {
	case ddi.ViewRTV:
		err = w.CreateRenderTargetView(d.hDev, &args, ddi.HRENDERTARGETVIEW(v.h), v.h)
	case ddi.ViewSRV:
		err = w.CreateShaderResourceView(d.hDev, &args, ddi.HSHADERRESOURCEVIEW(v.h), v.h)
	case ddi.ViewDSV:
		err = w.CreateDepthStencilView(d.hDev, &args, ddi.HDEPTHSTENCILVIEW(v.h), v.h)
	}
	if err != nil {
		d.unreserve(bytes)
		return nil, err
	}
	_, ht := ddiHandle(v)
	cls := d.calcCLS(ht, v.h, name)
	res.pin() // a view holds its resource
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
		}
		res.unpin()
	})
	return v, nil
}

// CreateShaderBytecode creates a vertex ("vs") or pixel ("ps") shader from
// DXBC bytecode, as ID3D11Device::CreateVertexShader and
// CreatePixelShader do. The runtime validates the container first (its
// checksum, chunks and signatures, and that the program is of the stage
// the call creates): bad bytecode is E_INVALIDARG with the reason, and
// never reaches the driver.
func (d *Device) CreateShaderBytecode(name, stage string, code []byte) (s *Shader, err error) {
	api := map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader"}[stage]
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	want := dxbc.VertexShader
	if stage == "ps" {
		want = dxbc.PixelShader
	}
	in, out, err := d.valid.validate(code, want)
	if err != nil {
		return nil, d.invalid(api, name, "invalid shader bytecode: %v", err)
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
	s = &Shader{Stage: stage, Inputs: in, Outputs: out, h: ddi.HSHADER(d.rt.newHandle())}
	w := d.ddiIC().on(name, handleName(uint32(s.h)))
	if stage == "vs" {
		err = w.CreateVertexShader(d.hDev, &args, s.h, uint32(s.h))
	} else {
		err = w.CreatePixelShader(d.hDev, &args, s.h, uint32(s.h))
	}
	if err != nil {
		d.unreserve(bytes)
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
	return d.createState(name, "blend", "CreateBlendState", desc,
		"CalcPrivateBlendStateSize", func(u ddi.Device) int { return u.CalcPrivateBlendStateSize(&desc) },
		func(w ddiCall, h uint32) error { return w.CreateBlendState(d.hDev, &desc, ddi.HBLENDSTATE(h), h) },
		func(w ddiCall, h uint32) { w.DestroyBlendState(d.hDev, ddi.HBLENDSTATE(h)) })
}

func (d *Device) CreateRasterizerState(name string, desc ddi.RasterizerDesc) (*State, error) {
	return d.createState(name, "rasterizer", "CreateRasterizerState", desc,
		"CalcPrivateRasterizerStateSize", func(u ddi.Device) int { return u.CalcPrivateRasterizerStateSize(&desc) },
		func(w ddiCall, h uint32) error {
			return w.CreateRasterizerState(d.hDev, &desc, ddi.HRASTERIZERSTATE(h), h)
		},
		func(w ddiCall, h uint32) { w.DestroyRasterizerState(d.hDev, ddi.HRASTERIZERSTATE(h)) })
}

func (d *Device) CreateDepthStencilState(name string, desc ddi.DepthStencilDesc) (*State, error) {
	return d.createState(name, "depthstencil", "CreateDepthStencilState", desc,
		"CalcPrivateDepthStencilStateSize", func(u ddi.Device) int { return u.CalcPrivateDepthStencilStateSize(&desc) },
		func(w ddiCall, h uint32) error {
			return w.CreateDepthStencilState(d.hDev, &desc, ddi.HDEPTHSTENCILSTATE(h), h)
		},
		func(w ddiCall, h uint32) { w.DestroyDepthStencilState(d.hDev, ddi.HDEPTHSTENCILSTATE(h)) })
}

func (d *Device) CreateSamplerState(name string, desc ddi.SamplerDesc) (*State, error) {
	return d.createState(name, "sampler", "CreateSamplerState", desc,
		"CalcPrivateSamplerSize", func(u ddi.Device) int { return u.CalcPrivateSamplerSize(&desc) },
		func(w ddiCall, h uint32) error { return w.CreateSampler(d.hDev, &desc, ddi.HSAMPLER(h), h) },
		func(w ddiCall, h uint32) { w.DestroySampler(d.hDev, ddi.HSAMPLER(h)) })
}

// MaxUniqueStates is how many state objects of each kind a device may hold
// at once: "An application can create up to 4096 unique blend-state
// objects" (ID3D11Device::CreateBlendState; the same for the rasterizer,
// depth-stencil and sampler states). One more distinct descriptor fails
// with E_OUTOFMEMORY.
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
		return nil, hresult.Errorf(hresult.E_OUTOFMEMORY, "%s", msg)
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	private := d.calcPrivate(name, calcName, calc)
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve(api, name, bytes); err != nil {
		return nil, err
	}
	s = &State{Kind: kind, h: d.rt.newHandle()}
	err = create(d.ddiIC().on(name, handleName(s.h)), s.h)
	if err != nil {
		d.unreserve(bytes)
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

// CreateQuery creates an EVENT, OCCLUSION or TIMESTAMP query.
func (d *Device) CreateQuery(name string, t ddi.QueryType) (q *Query, err error) {
	done := d.api("CreateQuery", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit("CreateQuery", name); err != nil {
		return nil, err
	}
	private := d.calcPrivate(name, "CalcPrivateQuerySize", func(u ddi.Device) int { return u.CalcPrivateQuerySize(t) })
	bytes := ObjectOverhead + int64(private)
	if err := d.reserve("CreateQuery", name, bytes); err != nil {
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
