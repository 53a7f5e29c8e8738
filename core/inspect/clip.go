package inspect

import (
	"sort"

	"d3dsim/core/trace"
)

// ClipTrace is the part of a trace in the virtual-time range [t0, t1]
// (nanoseconds; the timeline's shift-drag selection), for a trace.jsonl or
// a Chrome trace of just that stretch: every event whose time is in the
// range, and the calls still open at t0 that enclose them (their parents,
// by the Parent chain), so each slice nests under the API call and the DDI
// it happened in. Events keep their seqs, in seq order.
func ClipTrace(src Source, t0, t1 int64) []trace.Event {
	if t1 < t0 {
		t0, t1 = t1, t0
	}
	r := newReader(src)
	var out []trace.Event
	in := map[uint64]bool{}
	var open []uint64 // enclosing calls before t0, to add
	for s := r.first; s <= r.last && s > 0; s++ {
		e, ok := r.get(s)
		if !ok || e.T < t0 || e.T > t1 {
			continue
		}
		out = append(out, e)
		in[s] = true
		for p, n := e.Parent, 0; p != 0 && n < 64; n++ {
			if in[p] {
				break
			}
			pe, ok := r.get(p)
			if !ok || pe.T >= t0 {
				break
			}
			in[p] = true
			open = append(open, p)
			p = pe.Parent
		}
	}
	for _, p := range open {
		e, _ := r.get(p)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}
