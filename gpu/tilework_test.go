//go:build linux

package gpu

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// The work of tile-parallel frames, measured rather than timed: on a shared
// machine wall-clock speed-ups are noise, but the CPU time each thread
// spends, and how the pixels split between the workers, are not.
//
//	go test ./gpu -run '^$' -bench TileWork -benchtime 20x
//
// cpu-ms/frame is the process's CPU time a frame (every thread: the parallel
// overhead is its growth from /1 to /2); main-ms/frame the command
// processor's thread's; serial-ms/frame that less its own share of the
// shading (rasterParallel's work(0)): the geometry, the hand-over and the
// waits that spin; workers-ms/frame what the other goroutines' jobs took;
// imbalance the busiest lane's pixels over the mean lane's; rounds/frame the
// rounds of rows, parks/frame the times a worker parked before a round or
// the command processor before a round's last band (rasterParallel's crew:
// each a thread to wake), and handed/frame the batches handed to the
// run-ahead workers.

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU() uint64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return uint64(ts.Nano())
}

func benchTileWork(b *testing.B, sc BenchScene, workers int) {
	runtime.LockOSThread() // the command processor runs on this goroutine (Frame)
	defer runtime.UnlockOSThread()
	tileProbe = threadCPU
	defer func() { tileProbe = nil }()
	r := NewBenchRig(sc, workers)
	r.Frame() // warm up
	d := &r.g.ex.draw
	lanes0 := make([]laneWork, len(d.lanes))
	for i := range d.lanes {
		lanes0[i] = d.lanes[i].work
	}
	rounds0, handed0, main0 := d.rounds, d.tp.handed, d.mainRaster
	var parks0 uint64
	if d.tp.crew != nil {
		parks0 = d.tp.crew.parks.Load()
	}
	proc0, thr0 := cpuSeconds(), threadCPU()
	b.ResetTimer()
	for range b.N {
		r.Frame()
	}
	b.StopTimer()
	if len(r.Faults()) != 0 {
		b.Fatalf("faults: %v", r.Faults())
	}
	f := float64(b.N)
	proc := (cpuSeconds() - proc0) * 1e3 / f
	main := float64(threadCPU()-thr0) / 1e6 / f
	mainRaster := float64(d.mainRaster-main0) / 1e6 / f
	var workerCPU, sum, most float64
	for i := range d.lanes {
		l := d.lanes[i].work
		if i < len(lanes0) {
			l.pixels -= lanes0[i].pixels
			l.cpu -= lanes0[i].cpu
		}
		px := float64(l.pixels)
		sum += px
		most = max(most, px)
		workerCPU += float64(l.cpu) / 1e6 / f
	}
	workerCPU -= mainRaster // lane 0 of rasterParallel is this goroutine
	b.ReportMetric(proc, "cpu-ms/frame")
	b.ReportMetric(main, "main-ms/frame")
	b.ReportMetric(main-mainRaster, "serial-ms/frame")
	if workers > 1 {
		b.ReportMetric(workerCPU, "workers-ms/frame")
		if sum > 0 {
			b.ReportMetric(most/(sum/float64(len(d.lanes))), "imbalance")
		}
		b.ReportMetric(float64(d.rounds-rounds0)/f, "rounds/frame")
		b.ReportMetric(float64(d.tp.handed-handed0)/f, "handed/frame")
		b.ReportMetric(float64(d.tp.crew.parks.Load()-parks0)/f, "parks/frame")
	}
}

// BenchmarkTileWork: fill and tris on one and on two workers, the work
// each thread did (above).
func BenchmarkTileWork(b *testing.B) {
	for _, sc := range []BenchScene{FillScene(), TrisScene()} {
		b.Run(sc.Name+"/1", func(b *testing.B) { benchTileWork(b, sc, 1) })
		b.Run(sc.Name+"/2", func(b *testing.B) { benchTileWork(b, sc, 2) })
	}
}

// TestCrewStopsWithItsGPU: rasterParallel's workers, kept from draw to draw,
// end once their GPU is collected (a test or a page that makes GPUs would
// otherwise keep a goroutine per worker for each).
func TestCrewStopsWithItsGPU(t *testing.T) {
	r := NewBenchRig(FillScene(), 3)
	r.Frame()
	c := r.g.ex.draw.tp.crew
	if c == nil {
		t.Fatal("no crew after a fill frame on 3 workers")
	}
	if n := c.live.Load(); n != 2 {
		t.Fatalf("%d crew workers after a fill frame on 3 workers, want 2", n)
	}
	r = nil // c keeps no pointer to its GPU
	for range 1000 {
		runtime.GC()
		runtime.Gosched()
		if c.live.Load() == 0 {
			return
		}
	}
	t.Errorf("%d crew workers still running after the GPU was collected", c.live.Load())
}
