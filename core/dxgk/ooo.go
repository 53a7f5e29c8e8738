package dxgk

import (
	"d3dsim/core/rules"
	"fmt"
	"slices"

	"d3dsim/core/trace"
)

// Out-of-order GPU scheduling (Config.OutOfOrder, `option scheduler=salvia`,
// older name `ooo=true`): the design of the article "Direct3D Draw函数
// 异步调用原理解析" (SamBookshelf), which says it comes from the SALVIA
// software renderer, not from a real driver. Windows does not reorder a
// context's DMA buffers (submit.go: nextReadyLocked).
//
// Granularity: the DMA buffer. Dxgkrnl's allocation list says which
// allocations a buffer reads and which it writes, and the GPU starts every
// buffer with fresh state, so two buffers are independent exactly when
// their allocations do not conflict — plus two pieces of GPU state outside
// any allocation: the display (Present buffers scan out in queue order, so
// frames keep their order) and the samples-passed counter (draws add to it,
// an occlusion query's begin or end reads it; the KMD reports both in
// RenderArgs). Packets inside one buffer keep their order.
//
// The dependency graph is the resource-lock queue of the SamBookshelf article on asynchronous Draw (CommandLock /
// ResourceLock). Each resource keeps, in queue order, the last queued
// writer and the readers queued since it, each until it retires: readers
// share a resource (they follow that writer: RAW), a writer has it alone
// (it follows those readers, WAR, or else the writer before it, WAW). A
// buffer's predecessors are its "locked resources count" made explicit:
// one trace event (kind dep) per edge, so the panel can draw the graph.
// This is the transitive reduction of the full RAW/WAR/WAW graph.
//
// Placement: the scheduler walks its queue in order and places every buffer
// whose predecessors are placed and whose unfinished predecessors all sit
// on one engine: it goes behind them on that engine (ring order finishes
// them first), or, with none unfinished, on the least loaded engine. A
// buffer with unfinished predecessors on two engines waits until the DPC
// retires one side. Later independent buffers overtake waiting ones — that
// is the out-of-order part — and with gpu.engines > 1 they run at the same
// time. A buffer's paging buffers go on its engine just before it; a later
// buffer that uses an allocation whose paging buffer has not run yet must
// follow it too (residency is a write) — on that engine if it is as free as
// any, else once the paging is done; and an eviction never takes an
// allocation another engine's buffer still uses.
//
// Fences stay monotonic per context: a buffer that finishes before an
// earlier buffer of its context is retired (its allocations released, its
// dependants freed) but its fence reads as signalled only once every lower
// fence is, so a waiter on fence N wakes when all work up to N is done.

// hazard is the kind of a dependency edge.
type hazard uint8

const (
	hazardRAW hazard = iota // read after write
	hazardWAR               // write after read
	hazardWAW               // write after write
)

func (h hazard) String() string { return [...]string{"RAW", "WAR", "WAW"}[h] }

// resourceLock is the ResourceLock of the SamBookshelf article on asynchronous Draw, for one resource, reduced to what
// decides order: the last queued writer and the readers queued since it.
type resourceLock struct {
	name    string // for traces: an allocation handle, "display" or "samples"
	obj     string // the scenario's name of the allocation
	writer  *dmaBuffer
	readers []*dmaBuffer
}

// resAccess is one resource a buffer uses.
type resAccess struct {
	lock  *resourceLock
	write bool
}

// depGraph holds the locks of the GPU state outside allocations.
type depGraph struct {
	display resourceLock
	samples resourceLock
}

// enqueueLocked adds b to the dependency graph in queue order and returns
// the dep events of its edges, to emit once k.mu is released.
func (k *Dxgkrnl) enqueueLocked(b *dmaBuffer) []trace.Event {
	for i, a := range b.entries {
		if a == nil {
			continue // a present's null entry
		}
		if a.lock.name == "" {
			a.lock.name, a.lock.obj = a.h.String(), a.obj
		}
		w := b.list[i].WriteOperation
		if j := slices.IndexFunc(b.res, func(r resAccess) bool { return r.lock == &a.lock }); j >= 0 {
			b.res[j].write = b.res[j].write || w
			continue
		}
		b.res = append(b.res, resAccess{&a.lock, w})
	}
	if b.present {
		k.deps.display.name = "display"
		b.res = append(b.res, resAccess{&k.deps.display, true})
	}
	if b.occlQ || b.draws {
		k.deps.samples.name = "samples"
		b.res = append(b.res, resAccess{&k.deps.samples, b.occlQ})
	}
	var evs []trace.Event
	edge := func(p *dmaBuffer, l *resourceLock, h hazard) {
		if !slices.Contains(b.preds, p) {
			b.preds = append(b.preds, p)
		}
		what := l.name
		if l.obj != "" {
			what += " (" + l.obj + ")"
		}
		verb := map[hazard]string{hazardRAW: "reads %s after %s writes it", hazardWAR: "writes %s after %s reads it", hazardWAW: "writes %s after %s writes it"}[h]
		evs = append(evs, trace.Event{Kind: trace.Dep, Layer: trace.Dxgkrnl, From: trace.Dxgkrnl, Name: "DmaDependency",
			Handle: b.handle(), Obj: l.obj, Fence: b.fence, DMA: b.id,
			Args: depArgs(h, p.id, b.id, l.name),
			Msg:  fmt.Sprintf("%s "+verb+": %v", b.describe(), what, p.describe(), h)})
	}
	for _, r := range b.res {
		l := r.lock
		if r.write {
			for _, p := range l.readers {
				edge(p, l, hazardWAR)
			}
			if len(l.readers) == 0 && l.writer != nil {
				edge(l.writer, l, hazardWAW)
			}
			l.writer, l.readers = b, nil
		} else {
			if l.writer != nil {
				edge(l.writer, l, hazardRAW)
			}
			l.readers = append(l.readers, b)
		}
	}
	return evs
}

// unlockLocked takes a retired buffer out of the graph: the resources it
// held no longer order anything after it.
func (k *Dxgkrnl) unlockLocked(b *dmaBuffer) {
	for _, r := range b.res {
		l := r.lock
		if l.writer == b {
			l.writer = nil
		}
		l.readers = slices.DeleteFunc(l.readers, func(x *dmaBuffer) bool { return x == b })
	}
	b.res, b.preds = nil, nil
	if b.placed && !b.paging && b.engine < len(k.engines) {
		k.engines[b.engine].load--
	}
}

// placeLocked decides where b may run now: behind its unfinished
// predecessors when they are all placed on one engine, on the least loaded
// engine when it has none. With the ASYNC-SAME bug switch it ignores its
// predecessors.
func (k *Dxgkrnl) placeLocked(b *dmaBuffer) (int, bool) {
	eng := -1
	if !k.cfg.Bugs.Has(rules.AsyncSame) {
		for _, p := range b.preds {
			switch {
			case p.retired:
			case !p.placed || eng >= 0 && p.engine != eng:
				return 0, false
			default:
				eng = p.engine
			}
		}
		// Residency: an allocation whose paging buffer (made resident
		// for an earlier buffer) has not run yet is written by it. Unlike
		// a command it depends on, a paging buffer is no reason to join
		// another chain's engine: unless that engine is as free as any,
		// b waits until the paging is done.
		paging := -1
		for _, a := range b.allocs {
			switch p := a.paging; {
			case p == nil || p.retired:
			case eng >= 0 && p.engine != eng, paging >= 0 && p.engine != paging:
				return 0, false
			default:
				paging = p.engine
			}
		}
		if eng < 0 && paging >= 0 {
			if k.engines[paging].load > k.leastLoadedLocked().load {
				return 0, false
			}
			eng = paging
		}
	}
	if eng >= 0 {
		return eng, true
	}
	return k.leastLoadedLocked().idx, true
}

// leastLoadedLocked is the engine with the fewest placed, unfinished DMA
// buffers (the lowest index among equals).
func (k *Dxgkrnl) leastLoadedLocked() *engine {
	best := k.engines[0]
	for _, e := range k.engines[1:] {
		if e.load < best.load {
			best = e
		}
	}
	return best
}

// kickOOO is kick for Config.OutOfOrder: it places, in queue order, every
// buffer whose time has come and that placeLocked allows, and leaves the
// others queued for a later kick (one follows every retirement).
func (k *Dxgkrnl) kickOOO() {
	k.mu.Lock()
	if k.scheduling {
		k.mu.Unlock()
		return
	}
	k.scheduling = true
	for {
		if k.resubmitLocked() {
			continue
		}
		now := k.s.Now()
		idx := -1
		for i, b := range k.schedQ {
			if b.readyAt > now {
				break
			}
			if k.heldLocked(b) || k.vblankHeldLocked(b) || k.scanoutHeldLocked(b) {
				continue
			}
			if eng, ok := k.placeLocked(b); ok {
				b.engine, idx = eng, i
				break
			}
		}
		if idx < 0 {
			break
		}
		b := k.schedQ[idx]
		k.schedQ = slices.Delete(k.schedQ, idx, idx+1)
		b.placed = true
		k.engines[b.engine].load++
		k.mu.Unlock()
		k.schedule(b)
		k.mu.Lock()
	}
	k.scheduling = false
	k.mu.Unlock()
}

// retireOOO is the fence bookkeeping of retire for Config.OutOfOrder: it
// records b's fence as done and returns the fences (with their DMA buffers)
// that now read as signalled, in order — none when an earlier fence of the
// context is still pending.
func (k *Dxgkrnl) retireOOO(c *context, b *dmaBuffer) (signalled [][2]uint64) {
	if b.fence <= c.completed {
		return nil
	}
	if b.fence != c.completed+1 {
		if c.early == nil {
			c.early = map[uint64]uint64{}
		}
		c.early[b.fence] = b.id
		return nil
	}
	c.completed = b.fence
	signalled = append(signalled, [2]uint64{b.fence, b.id})
	for {
		id, ok := c.early[c.completed+1]
		if !ok {
			break
		}
		delete(c.early, c.completed+1)
		c.completed++
		signalled = append(signalled, [2]uint64{c.completed, id})
	}
	c.signalled = max(c.signalled, c.completed)
	return signalled
}

// usedElsewhereLocked reports whether a buffer on another engine than eng
// still uses a (not to be evicted under it).
func (k *Dxgkrnl) usedElsewhereLocked(a *allocation, eng int) bool {
	for _, e := range k.engines {
		if e.idx == eng {
			continue
		}
		for _, x := range e.inflight {
			if uses(x, a) {
				return true
			}
		}
	}
	return false
}
