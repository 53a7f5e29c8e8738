package umd

import (
	"d3dsim/core/rules"
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// Deferred contexts (seed 001) and command lists (seed 002).
//
// A deferred context is a Device of its own whose object handles are
// context-local: each is opened by a Create* call on the deferred context
// with the immediate context's handle as rt, and translates to that object.
// It records packets with the same encoder as the immediate context, in
// groups that each carry their full pipeline state, so CommandListExecute can
// splice a command list into immediate command buffers, splitting between
// groups when a buffer fills up.

// Context-local handle sizes (CalcDeferredContextHandleSize). Every value is
// also in CheckDeferredContextHandleSizes' array (rule CLS-SIZES) and never
// changes for an object (rule CL-SIZE).
var handleSizes = []ddi.HandleSize{
	{Type: ddi.HTResource, Size: 64}, {Type: ddi.HTShaderResourceView, Size: 32}, {Type: ddi.HTRenderTargetView, Size: 32},
	{Type: ddi.HTDepthStencilView, Size: 32}, {Type: ddi.HTVertexShader, Size: 48}, {Type: ddi.HTPixelShader, Size: 48},
	{Type: ddi.HTBlendState, Size: 16}, {Type: ddi.HTDepthStencilState, Size: 16}, {Type: ddi.HTRasterizerState, Size: 16},
	{Type: ddi.HTSampler, Size: 16}, {Type: ddi.HTQuery, Size: 32}, {Type: ddi.HTCommandList, Size: 128},
}

const (
	sizeDeferredContext = 2048
	sizeCommandList     = 256
)

// clState is a command-list handle's place in seed 002's state machine.
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
	versions []version // Map(WRITE_DISCARD) on the deferred context: the list's own allocations
}

type version struct {
	r       *resource
	alloc   ddi.HALLOCATION
	adopted bool // executed: the resource owns the allocation now
}

type usedResource struct {
	r     *resource
	write bool
}

// owner is the device whose object tables a handle lives in.
func (d *Device) owner() *Device {
	if d.parent != nil {
		return d.parent
	}
	return d
}

// icHandle translates a context-local handle to the immediate context's.
func (d *Device) icHandle(h uint32) uint32 {
	if d.parent == nil || h == 0 {
		return h
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.local[h]
}

// open records a context-local handle (DC::pfnCreate*, seed 001).
func (d *Device) open(h, rt uint32) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if rt == 0 {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: deferred context handle %d opened without its immediate handle", h)
	}
	d.local[h] = rt
	return nil
}

// close forgets a context-local handle; it reports whether d is a deferred
// context (for which Destroy* only closes).
func (d *Device) close(h uint32) bool {
	if d.parent == nil {
		return false
	}
	d.mu.Lock()
	delete(d.local, h)
	d.mu.Unlock()
	return true
}

// createFailed reports an injected failure of a create DDI: the immediate
// context returns it; a deferred context reports it through its own
// pfnSetErrorCb (rule ERR-DC).
func (d *Device) createFailed(name string) error {
	if d.parent != nil {
		d.dcFailed()
		return nil
	}
	return hresult.E_OUTOFMEMORY
}

// dcFailed: a deferred context ran out of memory. It says so through its own
// pfnSetErrorCb (seed 001) and stops recording.
func (d *Device) dcFailed() {
	d.failed = true
	d.cb.PfnSetErrorCb(d.core, hresult.E_OUTOFMEMORY)
}

// voidFailed applies an injected failure to a DDI that returns nothing.
func (d *Device) voidFailed(name string) bool {
	if d.parent == nil || !d.injected(name) {
		return d.failed
	}
	d.dcFailed()
	return true
}

func (d *Device) CheckDeferredContextHandleSizes(_ ddi.HDEVICE, sizes []ddi.HandleSize) int {
	copy(sizes, handleSizes)
	return len(handleSizes)
}

func (d *Device) CalcDeferredContextHandleSize(_ ddi.HDEVICE, t ddi.HandleType, _ uint32) int {
	for _, s := range handleSizes {
		if s.Type == t {
			return int(s.Size)
		}
	}
	return 0
}

func (d *Device) CalcPrivateDeferredContextSize(ddi.HDEVICE) int { return sizeDeferredContext }

// CreateDeferredContext makes a deferred context: a Device sharing this
// device's objects through context-local handles.
func (d *Device) CreateDeferredContext(_ ddi.HDEVICE, a *ddi.CreateDeferredContextArgs, h ddi.HDEVICE) (ddi.Device, error) {
	if d.injected("CreateDeferredContext") {
		return nil, hresult.E_OUTOFMEMORY
	}
	dc := &Device{h: h, rt: d.rt, core: a.HRTCoreLayer, cb: d.cb, cfg: d.cfg, obj: a.Obj, parent: d,
		local: map[uint32]uint32{}, listIdx: map[ddi.HALLOCATION]int{}, fail: map[string]int{},
		dcUsed: map[*resource]bool{}, versions: map[*resource]ddi.HALLOCATION{},
		cmdCap: 1 << 28, listCap: 1 << 20}
	dc.resetState()
	d.mu.Lock()
	d.dcs[h] = dc
	d.mu.Unlock()
	return dc, nil
}

func (d *Device) dc(h ddi.HDEVICE) *Device {
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

// discard drops what a deferred context recorded.
func (d *Device) discard() {
	d.cmd.Words = d.cmd.Words[:0]
	d.list = d.list[:0]
	clear(d.listIdx)
	d.groups = d.groups[:0]
	for _, r := range d.dcOrder { // an abandoned recording's renames
		if a, ok := d.versions[r]; ok {
			d.dealloc(r.rt, a, r.args.Obj)
		}
	}
	clear(d.versions)
	d.dcOrder = d.dcOrder[:0]
	clear(d.dcUsed)
	d.ended = d.ended[:0]
	d.failed = false
	d.dcChunks = 0
	d.resetState()
}

// AbandonCommandList throws away the deferred context's recording.
func (d *Device) AbandonCommandList(h ddi.HDEVICE) {
	if dc := d.dc(h); dc != nil {
		dc.discard()
	} else if d.parent != nil {
		d.discard()
	}
}

func (d *Device) CalcPrivateCommandListSize(ddi.HDEVICE, *ddi.CreateCommandListArgs) int {
	if d.cfg.Bugs.Has(rules.CLSize) {
		d.clCalls++
		return sizeCommandList + 16*d.clCalls // the bug: a different size each time
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
	cl.words = append([]uint32(nil), dc.cmd.Words...)
	cl.list = append([]ddi.AllocationListEntry(nil), dc.list...)
	cl.groups = append([]int(nil), dc.groups...)
	cl.used = cl.used[:0]
	for _, r := range dc.dcOrder {
		cl.used = append(cl.used, usedResource{r, dc.dcUsed[r]})
	}
	cl.ended = append([]*query(nil), dc.ended...)
	d.freeVersions(cl)
	cl.versions = cl.versions[:0]
	for _, r := range dc.dcOrder {
		if a, ok := dc.versions[r]; ok {
			cl.versions = append(cl.versions, version{r: r, alloc: a})
		}
	}
	clear(dc.versions)
	dc.cmd.Words, dc.list, dc.groups, dc.dcOrder, dc.ended = nil, nil, nil, nil, nil
	dc.dcChunks = 0
	clear(dc.listIdx)
	clear(dc.dcUsed)
	return nil
}

func (d *Device) CreateCommandList(_ ddi.HDEVICE, a *ddi.CreateCommandListArgs, h ddi.HCOMMANDLIST) error {
	if d.injected("CreateCommandList") {
		return hresult.E_OUTOFMEMORY
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

// RecycleCommandList folds a retired handle into its deferred context's
// cache; called on the deferred context's thread.
func (d *Device) RecycleCommandList(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	if d.cfg.Bugs.Has(rules.CLRecycleErr) {
		// the bug: report an error RecycleCommandList may not report
		d.cb.PfnSetErrorCb(d.core, hresult.E_OUTOFMEMORY)
	}
	o := d.owner()
	o.mu.Lock()
	defer o.mu.Unlock()
	if cl := o.cls[h]; cl != nil && cl.state == clRetired {
		cl.state = clCached
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
// it (seed 002: CommandListExecute is a clear-state operation).
func (d *Device) CommandListExecute(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	d.mu.Lock()
	cl := d.cls[h]
	d.mu.Unlock()
	if cl == nil || cl.state != clValid {
		return
	}
	d.busy()
	// State refresh inside CommandListExecute still shows what was bound
	// (seed 002); the driver looks again at its next DDI (refreshNext).
	d.cb.PfnStateIaVertexBufCb(d.core, 0, 1)
	d.refreshNext = true
	d.resetState()
	// The list's Map(WRITE_DISCARD) versions become the resources' contents.
	for i := range cl.versions {
		v := &cl.versions[i]
		if v.adopted {
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
	bounds := append(append([]int(nil), cl.groups...), len(cl.words))
	for i := 0; i+1 < len(bounds); i++ {
		group := cl.words[bounds[i]:bounds[i+1]]
		pkts, err := isa.Decode(group)
		if err != nil {
			panic(fmt.Sprintf("umd: recorded command list is malformed: %v", err)) // the UMD wrote it: a bug here
		}
		allocs := map[uint32]bool{}
		for _, p := range pkts {
			for _, f := range isa.AddrFields(p.Op) {
				allocs[p.Args[f]] = true
			}
		}
		d.ensure(len(group), len(allocs))
		base := len(d.cmd.Words)
		d.cmd.Words = append(d.cmd.Words, group...)
		for _, p := range pkts {
			for _, f := range isa.AddrFields(p.Op) {
				w := base + p.At + 1 + f
				idx, off := d.cmd.Words[w], d.cmd.Words[w+1]
				e := cl.list[idx]
				a := d.refAlloc(e.Allocation, e.WriteOperation, off)
				d.cmd.Words[w], d.cmd.Words[w+1] = uint32(a), uint32(a>>32)
			}
		}
	}
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
	d.resetState()
}

// recycleOOM is how a Recycle* create DDI fails: it returns E_OUTOFMEMORY and
// never calls pfnSetErrorCb (seed 002, rule CL-OOM; bug=CL-OOM calls it).
func (d *Device) recycleOOM() error {
	if d.cfg.Bugs.Has(rules.CLOOM) {
		d.cb.PfnSetErrorCb(d.core, hresult.E_OUTOFMEMORY)
	}
	return hresult.E_OUTOFMEMORY
}
