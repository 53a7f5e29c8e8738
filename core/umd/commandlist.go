package umd

import (
	"fmt"

	"d3dsim/core/rules"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// Command lists: the device's DDIs that create deferred contexts, turn their
// recordings into command lists, recycle both, and execute a list on the
// immediate context.

// Context-local handle sizes (CalcDeferredContextHandleSize). Every value is
// also in CheckDeferredContextHandleSizes' array (rule CLS-SIZES) and never
// changes for an object (rule CL-SIZE).
var handleSizes = []ddi.HandleSize{
	{Type: ddi.HTResource, Size: 64}, {Type: ddi.HTShaderResourceView, Size: 32}, {Type: ddi.HTRenderTargetView, Size: 32},
	{Type: ddi.HTDepthStencilView, Size: 32}, {Type: ddi.HTShader, Size: 48},
	{Type: ddi.HTBlendState, Size: 16}, {Type: ddi.HTDepthStencilState, Size: 16}, {Type: ddi.HTRasterizerState, Size: 16},
	{Type: ddi.HTSamplerState, Size: 16}, {Type: ddi.HTQuery, Size: 32}, {Type: ddi.HTCommandList, Size: 128},
	{Type: ddi.HTElementLayout, Size: 32}, {Type: ddi.HTUnorderedAccessView, Size: 32},
}

const (
	sizeDeferredContext = 2048
	sizeCommandList     = 256
)

// clState is a command-list handle's place in the state machine of
// command-list recycling ("Supporting command lists").
type clState uint8

const (
	clValid   clState = iota + 1 // usable with CommandListExecute
	clRetired                    // RecycleDestroyCommandList: destroyed, memory kept
	clCached                     // RecycleCommandList: folded into its deferred context's cache
)

func (s clState) String() string {
	return [...]string{"", "valid", "retired", "cached"}[s]
}

// commandList is the private memory behind an HCOMMANDLIST.
type commandList struct {
	state    clState
	dc       ddi.HDEVICE
	words    []uint32
	list     []ddi.AllocationListEntry
	groups   []int
	used     []usedResource
	ended    []*query
	versions []version      // Map(WRITE_DISCARD) on the deferred context: the list's own allocations
	nested   []*commandList // lists the deferred context executed into this one (their versions are theirs)
	// endNew is the later state (newState) the list leaves on the GPU.
	endNew gpuBindings
}

type version struct {
	r       *resource
	alloc   ddi.HALLOCATION
	adopted bool // executed: the resource owns the allocation now
	// superseded: a later WRITE_DISCARD in the same recording replaced it,
	// but draws recorded before that read it. The list keeps it alive and
	// never adopts it.
	superseded bool
}

type usedResource struct {
	r     *resource
	write bool
}

func (c *context) CheckDeferredContextHandleSizes(_ ddi.HDEVICE, sizes []ddi.HandleSize) int {
	copy(sizes, handleSizes)
	return len(handleSizes)
}

func (c *context) CalcDeferredContextHandleSize(_ ddi.HDEVICE, t ddi.HandleType, _ uint32) int {
	for _, s := range handleSizes {
		if s.Type == t {
			return int(s.Size)
		}
	}
	return 0
}

func (c *context) CalcPrivateDeferredContextSize(ddi.HDEVICE) int { return sizeDeferredContext }

// CreateDeferredContext makes a deferred context: a recorder sharing this
// device's objects through context-local handles.
//
// Like every create DDI it reports an error through pfnSetErrorCb, with the
// immediate context's core-layer handle (the create is the device's).
func (d *Device) CreateDeferredContext(_ ddi.HDEVICE, a *ddi.CreateDeferredContextArgs, h ddi.HDEVICE) ddi.Device {
	if d.injected("CreateDeferredContext") {
		d.report(hresult.E_OUTOFMEMORY)
		return nil
	}
	dc := newDeferredContext(d, h, a.HRTCoreLayer)
	d.mu.Lock()
	d.dcs[h] = dc
	d.mu.Unlock()
	return dc
}

func (d *Device) dc(h ddi.HDEVICE) *deferredContext {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dcs[h]
}

// RecycleCreateDeferredContext makes the deferred context fresh for the next
// command list. It returns E_OUTOFMEMORY itself (rule CL-OOM).
func (d *Device) RecycleCreateDeferredContext(_ ddi.HDEVICE, h ddi.HDEVICE) error {
	if d.injected("RecycleCreateDeferredContext") {
		return d.recycleOOM()
	}
	dc := d.dc(h)
	if dc == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: RecycleCreateDeferredContext of unknown deferred context %d", h)
	}
	dc.discard()
	return nil
}

// AbandonCommandList throws away the deferred context's recording.
func (d *Device) AbandonCommandList(h ddi.HDEVICE) {
	if dc := d.dc(h); dc != nil {
		dc.discard()
	}
}

func (c *context) CalcPrivateCommandListSize(ddi.HDEVICE, *ddi.CreateCommandListArgs) int {
	if c.cfg.Bugs.Has(rules.CLSize) {
		c.clCalls++
		return sizeCommandList + 16*c.clCalls // the bug: a different size each time
	}
	return sizeCommandList
}

// take moves the deferred context's recording into a command list.
func (d *Device) take(cl *commandList, h ddi.HDEVICE) error {
	dc := d.dc(h)
	if dc == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: command list from unknown deferred context %d", h)
	}
	cl.state, cl.dc = clValid, h
	dc.predicationOff(dc) // a list leaves the GPU without predication
	dc.pred = nil
	cl.endNew = dc.onGPU.newState()
	cl.endNew.soT = dc.onGPU.soT // the stream-output targets the list leaves bound (stream_deferred.go)
	cl.words = append([]uint32(nil), dc.cmd.Words...)
	cl.list = append([]ddi.AllocationListEntry(nil), dc.list...)
	cl.groups = append([]int(nil), dc.groups...)
	cl.used = cl.used[:0]
	for i, r := range dc.used.keys {
		cl.used = append(cl.used, usedResource{r, dc.written[i]})
	}
	cl.ended = append([]*query(nil), dc.ended...)
	cl.nested = dc.nested
	dc.nested = nil
	d.freeVersions(cl)
	cl.versions = cl.versions[:0]
	cl.versions = append(cl.versions, dc.superseded...)
	dc.superseded = nil
	for _, r := range dc.used.keys {
		if a, ok := dc.versions[r]; ok {
			cl.versions = append(cl.versions, version{r: r, alloc: a})
		}
	}
	clear(dc.versions)
	dc.cmd.Words, dc.list, dc.groups, dc.ended = nil, nil, nil, nil
	dc.chunks = 0
	dc.listIdx.reset()
	dc.used.reset()
	dc.written = dc.written[:0]
	return nil
}

// CreateCommandList reports an error through the immediate context's
// pfnSetErrorCb, as every create DDI does.
func (d *Device) CreateCommandList(_ ddi.HDEVICE, a *ddi.CreateCommandListArgs, h ddi.HCOMMANDLIST, _ ddi.HCOMMANDLIST) {
	d.report(d.createCommandList(a, h))
}

func (d *Device) createCommandList(a *ddi.CreateCommandListArgs, h ddi.HCOMMANDLIST) error {
	if err := d.injectedErr("CreateCommandList"); err != nil {
		return err
	}
	cl := &commandList{}
	if err := d.take(cl, a.DeferredContext); err != nil {
		return err
	}
	d.mu.Lock()
	d.cls[h] = cl
	d.mu.Unlock()
	return nil
}

// RecycleCreateCommandList makes a cached handle valid again with the new
// recording. It returns E_OUTOFMEMORY itself (rule CL-OOM).
func (d *Device) RecycleCreateCommandList(_ ddi.HDEVICE, a *ddi.CreateCommandListArgs, h ddi.HCOMMANDLIST) error {
	if d.injected("RecycleCreateCommandList") {
		return d.recycleOOM()
	}
	d.mu.Lock()
	cl := d.cls[h]
	d.mu.Unlock()
	if cl == nil || cl.state != clCached {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: RecycleCreateCommandList of handle %d, which is not cached", h)
	}
	return d.take(cl, a.DeferredContext)
}

func (d *Device) DestroyCommandList(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	d.mu.Lock()
	cl := d.cls[h]
	delete(d.cls, h)
	d.mu.Unlock()
	if cl != nil {
		d.freeVersions(cl)
	}
}

// freeVersions deallocates the renamed allocations of a command list that
// never became their resource's contents.
func (d *Device) freeVersions(cl *commandList) {
	for _, v := range cl.versions {
		if !v.adopted {
			d.dealloc(v.r.rt, v.alloc, v.r.args.Obj)
		}
	}
	cl.versions = nil
}

// RecycleDestroyCommandList is a light destruction: the handle's memory stays
// with the driver for reuse.
func (d *Device) RecycleDestroyCommandList(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	d.mu.Lock()
	cl := d.cls[h]
	d.mu.Unlock()
	if cl != nil {
		d.freeVersions(cl)
		*cl = commandList{state: clRetired, dc: cl.dc}
	}
}

// CommandListState reports a handle's state ("" when freed): for tests and
// the panel.
func (d *Device) CommandListState(h ddi.HCOMMANDLIST) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if cl := d.cls[h]; cl != nil {
		return cl.state.String()
	}
	return ""
}

// CommandListExecute splices the command list into the immediate command
// buffer. The list starts from the default state and leaves the context in
// it (CommandListExecute is a clear-state operation).
func (d *Device) CommandListExecute(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	d.mu.Lock()
	cl := d.cls[h]
	d.mu.Unlock()
	if cl == nil || cl.state != clValid {
		return
	}
	d.busy()
	d.predicationOff(d) // the list starts without predication
	d.pred = nil
	// State refresh inside CommandListExecute still shows what was bound;
	// the driver looks again at its next DDI (refreshNext).
	ddi.RefreshAll(d.cb, d.core)
	d.refreshNext = true
	d.resetNewState(d) // the list starts from the later state's defaults
	d.resetState()
	// The list's Map(WRITE_DISCARD) versions become the resources' contents
	// (and those of the lists it executed when it was recorded).
	d.adopt(cl)
	bounds := append(append([]int(nil), cl.groups...), len(cl.words))
	pkts, allocs := d.execPkts[:0], &d.execAllocs
	for i := 0; i+1 < len(bounds); i++ {
		group := cl.words[bounds[i]:bounds[i+1]]
		var err error
		if pkts, err = isa.AppendDecode(pkts[:0], group); err != nil {
			panic(fmt.Sprintf("umd: recorded command list is malformed: %v", err)) // the UMD wrote it: a bug here
		}
		allocs.reset()
		for _, p := range pkts {
			for _, f := range isa.AddrFields(p.Op) {
				if _, ok := allocs.index(p.Args[f]); !ok {
					allocs.add(p.Args[f])
				}
			}
		}
		d.ensure(len(group), len(allocs.keys))
		base := len(d.cmd.Words)
		d.cmd.Words = append(d.cmd.Words, group...)
		for _, p := range pkts {
			for _, f := range isa.AddrFields(p.Op) {
				w := base + p.At + 1 + f
				idx, off := d.cmd.Words[w], d.cmd.Words[w+1]
				if uint64(idx) == isa.NullAddress {
					continue // an unbound slot names no allocation
				}
				e := cl.list[idx]
				a := d.refAlloc(e.Allocation, e.WriteOperation, off)
				d.cmd.Words[w], d.cmd.Words[w+1] = uint32(a), uint32(a>>32)
			}
		}
	}
	clear(pkts) // drop the list's words
	d.execPkts = pkts[:0]
	for _, u := range cl.used {
		if !u.r.inBuffer {
			u.r.inBuffer = true
			d.used = append(d.used, u.r)
		}
		u.r.writeInBuffer = u.r.writeInBuffer || u.write
	}
	for _, q := range cl.ended {
		if !q.inBuffer {
			q.inBuffer = true
			d.ended = append(d.ended, q)
		}
	}
	d.onGPU = afterList(cl.endNew) // what the list bound is still set on the GPU
	d.cs.sent = csUnknown
	d.resetState()
	d.afterSOList(cl)
}

// adopt makes a list's Map(WRITE_DISCARD) versions, and those of the lists
// nested in it, the resources' contents.
func (d *Device) adopt(cl *commandList) {
	for i := range cl.versions {
		v := &cl.versions[i]
		if v.adopted || v.superseded {
			continue // executed before: the resource owns it (a second execution reuses its contents)
		}
		v.adopted = true
		old := v.r.alloc
		v.r.alloc = v.alloc
		if v.r.inBuffer {
			d.pendingDealloc = append(d.pendingDealloc, pendingFree{alloc: old, obj: v.r.args.Obj, rt: v.r.rt})
		} else {
			d.dealloc(v.r.rt, old, v.r.args.Obj)
		}
		v.r.lastFence, v.r.lastWriteFence = 0, 0
	}
	for _, n := range cl.nested {
		d.adopt(n)
	}
}

// recycleOOM is how a Recycle* create DDI fails: it returns E_OUTOFMEMORY and
// never calls pfnSetErrorCb (rule CL-OOM; bug=CL-OOM calls it).
func (d *Device) recycleOOM() error {
	if d.cfg.Bugs.Has(rules.CLOOM) {
		d.cb.PfnSetErrorCb(d.core, hresult.E_OUTOFMEMORY)
	}
	return hresult.E_OUTOFMEMORY
}
