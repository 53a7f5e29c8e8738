package d3d11

import (
	"fmt"
	"strings"
	"sync/atomic"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
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
	queued  atomic.Bool // in the runtime's destruction queue: gone for the API, not yet destroyed
	destroy func()
	bytes   int64  // the runtime and driver memory counted for it (memory.go)
	private []byte // the driver's part, of the size CalcPrivate*Size answered (memory.go)
	clsSize int64  // CalcDeferredContextHandleSize's answer: a context-local handle's slot size
	// primary: a primary (a swap chain's buffer) or a view of one, whose
	// destruction the runtime does not defer (unbind).
	primary bool
}

func (o *object) Name() string { return o.name }

// Alive is false once the object is destroyed or, for an object released
// while bound, once the unbinding queued it (its Destroy* DDI waits): the
// runtime itself no longer uses it. For the application the object is gone
// earlier, from its final Release (released, rule LIFE-DANGLING).
func (o *object) Alive() bool { return !o.dead.Load() && !o.queued.Load() }

// AddRef and Release name the object too: after the application's final
// Release they are refused like any other call (rule LIFE-DANGLING: the
// debug layer says so; a real COM object would be freed memory), and
// AddRef does not bring the object back. (With bug=LIFE-DANGLING, AddRef
// revives it, as before.)
func (o *object) AddRef() uint32 {
	if o.refs.Load() <= 0 && o.dev != nil && o.dev.dangling("AddRef", o) != nil {
		return 0
	}
	return uint32(o.refs.Add(1))
}

// Release is IUnknown::Release, an API call in the trace, so that `expect
// calls` can follow a final Release to the Destroy* DDIs it runs.
func (o *object) Release() uint32 {
	if o.dev == nil {
		return o.release()
	}
	done := o.dev.api("Release", o.name, "")
	n := o.release()
	done.end(nil)
	return n
}

// release drops a reference without an API call of its own (a swap chain
// letting its buffers go).
func (o *object) release() uint32 {
	if o.refs.Load() <= 0 && o.dev != nil && o.dev.dangling("Release", o) != nil {
		return 0
	}
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
			// lives on until it is unbound, and an immediate-context
			// unbinding only queues it: the synchronous destruction
			// patterns of "Changes from Direct3D 10" start here (rule
			// DD-SYNC).
			o.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Message, Name: "ReleasedWhileBound", Obj: o.name,
				Msg: o.name + ": final Release while a context still binds it; destroyed after it is unbound (the immediate context's unbinding queues it)"})
		}
	}
	return uint32(n)
}

func (o *object) pin() { o.pins.Add(1) }

// unpin drops a reference the runtime holds for something other than an
// immediate-context binding (a view's on its resource, a command list's, a
// deferred context's binding): the last one destroys the released object at
// once.
func (o *object) unpin() {
	if o.pins.Add(-1) == 0 && o.refs.Load() == 0 {
		o.kill()
	}
}

// unbind drops an immediate-context binding. When it was the last reference
// of an object the application released while bound, the object does not
// die on the spot: it goes into the runtime's destruction queue, which the
// runtime drains in pfnPerformAmortizedProcessingCb, at the immediate
// context's Flush and when the device goes (drainDestroyQueue). "Changes
// from Direct3D 10": the API uses the amortized callback "to trim high
// watermarks and flush out its deferred object destruction queue, among
// other things", and "The Direct3D runtime also uses this same design" as
// the driver's deferred destruction; Release; ClearState; Flush is the official way to empty it
// (rule DD-SYNC). A primary is the exception: "Primary destruction cannot
// be deferred by the Direct3D runtime" ("Changes from Direct3D 10",
// Primary Exceptions), so a primary, and a view that holds one, is
// destroyed at the unbinding, on the immediate context's thread, whose
// threading domain a primary's DestroyResource shares.
func (o *object) unbind() {
	if o.pins.Add(-1) != 0 || o.refs.Load() != 0 {
		return
	}
	d := o.dev
	if d == nil {
		o.kill()
		return
	}
	if o.primary {
		if !o.dead.Load() {
			d.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "PrimaryNotDeferred", Obj: o.name,
				Msg: o.name + ": unbound after its final Release; it is a primary or a view of one, and a primary's destruction is not deferred (\"Changes from Direct3D 10\", Primary Exceptions): destroyed now, not queued"})
		}
		o.kill()
		return
	}
	if o.queued.Swap(true) || o.dead.Load() {
		return
	}
	d.mu.Lock()
	d.destroyQ = append(d.destroyQ, o)
	d.mu.Unlock()
}

// drainDestroyQueue destroys what the runtime queued (see unbind), on the
// calling thread: Destroy* DDIs are free-threaded. ctx names the context
// whose thread drains, why the occasion; the DrainDestroyQueue event names
// the objects.
func (d *Device) drainDestroyQueue(ctx, why string) {
	for {
		// Until it stays empty: a destruction itself never queues (a
		// view's end destroys its released resource at once), but the
		// immediate context may queue more while another thread drains.
		d.mu.Lock()
		queued := d.destroyQ
		d.destroyQ = nil
		d.mu.Unlock()
		if len(queued) == 0 {
			return
		}
		var names []string
		var doomed []*object
		for _, o := range queued {
			if o.dead.Load() {
				continue // a racing final Release on another thread saw the unbinding and destroyed it
			}
			if o.pins.Load() > 0 {
				// Bound again since (only bug=LIFE-DANGLING lets the
				// application do that): it lives while bound, and the
				// next unbinding queues it again.
				o.queued.Store(false)
				continue
			}
			names = append(names, o.name)
			doomed = append(doomed, o)
		}
		if len(doomed) == 0 {
			continue
		}
		d.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "DrainDestroyQueue", Obj: d.name, Ctx: ctx,
			Args: drainArgs(len(doomed), why),
			Msg:  fmt.Sprintf("the runtime destroys %d objects it queued when the immediate context unbound them (%s): %s", len(doomed), why, strings.Join(names, " "))})
		for _, o := range doomed {
			o.kill()
		}
	}
}

// QueuedDestroys counts the objects waiting in the runtime's destruction
// queue (for tests).
func (d *Device) QueuedDestroys() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.destroyQ)
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
	o.private = nil // the driver's part goes once its Destroy* DDI returned
	o.dev.dropPrivate(o)
	o.dev.unreserve(o.bytes)
	o.dev.childGone()
}

// initChild makes o a live child of the device, holding the bytes reserve
// or charge counted for it.
func (d *Device) initChild(o *object, name string, bytes int64, destroy func()) {
	o.dev, o.name, o.destroy, o.bytes = d, name, destroy, bytes
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
	// unmapEntry is the table entry that unmaps it: the partner of the map
	// entry its Map went through (ddi.MapEntry).
	unmapEntry string
}

// View is a render-target, shader-resource or depth-stencil view.
type View struct {
	object
	ViewKind ddi.ViewKind
	Res      *Resource
	// Format is the view's (D3D11_*_VIEW_DESC's Format): the resource's
	// own, or a typed format of a typeless resource's family.
	Format ddi.Format
	// Flags are a depth-stencil view's D3D11_DSV_FLAG (read-only depth,
	// read-only stencil).
	Flags ddi.DSVFlag
	// UAV is an unordered access view's description beyond its format.
	UAV ddi.UAVDesc
	// Target is a render-target or depth-stencil view's subresources
	// (rtvdesc.go), resolved: its Dimension D3D11_RTV_DIMENSION's.
	Target ddi.TargetDesc
	// SRV is a shader-resource view's dimension and ranges, resolved.
	SRV SRVDesc
	h   uint32
}

// Shader is a vertex or pixel shader built from bytecode; Inputs and
// Outputs are its signatures.
type Shader struct {
	object
	Stage           string // "vs" or "ps"
	Inputs, Outputs *dxbc.Signature
	h               ddi.HSHADER
	code            []byte   // the bytecode it was created from (Bytecode)
	cps             uint32   // a hull shader's input control points (tess.go)
	ms              []msDecl // its multisampled textures' declared counts (mscount.go)
}

// State is a blend, rasterizer, depth-stencil or sampler state.
type State struct {
	object
	Kind string // "blend", "rasterizer", "depthstencil", "sampler"
	h    uint32
	desc any // the descriptor it was created with (Desc)
}

// Query is an ID3D11Query.
type Query struct {
	object
	Type   ddi.QueryType
	h      ddi.HQUERY
	began  bool
	issued bool
	// inLists counts the runtime-recorded (emulated) command lists whose
	// End of this query has not run yet: GetData says S_FALSE meanwhile.
	inLists atomic.Int32
}

// SwapChain is an IDXGISwapChain whose buffers are primaries.
type SwapChain struct {
	object
	Width, Height uint32
	Buffers       []*Resource
	Fullscreen    bool
	SwapEffect    SwapEffect
}

// released is true from the application's final Release on, even while a
// binding, a view or a command list keeps the object alive inside the
// runtime: from then on the application holds no reference, and a call that
// names the object is a use after free (undefined behaviour in Windows;
// rule LIFE-DANGLING here). An object given back a reference since (a state
// object CreateBlendState shared again) is not released.
func (o *object) released() bool { return o.refs.Load() <= 0 || !o.Alive() }

// checkAlive is the LIFE-DANGLING check of a device or swap-chain method
// that names o (dangling).
func (o *object) checkAlive(call string) error {
	if o.dev == nil {
		if o.released() {
			return hresult.Errorf(hresult.E_INVALIDARG, "%s uses %s after its final Release (rule LIFE-DANGLING)", call, o.name)
		}
		return nil
	}
	return o.dev.dangling(call, o)
}

func handleName(h uint32) string { return fmt.Sprintf("h%d", h) }

// Device returns the device that created the object.
func (o *object) Device() *Device { return o.dev }

// drainArgs is DrainDestroyQueue's payload.
func drainArgs(objects int, why string) trace.Args {
	var b trace.ArgBuilder
	return b.Int(trace.KeyObjects, int64(objects)).Str(trace.KeyWhy, why).Args()
}
