package inspect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"d3dsim/core/trace"
)

// GPUView's memory view, from the trace alone: per device, each allocation
// created and destroyed (DxgkDdiCreateAllocation, DxgkDdiDestroyAllocation),
// and per segment each paging operation Dxgkrnl's video memory manager had
// the driver build (DxgkDdiBuildPagingBuffer, "Paging Video Memory
// Resources"): made resident in VRAM (FILL, or TRANSFER system->vram),
// evicted (TRANSFER vram->system), its content dropped (DISCARD_CONTENT),
// mapped into or unmapped from the aperture segment — each with the paging
// buffer that carries it, the DMA buffer it was built for and the bytes of
// the segment the device has in use after it. A residency starts when the
// manager decides it (the paging operation is built), as the manager
// counts it; the paging buffer runs on the GPU later (its span on the
// engine's lane).

// MemoryEvent is one change of where an allocation lives.
type MemoryEvent struct {
	Seq        uint64 `json:"seq"`
	T          int64  `json:"t"`
	Device     string `json:"device"` // kd1
	Allocation string `json:"allocation"`
	Obj        string `json:"obj,omitempty"`
	Size       uint64 `json:"size"`
	// What happened: created, destroyed, resident (paged into VRAM),
	// evicted (paged out of VRAM to its backing store), discarded (out of
	// VRAM, content dropped), mapped (into the aperture segment), unmapped,
	// freed (out of a segment because it was destroyed there).
	What    string `json:"what"`
	Segment string `json:"segment,omitempty"` // vram, aperture
	Op      string `json:"op,omitempty"`      // the paging operation: FILL, TRANSFER, ...
	DMA     uint64 `json:"dma,omitempty"`     // the paging buffer
	For     uint64 `json:"for,omitempty"`     // the DMA buffer it was built for
	Why     string `json:"why,omitempty"`
	// Used is the bytes of Segment the device has in use after the event
	// (for created and destroyed: its allocations' bytes).
	Used uint64 `json:"used"`
}

// MemoryTracker follows the memory events of a trace as it grows (Feed
// each event once, in order).
type MemoryTracker struct {
	Events []MemoryEvent
	allocs map[string]*memAlloc
	used   map[string]uint64 // device/segment -> bytes
	last   uint64            // the last seq Scan fed
}

type memAlloc struct {
	dev, obj string
	size     uint64
	in       map[string]bool // segment -> the allocation is in it
}

// NewMemoryTracker is an empty tracker.
func NewMemoryTracker() *MemoryTracker {
	return &MemoryTracker{allocs: map[string]*memAlloc{}, used: map[string]uint64{}}
}

// Memory is the memory events of a whole trace.
func Memory(src Source) []MemoryEvent {
	m := NewMemoryTracker()
	m.Scan(src)
	return m.Events
}

// Scan feeds the events of src after the last one it fed (the trace
// grows as the run goes), and says how many memory events it added.
func (m *MemoryTracker) Scan(src Source) int {
	r := newReader(src)
	n := len(m.Events)
	for s := max(m.last+1, r.first); s <= r.last; s++ {
		if e, ok := r.get(s); ok {
			m.Feed(&e)
		}
	}
	m.last = max(m.last, r.last)
	return len(m.Events) - n
}

// pagingOp reads DxgkDdiBuildPagingBuffer's operation from its payload's
// text (dxgkddi BuildPagingBufferArgs.String: "op=TRANSFER a2
// vram->system 524288B", "op=FILL a2 vram 524288B pattern=0x0").
func pagingOp(text string) (op, src, dst string, size uint64, ok bool) {
	f := strings.Fields(text)
	if len(f) < 4 || !strings.HasPrefix(f[0], "op=") {
		return "", "", "", 0, false
	}
	op = f[0][3:]
	if s, d, two := strings.Cut(f[2], "->"); two {
		src, dst = s, d
	} else {
		dst = f[2]
	}
	n, err := strconv.ParseUint(strings.TrimSuffix(f[3], "B"), 10, 64)
	if err != nil {
		return "", "", "", 0, false
	}
	return op, src, dst, n, true
}

// MemoryCalls are the KMD calls a MemoryTracker reads: every other event
// leaves it as it was (the page's timeline asks for its memory lanes only
// after one of them, web/timeline-model.js MEMORY_CALLS).
var MemoryCalls = []string{"DxgkDdiCreateAllocation", "DxgkDdiDestroyAllocation", "DxgkDdiBuildPagingBuffer"}

// IsMemoryCall reports whether Feed may take anything from e.
func IsMemoryCall(e *trace.Event) bool {
	return e.Kind == trace.Call && e.Layer == trace.KMD && e.Handle != "" && slices.Contains(MemoryCalls, e.Name)
}

// Skip moves Scan's start past seq: the caller knows that no event up to
// seq is a memory call (a subscription to the recorder saw none), so a
// trace of millions of other events is not read again.
func (m *MemoryTracker) Skip(seq uint64) {
	m.last = max(m.last, seq)
}

// Feed takes the trace's next event.
func (m *MemoryTracker) Feed(e *trace.Event) {
	if !IsMemoryCall(e) {
		return
	}
	switch e.Name {
	case "DxgkDdiCreateAllocation":
		size, _ := e.Args.Uint(trace.KeySize)
		a := &memAlloc{dev: strings.Clone(e.Args.Str(trace.KeyDevice)), obj: e.Obj, size: size, in: map[string]bool{}}
		m.allocs[e.Handle] = a
		m.add(e, a, "created", "", "", size, true)
	case "DxgkDdiDestroyAllocation":
		a := m.allocs[e.Handle]
		if a == nil {
			return
		}
		for _, seg := range []string{"vram", "aperture"} {
			if a.in[seg] {
				a.in[seg] = false
				m.add(e, a, "freed", seg, "", a.size, false)
			}
		}
		m.add(e, a, "destroyed", "", "", a.size, false)
		delete(m.allocs, e.Handle)
	case "DxgkDdiBuildPagingBuffer":
		a := m.allocs[e.Handle]
		op, src, dst, size, ok := pagingOp(e.Args.String())
		if a == nil || !ok {
			return
		}
		switch {
		case dst == "vram" && (op == "FILL" || op == "TRANSFER" && src != "vram"):
			if !a.in["vram"] {
				a.in["vram"] = true
				m.add(e, a, "resident", "vram", op, size, true)
			}
		case src == "vram" && op == "TRANSFER":
			if a.in["vram"] {
				a.in["vram"] = false
				m.add(e, a, "evicted", "vram", op, size, false)
			}
		case op == "DISCARD_CONTENT" && dst == "vram":
			if a.in["vram"] {
				a.in["vram"] = false
				m.add(e, a, "discarded", "vram", op, size, false)
			}
		case op == "MAP_APERTURE_SEGMENT":
			if !a.in["aperture"] {
				a.in["aperture"] = true
				m.add(e, a, "mapped", "aperture", op, size, true)
			}
		case op == "UNMAP_APERTURE_SEGMENT":
			if a.in["aperture"] {
				a.in["aperture"] = false
				m.add(e, a, "unmapped", "aperture", op, size, false)
			}
		}
	}
}

// add records one event and moves the device's count of seg ("" the
// allocations' bytes) by size.
func (m *MemoryTracker) add(e *trace.Event, a *memAlloc, what, seg, op string, size uint64, in bool) {
	key := a.dev + "/" + seg
	if in {
		m.used[key] += size
	} else {
		m.used[key] -= min(size, m.used[key])
	}
	me := MemoryEvent{Seq: e.Seq, T: e.T, Device: a.dev, Allocation: e.Handle, Obj: a.obj, Size: size, What: what,
		Segment: seg, Op: op, Used: m.used[key]}
	if op != "" {
		me.DMA = e.DMA
		me.For, _ = e.Args.Uint(trace.KeyFor)
		me.Why = strings.Clone(e.Msg)
	}
	m.Events = append(m.Events, me)
}

// MemoryText is the memory events as `d3dsim inspect --memory` prints them.
func MemoryText(evs []MemoryEvent) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d memory events\n", len(evs))
	for _, e := range evs {
		where := "allocations"
		if e.Segment != "" {
			where = e.Segment
		}
		fmt.Fprintf(&b, "#%-6d %-10s %s %-11s %-10s %s", e.Seq, Duration(e.T), e.Device, where, e.What, e.Allocation)
		if e.Obj != "" {
			fmt.Fprintf(&b, " (%s)", e.Obj)
		}
		fmt.Fprintf(&b, " %s; %s in use", bytesText(e.Size), bytesText(e.Used))
		if e.DMA != 0 {
			fmt.Fprintf(&b, "; %s by paging buffer %d for DMA buffer %d", e.Op, e.DMA, e.For)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// bytesText is a size in bytes as people read it: 512 KiB, 1.5 MiB, 300 B.
func bytesText(n uint64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
