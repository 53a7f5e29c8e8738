package trace

import "testing"

// TestFarTimes: times more than an int32 of nanoseconds from their chunk's
// first event's, either way, decode as stored, and survive drops.
func TestFarTimes(t *testing.T) {
	r := NewRecorder(nil, nil)
	r.SetLimit(5000)
	ts := []int64{0, 1 << 40, -(1 << 40), 5, 1<<31 - 1, 1 << 31, -(1 << 31), -(1 << 31) + 1}
	var want []int64
	for i := range 12000 {
		tt := ts[i%len(ts)] + int64(i)
		want = append(want, tt)
		r.Emit(Event{T: tt, Kind: Message, Name: "x"})
	}
	held := r.Events()
	if len(held) == 0 {
		t.Fatal("nothing held")
	}
	for _, e := range held {
		if e.T != want[e.Seq-1] {
			t.Fatalf("seq %d: T %d, want %d", e.Seq, e.T, want[e.Seq-1])
		}
	}
	wide := 0
	for _, c := range r.chunks {
		if c.wide != nil {
			wide++
		}
	}
	if wide == 0 || wide > len(r.chunks) {
		t.Fatalf("%d chunks with wide times of %d", wide, len(r.chunks))
	}
}
