package scenario

import (
	"fmt"
	"reflect"
	"testing"
)

// presentsSrc presents 2n frames of a w x h swap chain, cleared to two
// colours in turn (each frame a hash other than the one before); a frame is
// two API calls.
func presentsSrc(n, w, h int) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=%d Height=%d
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
repeat %d {
 imm.ClearRenderTargetView rtv 0.25 0.5 0.75 1
 sc.Present 0
 imm.ClearRenderTargetView rtv 1 0.5 0 1
 sc.Present 0
}
`, w, h, n)
}

// TestSummaryHashIsLazy: Progress never hashes a frame, Summary hashes only
// the last one, once, and its hash is the one a whole run gives.
func TestSummaryHashIsLazy(t *testing.T) {
	s, err := Load("t.d3ds", []byte(presentsSrc(6, 32, 16)))
	if err != nil {
		t.Fatal(err)
	}
	whole := NewRun(s, Overrides{})
	want := whole.Finish()
	if !want.OK() || want.Frames != 12 || want.Hash == "" {
		t.Fatalf("whole run: %+v", want)
	}

	r := NewRun(s, Overrides{})
	hashes := map[string]bool{}
	for !r.Step(2) {
		p := r.Progress()
		if p.Hash != "" {
			t.Fatalf("Progress gave a hash: %+v", p)
		}
		if r.hashed != (p.Frames-1)/3*3 { // the frames a Summary saw last
			t.Fatalf("after %d frames, %d hashed: Progress hashed a frame", p.Frames, r.hashed)
		}
		if p.Frames > 0 && p.Frames%3 == 0 {
			sum := r.Summary()
			last, _ := r.LastFrame()
			if sum.Hash != HashBytes(last.Pix) || r.hashed != p.Frames {
				t.Fatalf("after %d frames: Summary's hash %q, the last frame's %q (%d hashed)", p.Frames, sum.Hash, HashBytes(last.Pix), r.hashed)
			}
			if again := r.Summary(); again.Hash != sum.Hash {
				t.Fatalf("the same frame hashed twice differently: %q, %q", sum.Hash, again.Hash)
			}
			hashes[sum.Hash] = true
			p.Hash = sum.Hash
			if !reflect.DeepEqual(p, sum) {
				t.Fatalf("Progress\n%+v\nSummary\n%+v", p, sum)
			}
		}
	}
	if len(hashes) != 2 {
		t.Errorf("%d distinct hashes of the frames 3, 6, 9 and 12 (two colours in turn), want 2", len(hashes))
	}
	if got := r.Summary(); got.Hash != want.Hash || got.Frames != want.Frames {
		t.Errorf("run in steps: %d frames, hash %s; whole: %d, %s", got.Frames, got.Hash, want.Frames, want.Hash)
	}
}

// benchPresents runs b.N frames (one more when b.N is odd) of 256x256, the
// page's swap chain, asking ask after each Present, as the page's slices do.
func benchPresents(b *testing.B, ask func(*Run) Summary) {
	n := (b.N + 1) / 2
	s, err := Load("b", []byte(presentsSrc(n, 256, 256)))
	if err != nil {
		b.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	r.Step(3) // the device, the swap chain, its buffer and view
	b.ReportAllocs()
	b.ResetTimer()
	for !r.Step(2) {
		ask(r)
	}
	if sum := r.Summary(); sum.Frames != 2*n || !sum.OK() {
		b.Fatalf("%d frames of %d: %q", sum.Frames, 2*n, sum.Failures)
	}
}

// BenchmarkPresents: what a presented frame costs when the summary is asked
// after it without its hash (progress, the page's slices) and with it
// (summary, the page's panel), per frame.
func BenchmarkPresents(b *testing.B) {
	b.Run("progress", func(b *testing.B) { benchPresents(b, (*Run).Progress) })
	b.Run("summary", func(b *testing.B) { benchPresents(b, (*Run).Summary) })
}
