package dxgk

import (
	"fmt"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// The video memory manager: one first-fit allocator per segment, residency
// of the allocations a DMA buffer names, eviction of the least recently used
// ones when VRAM is short, all through paging buffers the driver builds.
//
// The segments are the ones "GPU segments" and "DXGK_SEGMENTFLAGS" describe. VRAM is a memory
// segment: paging an allocation into it copies its bytes there (TRANSFER
// system->vram, or FILL). The aperture segment holds no bytes: it is a page
// table onto system memory pages, so paging an allocation into it maps its
// backing store (MAP_APERTURE_SEGMENT), it does not copy. Evicting from VRAM
// copies the bytes back to the system-memory backing store (TRANSFER
// vram->system), not to the aperture. The simulated GPU addresses system
// memory at fixed addresses (the k.aperture range), and the aperture maps
// each system page at that same address, so a mapping needs no packet.

// segment is a first-fit allocator over [base, base+size).
type segment struct {
	name       string
	base, size uint64
	free       []span // sorted by address, coalesced
	used       uint64
}

type span struct{ addr, size uint64 }

func (s *segment) reset(name string, base, size uint64) {
	*s = segment{name: name, base: base, size: size}
	if size > 0 {
		s.free = []span{{base, size}}
	}
}

func alignUp(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) &^ (a - 1)
}

// alloc returns the lowest aligned address with size bytes free.
func (s *segment) alloc(size, align uint64) (uint64, bool) {
	for i, f := range s.free {
		start := alignUp(f.addr, align)
		if start < f.addr || start-f.addr > f.size || f.size-(start-f.addr) < size {
			continue
		}
		end := start + size
		var parts []span
		if start > f.addr {
			parts = append(parts, span{f.addr, start - f.addr})
		}
		if fend := f.addr + f.size; end < fend {
			parts = append(parts, span{end, fend - end})
		}
		s.free = append(s.free[:i], append(parts, s.free[i+1:]...)...)
		s.used += size
		return start, true
	}
	return 0, false
}

// release returns [addr, addr+size) to the free list.
func (s *segment) release(addr, size uint64) {
	i := 0
	for i < len(s.free) && s.free[i].addr < addr {
		i++
	}
	s.free = append(s.free, span{})
	copy(s.free[i+1:], s.free[i:])
	s.free[i] = span{addr, size}
	if i+1 < len(s.free) && addr+size == s.free[i+1].addr {
		s.free[i].size += s.free[i+1].size
		s.free = append(s.free[:i+1], s.free[i+2:]...)
	}
	if i > 0 && s.free[i-1].addr+s.free[i-1].size == addr {
		s.free[i-1].size += s.free[i].size
		s.free = append(s.free[:i], s.free[i+1:]...)
	}
	s.used -= size
}

// SetSegments describes the GPU's memory: the VRAM segment, the system
// memory range the aperture segment maps (backing stores are committed
// there), and the memory to commit extents in (*gpu.Memory satisfies
// dxgkddi.Memory; nil keeps addresses without memory, for tests). Call it
// once, before the first CreateAllocation.
func (k *Dxgkrnl) SetSegments(vramBase, vramSize, apertureBase, apertureSize uint64, mem dxgkddi.Memory) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.vram.reset("vram", vramBase, vramSize)
	k.aperture.reset("aperture", apertureBase, apertureSize)
	k.mem = mem
}

// InjectVRAMFull makes VRAM count as full from now on: its use may not grow
// past what is resident now, so the next residency request must evict
// (paging visible), or, with nothing it may evict, map the allocation into
// the aperture segment.
func (k *Dxgkrnl) InjectVRAMFull() {
	k.mu.Lock()
	k.vramFull, k.vramBudget = true, k.vram.used
	used := k.vram.used
	k.mu.Unlock()
	k.event(trace.Message, "VRAMFull", trace.Event{Msg: fmt.Sprintf("VRAM counts as full at %d bytes resident", used)})
}

func (k *Dxgkrnl) commitLocked(s *segment, size, align uint64) (uint64, error) {
	if s.size == 0 {
		return 0, fmt.Errorf("the %s segment is not set up (SetSegments)", s.name)
	}
	addr, ok := s.alloc(size, align)
	if !ok {
		return 0, fmt.Errorf("the %s segment has no room for %d bytes (%d of %d in use)", s.name, size, s.used, s.size)
	}
	if k.mem != nil {
		if err := k.mem.Commit(addr, size); err != nil {
			s.release(addr, size)
			return 0, err
		}
	}
	return addr, nil
}

func (k *Dxgkrnl) decommitLocked(s *segment, addr, size uint64) {
	if k.mem != nil {
		k.mem.Decommit(addr)
	}
	s.release(addr, size)
}

// vramAllocLocked places size bytes in VRAM, within the budget after
// InjectVRAMFull.
func (k *Dxgkrnl) vramAllocLocked(size, align uint64) (uint64, bool) {
	if k.vramFull && k.vram.used+size > k.vramBudget {
		return 0, false
	}
	addr, err := k.commitLocked(&k.vram, size, align)
	return addr, err == nil
}

// pager collects paging operations into a paging buffer for one DMA buffer.
type pager struct {
	k       *Dxgkrnl
	trigger *dmaBuffer
	buf     *dmaBuffer
}

// op builds one paging operation into the current paging buffer
// (DxgkDdiBuildPagingBuffer), submitting the buffer first if it is full.
func (p *pager) op(a *allocation, args dxgkddi.BuildPagingBufferArgs, why string) bool {
	k := p.k
	for attempt := 0; ; attempt++ {
		if p.buf == nil {
			k.mu.Lock()
			k.lastDMA++
			p.buf = &dmaBuffer{id: k.lastDMA, dev: p.trigger.dev, engine: p.trigger.engine, paging: true, forDMA: p.trigger.id}
			k.mu.Unlock()
		}
		args.DmaBuffer, args.DmaBufferSize = p.buf.words, pagingBufferSize
		err := k.ddi("DxgkDdiBuildPagingBuffer", trace.Event{Handle: a.h.String(), Obj: a.obj, DMA: p.buf.id, Args: pagingArgs(&args, p.trigger.id), Msg: why},
			func() error { return k.drv.DxgkDdiBuildPagingBuffer(&args) })
		if err == nil {
			break
		}
		if attempt == 0 && dxgkddi.StatusOf(err) == dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && len(p.buf.allocs) > 0 {
			p.flush()
			continue
		}
		return false
	}
	k.mu.Lock()
	p.buf.words = args.DmaBuffer
	p.buf.allocs = append(p.buf.allocs, a)
	a.refs++
	a.paging = p.buf
	k.mu.Unlock()
	return true
}

// flush submits the paging buffer, if any operation is in it (WDDM operation flow, step
// 12), and returns it.
func (p *pager) flush() *dmaBuffer {
	b := p.buf
	p.buf = nil
	if b == nil || len(b.allocs) == 0 {
		return nil
	}
	p.k.charge(p.k.cfg.Costs.Schedule)
	p.k.submitToGPU(b, "")
	return b
}

// makeResident puts a in VRAM for b (WDDM operation flow, step 11): page it in from its
// backing store, evicting least-recently-used allocations b does not use
// when VRAM has no room. With nothing left to evict, a's backing store is
// mapped into the aperture segment instead. It may wait for an eviction to
// finish on the GPU.
func (k *Dxgkrnl) makeResident(a *allocation, b *dmaBuffer, pg *pager) {
	for {
		k.mu.Lock()
		if a.cpuVisible || a.resident || b.dev.removed {
			k.mu.Unlock()
			return
		}
		if a.locks > 0 { // the CPU holds its aperture bytes: use them in place
			a.content = true
			k.mu.Unlock()
			return
		}
		addr, ok := k.vramAllocLocked(a.region, a.align)
		if ok {
			mapped := a.inAperture
			a.vram, a.resident, a.inAperture = addr, true, false
			content := a.content
			a.content = true // from now on its bytes are the GPU's to keep
			k.mu.Unlock()
			args := dxgkddi.BuildPagingBufferArgs{Allocation: a.h, Size: a.region,
				Destination: dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentVRAM, Address: addr}}
			why := fmt.Sprintf("make %v resident for %s", a.h, b.describe())
			if content {
				args.Operation = dxgkddi.PagingTransfer
				args.Source = dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentSystem, Address: a.backing}
			} else {
				args.Operation = dxgkddi.PagingFill
				why += " (no content yet)"
			}
			if !pg.op(a, args, why) {
				// The driver could not build it: undo, and use a through
				// the aperture (nothing refers to the new VRAM range yet).
				k.mu.Lock()
				a.resident, a.inAperture = false, mapped // content stays true: the GPU may write it in place
				k.decommitLocked(&k.vram, addr, a.region)
				k.mu.Unlock()
				return
			}
			if mapped {
				pg.op(a, dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingUnmapApertureSegment, Allocation: a.h, Size: a.region,
					Destination: dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentAperture, Address: a.backing}},
					fmt.Sprintf("%v is in VRAM now: unmap its backing store from the aperture segment", a.h))
			}
			return
		}
		v := k.victimLocked(b)
		if v == nil {
			// Page a into the aperture segment instead: map its backing
			// store's pages (no copy), once, until it gets into VRAM.
			a.content = true // the GPU may write it in place
			mapped := a.inAperture
			a.inAperture = true
			msg := fmt.Sprintf("%v (%s, %d bytes) is mapped into the aperture segment for %s, its bytes staying in system memory: VRAM has %d of %d bytes in use and nothing it may evict",
				a.h, a.obj, a.region, b.describe(), k.vram.used, k.vram.size)
			k.mu.Unlock()
			if !mapped {
				k.event(trace.Message, "VidMmAperture", trace.Event{Handle: a.h.String(), Obj: a.obj, DMA: b.id, Msg: msg})
				pg.op(a, dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingMapApertureSegment, Allocation: a.h, Size: a.region,
					Source:      dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentSystem, Address: a.backing},
					Destination: dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentAperture, Address: a.backing}},
					fmt.Sprintf("map %v's backing store into the aperture segment for %s", a.h, b.describe()))
			}
			return
		}
		k.mu.Unlock()
		if !k.evict(v, a, b, pg) {
			return
		}
	}
}

// victimLocked picks the least recently used resident allocation that b
// does not use and nobody has locked; an offered one first, the lowest
// offer priority first (offer.go).
func (k *Dxgkrnl) victimLocked(b *dmaBuffer) *allocation {
	var best *allocation
	for _, v := range k.allocs {
		if !v.resident || v.locks > 0 || uses(b, v) || k.usedElsewhereLocked(v, b.engine) {
			continue
		}
		switch {
		case best == nil:
		case v.offered != best.offered:
			if !v.offered {
				continue
			}
		case v.offered && v.offerPrio != best.offerPrio:
			if v.offerPrio > best.offerPrio {
				continue
			}
		case v.lru > best.lru || v.lru == best.lru && v.h > best.h:
			continue
		}
		best = v
	}
	return best
}

func uses(b *dmaBuffer, a *allocation) bool {
	for _, x := range b.allocs {
		if x == a {
			return true
		}
	}
	return false
}

// evict moves v out of VRAM to make room for a: TRANSFER vram->system, to
// its backing store (or DISCARD when v is destroyed and only waits for the
// GPU), submits the paging buffer and waits until the GPU has done it, then
// frees v's VRAM.
func (k *Dxgkrnl) evict(v, a *allocation, b *dmaBuffer, pg *pager) bool {
	k.mu.Lock()
	old, destroyed, offered := v.vram, v.destroyed, v.offered
	v.resident = false
	if offered && !destroyed {
		// Offered: its content is dropped, not paged out; it pages in
		// again with a FILL, and its backing store holds no old bytes.
		v.discarded, v.content = true, false
		if bs, ok := k.mem.Bytes(v.backing, v.size); ok {
			clear(bs)
		}
	}
	k.mu.Unlock()
	args := dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingTransfer, Allocation: v.h, Size: v.region,
		Source:      dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentVRAM, Address: old},
		Destination: dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentSystem, Address: v.backing}}
	why := fmt.Sprintf("evict least recently used %v to its system-memory backing store to make room for %v (%s)", v.h, a.h, b.describe())
	if destroyed || offered {
		args.Operation, args.Source = dxgkddi.PagingDiscardContent, dxgkddi.SegmentAddress{}
		args.Destination = dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentVRAM, Address: old}
	}
	if offered && !destroyed {
		why = fmt.Sprintf("evict offered %v (%v): its content is dropped, not paged out, to make room for %v (%s)", v.h, v.offerPrio, a.h, b.describe())
	}
	pg.op(v, args, why)
	buf := pg.flush()
	if buf == nil || !uses(buf, v) {
		k.mu.Lock()
		v.resident = true // the driver could not build the eviction: it stays
		k.mu.Unlock()
		return false
	}
	if err := k.waitPaging(buf, fmt.Sprintf("eviction of %v by %s before %v can use its VRAM", v.h, buf.describe(), a.h), 1); err != nil { // inside the kick event
		return false // the range stays taken: the GPU may still read it
	}
	k.mu.Lock()
	k.decommitLocked(&k.vram, old, v.region)
	k.mu.Unlock()
	return true
}
