package gpu

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
)

// memoRun is what a run of drawMemoScene left: everything a draw's replay
// must leave as the draw itself does.
type memoRun struct {
	pix     [][]byte
	stats   []Stats
	pstats  [][11]uint64
	faults  []string
	times   []int64
	log     []string
	trace   []string
	yields  int
	stopped string
	hits    uint64
}

// drawMemoScene runs seed's random buffers of draws — triangles of one
// point inside and outside the clip volume, triangles with area, the same
// draw again and again — with, between them, the vertices written by every
// path (WRITE, COPY and FILL packets, stream output into the vertex buffer,
// the CPU between the buffers), the programs changed (bound again, another
// program of movs, one that computes, the vertex program's words rewritten
// by the CPU),
// indexed and instanced draws, the topology, the viewport and the vertex
// buffer's offset, a depth test that fails every pixel with a stencil that
// counts the failures, and a budget of instructions that stops a draw: with
// the memo on or off (the reference).
func drawMemoScene(t *testing.T, seed uint64, on bool) memoRun {
	rnd := rand.New(rand.NewPCG(seed, 99))
	r := newRig(t)
	r.g.ex.draw.memo.off = !on
	var out memoRun
	rt, ds := r.target(16, 16, isa.FmtRGBA8), r.target(16, 16, isa.FmtD24S8)
	const nv = 18 // 6 triangles; the last two the stream output's and the copies'
	point := func(x, y float32) []vtx {
		c := [4]float32{rnd.Float32(), rnd.Float32(), rnd.Float32(), 1}
		v := vtx{x, y, 0.5, c[0], c[1], c[2], c[3], 0, 0}
		return []vtx{v, v, v}
	}
	tri := func() []vtx {
		switch rnd.IntN(4) {
		case 0:
			return point(float32(rnd.IntN(3))*0.5-0.5, 0.25) // inside
		case 1:
			return point(3, float32(rnd.IntN(3))) // outside a plane
		case 2:
			v := point(0, 0) // at the origin, w = 0 after a FILL of zeros
			for i := range v {
				v[i][3] = 0
			}
			return v
		}
		x, y := rnd.Float32()-0.5, rnd.Float32()-0.5
		c := [4]float32{1, rnd.Float32(), 0, 1}
		return []vtx{{x, y, 0.5, c[0], c[1], c[2], c[3], 0, 0}, {x + 0.5, y, 0.5, c[0], c[1], c[2], c[3], 0, 0}, {x, y + 0.5, 0.5, c[0], c[1], c[2], c[3], 0, 0}}
	}
	var verts []vtx
	for range nv / 3 {
		verts = append(verts, tri()...)
	}
	vbData := vbytes(verts...)
	vb := r.buffer(vbData)
	spare := r.buffer(vbytes(append(append(tri(), tri()...), tri()...)...))
	ib := r.buffer([]byte{0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0})
	q := r.alloc(256)
	ctr := r.buffer([]byte{0, 0, 0, 0})
	// Programs of the same length (3 words of code each): the CPU
	// rewrites the first one's words with the second's.
	pass, np := r.program("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1\nmov o2, v2")
	swap, _ := r.program("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v2.xyxy\nmov o2, v1")
	swapWords, _ := shaderisa.Assemble("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v2.xyxy\nmov o2, v1")
	passWords, _ := shaderisa.Assemble("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1\nmov o2, v2")
	early, ne := r.program(BuiltinSource("ps_vertexcolor"))
	calc, nm := r.program("vs inputs=3 outputs=3 temps=1\nadd r0, v0, l(0, 0, 0, 0)\nmov o0, r0\nmov o1, v1\nmov o2, v2")
	// The host's turn at the draws' checkpoints, counted (SetYield: it
	// changes nothing a draw computes).
	calls := 0
	r.g.SetYield(func() bool {
		calls++
		return true
	})
	if seed%3 == 0 {
		// a budget some draw reaches: it stops there, the run's later
		// draws skipped
		r.g.SetLimits(Limits{MaxInstructions: uint64(200 + rnd.IntN(400))})
	}
	r.g.SetDrawLog(func(dma uint64, word int, c DrawCharge) {
		out.log = append(out.log, fmt.Sprintf("%d %d %+v", dma, word, c))
	})
	lastK := 0
	for buf := range 3 {
		b := &isa.Builder{}
		rt.set(b)
		if buf == 0 {
			rt.clear(b, [4]float32{0, 0, 0.25, 1})
			b.ClearDS(ds.addr, 16, 16, uint32(ds.pitch), ds.fmt, 1)
			b.ClearStencil(ds.addr, 16, 16, uint32(ds.pitch), ds.fmt, 0)
		}
		b.SetViewport(0, 0, 16, 16, 0, 1)
		b.SetLayout(isa.BuiltinLayout())
		b.SetProgram(isa.StageVS, pass, np, 0)
		r.counter(b) // each pixel a draw shades adds one to red
		b.SetRaster(isa.CullNone, false, true)
		b.SetVB(0, vb, uint32(len(vbData)), vertexBytes, 0)
		b.SetIB(ib, 12, 2, 0)
		b.Query(isa.QueryStatsBegin, q)
		for range 40 + rnd.IntN(40) {
			switch op := rnd.IntN(30); {
			case op < 14: // a draw, most often the last one again
				k := lastK
				if rnd.IntN(3) == 0 {
					k = rnd.IntN(nv / 3)
				}
				lastK = k
				b.Draw(3, uint32(3*k))
			case op == 14:
				b.DrawInstanced(3, uint32(3*lastK), uint32(1+rnd.IntN(2)), 0)
			case op == 15:
				b.DrawIndexed(3, uint32(rnd.IntN(4)), 0)
			case op == 16:
				b.Write(vb+uint64(36*rnd.IntN(nv)), vbytes(tri()[0]))
			case op == 17:
				b.Copy(vb+uint64(36*3*rnd.IntN(nv/3)), spare+uint64(36*3*rnd.IntN(3)), 36*3)
			case op == 18:
				b.Fill(vb+uint64(36*3*rnd.IntN(nv/3)), 36*3, 0)
			case op == 19:
				i := rnd.IntN(3)
				b.SetProgram(isa.StageVS, []uint64{pass, swap, calc}[i], []uint32{np, np, nm}[i], 0)
			case op == 20:
				b.SetProgram(isa.StageVS, calc, nm, 0)
			case op == 21:
				switch rnd.IntN(3) {
				case 0:
					r.bind(b, "ps_vertexcolor")
				case 1:
					r.counter(b)
				default:
					// depth and stencil tested before the program runs: a
					// pixel that fails is written and never shaded
					b.SetProgram(isa.StagePS, early, ne, isa.EarlyDepthStencil)
				}
			case op == 22:
				b.SetTopology([]uint32{isa.TopoTriangleList, isa.TopoTriangleStrip, isa.TopoPointList, isa.TopoLineList}[rnd.IntN(4)])
			case op == 23:
				if rnd.IntN(2) == 0 {
					b.SetViewport(float32(rnd.IntN(4)), 0, 16, 16, 0, 1)
					break
				}
				// a depth test no pixel passes, its failures counted in
				// the stencil: pixels written with none shaded
				ds.setDS(b)
				b.SetDepth(true, false, isa.CmpNever)
				f := isa.StencilFace{Fail: isa.StencilKeep, DepthFail: isa.StencilIncr, Pass: isa.StencilKeep, Func: isa.CmpAlways}
				b.SetStencil(true, 0xFF, 0xFF, 0, f, f)
			case op == 24:
				b.SetVB(0, vb, uint32(len(vbData)), vertexBytes, uint32(36*rnd.IntN(2)))
			case op == 25:
				// stream output of a draw into the vertex buffer's last
				// triangle
				b.SetSOTarget(0, vb+36*15, 36*3, ctr, 0)
				b.SetSODecl(isa.SORasterize, [4]uint32{36}, []uint32{isa.SOEntry(0, 0, 0, 3), isa.SOEntry(0, 1, 0, 4), isa.SOEntry(0, 2, 0, 2)})
				b.Draw(3, uint32(3*rnd.IntN(4)))
				b.SetSODecl(0, [4]uint32{}, nil)
				b.SetSOTarget(0, 0, 0, 0, 0)
			default: // runs of the same draw
				for range 2 + rnd.IntN(6) {
					b.Draw(3, uint32(3*lastK))
				}
			}
		}
		b.Query(isa.QueryStatsEnd, q)
		for _, f := range r.exec(b) {
			out.faults = append(out.faults, f.Reason)
		}
		// The CPU between the buffers: a vertex written in place, the
		// vertex program's words rewritten (a Map of a buffer in use).
		switch rnd.IntN(3) {
		case 0:
			copy(r.mem(vb+uint64(36*rnd.IntN(12)), 36), vbytes(tri()[0]))
		case 1:
			copy(r.mem(pass, 4*int(np)), progBytes(swapWords.Encode()))
		case 2:
			copy(r.mem(pass, 4*int(np)), progBytes(passWords.Encode()))
		}
		out.pix = append(out.pix, r.rgba(rt), r.rgba(ds))
		out.stats = append(out.stats, r.g.Stats())
		out.pstats = append(out.pstats, r.stats(q))
		out.times = append(out.times, r.sim.Now())
	}
	for _, e := range r.rec.Events() {
		out.trace = append(out.trace, fmt.Sprintf("%+v", e))
	}
	out.yields = calls
	if s := r.g.Stopped(); s != nil {
		out.stopped = fmt.Sprintf("%+v", *s)
	}
	out.hits = r.g.ex.draw.memo.hits
	return out
}

// TestDrawMemoSameAsDrawing: the replayed draws leave what drawing them
// leaves — the pictures, the GPU's statistics and pipeline statistics,
// the faults, the virtual time, the draw log, the trace, the host's turns
// and where a budget stopped the run — over 150 random runs (drawMemoScene).
func TestDrawMemoSameAsDrawing(t *testing.T) {
	var hits, stops uint64
	for seed := range uint64(150) {
		got, want := drawMemoScene(t, seed, true), drawMemoScene(t, seed, false)
		if want.hits != 0 {
			t.Fatalf("seed %d: the memo off, %d draws were replayed", seed, want.hits)
		}
		hits += got.hits
		if got.stopped != "" {
			stops++
		}
		got.hits = 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: replayed draws differ from the draws drawn: %s", seed, memoDiff(got, want))
		}
	}
	// (most runs replay: the test must exercise the memo)
	if hits < 1000 || stops == 0 {
		t.Errorf("%d draws replayed, %d runs stopped at the budget: the runs do not exercise the memo", hits, stops)
	}
}

// memoDiff names the first part of two runs that differs.
func memoDiff(a, b memoRun) string {
	parts := []struct {
		name string
		a, b any
	}{
		{"pictures", a.pix, b.pix}, {"statistics", a.stats, b.stats}, {"pipeline statistics", a.pstats, b.pstats},
		{"faults", a.faults, b.faults}, {"times", a.times, b.times}, {"draw log", a.log, b.log},
		{"trace", a.trace, b.trace}, {"host's turns", a.yields, b.yields}, {"stop", a.stopped, b.stopped},
	}
	for _, p := range parts {
		if !reflect.DeepEqual(p.a, p.b) {
			s := fmt.Sprintf("%s: %v\nwant %v", p.name, p.a, p.b)
			if len(s) > 3000 {
				s = s[:3000] + "..."
			}
			return strings.TrimSpace(s)
		}
	}
	return "(none)"
}

// TestDrawMemoVerify: the tests' check of every replay (newRig's verify)
// sees a replay whose vertex bytes or program words changed since the
// draw it replays — written here by the host's turn inside a draw, which
// SetYield's contract forbids, as nothing else can.
func TestDrawMemoVerify(t *testing.T) {
	for _, what := range []string{"vertex bytes", "programs"} {
		r := newRig(t)
		var told []string
		r.g.ex.draw.memo.verify = func(w string) { told = append(told, w) }
		rt := r.target(8, 8, isa.FmtRGBA8)
		v := vtx{0.5, 0.5, 0.5, 1, 1, 1, 1, 0, 0}
		b := r.scene(rt, "ps_vertexcolor", []vtx{v, v, v})
		prog, n := r.program("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1\nmov o2, v2")
		b.SetProgram(isa.StageVS, prog, n, 0)
		calls := 0
		r.g.SetYield(func() bool {
			if calls++; calls == 2 {
				if what == "programs" {
					w := r.mem(prog, 4*int(n))
					w[len(w)-1] ^= 1
				} else {
					m := r.g.ex.st.vb[0].mem
					m[0] ^= 1
				}
			}
			return true
		})
		for range 3 {
			b.Draw(3, 0)
		}
		r.exec(b)
		if len(told) == 0 || told[0] != what {
			t.Errorf("%s changed inside the buffer: the check was told %q", what, told)
		}
	}
}
