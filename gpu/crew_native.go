//go:build !wasm

package gpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// crew is rasterParallel's workers, kept from round to round and from draw
// to draw. Fill's draws are one round each, 200 a frame: a goroutine
// started for each round woke a thread (its core idle, or the OS's to
// give) and was late by a good part of the round (BenchmarkTileWork's
// imbalance). A worker done with a round waits for the next by checking
// for a while (crewSpin turns of runtime.Gosched: the command processor's
// work between two of fill's rounds is a few microseconds) before it
// parks, and the command processor waits for the last worker's band the
// same way; the goroutines stop when the GPU is collected
// (runtime.AddCleanup, GPU.New).
type crew struct {
	mu      sync.Mutex // started, asleep and wake, for stop
	started bool
	gen     atomic.Uint64 // the round; each worker runs each round once
	fn      func(i int)   // the round's work, set before gen moves
	quit    atomic.Bool
	left    atomic.Int32    // workers not done with the round
	fin     chan struct{}   // sent by the worker that finished the round last
	asleep  []atomic.Bool   // worker i parked (waiting on wake[i])
	wake    []chan struct{} // cap 1
	// parks counts the workers that parked for a round and the command
	// processor's waits that parked for the last band (BenchmarkTileWork:
	// each is a thread woken).
	parks atomic.Uint64
	// live counts the workers running (TestCrewStopsWithItsGPU: other
	// tests' crews stop when the collector gets to their GPUs, so the
	// process's goroutines say nothing of this one's).
	live atomic.Int32
}

// crewSpin is how long a waiting goroutine checks before it parks, in
// turns of runtime.Gosched (about 0.1-0.2 µs each when nothing else runs).
const crewSpin = 400

// newCrew is the GPU's crew, stopped when g is collected.
func newCrew(g *GPU) *crew {
	c := &crew{fin: make(chan struct{}, 1)}
	runtime.AddCleanup(g, (*crew).stop, c)
	return c
}

// run runs fn(1..n) on n workers and fn(0) on this goroutine, and returns
// once every one is done. fn must not panic (rasterParallel's work
// recovers). n is the same at every call.
func (c *crew) run(n int, fn func(i int)) {
	if !c.started {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.started = true
		c.asleep = make([]atomic.Bool, n)
		c.wake = make([]chan struct{}, n)
		for i := range n {
			c.wake[i] = make(chan struct{}, 1)
			c.live.Add(1)
			go c.worker(i, c.gen.Load())
		}
	}
	c.fn = fn
	c.left.Store(int32(n))
	c.gen.Add(1)
	for i := range n {
		if c.asleep[i].CompareAndSwap(true, false) {
			c.wake[i] <- struct{}{}
		}
	}
	fn(0)
	for spin := 0; c.left.Load() != 0 && spin < crewSpin; spin++ {
		runtime.Gosched()
	}
	if c.left.Load() != 0 {
		c.parks.Add(1)
	}
	<-c.fin
	c.fn = nil // (a worker reads fn only after gen moves)
}

// worker is worker i (lane i+1 of rasterParallel), started after round
// seen.
func (c *crew) worker(i int, seen uint64) {
	defer c.live.Add(-1)
	for {
		g := c.gen.Load()
		for spin := 0; g == seen && spin < crewSpin; spin++ {
			runtime.Gosched()
			g = c.gen.Load()
		}
		if g == seen {
			c.parks.Add(1)
			c.asleep[i].Store(true)
			if g = c.gen.Load(); g == seen || !c.asleep[i].CompareAndSwap(true, false) {
				<-c.wake[i] // the round's start took asleep[i] back and sends
				g = c.gen.Load()
			}
		}
		seen = g
		if c.quit.Load() {
			return
		}
		c.fn(i + 1)
		if c.left.Add(-1) == 0 {
			c.fin <- struct{}{}
		}
	}
}

// stop ends the workers (the GPU was collected: no round runs).
func (c *crew) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started {
		return
	}
	c.quit.Store(true)
	c.gen.Add(1)
	for i := range c.asleep {
		if c.asleep[i].CompareAndSwap(true, false) {
			c.wake[i] <- struct{}{}
		}
	}
}
