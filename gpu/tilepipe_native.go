//go:build !wasm

package gpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The tile workers running ahead. A draw of many triangles (the tris
// scene: 100,000 of them) spends about half its time in geometry — fetch,
// the vertex program, clipping, set-up — on the command processor's
// goroutine; rasterizing each full batch there, even in bands on every
// worker, leaves that half serial. So a full batch is handed to the
// workers, which rasterize it while the command processor goes on with
// the next one; it waits only when maxAhead batches are in flight, at the
// draw's end, before a line, and at a checkpoint that could stop the draw
// (runAhead says when none can: then where the draw stops does not depend
// on how far the workers got, and the pixels and counters are the same as
// on one goroutine, each pixel seeing its triangles in primitive order
// within its piece of rows).
//
// A batch is cut into pieces of whole bands, each drawn by whichever
// goroutine claims it first (an atomic add, as rasterParallel's bands):
// the workers, and the command processor itself whenever it would wait for
// them. The pieces are the same rows in every batch of the draw
// (tilePipeline.piece), and a piece of a batch is drawn only once the same
// piece of every batch before it is (its ticket): so each pixel still sees
// its triangles in primitive order, whoever draws them. So the draw runs d.workers-1 goroutines besides the
// command processor (one on two cores: the command processor's geometry
// holds the other), and a worker that starts late, or a command processor
// done with its geometry, leaves no core idle while pieces are left. (Each
// worker drew a fixed half of each batch's bands: the three goroutines on
// two cores waited for whichever was last, and each batch woke both.)

// maxAhead is the batches in flight at most: two, so that a worker that
// finished one finds the next while the command processor fills a third.
const maxAhead = 2

// piecesPer is the pieces a batch is cut into per goroutine that may draw
// it: enough that the last to claim one waits little for the others, few
// enough that passing over the batch's rows once a piece costs little
// (tris: 4,096 rows read a piece).
const piecesPer = 4

// tilePipeline is the draw's workers while they run ahead: one channel of
// batches each, the batches in flight (oldest first), those drawn that a
// worker has not yet passed (retired: the command processor may finish a
// batch before a worker behind takes it from its channel, and the buffer
// must not be filled again under it) and the buffers free, and area, the sum of the bounding boxes of the batches
// handed over since their counters were last summed (runAhead's bound).
type tilePipeline struct {
	jobs    []chan *tileJob
	exited  sync.WaitGroup
	queue   []*tileJob
	retired []*tileJob
	spare   []*tileJob
	area    uint64
	handed  uint64 // batches handed over (for tests)
	crew    *crew  // rasterParallel's workers (crew_native.go)
	// The pieces: piece s is bands [b0+s*k, b0+(s+1)*k) (the first and
	// the last reaching past them), fixed from the draw's scissor
	// rectangle when the workers start. holders[s] is the batches handed
	// over with rows in piece s; done[s] those whose piece s is drawn.
	b0, k   int
	holders []uint32
	done    []atomic.Uint32
}

// own makes g's crew, when its draws have tile workers.
func (tp *tilePipeline) own(g *GPU, workers int) {
	if workers > 1 {
		tp.crew = newCrew(g)
	}
}

// piece is the piece band b is in.
func (tp *tilePipeline) piece(b int) int {
	return min(max(b-tp.b0, 0)/tp.k, len(tp.holders)-1)
}

// rows is piece s's rows.
func (tp *tilePipeline) rows(s int) (lo, hi int) {
	lo, hi = (tp.b0+s*tp.k)*tileRows, (tp.b0+(s+1)*tp.k)*tileRows
	if s == 0 {
		lo = 0
	}
	if s == len(tp.holders)-1 {
		hi = 1 << 30
	}
	return lo, hi
}

// tileJob is a batch in flight: its triangles (read only, by every
// worker), its pieces (s0 up to s1, claim: the next to draw, ticket[s]:
// the batches before it with rows in piece s), and the pieces not drawn
// yet (wg), and the workers that have not passed it (pending).
type tileJob struct {
	tp      *tilePipeline
	batch   []tri
	spans   []triRows // its triangles' rows (drawScratch.rowSpans)
	s0, s1  int
	ticket  []uint32
	claim   atomic.Int32
	pending atomic.Int32
	wg      sync.WaitGroup
}

// work draws the pieces of j that l claims, until none is left, each once
// the batches before j have drawn theirs (a goroutine takes the pieces of
// a batch only once every piece of the batches before is claimed, and the
// command processor helps the oldest, so what it waits for is being
// drawn). After a panic (a simulator bug, re-raised by drain) the lane
// only marks the pieces it claims done.
func (j *tileJob) work(l *lane) {
	tp := j.tp
	for {
		s := j.s0 + int(j.claim.Add(1)) - 1
		if s >= j.s1 {
			return
		}
		for tp.done[s].Load() != j.ticket[s] {
			runtime.Gosched()
		}
		if l.panic == nil {
			lo, hi := tp.rows(s)
			l.drawPiece(j, lo, hi)
		}
		tp.done[s].Add(1)
		j.wg.Done()
	}
}

// drawPiece rasterizes the rows [lo, hi) of j's triangles into l, noting a
// panic.
func (l *lane) drawPiece(j *tileJob, lo, hi int) {
	defer func() {
		if r := recover(); r != nil {
			l.panic = r
		}
	}()
	rasterRange(j.batch, j.spans, &l.p, lo, hi)
}

// handOver gives the full batch to the tile workers running ahead when the
// draw allows it (runAhead), and otherwise rasterizes it now.
func (d *drawScratch) handOver() {
	if d.workers > 1 && d.area >= parallelArea && d.ahead != nil && d.ahead(uint64(d.area), d.tp.jobs == nil) && d.submit() {
		return
	}
	d.flush()
}

// handLast gives the draw's last batch, before a line or at its end, to
// the workers when they are running ahead and it is worth it (drain, which
// follows, helps them): rasterParallel would start them again for it.
func (d *drawScratch) handLast() {
	if len(d.batch) > 0 && d.tp.jobs != nil && d.area >= parallelArea && d.ahead(uint64(d.area), false) {
		d.submit()
	}
}

// submit hands d.batch to the workers (started with the draw's first) and
// takes a free buffer for the next; it reports false when the workers
// cannot run the draw's pixel program (binding failed: the batch is then
// rasterized here, as rasterParallel does). With more than maxAhead
// batches in flight it draws the oldest's pieces left and waits for it.
func (d *drawScratch) submit() bool {
	tp := &d.tp
	if tp.jobs == nil && !d.startWorkers() {
		return false
	}
	k := 0
	for _, r := range tp.retired {
		if r.pending.Load() == 0 {
			tp.spare = append(tp.spare, r)
		} else {
			tp.retired[k] = r
			k++
		}
	}
	clear(tp.retired[k:])
	tp.retired = tp.retired[:k]
	var j *tileJob
	if k := len(tp.spare); k > 0 {
		j, tp.spare = tp.spare[k-1], tp.spare[:k-1]
	} else {
		j = &tileJob{batch: make([]tri, 0, batchTris)}
	}
	lo, hi := d.batchRows()
	j.tp, j.s0, j.s1 = tp, tp.piece(lo/tileRows), tp.piece((hi-1)/tileRows)+1
	if len(j.ticket) < len(tp.holders) {
		j.ticket = make([]uint32, len(tp.holders))
	}
	for s := j.s0; s < j.s1; s++ {
		j.ticket[s] = tp.holders[s]
		tp.holders[s]++
	}
	j.claim.Store(0)
	j.batch, d.batch = d.batch, j.batch[:0]
	j.spans, d.rowSpans = d.rowSpans, j.spans[:0]
	tp.area += uint64(d.area)
	d.area = 0
	d.parallel++
	tp.handed++
	j.wg.Add(j.s1 - j.s0)
	j.pending.Store(int32(len(tp.jobs)))
	for _, c := range tp.jobs {
		c <- j
	}
	tp.queue = append(tp.queue, j)
	if len(tp.queue) > maxAhead {
		old := tp.queue[0]
		d.help(old)
		old.wg.Wait()
		n := copy(tp.queue, tp.queue[1:])
		tp.queue[n] = nil
		tp.queue = tp.queue[:n]
		tp.retired = append(tp.retired, old)
	}
	return true
}

// help draws the pieces of j no worker has claimed, on this goroutine
// (lane 0, which no worker uses), instead of waiting for them.
func (d *drawScratch) help(j *tileJob) {
	l := &d.lanes[0]
	if tileProbe == nil {
		j.work(l)
		return
	}
	t0 := tileProbe()
	j.work(l)
	t := tileProbe() - t0
	l.work.cpu += t
	d.mainRaster += t
}

// startWorkers starts d.workers-1 goroutines (lanes 1 on; lane 0 is the
// command processor's, when it helps) with a copy of the draw's pipe each
// (and a machine and block of their own for a pixel program).
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
	tp.jobs = make([]chan *tileJob, n-1)
	// The pieces: piecesPer a goroutine over the scissor rectangle's
	// bands.
	p := &d.pipe
	tp.b0 = p.sy0 / tileRows
	nb := max((p.sy1+tileRows-1)/tileRows-tp.b0, 1)
	np := min(nb, piecesPer*n)
	tp.k = (nb + np - 1) / np
	np = (nb + tp.k - 1) / tp.k
	if cap(tp.holders) < np {
		tp.holders, tp.done = make([]uint32, np), make([]atomic.Uint32, np)
	}
	tp.holders, tp.done = tp.holders[:np], tp.done[:np]
	for s := range np {
		tp.holders[s] = 0
		tp.done[s].Store(0)
	}
	for i := range n {
		l := &d.lanes[i]
		l.p = d.pipe
		l.p.cols, l.p.check, l.panic = &l.cols, nil, nil
		l.p.shaded, l.p.passed, l.p.instrs = 0, 0, 0
		if l.p.prog != nil {
			l.blk = *d.pipe.blk
			l.p.blk, l.p.m = &l.blk, l.m
		}
		if i > 0 {
			c := make(chan *tileJob, maxAhead+1)
			tp.jobs[i-1] = c
			tp.exited.Add(1)
			go tileWorker(l, c, &tp.exited)
		}
	}
	return true
}

// tileWorker is a worker: the pieces it claims of each batch it is handed,
// every row of a piece in one pass (the checkpoints between rounds of
// rows would all pass: runAhead).
func tileWorker(l *lane, jobs <-chan *tileJob, exited *sync.WaitGroup) {
	defer exited.Done()
	if tileProbe != nil {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	for j := range jobs {
		if tileProbe == nil {
			j.work(l)
			j.pending.Add(-1)
			continue
		}
		t0 := tileProbe()
		j.work(l)
		l.work.cpu += tileProbe() - t0
		j.pending.Add(-1)
	}
}

// inFlight reports whether batches were handed to the workers since their
// counters were last summed.
func (d *drawScratch) inFlight() bool { return d.tp.jobs != nil }

// drain draws what is left of the batches handed over, waits for the
// workers to finish them, stops the workers and adds their counters to the
// draw's (in lane order).
func (d *drawScratch) drain() {
	tp := &d.tp
	if tp.jobs == nil {
		return
	}
	for _, j := range tp.queue {
		d.help(j)
	}
	for _, c := range tp.jobs {
		close(c)
	}
	tp.exited.Wait()
	tp.jobs = nil
	tp.spare = append(append(tp.spare, tp.queue...), tp.retired...)
	clear(tp.queue)
	clear(tp.retired)
	tp.queue, tp.retired, tp.area = tp.queue[:0], tp.retired[:0], 0
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
