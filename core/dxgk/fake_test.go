package dxgk

import (
	"encoding/binary"
	"fmt"
	"sort"
	"sync"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// A fake driver and fake hardware, so Dxgkrnl's own logic is tested without
// the GPU package. Their DMA format:
//
//	render buffer: fakeRender, n, n address pairs (patched), the command words
//	paging op:     fakePaging, op, dst lo, dst hi, src lo, src hi, size, pattern
//	fence:         fakeFence, lo, hi (appended by SubmitCommand)
const (
	fakeRender = 0xD0D0
	fakePaging = 0xB0B0
	fakeFence  = 0xFEFE
	fakeReject = 0xBAD // a command word the driver rejects
)

type fakeDriver struct {
	hw        *fakeHW
	mu        sync.Mutex
	cb        dxgkddi.DxgkrnlInterface
	perEngine bool     // reports SupportPerEngineTDR
	patched   []uint64 // every address DxgkDdiPatch wrote, in order
}

var _ dxgkddi.KMD = (*fakeDriver)(nil)

func (d *fakeDriver) DxgkDdiStartDevice(a *dxgkddi.StartDeviceArgs) error {
	d.cb = a.DxgkInterface
	a.NumberOfEngines = 1
	a.SupportPerEngineTDR = d.perEngine
	return nil
}
func (d *fakeDriver) DxgkDdiCreateDevice(a *dxgkddi.CreateDeviceArgs) error {
	a.Info = dxgkddi.DeviceInfo{DmaBufferSize: 4096, AllocationListSize: 16, PatchLocationListSize: 64}
	return nil
}
func (d *fakeDriver) DxgkDdiDestroyDevice(dxgkddi.HDevice) error                    { return nil }
func (d *fakeDriver) DxgkDdiCreateContext(*dxgkddi.CreateContextArgs) error         { return nil }
func (d *fakeDriver) DxgkDdiDestroyContext(dxgkddi.HContext) error                  { return nil }
func (d *fakeDriver) DxgkDdiDestroyAllocation(*dxgkddi.DestroyAllocationArgs) error { return nil }
func (d *fakeDriver) DxgkDdiCreateAllocation(a *dxgkddi.CreateAllocationArgs) error {
	a.Info = dxgkddi.AllocationInfo{Size: a.Size, Alignment: 4096}
	return nil
}

func (d *fakeDriver) DxgkDdiRender(a *dxgkddi.RenderArgs) error {
	for _, w := range a.CommandBuffer {
		if w == fakeReject {
			return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "fake: rejected")
		}
	}
	out := []uint32{fakeRender, uint32(len(a.AllocationList))}
	for i := range a.AllocationList {
		a.PatchLocationList = append(a.PatchLocationList, dxgkddi.PatchLocation{AllocationIndex: uint32(i), PatchOffset: uint32(len(out))})
		out = append(out, 0, 0)
	}
	a.DmaBuffer = append(out, a.CommandBuffer...)
	return nil
}

// DxgkDdiPresent writes a fake copy naming the source and destination (a
// Blt) or nothing (a MMIO flip).
func (d *fakeDriver) DxgkDdiPresent(a *dxgkddi.PresentArgs) error {
	if a.NoDmaBuffer {
		return nil
	}
	out := []uint32{fakeRender, 2}
	for _, i := range []int{dxgkddi.PresentSourceIndex, dxgkddi.PresentDestinationIndex} {
		a.PatchLocationList = append(a.PatchLocationList, dxgkddi.PatchLocation{AllocationIndex: uint32(i), PatchOffset: uint32(len(out))})
		out = append(out, 0, 0)
	}
	a.DmaBuffer = out
	return nil
}

func (d *fakeDriver) DxgkDdiBuildPagingBuffer(a *dxgkddi.BuildPagingBufferArgs) error {
	if a.Operation == dxgkddi.PagingDiscardContent {
		return nil
	}
	a.DmaBuffer = append(a.DmaBuffer, fakePaging, uint32(a.Operation), uint32(a.Destination.Address), uint32(a.Destination.Address>>32),
		uint32(a.Source.Address), uint32(a.Source.Address>>32), uint32(a.Size), a.FillPattern)
	return nil
}

func (d *fakeDriver) DxgkDdiPatch(a *dxgkddi.PatchArgs) error {
	for _, p := range a.PatchLocationList {
		addr := a.AllocationList[p.AllocationIndex].PhysicalAddress + uint64(p.AllocationOffset)
		a.DmaBuffer[p.PatchOffset], a.DmaBuffer[p.PatchOffset+1] = uint32(addr), uint32(addr>>32)
		d.mu.Lock()
		d.patched = append(d.patched, addr)
		d.mu.Unlock()
	}
	return nil
}

func (d *fakeDriver) DxgkDdiSubmitCommand(a *dxgkddi.SubmitCommandArgs) error {
	w := append(append([]uint32(nil), a.DmaBuffer...), fakeFence, uint32(a.SubmissionFenceID), uint32(a.SubmissionFenceID>>32))
	d.hw.submit(a.DmaBufferID, w)
	return nil
}

func (d *fakeDriver) DxgkDdiInterruptRoutine(a *dxgkddi.InterruptRoutineArgs) bool {
	if a.Engine == dxgkddi.DisplayInterruptLine {
		n, addr := d.hw.takeVSync()
		d.cb.DxgkCbNotifyCrtcVsync(0, n, addr)
	} else {
		d.cb.DxgkCbNotifyInterrupt(a.Engine, d.hw.fenceReg())
	}
	d.cb.DxgkCbQueueDpc()
	return true
}
func (d *fakeDriver) DxgkDdiDpcRoutine() { d.cb.DxgkCbNotifyDpc() }
func (d *fakeDriver) DxgkDdiControlInterrupt(a *dxgkddi.ControlInterruptArgs) error {
	d.hw.enableVSync(a.Enable)
	return nil
}
func (d *fakeDriver) DxgkDdiResetFromTimeout(*dxgkddi.ResetFromTimeoutArgs) error {
	d.hw.reset()
	return nil
}
func (d *fakeDriver) DxgkDdiRestartFromTimeout(*dxgkddi.RestartFromTimeoutArgs) error { return nil }
func (d *fakeDriver) DxgkDdiPreemptCommand(*dxgkddi.PreemptCommandArgs) error         { return nil }
func (d *fakeDriver) DxgkDdiQueryEngineStatus(*dxgkddi.QueryEngineStatusArgs) error   { return nil }
func (d *fakeDriver) DxgkDdiQueryDependentEngineGroup(a *dxgkddi.QueryDependentEngineGroupArgs) error {
	a.DependentNodeOrdinalMask = 1 << a.Engine
	return nil
}
func (d *fakeDriver) DxgkDdiSetVidPnSourceAddress(a *dxgkddi.SetVidPnSourceAddressArgs) error {
	d.hw.mu.Lock()
	if a.FlipImmediate {
		d.hw.scan, d.hw.flipTo = a.PrimaryAddress, 0
	} else {
		d.hw.flipTo = a.PrimaryAddress
	}
	d.hw.mu.Unlock()
	return nil
}
func (d *fakeDriver) DxgkDdiResetEngine(*dxgkddi.ResetEngineArgs) error {
	d.hw.reset()
	return nil
}

// fakeHW runs buffers in order on "gpu0", 1 µs each, doing the paging
// operations on its memory and checking that every patched address is
// committed.
type fakeHW struct {
	s    *sim.Sim
	intr func(int)

	mu      sync.Mutex
	mem     fakeMemory
	fence   uint64
	queue   [][]uint32
	busy    bool
	freeAt  int64
	gen     int
	hang    bool
	faults  []string
	ran     []uint64 // DMA ids in the order they completed
	ids     []uint64
	cost    int64
	hungNow bool

	// The display: a vertical blank every 1/60 s while its interrupt is
	// on; a flip programmed with flipTo is latched at the next one.
	vsyncOn  bool
	vsyncGen int
	vblank   int64
	scan     uint64
	flipTo   uint64
}

func (h *fakeHW) enableVSync(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.vsyncOn == on {
		return
	}
	h.vsyncOn = on
	h.vsyncGen++
	if on {
		h.scheduleVBlankLocked(h.vsyncGen, h.s.Now()*60/1e9+1)
	}
}

func (h *fakeHW) scheduleVBlankLocked(gen int, n int64) {
	at := n * 1e9 / 60
	for at <= h.s.Now() {
		n++
		at = n * 1e9 / 60
	}
	h.s.Schedule(at, "display", func() {
		h.mu.Lock()
		if !h.vsyncOn || h.vsyncGen != gen {
			h.mu.Unlock()
			return
		}
		if h.flipTo != 0 {
			h.scan, h.flipTo = h.flipTo, 0
		}
		h.vblank = n
		h.scheduleVBlankLocked(gen, n+1)
		h.mu.Unlock()
		h.intr(dxgkddi.DisplayInterruptLine)
	})
}

func (h *fakeHW) takeVSync() (int64, uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.vblank, h.scan
}

func (h *fakeHW) fenceReg() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fence
}

func (h *fakeHW) submit(id uint64, w []uint32) {
	h.mu.Lock()
	h.queue = append(h.queue, w)
	h.ids = append(h.ids, id)
	h.kickLocked()
	h.mu.Unlock()
}

func (h *fakeHW) kickLocked() {
	if h.busy || len(h.queue) == 0 {
		return
	}
	w, id := h.queue[0], h.ids[0]
	h.queue, h.ids = h.queue[1:], h.ids[1:]
	h.busy = true
	hang := h.hang
	h.hang = false
	gen := h.gen
	at := max(h.s.Now(), h.freeAt) + h.cost
	if hang {
		h.hungNow = true
		return
	}
	h.s.Schedule(at, "gpu0", func() { h.run(gen, id, w) })
}

func (h *fakeHW) run(gen int, id uint64, w []uint32) {
	h.mu.Lock()
	if gen != h.gen {
		h.mu.Unlock()
		return
	}
	h.exec(id, w)
	h.busy = false
	h.freeAt = h.s.Now()
	h.ran = append(h.ran, id)
	h.kickLocked()
	h.mu.Unlock()
	h.intr(0)
}

func (h *fakeHW) exec(id uint64, w []uint32) {
	addr := func(i int) uint64 { return uint64(w[i]) | uint64(w[i+1])<<32 }
	i := 0
	if len(w) > 1 && w[0] == fakeRender {
		n := int(w[1])
		for j := 0; j < n; j++ {
			if _, ok := h.mem.Bytes(addr(2+2*j), 1); !ok {
				h.faults = append(h.faults, fmt.Sprintf("DMA %d: address %#x not committed", id, addr(2+2*j)))
			}
		}
		i = len(w) - 3
	}
	for i+8 <= len(w) && w[i] == fakePaging {
		op, dst, src, size, pat := dxgkddi.PagingOperation(w[i+1]), addr(i+2), addr(i+4), uint64(w[i+6]), w[i+7]
		d, ok := h.mem.Bytes(dst, size)
		if !ok {
			h.faults = append(h.faults, fmt.Sprintf("DMA %d: paging destination %#x not committed", id, dst))
		}
		switch op {
		case dxgkddi.PagingTransfer:
			s, ok2 := h.mem.Bytes(src, size)
			if !ok2 {
				h.faults = append(h.faults, fmt.Sprintf("DMA %d: paging source %#x not committed", id, src))
			}
			if ok && ok2 {
				copy(d, s)
			}
		case dxgkddi.PagingFill:
			for j := 0; ok && j+4 <= len(d); j += 4 {
				binary.LittleEndian.PutUint32(d[j:], pat)
			}
		}
		i += 8
	}
	if n := len(w); n >= 3 && w[n-3] == fakeFence {
		h.fence = addr(n - 2)
	}
}

func (h *fakeHW) reset() {
	h.mu.Lock()
	h.gen++
	h.queue, h.ids = nil, nil
	h.busy, h.hungNow = false, false
	h.freeAt = h.s.Now()
	h.mu.Unlock()
}

// fakeMemory is a region map like the GPU's.
type fakeMemory struct {
	mu  sync.Mutex
	ext map[uint64][]byte
}

func (m *fakeMemory) Commit(addr, size uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ext == nil {
		m.ext = map[uint64][]byte{}
	}
	for a, b := range m.ext {
		if addr < a+uint64(len(b)) && a < addr+size {
			return fmt.Errorf("commit %#x+%d overlaps %#x", addr, size, a)
		}
	}
	m.ext[addr] = make([]byte, size)
	return nil
}

func (m *fakeMemory) Decommit(addr uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ext[addr]; !ok {
		return fmt.Errorf("decommit %#x: not committed", addr)
	}
	delete(m.ext, addr)
	return nil
}

func (m *fakeMemory) Bytes(addr, n uint64) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for a, b := range m.ext {
		if addr >= a && addr < a+uint64(len(b)) && n <= a+uint64(len(b))-addr {
			return b[addr-a : addr-a+n], true
		}
	}
	return nil, false
}

func (m *fakeMemory) committed() (addrs []uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for a := range m.ext {
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	return addrs
}

// world is a Dxgkrnl over the fakes.
type world struct {
	s   *sim.Sim
	rec *trace.Recorder
	hw  *fakeHW
	drv *fakeDriver
	k   *Dxgkrnl
}

const (
	vramBase     = 0x1_0000_0000
	apertureBase = 0x10_0000_0000
)

func newWorld(vram uint64, cfg Config) *world { return newWorldTDR(vram, cfg, true) }

// newWorldTDR is newWorld with a driver that reports SupportPerEngineTDR
// or not.
func newWorldTDR(vram uint64, cfg Config, perEngine bool) *world {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	hw := &fakeHW{s: s, cost: 1000}
	drv := &fakeDriver{hw: hw, perEngine: perEngine}
	k := New(s, rec, drv, cfg)
	hw.intr = k.Interrupt
	k.SetSegments(vramBase, vram, apertureBase, 1<<30, &hw.mem)
	return &world{s: s, rec: rec, hw: hw, drv: drv, k: k}
}
