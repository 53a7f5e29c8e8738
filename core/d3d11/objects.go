package d3d11

import (
	"fmt"
	"sync/atomic"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Object is what every API object offers: IUnknown's AddRef/Release plus the
// name the scenario gave it.
type Object interface {
	Name() string
	AddRef() uint32
	Release() uint32
	Alive() bool
}

// object is the common part of device children. An object is destroyed when
// its last public reference is released and no context binding pins it (the
// context holds its own reference on bound objects, as D3D11's does).
type object struct {
	dev     *Device
	name    string
	refs    atomic.Int32
	pins    atomic.Int32
	dead    atomic.Bool
	destroy func()
}

func (o *object) Name() string { return o.name }
func (o *object) Alive() bool  { return !o.dead.Load() }

func (o *object) AddRef() uint32 { return uint32(o.refs.Add(1)) }

func (o *object) Release() uint32 {
	n := o.refs.Add(-1)
	if n < 0 {
		o.refs.Store(0)
		return 0
	}
	if n == 0 {
		if o.pins.Load() == 0 {
			o.kill()
		} else if o.dev != nil {
			// The final Release of an object a context still binds: it
			// lives on until it is unbound (seed 000's synchronous
			// destruction patterns start here, rule DD-SYNC).
			o.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Message, Name: "ReleasedWhileBound", Obj: o.name,
				Msg: o.name + ": final Release while a context still binds it; destroyed when unbound"})
		}
	}
	return uint32(n)
}

func (o *object) pin() { o.pins.Add(1) }

func (o *object) unpin() {
	if o.pins.Add(-1) == 0 && o.refs.Load() == 0 {
		if d := o.dev; d != nil && d.rt.cfg.Bugs["DD-SYNC"] && d.clearing.Load() {
			// The bug: ClearState drops the binding but the runtime puts
			// the destruction off to its amortized processing.
			d.mu.Lock()
			d.destroyQ = append(d.destroyQ, o)
			d.mu.Unlock()
			return
		}
		o.kill()
	}
}

func (o *object) kill() {
	if o.dead.Swap(true) {
		return
	}
	if d := o.dev; d != nil && d.ddiHeld.Load() > 0 {
		// A serialised driver's DDI is in progress (the one whose
		// rebinding dropped the last reference): the destroy DDI waits
		// until it returns, as it must wait for the runtime's DDI lock.
		d.mu.Lock()
		d.afterDDI = append(d.afterDDI, o)
		d.mu.Unlock()
		// (with real goroutines the holder may have released the lock
		// and drained the queue just before the append)
		d.drainAfterDDI()
		return
	}
	o.finish()
}

func (o *object) finish() {
	if o.destroy != nil {
		o.destroy()
	}
	o.dev.childGone()
}

func (d *Device) initChild(o *object, name string, destroy func()) {
	o.dev, o.name, o.destroy = d, name, destroy
	o.refs.Store(1)
	d.children.Add(1)
}

// ResourceKind tells buffers from textures.
type ResourceKind uint8

const (
	KindBuffer ResourceKind = iota + 1
	KindTexture2D
)

// Resource is an ID3D11Buffer or ID3D11Texture2D.
type Resource struct {
	object
	Kind   ResourceKind
	Desc   ddi.CreateResourceArgs
	h      ddi.HRESOURCE
	rth    ddi.HRTRESOURCE
	mapped bool
	mapCtx *DeviceContext
	data   []byte // mapped memory while mapped
}

// View is a render-target, shader-resource or depth-stencil view.
type View struct {
	object
	ViewKind ddi.ViewKind
	Res      *Resource
	h        uint32
}

// Shader is a vertex or pixel shader built from a builtin program.
type Shader struct {
	object
	Stage   string // "vs" or "ps"
	Builtin string
	h       ddi.HSHADER
}

// State is a blend, rasterizer, depth-stencil or sampler state.
type State struct {
	object
	Kind string // "blend", "rasterizer", "depthstencil", "sampler"
	h    uint32
}

// Query is an ID3D11Query.
type Query struct {
	object
	Type   ddi.QueryType
	h      ddi.HQUERY
	began  bool
	issued bool
}

// SwapChain is an IDXGISwapChain whose buffers are primaries.
type SwapChain struct {
	object
	Width, Height uint32
	Buffers       []*Resource
	Fullscreen    bool
}

func (o *object) checkAlive(call string) error {
	if o.dead.Load() {
		return hresult.Errorf(hresult.E_INVALIDARG, "%s uses %s after its final Release (rule LIFE-DANGLING)", call, o.name)
	}
	return nil
}

func handleName(h uint32) string { return fmt.Sprintf("h%d", h) }

// Device returns the device that created the object.
func (o *object) Device() *Device { return o.dev }
