package trace

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		desc string
		in   string
		n    int
		keep string // the prefix kept
	}{
		{"short enough", "abc", 10, "abc"},
		{"exactly n", strings.Repeat("x", 40), 40, strings.Repeat("x", 40)},
		{"cut ascii", strings.Repeat("x", 100), 40, strings.Repeat("x", 16)},
		{"cut at a rune boundary", strings.Repeat("é", 50), 40, strings.Repeat("é", 8)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := Truncate(tt.in, tt.n)
			if !strings.HasPrefix(got, tt.keep) || !utf8.ValidString(got) {
				t.Fatalf("Truncate(%d bytes, %d) = %q", len(tt.in), tt.n, got)
			}
			if len(tt.in) > tt.n {
				if len(got) > tt.n || !strings.Contains(got, "bytes)") {
					t.Errorf("Truncate(%d bytes, %d) = %q (%d bytes): over n or not saying so", len(tt.in), tt.n, got, len(got))
				}
			} else if got != tt.in {
				t.Errorf("Truncate changed a short string: %q", got)
			}
		})
	}
}

// TestEventFieldsCapped: a 100 KB message, argument list or object name is
// stored cut, saying so, and subscribers see the cut event.
func TestEventFieldsCapped(t *testing.T) {
	r := NewRecorder(nil, nil)
	var seen Event
	r.Subscribe(func(e *Event) { seen = *e })
	big := strings.Repeat("n", 100<<10)
	r.Emit(Event{Kind: Message, Name: "DebugMessage", Obj: big, Msg: "object " + big + " is bad", Args: TextArgs("x=" + big)})
	e := r.Events()[0]
	if len(e.Msg) > MaxText || e.Args.Len() > MaxText || len(e.Obj) > MaxName {
		t.Fatalf("stored event not capped: msg %d, args %d, obj %d bytes", len(e.Msg), e.Args.Len(), len(e.Obj))
	}
	if !strings.Contains(e.Msg, "bytes)") || !strings.HasPrefix(e.Msg, "object nnn") {
		t.Errorf("cut message %q...", e.Msg[:40])
	}
	if seen.Msg != e.Msg || seen.Obj != e.Obj {
		t.Errorf("the subscriber saw another event than the one stored")
	}
}

// TestByteLimitHolds: events with the largest text allowed, far more than
// the byte limit holds, leave the recorder within the limit (plus one
// chunk of records), dropping the oldest, with seq counting on.
func TestByteLimitHolds(t *testing.T) {
	const limit = 48 << 20 // a chunk's whole text (16.8 MB) fits in half
	r := NewRecorder(nil, nil)
	r.SetByteLimit(limit)
	msg := strings.Repeat("m", MaxText)
	const n = 40_000 // ~160 MB of text offered
	var peak int64
	for i := 0; i < n; i++ {
		r.Emit(Event{Kind: Message, Name: "DebugMessage", Msg: msg})
		peak = max(peak, r.Bytes())
	}
	if peak > limit+chunkSize*recordBytes {
		t.Errorf("peak %d bytes held, limit %d", peak, limit)
	}
	if r.Len() != n || r.Dropped() == 0 {
		t.Errorf("Len %d Dropped %d: the ring should have dropped old events and kept counting", r.Len(), r.Dropped())
	}
	evs := r.Events()
	if last := evs[len(evs)-1]; last.Seq != n || last.Msg != msg {
		t.Errorf("the newest event is not held whole: seq %d, %d bytes", last.Seq, len(last.Msg))
	}
}

// TestByteLimitSmallerThanAChunk: with a limit below two chunks of text, events
// keep their records and lose their text, counted.
func TestByteLimitSmallerThanAChunk(t *testing.T) {
	r := NewRecorder(nil, nil)
	r.SetByteLimit(1 << 20)
	msg := strings.Repeat("m", MaxText)
	for i := 0; i < 3000; i++ {
		r.Emit(Event{Kind: Message, Name: "DebugMessage", Msg: msg})
	}
	if r.CutText() == 0 {
		t.Fatal("no event was stored without its text")
	}
	if b := r.Bytes(); b > 1<<20+chunkSize*recordBytes {
		t.Errorf("%d bytes held, limit %d", b, 1<<20)
	}
	if r.Len() != 3000 {
		t.Errorf("Len %d", r.Len())
	}
}

// TestByteLimitHeap: the Go heap, not only the recorder's own count, stays
// bounded: 400 MB of messages through a recorder limited to 16 MiB.
func TestByteLimitHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("400 MB of messages")
	}
	r := NewRecorder(nil, nil)
	r.SetByteLimit(16 << 20)
	msg := strings.Repeat("m", MaxText)
	var ms runtime.MemStats
	var peak uint64
	for i := 0; i < 100_000; i++ {
		r.Emit(Event{Kind: Message, Name: "DebugMessage", Msg: msg})
		if i%5000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if peak > 64<<20 {
		t.Errorf("heap peaked at %d MiB with a 16 MiB trace limit", peak>>20)
	}
}
