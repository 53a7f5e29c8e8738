package main

import "sync/atomic"

// Long draws in the page. A draw runs inside one statement (a Present, a
// Map that waits for it), and a draw of millions of pixels or billions of
// shader instructions takes seconds of real time even within the run's
// budgets: the page froze for as long (135 s once, then said ok). The GPU
// calls its host between pieces of a draw (gpu.GPU.SetYield: a row of
// blocks, an instance, 64 vertices); there, once the slice has had its
// page time, the goroutine running the slice blocks until a task of the
// browser's event loop wakes it, and the page gets its turn: the panel
// polls, Pause, the editor. Nothing of the run changes: the draw goes on
// from where it stopped, and where it stops depends on the page clock only
// as the ends of slices always did.
//
// Only a goroutine of its own may block so: a JS callback may not (the
// event loop waits for it), so the slices of run() turns run on a
// goroutine (bridge_js.go), Ebiten's Update and the pump are goroutines
// already, and a step, which answers in the callback, never suspends.
// While a slice is suspended it holds a.mu: the bridge answers from what
// it has (bridge_js.go busyAnswer) and never takes the lock, which would
// block the event loop for good.

// suspender is the app's state for suspending a slice.
type suspender struct {
	// busy: a slice is suspended inside a draw (set before it blocks,
	// cleared after it wakes). Read by the bridge without a.mu.
	busy atomic.Bool
	// abort: the page asked the suspended run to stop (a load replaces
	// it): the draw stops and the GPU skips the run's later work.
	abort atomic.Bool
	// may: the slice running now may suspend (it runs on a goroutine of
	// its own, not in a JS callback). Under a.mu.
	may bool
	// over is the running slice's page clock (nil: slices end on their
	// counts alone, natively). Under a.mu.
	over func() bool
	// wake asks the event loop for a task that resumes the slice (the
	// bridge's later); nil natively, where nothing suspends.
	wake func(resume func())
	// resumed is how that task resumes it.
	resumed chan struct{}
	// turns counts the suspensions (for tests).
	turns atomic.Uint64
	// callbacks counts the JS callbacks into the module that have not
	// returned (the bridge's calls, its later tasks: bridge_js.go). While
	// one is on the event loop's stack no task can run before it returns,
	// so a slice must not suspend then: a slice that another goroutine ran
	// while the callback waited (the pump's timer fires whenever the
	// scheduler looks, a collection's assist lets it in) suspended with
	// a.mu held, and the callback then took the lock — each waiting for the
	// other, the page's main thread spun in Go's scheduler for good (caught
	// at a first open of #demo=hello-triangle: the editor's check, then
	// notifyPending). The slice goes on instead, to its own bound.
	callbacks atomic.Int32
}

// enterCallback and leaveCallback bracket a JS callback into the module
// (suspender.callbacks).
func (y *suspender) enterCallback() { y.callbacks.Add(1) }
func (y *suspender) leaveCallback() { y.callbacks.Add(-1) }

// gpuYield is the GPU's hook (scenario.Run.SetGPUYield): it reports
// whether the draw goes on. It runs on the slice's goroutine with a.mu
// held (the GPU's own lock too).
func (a *app) gpuYield() bool {
	y := &a.y
	if y.abort.Load() {
		return false
	}
	if !y.may || y.wake == nil || y.over == nil || y.callbacks.Load() > 0 || !y.over() {
		return true
	}
	if y.resumed == nil {
		y.resumed = make(chan struct{}, 1)
	}
	y.busy.Store(true)
	y.turns.Add(1)
	y.wake(func() {
		select {
		case y.resumed <- struct{}{}:
		default:
		}
	})
	<-y.resumed
	y.busy.Store(false)
	if a.clock != nil {
		y.over = a.clock() // the slice's next piece of page time
	}
	return !y.abort.Load()
}
