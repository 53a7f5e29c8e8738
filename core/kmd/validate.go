package kmd

import (
	"fmt"
	"math"
	"math/bits"

	"d3dsim/core/dxgkddi"
	"d3dsim/gpu/isa"
)

// DxgkDdiRender validates the UMD's command buffer and writes the DMA buffer
// and patch-location list (WDDM operation flow, step 10, rule WDDM-ISOLATE).
func (d *KMD) DxgkDdiRender(a *dxgkddi.RenderArgs) error {
	return d.render("DxgkDdiRender", a)
}

// DxgkDdiPresent writes the present's own commands: the UMD could not
// ("DXGKDDI_PRESENT": "the user-mode display driver cannot compile hardware
// instructions for the display miniport driver's DxgkDdiPresent function in
// advance. The display miniport driver must create hardware commands for
// the actual DxgkDdiPresent operation"). The allocation list holds the
// source at element 1 and the destination at element 2
// (DXGK_PRESENT_SOURCE_INDEX, DXGK_PRESENT_DESTINATION_INDEX). A Blt copies
// the source into the destination and shows the destination (a COPY, then
// a SCANOUT: the display engine shows the surface the copy wrote). A Flip
// needs no DMA buffer: the driver flips by programming the scan-out
// address (FlipOnVSyncMmIo), so it only validates the source here and
// Dxgkrnl runs the flip with DxgkDdiSetVidPnSourceAddress.
func (d *KMD) DxgkDdiPresent(a *dxgkddi.PresentArgs) error {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	ctx, ok := d.contexts[a.Context]
	d.mu.Unlock()
	if !ok || ctx.dev != a.Device {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiPresent: %v is not a context of %v", a.Context, a.Device)
	}
	if len(a.AllocationList) != dxgkddi.PresentDestinationIndex+1 {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiPresent %v: an allocation list of %d entries, a present's has 3 (null, source, destination)", a.Device, len(a.AllocationList))
	}
	t := translator{ddi: "DxgkDdiPresent", dev: a.Device, check: d.checking(), list: a.AllocationList}
	t.recs = d.lookup(a.AllocationList)
	src, dst := dxgkddi.PresentSourceIndex, dxgkddi.PresentDestinationIndex
	switch {
	case a.Flags.Flip:
		if !a.NoDmaBuffer {
			return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "a flip with a DMA buffer: this driver flips by MMIO (FlipOnVSyncMmIo)")
		}
		if a.AllocationList[dst].Allocation != 0 {
			return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "a flip with a destination (%v): a flip points the scan-out at the source", a.AllocationList[dst].Allocation)
		}
		return t.displayable(src, true)
	case !a.Flags.Blt:
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "neither Blt nor Flip: this driver presents no other way")
	}
	if err := t.displayable(src, false); err != nil {
		return err
	}
	if err := t.displayable(dst, false); err != nil {
		return err
	}
	s, ds := t.recs[src], t.recs[dst]
	if s == nil || ds == nil {
		return nil // unchecked (bug switch) and unknown: nothing to copy
	}
	if s.desc.Format != ds.desc.Format {
		return t.errorf(dxgkddi.STATUS_GRAPHICS_CANNOTCOLORCONVERT, "source %v is format %d, destination %v format %d: the copy cannot convert",
			a.AllocationList[src].Allocation, s.desc.Format, a.AllocationList[dst].Allocation, ds.desc.Format)
	}
	if s.desc != ds.desc {
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "source %v is %dx%d (pitch %d), destination %v %dx%d (pitch %d): this driver copies whole surfaces of one size",
			a.AllocationList[src].Allocation, s.desc.Width, s.desc.Height, s.desc.Pitch, a.AllocationList[dst].Allocation, ds.desc.Width, ds.desc.Height, ds.desc.Pitch)
	}
	n, _ := surfaceExtent(s.desc.Width, s.desc.Height, s.desc.Pitch, isa.Format(s.desc.Format))
	var b isa.Builder
	dAt, sAt := b.Copy(0, 0, uint32(n))
	at := b.Scanout(0, ds.desc.Width, ds.desc.Height, ds.desc.Pitch, isa.Format(ds.desc.Format))
	t.packets = 2
	d.charge(int64(t.packets)*d.cfg.Costs.PerPacket + 3*d.cfg.Costs.PerPatch)
	patches := []dxgkddi.PatchLocation{
		{AllocationIndex: uint32(dst), PatchOffset: uint32(dAt)},
		{AllocationIndex: uint32(src), PatchOffset: uint32(sAt)},
		{AllocationIndex: uint32(dst), PatchOffset: uint32(at)},
	}
	if a.DmaBufferSize > 0 && 4*len(b.Words) > a.DmaBufferSize {
		return t.errorf(dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, "the present needs %d bytes of DMA buffer, %d available", 4*len(b.Words), a.DmaBufferSize)
	}
	if a.PatchLocationListSize > 0 && len(patches) > a.PatchLocationListSize {
		return t.errorf(dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, "%d patch locations, the list holds %d", len(patches), a.PatchLocationListSize)
	}
	a.DmaBuffer, a.PatchLocationList = b.Words, patches
	return nil
}

func (d *KMD) render(ddi string, a *dxgkddi.RenderArgs) error {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	ctx, ok := d.contexts[a.Context]
	d.mu.Unlock()
	if !ok || ctx.dev != a.Device {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: %s: %v is not a context of %v", ddi, a.Context, a.Device)
	}
	t := translator{ddi: ddi, dev: a.Device, check: d.checking(), list: a.AllocationList}
	t.recs = d.lookup(a.AllocationList)
	err := t.run(a.CommandBuffer)
	d.charge(int64(t.packets)*d.cfg.Costs.PerPacket + int64(len(t.patches))*d.cfg.Costs.PerPatch)
	if err != nil {
		return err
	}
	if a.DmaBufferSize > 0 && 4*len(t.dma) > a.DmaBufferSize {
		return dxgkddi.Errorf(dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, "kmd: %s %v: the DMA buffer needs %d bytes, %d available",
			ddi, a.Device, 4*len(t.dma), a.DmaBufferSize)
	}
	if a.PatchLocationListSize > 0 && len(t.patches) > a.PatchLocationListSize {
		return dxgkddi.Errorf(dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, "kmd: %s %v: %d patch locations, the list holds %d",
			ddi, a.Device, len(t.patches), a.PatchLocationListSize)
	}
	a.DmaBuffer, a.PatchLocationList = t.dma, t.patches
	a.Draws, a.OcclusionQueries = t.draws, t.occlusion
	return nil
}

// lookup returns the driver's record of each list entry (nil if unknown).
func (d *KMD) lookup(list []dxgkddi.AllocationListEntry) []*allocation {
	recs := make([]*allocation, len(list))
	copies := make([]allocation, len(list)) // one allocation for the snapshots
	d.mu.Lock()
	for i, e := range list {
		if r, ok := d.allocs[e.Allocation]; ok {
			copies[i] = *r
			recs[i] = &copies[i]
		}
	}
	d.mu.Unlock()
	return recs
}

// translator turns one command buffer into a DMA buffer and patch list.
type translator struct {
	ddi   string
	dev   dxgkddi.HDevice
	check bool // false with Bugs[WDDM-ISOLATE]: translate whatever comes
	list  []dxgkddi.AllocationListEntry
	recs  []*allocation

	dma     []uint32
	patches []dxgkddi.PatchLocation
	packets int

	draws, occlusion bool // RenderArgs.Draws, RenderArgs.OcclusionQueries
	byPacket         bool // no run of DRAW packets at once (drawRun): for tests, the reference
	// acc: the running packet's accesses, in accNow (two at most but for
	// packets of more address fields), not a slice made a packet.
	acc    []access
	accNow [2]access
}

// access is one memory access of a packet through an address field.
type access struct {
	field  int    // payload index of the address's low word
	extent uint64 // bytes from the address
	what   string
}

func (t *translator) errorf(code dxgkddi.NTSTATUS, format string, args ...any) error {
	return dxgkddi.Errorf(code, "kmd: %s %v: %s", t.ddi, t.dev, fmt.Sprintf(format, args...))
}

func (t *translator) run(cmd []uint32) error {
	if t.check {
		if err := t.checkList(); err != nil {
			return err
		}
		// A malformed buffer is refused before any packet is translated.
		// The packets are walked in place (isa.Next), twice when checking:
		// a slice of them, grown for every buffer, cost more than the walk.
		for i := 0; i < len(cmd); {
			if k := t.drawRun(cmd, i); k > 0 {
				i += k
				continue
			}
			_, next, err := isa.Next(cmd, i)
			if err != nil {
				return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "malformed command buffer: %v", err)
			}
			i = next
		}
	}
	t.dma = append(make([]uint32, 0, len(cmd)+16), cmd...)
	for i, n := 0, 0; i < len(cmd); n++ {
		if k := t.drawRun(cmd, i); k > 0 {
			// DRAW packets: no address, not privileged (packet)
			t.draws = true
			t.packets += k / isa.DrawWords
			n += k/isa.DrawWords - 1
			i += k
			continue
		}
		p, next, err := isa.Next(cmd, i)
		if err != nil {
			return nil // (not checking: the packets before the malformed one)
		}
		t.packets++
		if err := t.packet(n, p); err != nil {
			return err
		}
		i = next
	}
	return nil
}

// drawRun is the words of the run of whole DRAW packets at word i of cmd
// (none with byPacket): a stream of draws that change no state is
// validated as one run, not packet by packet.
func (t *translator) drawRun(cmd []uint32, i int) int {
	if t.byPacket {
		return 0
	}
	j := i
	for j+isa.DrawWords <= len(cmd) && cmd[j] == isa.DrawHeader {
		j += isa.DrawWords
	}
	return j - i
}

// checkList: every entry must be an allocation of the submitting device.
func (t *translator) checkList() error {
	for i, e := range t.list {
		r := t.recs[i]
		switch {
		case r == nil:
			return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "allocation list entry %d: %v is not an allocation", i, e.Allocation)
		case r.dev != t.dev:
			return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "allocation list entry %d: allocation %v belongs to %v, not to the submitting device %v",
				i, e.Allocation, r.dev, t.dev)
		}
	}
	return nil
}

// privileged opcodes are the kernel's: FENCE drives Dxgkrnl's completion
// tracking and SCANOUT the display; a UMD issuing them could forge
// completions or show another process's memory.
func privileged(op isa.Opcode) bool { return op == isa.OpFence || op == isa.OpScanout }

func (t *translator) packet(n int, p isa.Packet) error {
	if p.Op == isa.OpDraw || p.Op == isa.OpDrawInstanced {
		// (most packets of a buffer: no address field, nothing more)
		t.draws = true
		return nil
	}
	if privileged(p.Op) && t.check {
		return t.errorf(dxgkddi.STATUS_ILLEGAL_INSTRUCTION, "packet %d (%v at word %d): %v is privileged: only the kernel-mode driver may issue it", n, p.Op, p.At, p.Op)
	}
	switch {
	case p.Op == isa.OpDraw || p.Op == isa.OpDrawIndexed || p.Op == isa.OpDrawInstanced || p.Op == isa.OpDrawIndexedInstanced ||
		p.Op == isa.OpDrawIndirect || p.Op == isa.OpDrawIndexedIndirect || p.Op == isa.OpDispatch || p.Op == isa.OpDispatchIndirect:
		t.draws = true
	case p.Op == isa.OpQuery && p.Args[0] != isa.QueryTimestamp:
		t.occlusion = true // the query reads the GPU's counters the draws add to
	}
	// A draw's vertex and index ranges are not the KMD's to check: the
	// GPU bounds its fetches by the bindings (out-of-range reads return
	// zero, as Direct3D 11 defines), and the bindings themselves are
	// addresses checked here.
	if t.acc == nil {
		t.acc = t.accNow[:0]
	}
	t.acc = accesses(t.acc[:0], p)
	for _, ac := range t.acc {
		if err := t.address(n, p, ac); err != nil {
			return err
		}
	}
	return nil
}

// address checks one address field, zeroes it in the DMA buffer and records
// its patch location.
func (t *translator) address(n int, p isa.Packet, ac access) error {
	w := p.At + 1 + ac.field
	idx, off := dxgkddi.SplitListAddress(uint64(t.dma[w]) | uint64(t.dma[w+1])<<32)
	t.dma[w], t.dma[w+1] = 0, 0
	if idx == dxgkddi.NullAllocationIndex {
		return nil
	}
	if int64(idx) >= int64(len(t.list)) {
		if t.check {
			return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "packet %d (%v at word %d): %s: allocation list index %d outside the list of %d entries",
				n, p.Op, p.At, ac.what, idx, len(t.list))
		}
		return nil // left at address 0: the GPU faults
	}
	if t.check {
		r := t.recs[idx]
		if end, ok := add(uint64(off), ac.extent); !ok || end > r.size {
			return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "packet %d (%v at word %d): allocation %v (list entry %d): %s [%d, +%d) runs past the end of the %d-byte allocation",
				n, p.Op, p.At, t.list[idx].Allocation, idx, ac.what, off, ac.extent, r.size)
		}
	}
	t.patches = append(t.patches, dxgkddi.PatchLocation{AllocationIndex: idx, AllocationOffset: off, PatchOffset: uint32(w)})
	return nil
}

// displayable checks list entry i of a present: an allocation of the
// presenting device (rule WDDM-ISOLATE) holding a surface the display can
// show; primary also asks that it was created as a primary (a flip scans
// it out directly).
func (t *translator) displayable(i int, primary bool) error {
	r := t.recs[i]
	if !t.check {
		return nil
	}
	h := t.list[i].Allocation
	switch {
	case h == 0 || r == nil:
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "present allocation list entry %d: %v is not an allocation", i, h)
	case r.dev != t.dev:
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "present allocation list entry %d: allocation %v belongs to %v, not to the presenting device %v", i, h, r.dev, t.dev)
	case primary && !r.flags.Primary:
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "flip source %v (list entry %d) is not a primary: only a primary can be scanned out", h, i)
	}
	desc := r.desc
	fm := isa.Format(desc.Format)
	if !isa.Displayable(fm) || desc.Width == 0 || desc.Height == 0 {
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "present surface %v (list entry %d): %dx%d format %d is not a displayable surface",
			h, i, desc.Width, desc.Height, desc.Format)
	}
	if ext, ok := surfaceExtent(desc.Width, desc.Height, desc.Pitch, fm); !ok || ext > r.size {
		return t.errorf(dxgkddi.STATUS_INVALID_PARAMETER, "present surface %v (list entry %d): a %dx%d surface of pitch %d does not fit its %d bytes",
			h, i, desc.Width, desc.Height, desc.Pitch, r.size)
	}
	return nil
}

// accesses appends to dst the memory a packet reaches through its address
// fields (isa.AddrFields) and how many bytes from each address.
func accesses(dst []access, p isa.Packet) []access {
	a := p.Args
	surf := func(field int, what string) access {
		ext, _ := surfaceExtent(a[field+2], a[field+3], a[field+4], isa.Format(a[field+5]))
		return access{field: field, extent: ext, what: what}
	}
	switch p.Op {
	case isa.OpSetRT:
		return append(dst, surf(0, "render target"))
	case isa.OpSetDS:
		return append(dst, surf(0, "depth buffer"))
	case isa.OpSetVB:
		return append(dst, access{1, uint64(a[3]), "vertex buffer"})
	case isa.OpSetIB:
		return append(dst, access{0, uint64(a[2]), "index buffer"})
	case isa.OpSetCB:
		return append(dst, access{2, uint64(a[4]), "constant buffer"})
	case isa.OpSetTex:
		return append(dst, surf(1, "texture"))
	case isa.OpSetRTSlot:
		return append(dst, surf(1, "render target"))
	case isa.OpSetTexStage:
		return append(dst, surf(2, "texture"))
	case isa.OpClearStencil:
		return append(dst, surf(0, "cleared depth buffer"))
	case isa.OpDrawIndirect:
		// The GPU reads the draw's arguments there: the buffer must hold
		// them ("ID3D11DeviceContext::DrawInstancedIndirect").
		return append(dst, access{0, isa.IndirectDrawBytes, "indirect arguments"})
	case isa.OpDrawIndexedIndirect:
		return append(dst, access{0, isa.IndirectIndexBytes, "indirect arguments"})
	case isa.OpSetView:
		return append(dst, access{1, viewExtent(a), "texture view"})
	case isa.OpClearRT:
		return append(dst, surf(0, "cleared render target"))
	case isa.OpClearDS:
		return append(dst, surf(0, "cleared depth buffer"))
	case isa.OpCopy:
		return append(dst, access{0, uint64(a[4]), "copy destination"}, access{2, uint64(a[4]), "copy source"})
	case isa.OpWrite:
		return append(dst, access{0, uint64(a[2]), "write destination"})
	case isa.OpFill:
		return append(dst, access{0, uint64(a[2]), "fill destination"})
	case isa.OpQuery:
		return append(dst, access{1, isa.QueryBytes(a[0]), "query result"})
	case isa.OpSetPredication:
		return append(dst, access{0, 8, "predicate"})
	case isa.OpScanout:
		return append(dst, surf(0, "scanout surface"))
	case isa.OpSetProgram:
		return append(dst, access{1, 4 * uint64(a[3]), "program"})
	case isa.OpSetUAV:
		// The view's bytes and its hidden counter's word (the GPU bounds
		// every access by the view).
		return append(dst, access{1, uint64(a[5]), "unordered access view"}, access{10, 4, "UAV counter"})
	case isa.OpDispatchIndirect:
		return append(dst, access{0, isa.IndirectDispatchBytes, "indirect dispatch arguments"})
	case isa.OpSetSOTarget:
		// The buffer's bytes the stage may write and its filled size.
		return append(dst, access{1, uint64(a[3]), "stream-output buffer"}, access{4, 4, "stream-output filled size"})
	case isa.OpDrawAuto:
		return append(dst, access{0, 4, "stream-output filled size"})
	case isa.OpClearUAV:
		return append(dst, access{0, uint64(a[4]), "unordered access view"})
	case isa.OpSetRTLayers:
		// Every slice: the first's surface and the others slicePitch
		// apart (isa/layers.go).
		ext, _ := surfaceExtent(a[3], a[4], a[5], isa.Format(a[6]))
		all, ok := mulAdd(uint64(a[8]), uint64(max(a[7], 1)-1), ext)
		if !ok {
			all = math.MaxUint64
		}
		return append(dst, access{1, all, "layered render target"})
	case isa.OpResolve:
		// The destination's pixels and the source's samples, side by side
		// (a row of width x samples texels: isa.OpSetSamples).
		fm := isa.Format(a[8])
		to, _ := surfaceExtent(a[4], a[5], a[6], fm)
		from, _ := surfaceExtent(a[4]*min(a[9], isa.MaxSamples), a[5], a[7], fm)
		return append(dst, access{0, to, "resolve destination"}, access{2, from, "resolve source"})
	}
	for _, f := range isa.AddrFields(p.Op) {
		dst = append(dst, access{field: f, what: "address"})
	}
	return dst
}

// viewExtent is the bytes a SET_VIEW reaches from its address: a buffer
// view's size, or the whole texture as isa.Subresources lays it out (0 for
// one the GPU will refuse: it faults the view, reading nothing).
func viewExtent(a []uint32) uint64 {
	kind, _ := isa.SplitViewWord(a[3]) // (a multisampled view's width counts its samples)
	fm, w, h, d, mips := isa.Format(a[4]), a[5], a[6], a[7], a[8]
	if isa.IsBuffer(kind) {
		return uint64(w)
	}
	slices := d
	if kind == isa.ViewTex3D {
		slices = 1
	} else {
		d = 1
	}
	_, size, err := isa.Subresources(fm, w, h, d, mips, slices)
	if err != nil {
		return 0
	}
	return size
}

// surfaceExtent is the bytes a w x h surface of the given pitch spans, as
// the GPU reaches it: pitch*(rows-1) + one row, rows and row as the format
// lays them out (isa.Format.Rows and RowBytes: rows of 4x4 blocks for a
// block-compressed format). Format 0 counts one byte per element (plain
// buffers), unknown formats four.
func surfaceExtent(w, h, pitch uint32, fm isa.Format) (uint64, bool) {
	if w == 0 || h == 0 {
		return 0, true
	}
	switch {
	case fm == isa.FmtNone:
		return mulAdd(uint64(pitch), uint64(h-1), uint64(w))
	case !fm.Known():
		return mulAdd(uint64(pitch), uint64(h-1), uint64(w)*4)
	}
	return mulAdd(uint64(pitch), uint64(fm.Rows(h)-1), fm.RowBytes(w))
}

// checkSurface checks a surface description against the allocation size.
func checkSurface(d dxgkddi.SurfaceDesc, size uint64) error {
	fm := isa.Format(d.Format)
	if fm != isa.FmtNone && !fm.Known() {
		return fmt.Errorf("unknown surface format %d", d.Format)
	}
	if d.Width == 0 || d.Height == 0 {
		return fmt.Errorf("a %dx%d surface", d.Width, d.Height)
	}
	row := uint64(d.Width)
	if fm != isa.FmtNone {
		row = fm.RowBytes(d.Width)
	}
	if uint64(d.Pitch) < row {
		return fmt.Errorf("pitch %d smaller than a row of %d bytes", d.Pitch, row)
	}
	if ext, ok := surfaceExtent(d.Width, d.Height, d.Pitch, fm); !ok || ext > size {
		return fmt.Errorf("a %dx%d surface of pitch %d does not fit %d bytes", d.Width, d.Height, d.Pitch, size)
	}
	return nil
}

// add and mulAdd are overflow-checked.
func add(a, b uint64) (uint64, bool) {
	s, c := bits.Add64(a, b, 0)
	return s, c == 0
}

func mulAdd(a, b, c uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return 0, false
	}
	return add(lo, c)
}
