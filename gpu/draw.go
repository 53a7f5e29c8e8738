package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The geometry half of a draw, top to bottom: validate, fetch vertices, run
// the vertex program, assemble primitives, clip them in homogeneous space,
// map them through the viewport and hand them to the rasterizer.

const (
	// numAttr is the vertex attributes the rasterizer interpolates: four
	// per varying register of the vertex program (program.go).
	numAttr = 4 * isa.MaxVaryings
	maxPoly = 20 // a triangle clipped by 7 planes and 8 clip distances has at most 18 vertices
	wEps    = 1e-12
	// fixLimit bounds screen coordinates (pixels) before the conversion to
	// fixed point, far outside any viewport or surface.
	fixLimit = 1 << 17
)

// cvert is a vertex in clip space.
type cvert struct {
	p [4]float64 // x y z w
	a [numAttr]float64
}

// svert is a vertex on the screen: position in 24.8 fixed point.
type svert struct {
	x, y int64
	z    float64 // depth after the viewport transform
	w    float64 // clip-space w, for perspective-correct attributes
	a    [numAttr]float64
}

// drawScratch is the draw's working memory, reused so that nothing is
// allocated per vertex, triangle or pixel.
type drawScratch struct {
	vp     viewport
	poly   [2][maxPoly]cvert
	sv     [maxPoly]svert
	ring   [3]cvert   // assemble's last vertices (on the stack they escaped: 2.6 KB a draw)
	fetch  fetchCheck // fetchLinear's checks, kept for the state generation
	direct directPlan // the outputs of a program of movs read from the buffers (direct.go)
	// uavCounters: bindPixelUAVs bound a pixel view's hidden counter, which
	// endPixelUAVs writes back
	uavCounters bool

	// memo is the last draw, kept for the next one with the same inputs
	// when nothing of it reached the rasterizer (drawmemo.go); checks
	// counts checkpoints, setups the primitives set up for rasterizing
	// (next, soloTri), so that it can tell.
	memo           drawMemo
	checks, setups uint64

	seg [2]cvert // a line's clipped ends (prim.go)
	tri tri
	// The planes of the attributes of d.tri (soloPlanes), and how many
	// attributes the draw's batched triangles need planes for (planesNa:
	// the slots own theirs, varyings.go).
	soloPlanes [3 * numAttr]float64
	planesNa   int

	pipe pipe
	cd   clipDists // SET_CLIP_DIST's distances (clipdist.go)

	pipeCache pipeCache // the last draw's pipe, for the next one with the same state (pipecache.go)

	prog      progState                     // programs from memory (program.go)
	ctr       drawCounters                  // the draw's pipeline statistics (queries.go)
	backEdges bool                          // the lines being drawn are a back-facing wireframe triangle's edges
	prim      int                           // the primitive being drawn: its index in the draw, instances counted on (watch.go)
	edgeBias  float64                       // and their triangle's depth bias
	pvSecond  bool                          // the triangle's provoking vertex is its second argument (a strip's odd triangle, swapped)
	wireLines bool                          // the lines being drawn are a wireframe triangle's edges: its provoking vertex stays
	params    drawParams                    // the draw packet's (vertexstage.go)
	cols      colTerms                      // pipe.cols of this goroutine
	layerRTs  [isa.MaxRenderTargets]surface // the render targets' slices a geometry program chose (layers.go)

	// Tile-parallel rasterization (tiles.go): set-up triangles waiting to
	// be rasterized, the sum of their bounding boxes, and the goroutines.
	// The draw's checks (checkpoint): stop once it must go no further,
	// the vertex program's instructions so far, the vertices' cost, the
	// draw packet.
	stop       bool
	soOnly     bool      // stream output with nothing to rasterize into (so.go)
	clip       clipBlock // the pixel watch's clip (watchclip.go)
	vsInstrs   uint64
	vertexCost int64
	check      func() bool // the executor's checkpoint

	workers int
	// deferSetup: the draw's unclipped triangles that lie within one band
	// of rows are set up as far as their bounds only, their edges and
	// planes left to the tile worker that draws the band (tri.deferred:
	// the geometry, on this goroutine, is most of a draw of small
	// triangles, and it is what the workers wait for).
	deferSetup bool
	batch      []tri
	area       int
	lanes      []lane
	rowSpans   []triRows // the batch's triangles' rows side by side, for the bands (with more than one worker)
	parallel   uint64    // batches rasterized by several goroutines (for tests)
	rounds     uint64    // rounds of rows rasterParallel ran (for tests: each starts a goroutine a worker)
	// mainRaster is the CPU time (ns) this goroutine spent on its own
	// share of rasterParallel's rounds, when tileProbe is set (tests).
	mainRaster uint64
	tp         tilePipeline
	ahead      func(area uint64, hazards bool) bool // executor.runAhead
}

// drawPacket runs DRAW and DRAW_INDEXED.
func (ex *executor) drawPacket(indexed bool, count, start uint32, base int32) {
	ex.drawInstances(indexed, count, start, base, 1, 0)
}

// drawIndirect runs DRAW_INDIRECT and DRAW_INDEXED_INDIRECT: the draw's
// arguments are read from memory when the packet runs, in the order of
// D3D11_DRAW_INSTANCED_INDIRECT_ARGS (VertexCountPerInstance,
// InstanceCount, StartVertexLocation, StartInstanceLocation) and
// D3D11_DRAW_INDEXED_INSTANCED_INDIRECT_ARGS (IndexCountPerInstance,
// InstanceCount, StartIndexLocation, BaseVertexLocation,
// StartInstanceLocation).
func (ex *executor) drawIndirect(p isa.Packet) {
	n := uint64(isa.IndirectDrawBytes)
	if p.Op == isa.OpDrawIndexedIndirect {
		n = isa.IndirectIndexBytes
	}
	b, ok := ex.bytes("indirect arguments", p.Addr(0), n)
	if !ok {
		return
	}
	w := func(i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	if p.Op == isa.OpDrawIndexedIndirect {
		ex.drawInstances(true, w(0), w(2), int32(w(3)), w(1), w(4))
		return
	}
	ex.drawInstances(false, w(0), w(2), 0, w(1), w(3))
}

// drawInstances runs the draw packets: instances times the vertices.
func (ex *executor) drawInstances(indexed bool, count, start uint32, base int32, instances, startInstance uint32) {
	g, s := ex.g, &ex.st
	g.stats.Draws++
	ex.draw.clip = clipBlock{}

	// A faulting draw (injected, or one whose pixel program faults: see
	// below) still runs: its covered pixels get the warning colour.
	faulted := false
	if g.faultNext {
		g.faultNext = false
		faulted = true
		ex.fault("injected fault: covered pixels get the warning colour")
	}

	// The last draw again, with nothing it read changed (drawMemo): its
	// geometry is replayed (it passed the checks below).
	d := &ex.draw
	replay := d.memo.ok && !indexed && !faulted && ex.replayable(count, start, instances, startInstance)
	if !replay {
		d.memo.ok = false
		// validate (prepareProgram faults a draw with no vertex program)
		if !ex.prepareProgram() {
			return
		}
		switch {
		case s.topo == isa.TopoUndefined:
			ex.fault("topology undefined")
			return
		case count == 0 || instances == 0:
			return
		case uint64(count)*uint64(instances) > maxDrawVertices:
			ex.fault("%d vertices x %d instances: more than %d vertices in one draw", count, instances, maxDrawVertices)
			return
		}
	}
	// An unbound vertex or index buffer reads zeros, like a fetch past the
	// end of a bound one (see fetch).
	n := uint64(count) * uint64(instances)
	g.stats.Vertices += n
	ex.draw.vertexCost = int64(n) * g.costs.VertexNS
	ex.res.cost += ex.draw.vertexCost

	d.stop, d.vsInstrs, d.ctr, d.soOnly = false, 0, drawCounters{}, false
	faults := g.stats.Faults
	if g.stopped != nil || g.abandoned {
		return // a draw stopped at a limit (the run ends) or the host is done: later draws are skipped
	}
	if replay {
		ex.replay()
		ex.endDraw(faults, n)
		return
	}
	mk := ex.memoMark(faults)
	if !ex.cachedPipe(faulted) {
		if !s.so.on {
			return
		}
		// Nothing to rasterize into (no target, no viewport): stream
		// output still writes every primitive ("Stream-Output Stage":
		// it comes before the rasterizer).
		d.soOnly = true
	} else {
		defer ex.endPixelUAVs()
	}
	d.batch, d.rowSpans, d.area = d.batch[:0], d.rowSpans[:0], 0
	d.params = drawParams{indexed: indexed, count: count, start: start, base: base,
		strip: isStrip(s.topo), startInstance: startInstance}
	ex.runInstances(indexed, count, start, instances)
	if d.prog.failed && !g.paintLoops && errors.Is(d.prog.err, shader.ErrStepLimit) {
		// A program past the step limit is the simulator's stand-in for a
		// loop that never ends: on a GPU the draw would never reach its
		// boundary, so the engine neither completes the buffer nor answers
		// a preemption request, and timeout detection resets it ("GPU
		// preemption": "long-running GPU packets that cannot be preempted
		// can cause a TDR process to repeatedly reset the GPU").
		d.stop = true
		ex.res.overrun = fmt.Sprintf("%s (packet %d) never reaches its boundary: %v, the simulator's stand-in for a shader loop that never ends; the engine can neither complete nor preempt the buffer", ex.op, ex.pkt, d.prog.err)
		return
	}
	if d.prog.failed && d.prog.pxFailed && !faulted {
		// A pixel program that faults is a GPU fault the device tolerates:
		// the draw runs again with its covered pixels in the warning
		// colour, as for an injected fault (the article on why Draw is
		// asynchronous: a shader error paints a warning colour, nothing
		// crashes, nothing is reported to the application).
		err := d.prog.err
		ex.fault("%v: covered pixels get the warning colour", err)
		shaded, passed, instrs, ctr := d.pipe.shaded, d.pipe.passed, d.pipe.instrs, d.ctr
		d.prog.failed, d.prog.pxFailed = false, false
		if ex.preparePipe(true) {
			d.pipe.shaded, d.pipe.instrs = shaded, instrs // (for the checks)
			ex.runInstances(indexed, count, start, instances)
			d.pipe.shaded -= shaded
			d.pipe.instrs -= instrs
		}
		d.ctr = ctr // the statistics of the draw, not of its second run
		d.pipe.shaded += shaded
		d.pipe.passed += passed
		d.pipe.instrs += instrs
		if d.prog.failed {
			ex.fault("%v", d.prog.err)
		}
	} else if d.prog.failed {
		ex.fault("%v", d.prog.err)
	}
	if !indexed && !faulted {
		ex.noteMemo(mk, count, start, instances, startInstance)
	}
	ex.endDraw(faults, n)
}

// endDraw charges a draw of n vertices that ran (or was replayed) with
// faults counted before it: the draw log, its statistics and its cost.
func (ex *executor) endDraw(faults, n uint64) {
	g, s, d := ex.g, &ex.st, &ex.draw
	p := &d.pipe
	ex.logDraw(faults)
	ex.chargeClipped()
	g.stats.Pixels += p.shaded
	instrs := d.vsInstrs + p.instrs
	g.stats.Instructions += instrs
	c := &ex.e.ctr
	c[ctrSamples] += p.passed
	c[ctrIAVertices] += n
	c[ctrIAPrimitives] += d.ctr.iaPrims
	c[ctrVSInvocations] += d.ctr.vsInv
	c[ctrGSInvocations] += d.ctr.gsInv
	c[ctrGSPrimitives] += d.ctr.gsPrims
	c[ctrHSInvocations] += d.ctr.hsInv
	c[ctrDSInvocations] += d.ctr.dsInv
	c[ctrCInvocations] += d.ctr.cInv
	c[ctrCPrimitives] += d.ctr.cPrims
	if s.prog[isa.StagePS].bound {
		c[ctrPSInvocations] += p.shaded
	}
	ex.res.cost += ex.drawCost(p.shaded+p.ms.extra, instrs)
}

// drawCost is what a draw costs besides its vertices (charged when it
// starts): its pixels, or its shaders' time where that is longer (Costs).
func (ex *executor) drawCost(shaded, instrs uint64) int64 {
	c := &ex.g.costs
	fixed := int64(shaded) * c.PixelNS
	if c.ShaderInstrsPerNS <= 0 {
		return fixed
	}
	shaders := int64(instrs / uint64(c.ShaderInstrsPerNS))
	return max(fixed, shaders-ex.draw.vertexCost)
}

// checkpoint is where a draw may stop between pieces of its work: after
// an instance, a block of vertices, a row of 8x8 blocks (a round of rows
// on the tile workers), or a block of a pixel program that loops. It
// checks the run's budgets and the buffer's deadline (Limits) against the
// work done so far, gives the host its turn (SetYield), and reports
// whether the draw goes on. Every place it is called from is fixed by the
// draw alone (never by how the tile workers interleave), so where a draw
// stops is deterministic. A preemption at draw or primitive granularity
// (WDDM's) would be decided here too.
func (ex *executor) checkpoint() bool {
	d, g := &ex.draw, ex.g
	d.checks++
	p := &d.pipe
	if d.inFlight() && !ex.runAhead(0, false) {
		d.drain() // the counters this checkpoint needs (tiles_native.go)
	}
	if d.stop {
		p.stop = true
		return false
	}
	if g.yield != nil && !g.yield() {
		g.abandoned, d.stop, p.stop = true, true, true
		return false
	}
	instrs := d.vsInstrs + p.instrs
	switch over := ex.overBudget(p.shaded, instrs); over {
	case "pixels", "instructions":
		ex.stopDraw(over)
	case "time":
		d.stop = true
		ex.res.overrun = fmt.Sprintf("%s (packet %d) would take the buffer past %d ns of virtual time, the deadline of timeout detection (%d pixels shaded and %d shader instructions executed so far): it is still running when the engine is reset, so the GPU executes no more of it",
			ex.op, ex.pkt, g.limits.RunNS, p.shaded, instrs)
	}
	p.stop = d.stop
	return !d.stop
}

// overBudget names the budget of the run (Limits) the draw is past with
// shaded pixels and instrs instructions done: "pixels", "instructions",
// "time" (the buffer's deadline), or "".
func (ex *executor) overBudget(shaded, instrs uint64) string {
	g := ex.g
	lim := &g.limits
	switch {
	case lim.MaxPixels > 0 && g.stats.Pixels+shaded+g.stats.BytesCopied/4 > lim.MaxPixels:
		return "pixels"
	case lim.MaxInstructions > 0 && g.stats.Instructions+instrs > lim.MaxInstructions:
		return "instructions"
	case lim.RunNS > 0 && ex.res.cost+ex.drawCost(shaded+ex.draw.pipe.ms.extra, instrs) > lim.RunNS:
		return "time"
	}
	return ""
}

// stopDraw stops the draw running at a budget of the run (Limits) and
// notes it for Stopped, if it is the first.
func (ex *executor) stopDraw(limit string) {
	d, g := &ex.draw, ex.g
	d.stop = true
	if g.stopped != nil {
		return
	}
	s := &ex.st
	st := &Stop{DMA: ex.dma, Packet: ex.pkt, Op: ex.op.String(), Limit: limit, Instance: d.params.instance}
	if b := &s.prog[isa.StageVS]; b.bound {
		st.VS, st.VSWords = b.addr, uint32(len(b.mem)/4)
	}
	if b := &s.prog[isa.StagePS]; b.bound {
		st.PS, st.PSWords = b.addr, uint32(len(b.mem)/4)
	}
	g.stopped = st
}

// runInstances assembles the draw's instances until a program faults.
func (ex *executor) runInstances(indexed bool, count, start, instances uint32) {
	d := &ex.draw
	d.batch, d.rowSpans, d.area = d.batch[:0], d.rowSpans[:0], 0
	p := &d.pipe
	d.planesNa = max(p.hi, d.prog.nattr) // (tiles.go: next)
	// (Not for a colour-only pixel program: its planes (setupColor) and
	// edges cost less here than stash here and finish on a worker, and
	// leave the workers, not this goroutine, the larger share: tris, by
	// instructions a frame, 126 M here and 168 M on the workers deferred,
	// 133 M and 152 M not.)
	d.deferSetup = d.workers > 1 && p.tileable && !p.bias && p.ms.samples <= 1 && (p.prog == nil || p.prog.flat|p.prog.lin == 0) && !p.colorOnly
	defer d.drain() // (after a panic: the workers stopped before it goes on)
	d.prim = -1
	for inst := uint32(0); inst < instances && !d.prog.failed && !d.stop; inst++ {
		if inst > 0 && !ex.checkpoint() {
			break
		}
		d.params.instance = inst
		d.prog.chunk.n = 0 // shaded for the previous instance
		ex.assemble(indexed, count, start)
	}
	d.flush()
	d.prog.block.words = nil // do not keep the target's memory
}

// Out-of-bounds fetches (the Direct3D 11 input assembler's rules): the GPU
// bounds every fetch by the buffer bound to the slot, so a draw may name any
// vertex or index and no fetch leaves the binding. An index read past the end
// of the index buffer is 0; a vertex element (fetchElement in vertexstage.go)
// that is not wholly inside the vertex buffer reads as zeros, with the
// layout's defaults (0, 0, 0, 1), as does every element of a vertex whose
// index plus base vertex is negative.
// Reading zeros is not a fault: the draw goes on and the device stays.

// index returns index i of the draw (counted from the buffer's offset), or 0
// when it is not wholly inside the index buffer.
func (ib *ibuf) index(i uint64) uint32 {
	n := uint64(len(ib.mem))
	if ib.offset > n || i > (n-ib.offset)/ib.size {
		return 0
	}
	o := ib.offset + ib.size*i
	if n-o < ib.size {
		return 0
	}
	if ib.size == 2 {
		return uint32(binary.LittleEndian.Uint16(ib.mem[o:]))
	}
	return binary.LittleEndian.Uint32(ib.mem[o:])
}

// cut is the strip-cut index of the index buffer (D3D11 cuts strips at the
// all-ones index).
func (ib *ibuf) cut() uint32 {
	if ib.size == 2 {
		return 0xFFFF
	}
	return 0xFFFFFFFF
}

// assemble fetches and shades the vertices and builds primitives from them:
// lists take one, two or three at a time; a line strip makes a line of every
// vertex after the first; a triangle strip makes a triangle of every vertex
// after the second, odd ones with their first two vertices swapped so the
// winding stays the same. Strips restart at a cut index.
func (ex *executor) assemble(indexed bool, count, start uint32) {
	if ex.draw.prog.hs != nil {
		ex.assembleTess(count)
		return
	}
	if ex.draw.prog.gs != nil {
		ex.assembleGS(indexed, count, start)
		return
	}
	s := &ex.st
	topo := s.topo
	strip := isStrip(topo)
	cut := s.ib.cut()
	ring := &ex.draw.ring // every vertex is written (programVertex) before it is read
	k := 0
	for i := uint32(0); i < count && !ex.draw.prog.failed && !ex.draw.stop; i++ {
		if indexed && strip && s.ib.index(uint64(start)+uint64(i)) == cut {
			k = 0
			continue
		}
		switch topo {
		case isa.TopoPointList:
			ex.programVertex(i, &ring[0])
			ex.draw.prim++
			ex.assembled(ex.outPoint(&ring[0]))
		case isa.TopoLineList:
			ex.programVertex(i, &ring[k])
			if k++; k == 2 {
				ex.draw.prim++
				ex.assembled(ex.outLine(&ring[0], &ring[1]))
				k = 0
			}
		case isa.TopoLineStrip:
			ex.programVertex(i, &ring[k%2])
			if k >= 1 {
				ex.draw.prim++
				ex.assembled(ex.outLine(&ring[(k-1)%2], &ring[k%2]))
			}
			k++
		case isa.TopoTriangleList:
			if k == 0 && count-i >= 3 {
				if n := ex.chunkTriangles(i, count); n > 0 {
					i += n - 1
					continue
				}
			}
			ex.programVertex(i, &ring[k])
			if k++; k == 3 {
				ex.draw.prim++
				ex.assembled(ex.outTriangle(&ring[0], &ring[1], &ring[2]))
				k = 0
			}
		case isa.TopoTriangleStrip:
			ex.programVertex(i, &ring[k%3])
			if k >= 2 {
				a, b, c := &ring[(k-2)%3], &ring[(k-1)%3], &ring[k%3]
				if k%2 == 1 {
					a, b = b, a
				}
				ex.draw.prim++
				ex.draw.pvSecond = k%2 == 1
				ex.assembled(ex.outTriangle(a, b, c))
				ex.draw.pvSecond = false
			}
			k++
		// With adjacency ("Primitive Topologies"): with no geometry
		// shader the adjacent vertices are neither shaded nor drawn.
		case isa.TopoLineListAdj: // v0 adj, v1 v2 the line, v3 adj
			if j := k % 4; j == 1 || j == 2 {
				ex.programVertex(i, &ring[j-1])
			}
			if k++; k%4 == 0 {
				ex.draw.prim++
				ex.assembled(ex.outLine(&ring[0], &ring[1]))
			}
		case isa.TopoLineStripAdj: // lines v1-v2 ... v(n-3)-v(n-2)
			if k >= 3 {
				ex.draw.prim++
				ex.assembled(ex.outLine(&ring[(k-2)%3], &ring[(k-1)%3]))
			}
			if k >= 1 {
				ex.programVertex(i, &ring[k%3])
			}
			k++
		case isa.TopoTriangleAdj: // v0 v2 v4 the triangle, v1 v3 v5 adjacent
			if j := k % 6; j%2 == 0 {
				ex.programVertex(i, &ring[j/2])
			}
			if k++; k%6 == 0 {
				ex.draw.prim++
				ex.assembled(ex.outTriangle(&ring[0], &ring[1], &ring[2]))
			}
		case isa.TopoTriStripAdj: // the even vertices form a triangle strip; triangle m needs vertex 2m+5
			if k%2 == 0 {
				ex.programVertex(i, &ring[(k/2)%3])
			}
			if k >= 5 && k%2 == 1 {
				m := (k - 5) / 2
				a, b, c := &ring[m%3], &ring[(m+1)%3], &ring[(m+2)%3]
				if m%2 == 1 {
					a, b = b, a
				}
				ex.draw.prim++
				ex.draw.pvSecond = m%2 == 1
				ex.assembled(ex.outTriangle(a, b, c))
				ex.draw.pvSecond = false
			}
			k++
		}
	}
}

// assembled counts a primitive the input assembler made and the clipper
// took, and the n it passed on to the rasterizer (pipeline statistics).
func (ex *executor) assembled(n uint64) {
	c := &ex.draw.ctr
	c.iaPrims++
	c.cInv++
	c.cPrims += n
}

// isStrip reports a topology whose primitives share vertices: restarted
// by the cut index.
func isStrip(topo uint32) bool {
	return topo == isa.TopoTriangleStrip || topo == isa.TopoLineStrip || topo == isa.TopoLineStripAdj || topo == isa.TopoTriStripAdj
}

// Clip planes: a vertex is inside plane k when dist(k) >= 0.
const (
	planeLeft   = iota // w + x
	planeRight         // w - x
	planeBottom        // w + y
	planeTop           // w - y
	planeNear          // z        (depth clip)
	planeFar           // w - z    (depth clip)
	planeW             // w - eps  (always: keeps the division by w finite)
	numPlanes
)

func dist(v *cvert, plane int) float64 {
	x, y, z, w := v.p[0], v.p[1], v.p[2], v.p[3]
	switch plane {
	case planeLeft:
		return w + x
	case planeRight:
		return w - x
	case planeBottom:
		return w + y
	case planeTop:
		return w - y
	case planeNear:
		return z
	case planeFar:
		return w - z
	}
	return w - wEps
}

// outcode has bit k set when v is outside plane k (dist(v, k) >= 0 does not
// hold), the plane tests written out.
func (ex *executor) outcode(v *cvert) uint32 {
	x, y, z, w := v.p[0], v.p[1], v.p[2], v.p[3]
	var c uint32
	if !(w+x >= 0) {
		c |= 1 << planeLeft
	}
	if !(w-x >= 0) {
		c |= 1 << planeRight
	}
	if !(w+y >= 0) {
		c |= 1 << planeBottom
	}
	if !(w-y >= 0) {
		c |= 1 << planeTop
	}
	if ex.st.depthClip {
		if !(z >= 0) {
			c |= 1 << planeNear
		}
		if !(w-z >= 0) {
			c |= 1 << planeFar
		}
	}
	if !(w-wEps >= 0) {
		c |= 1 << planeW
	}
	if ex.draw.cd.nclip != 0 {
		c |= ex.draw.cd.outcode(v)
	}
	return c
}

// finite reports whether v's position is finite: c-c is +0 for a finite c
// and NaN for an infinity or a NaN, which makes the sum NaN (one test, no
// branch a component).
func finite(v *cvert) bool {
	p := &v.p
	return (p[0]-p[0])+(p[1]-p[1])+(p[2]-p[2])+(p[3]-p[3]) == 0
}

// triangle clips a triangle and rasterizes what is left as a fan.
func (ex *executor) triangle(v0, v1, v2 *cvert) uint64 {
	d := &ex.draw
	if !finite(v0) || !finite(v1) || !finite(v2) {
		return 0
	}
	d.pipe.pv = &v0.a
	if d.pvSecond {
		d.pipe.pv = &v1.a
	}
	s := &ex.st
	if v0.p == v1.p && v1.p == v2.p && d.cd.nclip == 0 && d.cd.ncull == 0 && !s.wireframe && !d.pipeCache.off {
		// One point three times (the draws scene's triangle): with no clip
		// or cull distance its three outcodes are one, and inside every
		// plane it projects to one pixel position, whose area of 0 set-up
		// rejects (setupEdges); outside a plane all three are outside it.
		// Either way what the clip path would find, without it
		// (TestPointTriangle; pipeCache.off: the reference).
		if ex.outcode(v0) != 0 {
			return 0
		}
		return 1
	}
	// clip
	c0, c1, c2 := ex.outcode(v0), ex.outcode(v1), ex.outcode(v2)
	if c0&c1&c2 != 0 || (c0|c1|c2)&clipNaN != 0 {
		return 0 // all three outside one plane, or a clip distance NaN
	}
	if d.cd.ncull != 0 && d.cd.culled(v0, v1, v2) {
		return 0
	}
	if s.wireframe {
		ex.wireTriangle(v0, v1, v2, c0|c1|c2)
		return 1
	}
	if c0|c1|c2 == 0 {
		// Inside every plane: no clipping, no copy. The screen vertices
		// get positions only; set-up reads the clip vertices'
		// attributes, for a triangle that is drawn (not degenerate,
		// culled or outside the scissor rectangle: setupEdges).
		sv := &d.sv
		d.projectPos(v0, &sv[0])
		d.projectPos(v1, &sv[1])
		d.projectPos(v2, &sv[2])
		t := d.next()
		ok, swapped := t.setupEdges(&sv[0], &sv[1], &sv[2], s.cull, s.frontCCW, &d.pipe, d.deferSetup)
		if !ok {
			return 1
		}
		if d.deferSetup {
			if t.y0/tileRows == (t.y1-1)/tileRows {
				// Within one band: the tile worker that draws it makes
				// its edges and planes (finish).
				if swapped {
					t.stash(&sv[0], &sv[2], &sv[1], &v0.a, &v2.a, &v1.a, &d.pipe)
				} else {
					t.stash(&sv[0], &sv[1], &sv[2], &v0.a, &v1.a, &v2.a, &d.pipe)
				}
				t.deferred = true
				d.emit()
				return 1
			}
			t.setupEdgeFns() // (setupEdges left them)
		}
		if swapped {
			t.setupAttrs(&sv[0], &sv[2], &sv[1], &v0.a, &v2.a, &v1.a, &d.pipe)
		} else {
			t.setupAttrs(&sv[0], &sv[1], &sv[2], &v0.a, &v1.a, &v2.a, &d.pipe)
		}
		if d.pipe.bias {
			t.z0 += d.pipe.triBias(&sv[0], &sv[1], &sv[2])
		}
		d.emit()
		return 1
	}
	poly := d.poly[0][:3]
	n := d.prog.nattr
	copyCvert(&poly[0], v0, n)
	copyCvert(&poly[1], v1, n)
	copyCvert(&poly[2], v2, n)
	if out := c0 | c1 | c2; out != 0 {
		dst := 1
		for k := 0; k < numPlanes+d.cd.nclip && len(poly) >= 3; k++ {
			if out&(1<<k) != 0 {
				poly = clipPoly(poly, d.poly[dst][:0], k, d.prog.linRegs(), &d.cd, n)
				dst ^= 1
			}
		}
		if len(poly) < 3 {
			return 0
		}
	}
	// viewport
	for i := range poly {
		d.project(&poly[i], &d.sv[i])
	}
	// rasterize (the bias: the primitive's, from its clipped polygon's
	// first triangle that is not degenerate)
	bias, biased := 0.0, false
	for i := 1; i+1 < len(poly); i++ {
		if t := d.next(); t.setup(&d.sv[0], &d.sv[i], &d.sv[i+1], s.cull, s.frontCCW, &d.pipe) {
			if d.pipe.bias {
				if !biased {
					bias, biased = d.pipe.triBias(&d.sv[0], &d.sv[i], &d.sv[i+1]), true
				}
				t.z0 += bias
			}
			d.emit()
		}
	}
	return uint64(len(poly) - 2)
}

// project maps a clip-space vertex (inside the clip volume) through the
// viewport to the screen.
func (d *drawScratch) project(c *cvert, sv *svert) {
	d.projectPos(c, sv)
	n := d.prog.nattr
	copy(sv.a[:n], c.a[:n]) // the draw's attributes (varyings.go)
}

// projectPos is project without the attributes: the screen position, depth
// and w.
func (d *drawScratch) projectPos(c *cvert, sv *svert) {
	vp := &d.vp
	iw := 1 / c.p[3]
	sx := vp.x + float64((float64(c.p[0]*iw)+1)*0.5*vp.w)
	sy := vp.y + float64((1-float64(c.p[1]*iw))*0.5*vp.h)
	sv.x, sv.y = toFixed(sx), toFixed(sy)
	sv.z = vp.minZ + float64(c.p[2]*iw*(vp.maxZ-vp.minZ))
	sv.w = c.p[3]
}

// clipPoly clips the convex polygon in against one plane (Sutherland-Hodgman)
// into out, whose capacity must hold len(in)+1 vertices. An intersection is
// always computed from the inside vertex of its edge, so an edge shared by two
// triangles is cut at exactly the same point for both. The vertices carry
// n attributes (varyings.go).
func clipPoly(in, out []cvert, plane int, lin uint32, cd *clipDists, n int) []cvert {
	nv := len(in)
	for i := 0; i < nv; i++ {
		a, b := &in[i], &in[(i+1)%nv]
		da, db := cd.dist(a, plane), cd.dist(b, plane)
		ina, inb := da >= 0, db >= 0
		if ina {
			out = out[:len(out)+1]
			copyCvert(&out[len(out)-1], a, n)
		}
		if ina != inb {
			out = out[:len(out)+1]
			v := &out[len(out)-1]
			if ina {
				lerpVert(v, a, b, da/(da-db), n)
				if lin != 0 {
					lerpLinear(v, a, b, da/(da-db), lin)
				}
			} else {
				lerpVert(v, b, a, db/(db-da), n)
				if lin != 0 {
					lerpLinear(v, b, a, db/(db-da), lin)
				}
			}
		}
	}
	return out
}

// lerpVert sets out to a + t(b-a): the position and n attributes.
func lerpVert(out, a, b *cvert, t float64, n int) {
	for k := range out.p {
		out.p[k] = a.p[k] + float64(t*(b.p[k]-a.p[k]))
	}
	for k := range n {
		out.a[k] = a.a[k] + float64(t*(b.a[k]-a.a[k]))
	}
}

// toFixed converts a screen coordinate to 24.8 fixed point, rounding to
// nearest. It clamps first: Go's conversion of an out-of-range float to an
// integer differs between amd64 and wasm.
func toFixed(v float64) int64 {
	if !(v >= -fixLimit) {
		v = -fixLimit
	} else if v > fixLimit {
		v = fixLimit
	}
	return int64(math.Floor(float64(v*(1<<subBits)) + 0.5))
}
