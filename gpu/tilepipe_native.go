//go:build !wasm

package gpu

import (
	"runtime"
	"sync"
)

// The tile workers running ahead. A draw of many triangles (the tris
// scene: 100,000 of them) spends about half its time in geometry — fetch,
// the vertex program, clipping, set-up — on the command processor's
// goroutine; rasterizing each full batch there, even in bands on every
// worker, leaves that half serial. So a full batch is handed to the
// workers, which rasterize it in their bands while the command processor
// goes on with the next one; it waits only when maxAhead batches are in
// flight, at the draw's end, before a line, and at a checkpoint that could
// stop the draw (runAhead says when none can: then where the draw stops
// does not depend on how far the workers got, and the pixels and counters
// are the same as on one goroutine, each pixel seeing its triangles in
// primitive order within its band).

// maxAhead is the batches in flight at most: two, so that a worker that
// finished one finds the next while the command processor fills a third.
const maxAhead = 2

// tilePipeline is the draw's workers while they run ahead: one channel of
// batches each, the batches in flight (oldest first) and the buffers of
// those done, and area, the sum of the bounding boxes of the batches
// handed over since their counters were last summed (runAhead's bound).
type tilePipeline struct {
	jobs   []chan *tileJob
	exited sync.WaitGroup
	queue  []*tileJob
	spare  []*tileJob
	area   uint64
	handed uint64 // batches handed over (for tests)
	crew   *crew  // rasterParallel's workers (crew_native.go)
}

// own makes g's crew, when its draws have tile workers.
func (tp *tilePipeline) own(g *GPU, workers int) {
	if workers > 1 {
		tp.crew = newCrew(g)
	}
}

// tileJob is a batch in flight: its triangles (read only, by every
// worker), its rows, and the workers that have not finished it.
type tileJob struct {
	batch []tri
	spans []triRows // its triangles' rows (drawScratch.rowSpans)
	hi    int       // the rows its triangles span end before hi (batchRows)
	wg    sync.WaitGroup
}

// handOver gives the full batch to the tile workers running ahead when the
// draw allows it (runAhead), and otherwise rasterizes it now.
func (d *drawScratch) handOver() {
	if d.workers > 1 && d.area >= parallelArea && d.ahead != nil && d.ahead(uint64(d.area), d.tp.jobs == nil) && d.submit() {
		return
	}
	d.flush()
}

// submit hands d.batch to the workers (started with the draw's first) and
// takes a free buffer for the next; it reports false when the workers
// cannot run the draw's pixel program (binding failed: the batch is then
// rasterized here, as rasterParallel does).
func (d *drawScratch) submit() bool {
	tp := &d.tp
	if tp.jobs == nil && !d.startWorkers() {
		return false
	}
	var j *tileJob
	if k := len(tp.spare); k > 0 {
		j, tp.spare = tp.spare[k-1], tp.spare[:k-1]
	} else {
		j = &tileJob{batch: make([]tri, 0, batchTris)}
	}
	_, j.hi = d.batchRows()
	j.batch, d.batch = d.batch, j.batch[:0]
	j.spans, d.rowSpans = d.rowSpans, j.spans[:0]
	tp.area += uint64(d.area)
	d.area = 0
	d.parallel++
	tp.handed++
	j.wg.Add(len(tp.jobs))
	for _, c := range tp.jobs {
		c <- j
	}
	tp.queue = append(tp.queue, j)
	if len(tp.queue) > maxAhead {
		old := tp.queue[0]
		old.wg.Wait()
		n := copy(tp.queue, tp.queue[1:])
		tp.queue[n] = nil
		tp.queue = tp.queue[:n]
		tp.spare = append(tp.spare, old)
	}
	return true
}

// startWorkers starts d.workers goroutines with a copy of the draw's pipe
// each (and a machine and block of their own for a pixel program).
func (d *drawScratch) startWorkers() bool {
	n := d.workers
	if len(d.lanes) != n {
		d.lanes = make([]lane, n)
	}
	if d.pipe.prog != nil {
		for i := range n {
			if d.prog.bindWorker(&d.lanes[i]) != nil {
				return false
			}
		}
	}
	tp := &d.tp
	tp.jobs = make([]chan *tileJob, n)
	for i := range n {
		l := &d.lanes[i]
		l.p = d.pipe
		l.p.cols, l.p.check, l.panic = &l.cols, nil, nil
		l.p.shaded, l.p.passed, l.p.instrs = 0, 0, 0
		if l.p.prog != nil {
			l.blk = *d.pipe.blk
			l.p.blk, l.p.m = &l.blk, l.m
		}
		tp.jobs[i] = make(chan *tileJob, maxAhead+1)
		tp.exited.Add(1)
		go tileWorker(l, i, n, tp.jobs[i], &tp.exited)
	}
	return true
}

// tileWorker is worker i of n: its bands of each batch it is handed, every
// row of the batch in one pass (the checkpoints between rounds of rows
// would all pass: runAhead). After a panic (a simulator bug, re-raised by
// drain) it only marks the batches done.
func tileWorker(l *lane, i, n int, jobs <-chan *tileJob, exited *sync.WaitGroup) {
	defer exited.Done()
	if tileProbe != nil {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	for j := range jobs {
		if l.panic == nil {
			var t0 uint64
			if tileProbe != nil {
				t0 = tileProbe()
			}
			func() {
				defer func() { l.panic = recover() }()
				rasterBands(j.batch, j.spans, &l.p, i, n, j.hi, &l.bands)
			}()
			if tileProbe != nil {
				l.work.cpu += tileProbe() - t0
			}
		}
		j.wg.Done()
	}
}

// inFlight reports whether batches were handed to the workers since their
// counters were last summed.
func (d *drawScratch) inFlight() bool { return d.tp.jobs != nil }

// drain waits for the workers to finish every batch handed over, stops
// them and adds their counters to the draw's (in worker order).
func (d *drawScratch) drain() {
	tp := &d.tp
	if tp.jobs == nil {
		return
	}
	for _, c := range tp.jobs {
		close(c)
	}
	tp.exited.Wait()
	tp.jobs = nil
	for i, j := range tp.queue {
		tp.spare = append(tp.spare, j)
		tp.queue[i] = nil
	}
	tp.queue, tp.area = tp.queue[:0], 0
	var crash any
	for i := range d.lanes {
		l := &d.lanes[i]
		if crash == nil {
			crash = l.panic
		}
		d.pipe.shaded += l.p.shaded
		d.pipe.passed += l.p.passed
		d.pipe.instrs += l.p.instrs
		l.work.pixels += l.p.shaded
		l.p, l.panic = pipe{}, nil // drop references to memory
		l.blk.words = nil
	}
	if crash != nil {
		panic(crash)
	}
}
