package dxgk_test

import (
	"testing"

	"d3dsim/core/dxgk"
	"d3dsim/core/kmd"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu"
)

// newNodesMachine is newMachine with two engines (nodes) and Windows'
// scheduling, or the SALVIA out-of-order scheduler with salvia.
func newNodesMachine(t testing.TB, salvia bool) *machine {
	t.Helper()
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := gpu.New(gpu.Config{VRAM: 64 << 20, Aperture: 64 << 20, Engines: 2}, s, rec)
	k := dxgk.New(s, rec, kmd.New(g, s, kmd.Config{Engines: 2}), dxgk.Config{TDRDelay: 5_000_000, PreemptAfter: 1_000_000, OutOfOrder: salvia})
	k.SetSegments(gpu.VRAMBase, 64<<20, gpu.ApertureBase, 64<<20, g.Memory())
	g.ConnectInterrupt(k.Interrupt)
	return &machine{s: s, rec: rec, g: g, k: k}
}

// starts lists the DMA buffers in the order the GPU started them, with the
// engine thread that ran each.
func starts(rec *trace.Recorder) (order []uint64, thread map[uint64]string) {
	thread = map[uint64]string{}
	for _, e := range rec.Events() {
		if e.Name == "DmaBufferStart" {
			order = append(order, e.DMA)
			thread[e.DMA] = e.Thread
		}
	}
	return order, thread
}

// TestSchedulingPerContext pins WDDM's scheduling ("Submitting a Command
// Buffer", D3DDDICB_CREATECONTEXT's NodeOrdinal): a context's DMA buffers run
// on its node in submission order even when they are independent and a
// second engine is idle; the SALVIA option (the SamBookshelf article's
// design) is what moves the independent one to the other engine.
func TestSchedulingPerContext(t *testing.T) {
	for _, tc := range []struct {
		desc        string
		salvia      bool
		wantEngines int // engines the context's buffers ran on
	}{
		{"wddm: one node, submission order", false, 1},
		{"salvia: independent buffers spread", true, 2},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := newNodesMachine(t, tc.salvia)
			d, c := m.device(t, "dev")
			a := m.target(d, 512, 512, "A")
			b := m.target(d, 8, 8, "B")
			must(m.k.Render(c, clear(512, 512, [4]float32{1, 0, 0, 1}), []dxgk.AllocationListEntry{{Allocation: a, Write: true}}))
			must(m.k.Render(c, clear(8, 8, [4]float32{0, 0, 1, 1}), []dxgk.AllocationListEntry{{Allocation: b, Write: true}}))
			ok(t, m.k.Idle())
			var dma []uint64
			for _, e := range m.rec.Events() {
				if e.Name == "DxgkDdiRender" && e.Kind == trace.Return {
					dma = append(dma, e.DMA)
				}
			}
			order, thread := starts(m.rec)
			engines := map[string]bool{thread[dma[0]]: true, thread[dma[1]]: true}
			if len(engines) != tc.wantEngines {
				t.Errorf("the context's buffers ran on %v, want %d engine(s)", engines, tc.wantEngines)
			}
			if !tc.salvia {
				pos := map[uint64]int{}
				for i, id := range order {
					pos[id] = i
				}
				if pos[dma[0]] > pos[dma[1]] || thread[dma[0]] != "gpu0" {
					t.Errorf("start order %v on %v: DMA %d (fence 1) must start first, on gpu0", order, thread, dma[0])
				}
			}
		})
	}
}

// TestSchedulingNodes: two contexts created on two nodes run at the same
// time, each on its own engine, and the submission fence ids that
// DxgkDdiPatch and DxgkDdiSubmitCommand carry are counted per node
// ("Supplying Fence Identifiers": the same id in DXGKARG_PATCH and
// DXGKARG_SUBMITCOMMAND).
func TestSchedulingNodes(t *testing.T) {
	m := newNodesMachine(t, false)
	d0 := must(m.k.CreateDevice("dev0"))
	c0 := must(m.k.CreateContextOnNode(d0, 0)).Context
	d1 := must(m.k.CreateDevice("dev1"))
	c1 := must(m.k.CreateContextOnNode(d1, 1)).Context
	if _, err := m.k.CreateContextOnNode(d1, 2); err == nil {
		t.Errorf("CreateContextOnNode on node 2 of a 2-node adapter succeeded")
	}
	a := m.target(d0, 512, 512, "A")
	b := m.target(d1, 512, 512, "B")
	for i := 0; i < 2; i++ {
		must(m.k.Render(c0, clear(512, 512, [4]float32{1, 0, 0, 1}), []dxgk.AllocationListEntry{{Allocation: a, Write: true}}))
		must(m.k.Render(c1, clear(512, 512, [4]float32{0, 1, 0, 1}), []dxgk.AllocationListEntry{{Allocation: b, Write: true}}))
	}
	ok(t, m.k.Idle())

	// Overlap: a buffer of c1 starts on gpu1 before c0's first is done.
	var c0done, overlap bool
	for _, e := range m.rec.Events() {
		if e.Name == "Interrupt" && e.Thread == "gpu0" {
			c0done = true
		}
		if e.Name == "DmaBufferStart" && e.Thread == "gpu1" && !c0done {
			overlap = true
		}
	}
	if !overlap {
		t.Errorf("no buffer of the node-1 context started while node 0 was busy: the engines did not run concurrently")
	}

	// Fence ids: per node 1, 2, ... (paging buffers included), the same
	// on DxgkDdiPatch as on the DxgkDdiSubmitCommand that follows.
	patched := map[uint64]uint64{} // DMA -> id DxgkDdiPatch got
	last := map[int64]uint64{}
	for _, e := range m.rec.Events() {
		if e.Kind != trace.Call {
			continue
		}
		sub, _ := e.Args.Uint(trace.KeySubfence)
		eng, _ := e.Args.Int(trace.KeyEngine)
		switch e.Name {
		case "DxgkDdiPatch":
			patched[e.DMA] = sub
		case "DxgkDdiSubmitCommand":
			if sub != last[eng]+1 {
				t.Errorf("DMA %d on engine %d: submission fence %d after %d, want per-node ids counting up by one", e.DMA, eng, sub, last[eng])
			}
			last[eng] = sub
			if p, ok := patched[e.DMA]; ok && p != sub {
				t.Errorf("DMA %d: DxgkDdiPatch had fence %d, DxgkDdiSubmitCommand %d", e.DMA, p, sub)
			}
		}
	}
	if len(patched) != 4 || last[0] < 2 || last[1] < 2 {
		t.Errorf("%d patched buffers, last ids per node %v: want 4 buffers, ids on both nodes", len(patched), last)
	}
}
