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
	if n := len(r.farT); n == 0 || n > len(held) {
		t.Fatalf("%d far times kept for %d events held", n, len(held))
	}
}
