package kmd

import (
	"d3dsim/core/dxgkddi"
	"d3dsim/gpu/isa"
)

// maxChunk bounds the bytes of one COPY or FILL packet (their byte counts
// are 32-bit); a multiple of the page size.
const maxChunk = 1 << 30

// DxgkDdiBuildPagingBuffer appends the packets of one paging operation to the
// paging buffer (WDDM operation flow, step 11): TRANSFER is COPY, FILL is FILL, DISCARD
// needs no GPU work. MAP_APERTURE_SEGMENT and UNMAP_APERTURE_SEGMENT
// program the aperture's page table, not memory: the simulated GPU's
// aperture maps every system page at a fixed address (its page table never
// changes), so they need no packet either, and nothing is copied. Paging
// buffers carry physical addresses: they are not patched.
func (d *KMD) DxgkDdiBuildPagingBuffer(a *dxgkddi.BuildPagingBufferArgs) error {
	d.charge(d.cfg.Costs.DDI + d.cfg.Costs.PagingOp)
	b := isa.Builder{Words: a.DmaBuffer}
	switch a.Operation {
	case dxgkddi.PagingTransfer:
		for done := uint64(0); done < a.Size; {
			n := min(a.Size-done, maxChunk)
			b.Copy(a.Destination.Address+done, a.Source.Address+done, uint32(n))
			done += n
		}
	case dxgkddi.PagingFill:
		if a.Size%4 != 0 {
			return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiBuildPagingBuffer: fill of %d bytes, not a multiple of 4", a.Size)
		}
		for done := uint64(0); done < a.Size; {
			n := min(a.Size-done, maxChunk)
			b.Fill(a.Destination.Address+done, uint32(n), a.FillPattern)
			done += n
		}
	case dxgkddi.PagingDiscardContent, dxgkddi.PagingMapApertureSegment, dxgkddi.PagingUnmapApertureSegment:
	default:
		return dxgkddi.Errorf(dxgkddi.STATUS_NOT_SUPPORTED, "kmd: DxgkDdiBuildPagingBuffer: operation %v", a.Operation)
	}
	if a.DmaBufferSize > 0 && 4*len(b.Words) > a.DmaBufferSize {
		return dxgkddi.Errorf(dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, "kmd: DxgkDdiBuildPagingBuffer %v: %d bytes, the paging buffer holds %d",
			a.String(), 4*len(b.Words), a.DmaBufferSize)
	}
	a.DmaBuffer = b.Words
	return nil
}

// DxgkDdiPatch writes each allocation's physical address plus the patch
// location's offset into the DMA buffer (WDDM operation flow, step 13).
//
// Of the two places "Supplying Fence Identifiers" allows for the submission
// fence id, this driver uses the ring (DxgkDdiSubmitCommand): the id in
// DXGKARG_PATCH is the same and needs no patching here.
func (d *KMD) DxgkDdiPatch(a *dxgkddi.PatchArgs) error {
	d.charge(d.cfg.Costs.DDI + int64(len(a.PatchLocationList))*d.cfg.Costs.PerPatch)
	for i, pl := range a.PatchLocationList {
		if int64(pl.AllocationIndex) >= int64(len(a.AllocationList)) || int64(pl.PatchOffset)+1 >= int64(len(a.DmaBuffer)) {
			return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiPatch %v: patch location %d (entry %d, word %d) outside the list of %d or the buffer of %d words",
				a.Context, i, pl.AllocationIndex, pl.PatchOffset, len(a.AllocationList), len(a.DmaBuffer))
		}
		e := a.AllocationList[pl.AllocationIndex]
		isa.Patch(a.DmaBuffer, int(pl.PatchOffset), e.PhysicalAddress+uint64(pl.AllocationOffset))
	}
	return nil
}

// DxgkDdiSubmitCommand appends a FENCE with the submission fence id, so the
// GPU writes the fence register and interrupts when it is done, and queues
// the buffer on the engine's ring (WDDM operation flow, steps 12 and 14).
func (d *KMD) DxgkDdiSubmitCommand(a *dxgkddi.SubmitCommandArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiSubmitCommand: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	d.mu.Lock()
	words := d.submitWords[:0]
	d.submitWords = nil
	d.mu.Unlock()
	b := isa.Builder{Words: append(words, a.DmaBuffer...)}
	b.Fence(a.SubmissionFenceID)
	d.mu.Lock()
	h := d.hangNext
	if h != nil && h.paging == a.Flags.Paging {
		d.hangNext = nil
	} else {
		h = nil
	}
	d.mu.Unlock()
	if h != nil {
		h.hang()
	}
	d.hw.Submit(a.Engine, a.DmaBufferID, b.Words) // (Hardware.Submit copies it)
	d.mu.Lock()
	d.submitWords = b.Words
	d.mu.Unlock()
	return nil
}
