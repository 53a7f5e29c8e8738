package gpu

import (
	"d3dsim/gpu/shader"
	"unsafe"
)

// Tile-parallel rasterization. A draw's set-up triangles are batched; a
// batch big enough is rasterized by several goroutines, each owning the
// bands of tileRows rows k with k % workers == its index. Every pixel belongs
// to exactly one band, and each worker walks the batch in primitive order, so
// a pixel sees its triangles in the same order as on one goroutine: depth
// tests and blending give the same result, and so do the counters (sums).
// Natively only (tiles_native.go); WebAssembly runs one goroutine.

const (
	tileRows  = 16   // rows of a band
	batchTris = 4096 // triangles per batch
	// batchArea bounds a batch's work (the sum of its triangles' bounding
	// boxes, in pixels): a round of rows of a batch of 4,096 full-screen
	// triangles on 8192x8192 was 8.6e9 pixels between two checkpoints.
	batchArea = 1 << 22
	// parallelArea is the smallest batch (sum of the triangles' bounding
	// boxes, in pixels) worth handing to other goroutines: waking one costs
	// microseconds, and far more on a busy machine.
	parallelArea = 65536
)

// lane is one worker's pipe, padded so that workers' counters do not share
// a cache line.
type lane struct {
	p     pipe
	cols  colTerms        // p.cols
	blk   psBlock         // p.blk, for a pixel program
	m     *shader.Machine // p.m: the worker's machine for the last program it ran
	panic any
	// work is what the lane did since it was made, for tests that
	// measure the balance between workers (tileProbe).
	work  laneWork
	bands []int32 // rasterBands' table of the worker's bands
	_     [128]byte
}

// laneWork is a lane's pixels shaded and, when tileProbe is set, its
// thread's CPU time in nanoseconds.
type laneWork struct{ pixels, cpu uint64 }

// tileProbe, set only by tests, returns the calling thread's CPU time in
// nanoseconds: the tile workers then lock their goroutines to threads and
// add what each job took to their lane's work, and rasterParallel adds the
// command processor's own share to drawScratch.mainRaster, so that a test
// can tell the serial part of a frame from the shading.
var tileProbe func() uint64

// next is where the geometry sets up its next triangle, which emit then
// rasterizes: d.tri, or for a draw that is batched the batch's next slot
// (set up in place: a triangle is about 1 KB, and copying it was a fifth
// of the tris scene's geometry).
func (d *drawScratch) next() *tri {
	if !d.pipe.tileable {
		return d.soloTri()
	}
	d.setups++
	n := len(d.batch)
	if n == cap(d.batch) {
		d.batch = append(d.batch, tri{})[:n]
	}
	t := &d.batch[:n+1][n]
	if cap(t.a0) < d.planesNa {
		d.attachPlanes(n) // (varyings.go)
	}
	t.deferred = false
	return t
}

// emit rasterizes the triangle set up at next, now or as part of a batch.
// A draw that may be tiled is batched however many goroutines rasterize
// (one, natively or in WebAssembly, or several), so that its checkpoints
// (draw.go) come after the same work: the end of a batch, a round of rows
// of one.
func (d *drawScratch) emit() {
	if !d.pipe.tileable {
		d.tri.raster(&d.pipe)
		return
	}
	d.batch = d.batch[:len(d.batch)+1]
	t := &d.batch[len(d.batch)-1]
	d.area += (t.x1 - t.x0) * (t.y1 - t.y0)
	if d.workers > 1 {
		d.rowSpans = append(d.rowSpans, triRows{int32(t.y0), int32(t.y1)})
	}
	if len(d.batch) == batchTris || d.area >= batchArea {
		d.handOver() // to the tile workers running ahead, or flush
	}
}

// flush rasterizes the batched triangles, after the batches handed to the
// tile workers (tiles_native.go). Anything that writes pixels outside the
// batch (lines) flushes first, to keep primitive order.
func (d *drawScratch) flush() {
	d.drain()
	if len(d.batch) == 0 {
		return
	}
	if d.workers > 1 && d.area >= parallelArea {
		d.rasterParallel()
	} else {
		d.rasterRounds()
	}
	d.batch, d.rowSpans = d.batch[:0], d.rowSpans[:0]
	d.area = 0
}

// rasterRounds rasterizes the batch on this goroutine, round by round of
// rows as the tile workers do (each triangle in order within a round, so a
// pixel sees its triangles in the same order), with the draw's checkpoint
// between two rounds and none inside.
func (d *drawScratch) rasterRounds() {
	p := &d.pipe
	check := p.check
	p.check = nil
	defer func() { p.check = check }()
	lo, hi := d.batchRows()
	if d.ahead != nil && d.ahead(uint64(d.area), false) {
		// No checkpoint between two rounds could stop the draw
		// (runAhead's bound, as rasterParallel's): one round, each
		// triangle visited once (tris: two rounds called rasterRows
		// twice a triangle, 62 instructions of it).
		for j := range d.batch {
			if t := &d.batch[j]; t.deferred {
				t.finishRows(p, lo, hi)
			} else {
				t.rasterRows(p, t.y0, t.y1)
			}
		}
		return
	}
	for ylo := lo; ylo < hi && !p.stop; ylo += roundRows {
		if ylo > lo && check != nil && !check() {
			break
		}
		for j := range d.batch {
			if t := &d.batch[j]; t.deferred {
				t.finishRows(p, ylo, ylo+roundRows)
			} else {
				t.rasterRows(p, ylo, ylo+roundRows)
			}
		}
	}
}

// rasterBands is worker i of n's share of batch's rows [0, yhi): its
// bands, each triangle in order. spans holds the triangles' rows side by
// side (emit keeps them: drawScratch.rowSpans), each within [0, yhi)
// (batchRows), so that the triangles of the other workers' bands are
// passed over without reading them (a worker read every triangle's rows,
// half of them from lines the other worker had just drawn).
//
// mine is scratch for the worker's bands: mine[k] is the first row of its
// first band at or after band k (a table made once a batch: the two
// divisions and the clamps a triangle were most of what finding them
// cost).
func rasterBands(batch []tri, spans []triRows, p *pipe, i, n, yhi int, mine *[]int32) {
	nb := (yhi + tileRows - 1) / tileRows
	if cap(*mine) < nb {
		*mine = make([]int32, nb)
	}
	first := (*mine)[:nb]
	for k := range first {
		first[k] = int32(k+((i-k%n)%n+n)%n) * tileRows
	}
	step := int32(n * tileRows)
	batch = batch[:len(spans)]
	for j := range spans {
		lo, hi := spans[j].y0, spans[j].y1
		y := first[uint32(lo)/tileRows]
		if y >= hi {
			continue
		}
		t := &batch[j]
		for ; y < hi; y += step {
			if t.deferred {
				t.finishRows(p, int(y), int(y)+tileRows)
			} else {
				t.rasterRows(p, int(y), int(y)+tileRows)
			}
		}
	}
}

// rasterBand draws band k (rows k*tileRows up to the next band) of the
// batch, each triangle in order; spans holds each triangle's rows (y0, y1)
// side by side (emit keeps them: drawScratch.rowSpans), so that finding
// the few triangles of a band among thousands reads 8 bytes of each, not
// its set-up.
func rasterBand(batch []tri, spans []triRows, p *pipe, k int) {
	lo, hi := int32(k*tileRows), int32((k+1)*tileRows)
	for j := range spans {
		if spans[j].y0 < hi && spans[j].y1 > lo {
			if t := &batch[j]; t.deferred {
				t.finishRows(p, int(lo), int(hi))
			} else {
				t.rasterRows(p, int(lo), int(hi))
			}
		}
	}
}

// finishRows finishes the set-up of t, a triangle left to the goroutine
// that rasterizes it (tri.deferred), and rasterizes its rows in [ylo,
// yhi), when it has any. Only a triangle within one band is left so
// (draw.go), and a band is drawn by one goroutine, so no other goroutine
// reads or writes it. (The callers test t.deferred themselves: a call a
// triangle was 2 M instructions of a tris frame on one goroutine.)
func (t *tri) finishRows(p *pipe, ylo, yhi int) {
	if t.y0 >= yhi || t.y1 <= ylo {
		return
	}
	t.finish(p)
	t.rasterRows(p, ylo, yhi)
}

// triRows is a batched triangle's rows, y0 up to y1 (drawScratch.rowSpans).
type triRows struct{ y0, y1 int32 }

// roundRows is the rows of a batch the tile workers rasterize between two
// of the draw's checkpoints: the work of a round is the same however the
// workers interleave, so where a draw stops is too.
const roundRows = 16 * tileRows

// batchRows is the rows the batch's triangles span, rounded out to
// multiples of tileRows.
func (d *drawScratch) batchRows() (lo, hi int) {
	b := d.batch
	lo, hi = b[0].y0, b[0].y1
	for j := range b {
		lo, hi = min(lo, b[j].y0), max(hi, b[j].y1)
	}
	return lo / tileRows * tileRows, hi
}

// tileable reports whether the draw may be split into bands: no pixel of
// one band may read or write memory another band writes. The target and the
// depth buffer are written row by row, so they must not share memory with
// each other or with a texture the pixel program samples
// (tileablePixelProgram checks the textures).
func (p *pipe) isTileable() bool {
	return !overlap(p.rt.mem, p.ds.mem)
}

// overlap reports whether two byte slices share memory.
func overlap(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
