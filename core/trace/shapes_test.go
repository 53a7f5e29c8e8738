package trace

import (
	"fmt"
	"testing"
)

// TestShapesFollowTheRing: events naming a new handle each (objects
// created and released round after round) keep the table of shapes to
// those of the events the ring still holds, and every held event still
// decodes to what was emitted.
func TestShapesFollowTheRing(t *testing.T) {
	r := NewRecorder(nil, nil)
	r.SetLimit(1000)
	var peak int64
	for i := 0; i < 200_000; i++ {
		r.Emit(Event{Thread: "main", Layer: Runtime, From: App, Kind: Call, Name: "CreatePixelShader", Obj: "ps",
			Handle: fmt.Sprintf("h%d", i), Msg: fmt.Sprint(i)})
		peak = max(peak, r.ShapeBytes())
	}
	if peak > 2*minCompact+1<<20 {
		t.Errorf("the table of shapes reached %d bytes", peak)
	}
	evs := r.Events()
	if len(evs) == 0 {
		t.Fatal("nothing held")
	}
	for _, e := range evs {
		if want := fmt.Sprintf("h%d", e.Seq-1); e.Handle != want || e.Msg != fmt.Sprint(e.Seq-1) || e.Name != "CreatePixelShader" {
			t.Fatalf("event %d decodes as %+v", e.Seq, e)
		}
	}
}

// TestShapeCacheKeepsShapes: events cycling through more shapes than the
// recorder's cache of recent shapes has slots (pairs collide, second ways
// hit and are swapped, shapes leave the cache and come back, in orders that
// change from round to round) decode to what was emitted.
func TestShapeCacheKeepsShapes(t *testing.T) {
	r := NewRecorder(nil, nil)
	names := []string{"Draw", "DrawIndexed", "Map", "Unmap", "DxgkDdiRender", "DynamicIABufferMapDiscard", "pfnRenderCb"}
	shapeOf := func(k int) Event {
		return Event{Thread: "main", Layer: UMD, From: Runtime, Kind: Call, Name: names[k%len(names)],
			Obj: fmt.Sprintf("o%d", k%37), Handle: fmt.Sprintf("h%d", k%53), Ctx: []string{"IC", "DC1", ""}[k%3]}
	}
	var want []int
	for round := range 6 {
		for i := range 3 * recentSlots {
			k := (i*(2*round+1) + round) % (2 * recentSlots) // each round another order
			want = append(want, k)
			r.Emit(shapeOf(k))
			r.Emit(Event{Thread: "main", Layer: UMD, From: Runtime, Kind: Return, Name: names[k%len(names)]})
		}
	}
	evs := r.Events()
	if len(evs) != 2*len(want) {
		t.Fatalf("%d events held, want %d", len(evs), 2*len(want))
	}
	for i, k := range want {
		e, w := evs[2*i], shapeOf(k)
		if e.Name != w.Name || e.Obj != w.Obj || e.Handle != w.Handle || e.Ctx != w.Ctx || e.Kind != Call {
			t.Fatalf("event %d decodes as %s %s %s %s, want %s %s %s %s", e.Seq, e.Name, e.Obj, e.Handle, e.Ctx, w.Name, w.Obj, w.Handle, w.Ctx)
		}
	}
}

// TestShapeByRef: events whose strings share their addresses (one buffer's
// prefixes, the same constants) but differ in one field each — a string's
// length at the same address, another string, a kind, a layer, a from —
// decode to what was emitted, before and after the ring drops events and
// the table of shapes is compacted (its ids renumbered). The recorder's
// memo by address (Recorder.byRef) must tell each of them apart.
func TestShapeByRef(t *testing.T) {
	buf := "DrawIndexedInstanced"
	base := Event{Thread: "main", Layer: UMD, From: Runtime, Kind: Call, Name: buf[:4], Obj: "imm", Handle: "h7", Ctx: "IC"}
	variants := []func(e *Event){
		func(e *Event) {},
		func(e *Event) { e.Name = buf[:11] }, // the same address, another length
		func(e *Event) { e.Name = buf[:20] },
		func(e *Event) { e.Obj = "imm"[:2] },
		func(e *Event) { e.Handle = "" },
		func(e *Event) { e.Thread = "T1" },
		func(e *Event) { e.Ctx = "" },
		func(e *Event) { e.HR = "S_OK" },
		func(e *Event) { e.HR = "E_INVALIDARG" },
		func(e *Event) { e.Rule = "ERR-APP" },
		func(e *Event) { e.Kind = Return },
		func(e *Event) { e.Layer = Runtime },
		func(e *Event) { e.From = App },
		func(e *Event) { e.Name = string([]byte(buf[:4])) }, // equal bytes elsewhere: the same shape
	}
	for _, limit := range []int{0, 200} {
		r := NewRecorder(nil, nil)
		r.SetLimit(limit)
		var want []Event
		for i := range 5000 {
			e := base
			variants[(i*7+i/len(variants))%len(variants)](&e)
			if i%3 == 0 {
				e.Handle = fmt.Sprintf("h%d", i) // new shapes, so that the table is compacted
			}
			r.Emit(e)
			want = append(want, e)
		}
		evs := r.Events()
		want = want[len(want)-len(evs):]
		for i, e := range evs {
			w := want[i]
			if e.Name != w.Name || e.Obj != w.Obj || e.Handle != w.Handle || e.Thread != w.Thread || e.Ctx != w.Ctx ||
				e.HR != w.HR || e.Rule != w.Rule || e.Kind != w.Kind || e.Layer != w.Layer || e.From != w.From {
				t.Fatalf("limit %d: event %d decodes as %+v, want %+v", limit, e.Seq, e, w)
			}
		}
	}
}
