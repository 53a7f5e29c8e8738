package scenario

import (
	"runtime"
	"strings"
	"testing"
)

// TestFailingCreationsHeapBounded: a loop of creations the driver fails,
// each naming a 256-byte object, with a small trace ring, holds the heap
// to what the ring holds. Two leaks grew it by kilobytes a call: the
// verifier's and the page's tables kept strings decoded from the trace,
// which point into a chunk's text and kept the whole text alive after the
// ring dropped it (1,489 MiB at 400,000 calls), and the verifier's tables
// by handle kept the handles of failed creations, which are never
// destroyed.
func TestFailingCreationsHeapBounded(t *testing.T) {
	big := strings.Repeat("n", 256)
	src := "dev, imm = D3D11CreateDevice Flags=DEBUG\nrepeat 1000000000 {\n " + big +
		" = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32_FLOAT BindFlags=RENDER_TARGET\n expect hr == E_INVALIDARG\n}\n"
	s, err := Load("failing.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	steps, events := uint64(30_000), uint64(3_000)
	r := NewRun(s, Overrides{MaxSteps: &steps, MaxEvents: &events})
	for done := false; !done; {
		_, done = r.Slice(SliceLimits{Statements: 1024})
	}
	if sum := r.Summary(); !strings.Contains(sum.Limit, "step budget") {
		t.Fatalf("the run did not end at its step budget: %q", sum.Limit)
	}
	grown := int64(heap()) - int64(before)
	t.Logf("heap grew %d KiB over %d failing creations", grown>>10, steps/2)
	// The ring's 3,000 events with their text (about 1 KB each), the
	// failures kept: a few MiB. The leaks made it 60-70 MiB.
	if grown > 16<<20 {
		t.Errorf("the heap grew %d MiB over %d failing creations with a ring of %d events: something keeps what the ring dropped", grown>>20, steps/2, events)
	}
	runtime.KeepAlive(r)
}
