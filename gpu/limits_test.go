package gpu

import (
	"strings"
	"testing"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
)

// loopPS runs its loop n times a pixel (n in the constant buffer's x),
// then writes red: about 4n+3 instructions a pixel.
const loopPS = `ps inputs=3 outputs=1 temps=2
mov r0.x, l(0, 0, 0, 0)
loop
  uge r1.x, r0.x, cb0[0].x
  breakc_nz r1.x
  iadd r0.x, r0.x, l(1, 1, 1, 1)
endloop
mov o0, l(1.0, 0.0, 0.0, 1.0)`

// loopScene draws a w x h full-target quad, instances times, with loopPS
// looping n times a pixel.
func loopScene(r *rig, w, h int, n uint32, instances uint32) (*isa.Builder, target) {
	rt := r.target(w, h, isa.FmtRGBA8)
	b := r.isaScene(rt, vsPass, loopPS, quadVerts(0, 0, float32(w), float32(h), w, h, white))
	cb := r.buffer([]byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	b.SetCB(isa.StagePS, 0, cb, 16)
	b.DrawInstanced(6, 0, instances, 0)
	return b, rt
}

// TestDrawStopsAtBudgets: a draw stops inside itself once the run's pixel
// or instruction budget is passed (not at its end: a week of real time for
// one DrawInstanced), every later draw is skipped, Stopped names the draw,
// its programs and the budget, and where it stops is the same on one
// goroutine and on several (the checkpoints are fixed by the draw alone).
func TestDrawStopsAtBudgets(t *testing.T) {
	tests := []struct {
		name      string
		lim       Limits
		n, inst   uint32
		limit     string
		fullPx    uint64 // what the draws would shade
		overAtMos uint64 // the counter passes its budget by at most this
	}{
		{"pixels, 1,000 instances of a 256x256 quad", Limits{MaxPixels: 1_000_000}, 0, 1000, "pixels", 1000 * 65536, 65536},
		// (small triangles: the batches of 4,096 decide where it stops)
		{"pixels, 20,000 instances of a 16x16 quad", Limits{MaxPixels: 1_000_000}, 0, 20_000, "pixels", 20_000 * 256, 2048 * 256},
		{"instructions, a loop of 10,000 a pixel", Limits{MaxInstructions: 50_000_000}, 10_000, 1, "instructions", 65536, 40_010 * 256 * 16 * 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stats []Stats
			for _, workers := range []int{1, 4} {
				r := newRig(t)
				r.g.ex.draw.workers = rasterWorkers(workers)
				r.g.SetLimits(tc.lim)
				size := 256
				if tc.inst == 20_000 {
					size = 16
				}
				b, _ := loopScene(r, size, size, tc.n, tc.inst)
				b.Draw(6, 0) // skipped: a draw stopped before it
				r.mustExec(b)
				st := r.g.Stats()
				stats = append(stats, st)
				s := r.g.Stopped()
				if s == nil || s.Limit != tc.limit || s.Op != "DRAW_INSTANCED" || s.Packet == 0 || s.PS == 0 || s.VS == 0 || s.PSWords == 0 {
					t.Fatalf("Stopped = %+v", s)
				}
				used := st.Pixels
				max := tc.lim.MaxPixels
				if tc.limit == "instructions" {
					used, max = st.Instructions, tc.lim.MaxInstructions
				}
				if used <= max || used > max+tc.overAtMos {
					t.Errorf("%d workers: %s %d, budget %d", workers, tc.limit, used, max)
				}
				if st.Pixels >= tc.fullPx {
					t.Errorf("%d workers: %d pixels: the draw did not stop", workers, st.Pixels)
				}
			}
			if stats[0] != stats[1] {
				t.Errorf("one goroutine %+v, four %+v", stats[0], stats[1])
			}
		})
	}
}

// TestShaderTimeCharged: a draw costs its shaders' time where that is
// longer than its vertices' and pixels' (1,024 instructions a ns); a short
// shader costs what its pixels cost, as before shaders were charged.
func TestShaderTimeCharged(t *testing.T) {
	cost := func(n uint32) (int64, Stats) {
		r := newRig(t)
		b, _ := loopScene(r, 64, 64, n, 1)
		r.id++
		b.Fence(r.id)
		t0 := r.sim.Now()
		r.g.Submit(0, r.id, b.Words)
		if !r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= r.id }) {
			t.Fatal("never completed")
		}
		return r.sim.Now() - t0, r.g.Stats()
	}
	short, st0 := cost(0)
	long, st := cost(100_000)
	// mov, loop, uge, breakc, mov a pixel; three movs a vertex
	if want := uint64(4096*5 + 6*3); st0.Instructions != want {
		t.Errorf("no loop: %d instructions, want %d", st0.Instructions, want)
	}
	want := int64(st.Instructions/1024) - 4*6 // the shaders' time, less the vertices' (charged apart)
	if d := long - short; d < want-5000 || d > want+5000 {
		t.Errorf("100,000 iterations cost %d ns more than none (%d instructions: want about %d)", d, st.Instructions, want)
	}
	if c := DefaultCosts(); short > c.BufferStartNS+20*c.PacketNS+6*c.VertexNS+4096*c.PixelNS {
		t.Errorf("a short shader's draw costs %d ns", short)
	}
}

// TestOverrunIsAHang: a buffer that would run past Limits.RunNS stops
// executing there and never completes, as a hung one: the engine is busy
// until Reset, the trace says why (DmaBufferOverrun).
func TestOverrunIsAHang(t *testing.T) {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	c := DefaultCosts()
	c.PixelNS = 1_000_000 // a millisecond a pixel: 64x64 is 4 s
	g := New(Config{VRAM: 64 << 20, Aperture: 16 << 20, Engines: 1, Costs: c, PaintPageFaults: true, PaintEndlessLoops: true}, s, rec)
	r := &rig{t: t, sim: s, rec: rec, g: g, next: VRAMBase}
	g.SetLimits(Limits{RunNS: 2_020_000_000})
	b, _ := loopScene(r, 64, 64, 0, 1)
	b.Draw(6, 0)
	b.Fence(1)
	g.Submit(0, 1, b.Words)
	s.RunUntil(func() bool { return false })
	if g.CompletedFence(0) != 0 || !g.Busy(0) {
		t.Fatalf("fence %d, busy %v: the buffer completed", g.CompletedFence(0), g.Busy(0))
	}
	if px := g.Stats().Pixels; px == 0 || px >= 4096 {
		t.Errorf("%d pixels shaded before the deadline", px)
	}
	var msg string
	for _, e := range rec.Events() {
		if e.Name == "DmaBufferOverrun" {
			msg = e.Msg
		}
	}
	if !strings.Contains(msg, "DRAW_INSTANCED (packet") || !strings.Contains(msg, "past 2020000000 ns of virtual time, the deadline of timeout detection") {
		t.Errorf("DmaBufferOverrun %q", msg)
	}
	g.Reset(0)
	if g.Busy(0) {
		t.Error("busy after Reset")
	}
}

// TestYieldInsideDraws: the host's turn comes inside a long draw, many
// times, and changes nothing of what it draws.
func TestYieldInsideDraws(t *testing.T) {
	var pix [2][]byte
	var turns int
	for i, yield := range []bool{false, true} {
		r := newRig(t)
		if yield {
			r.g.SetYield(func() bool { turns++; return true })
		}
		b, rt := loopScene(r, 256, 256, 50, 1)
		r.mustExec(b)
		pix[i] = r.rgba(rt)
	}
	if turns < 32 {
		t.Errorf("%d turns in a draw of 256 rows", turns)
	}
	if string(pix[0]) != string(pix[1]) {
		t.Error("the pixels differ")
	}
}
