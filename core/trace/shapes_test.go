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
