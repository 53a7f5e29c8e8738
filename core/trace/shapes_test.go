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
