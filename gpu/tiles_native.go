//go:build !wasm

package gpu

import (
	"runtime"
	"sync/atomic"
)

// rasterWorkers resolves Config.RasterWorkers: 0 is one per CPU.
func rasterWorkers(n int) int {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return min(n, 64)
}

// rasterParallel rasterizes the batch on d.workers goroutines (this one and
// d.workers-1 more), each with its own copy of the pipe (the counters are
// summed afterwards, in worker order).
// A panic in a worker (a simulator bug) is re-raised here, where the command
// processor turns it into a fault.
func (d *drawScratch) rasterParallel() {
	n := d.workers
	if len(d.lanes) != n {
		d.lanes = make([]lane, n)
	}
	if d.pipe.prog != nil {
		for i := 1; i < n; i++ {
			if d.prog.bindWorker(&d.lanes[i]) != nil {
				// Binding read the constants the draw's own machine
				// read without error: not seen. The batch runs here.
				d.rasterRounds()
				return
			}
		}
	}
	d.parallel++
	// The bands of a round go to whichever goroutine asks first: a worker
	// that starts late (its thread waking, or another process on its core)
	// leaves its bands to the others instead of holding the round, which
	// is what a fixed share (band k to worker k % n) did. A band is drawn
	// whole by one goroutine, its triangles in order, so the pixels and
	// the counters' sums are the same whoever draws it. The claim is one
	// atomic add a band of tileRows rows, the only thing the workers share.
	var ylo, yhi int
	var claim atomic.Int64
	work := func(i int) {
		l := &d.lanes[i]
		defer func() { l.panic = recover() }()
		if tileProbe != nil {
			if i > 0 {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			t0 := tileProbe()
			defer func() {
				t := tileProbe() - t0
				l.work.cpu += t
				if i == 0 {
					d.mainRaster += t
				}
			}()
		}
		for {
			k := ylo/tileRows + int(claim.Add(1)) - 1
			if k*tileRows >= yhi {
				return
			}
			rasterBand(d.batch, d.rowSpans, &l.p, k)
		}
	}
	for i := range n {
		d.lanes[i].p = d.pipe
		d.lanes[i].p.cols = &d.lanes[i].cols
		d.lanes[i].p.check = nil // the rounds check, here
		if p := &d.lanes[i].p; p.prog != nil && i > 0 {
			// A machine and a block of its own, the block set up as the
			// draw's.
			d.lanes[i].blk = *p.blk
			p.blk, p.m = &d.lanes[i].blk, d.lanes[i].m
		}
	}
	// Round by round of rows, the counters summed in worker order and the
	// draw's checkpoint between two. When no checkpoint inside the batch
	// can stop the draw (runAhead's bound: every pixel of the bounding
	// boxes shaded), the batch is one round: the checkpoints would all
	// pass, and each round costs a start of every worker and a wait for
	// the last band. On a busy machine a worker started 90 µs late on
	// average, of fill's 220 µs rounds (BenchmarkTileWork: this goroutine
	// drew 64% of the pixels); fill's draws are two rounds each otherwise.
	lo, hi := d.batchRows()
	step := roundRows
	if d.ahead != nil && d.ahead(uint64(d.area), false) {
		step = hi - lo
	}
	for ylo = lo; ylo < hi && !d.pipe.stop; ylo += step {
		yhi = ylo + step
		if ylo > lo && !d.check() {
			break
		}
		claim.Store(0)
		d.rounds++
		for i := range n {
			d.lanes[i].p.shaded, d.lanes[i].p.passed, d.lanes[i].p.instrs = 0, 0, 0
		}
		d.tp.crew.run(n-1, work) // work(0): this goroutine's own share
		for i := range n {
			l := &d.lanes[i]
			if l.panic != nil {
				panic(l.panic)
			}
			d.pipe.shaded += l.p.shaded
			d.pipe.passed += l.p.passed
			d.pipe.instrs += l.p.instrs
			l.work.pixels += l.p.shaded
		}
	}
	for i := range n {
		l := &d.lanes[i]
		l.p = pipe{} // drop references to memory
		l.blk.words = nil
	}
}
