package xsync

import (
	"runtime"
	"sync"
	"testing"
)

// TestMutexExcludes: goroutines that yield and block inside the lock never
// find another one inside it, and every one gets it in the end (natively
// this is sync.Mutex; under WebAssembly, GOOS=js go test, the waiters'
// channel).
func TestMutexExcludes(t *testing.T) {
	var m Mutex
	inside, total := 0, 0
	var wg sync.WaitGroup
	block := make(chan struct{})
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				m.Lock()
				inside++
				if inside != 1 {
					t.Errorf("goroutine %d, round %d: %d goroutines inside the lock", g, i, inside)
				}
				runtime.Gosched() // the others run and must wait
				if g == 0 && i == 0 {
					<-block // the holder blocks: the others wait on the lock, not spin
				}
				total++
				inside--
				m.Unlock()
			}
		}()
	}
	runtime.Gosched()
	close(block)
	wg.Wait()
	if total != 8*50 {
		t.Fatalf("%d rounds made, want %d", total, 8*50)
	}
}

// TestTryLock: TryLock takes a free lock only.
func TestTryLock(t *testing.T) {
	var m Mutex
	if !m.TryLock() {
		t.Fatal("TryLock of a free Mutex failed")
	}
	if m.TryLock() {
		t.Fatal("TryLock of a held Mutex succeeded")
	}
	m.Unlock()
	m.Lock()
	m.Unlock()
}

// TestAtomics: Int64, Int32, Uint64, Bool and Pointer keep sync/atomic's
// results.
func TestAtomics(t *testing.T) {
	var x Int64
	x.Store(5)
	if got := x.Add(3); got != 8 || x.Load() != 8 {
		t.Fatalf("Add: %d, Load %d, want 8", got, x.Load())
	}
	if old := x.Swap(2); old != 8 || x.Load() != 2 {
		t.Fatalf("Swap: old %d, now %d", old, x.Load())
	}
	if x.CompareAndSwap(3, 4) || !x.CompareAndSwap(2, 4) || x.Load() != 4 {
		t.Fatalf("CompareAndSwap: %d", x.Load())
	}
	var p Pointer[int]
	a, b := new(int), new(int)
	if p.Load() != nil {
		t.Fatal("zero Pointer not nil")
	}
	p.Store(a)
	if p.Swap(b) != a || p.Load() != b || p.CompareAndSwap(a, a) || !p.CompareAndSwap(b, a) || p.Load() != a {
		t.Fatal("Pointer's Swap or CompareAndSwap")
	}
	var i Int32
	i.Store(5)
	if got := i.Add(-6); got != -1 || i.Swap(7) != -1 || i.CompareAndSwap(1, 2) || !i.CompareAndSwap(7, 9) || i.Load() != 9 {
		t.Fatalf("Int32: %d", i.Load())
	}
	var u Uint64
	u.Store(1 << 40)
	if got := u.Add(1); got != 1<<40+1 || u.Swap(3) != 1<<40+1 || u.CompareAndSwap(4, 5) || !u.CompareAndSwap(3, 6) || u.Load() != 6 {
		t.Fatalf("Uint64: %d", u.Load())
	}
	var f Bool
	if f.Load() || f.Swap(true) || !f.Load() || f.CompareAndSwap(false, false) || !f.CompareAndSwap(true, false) || f.Load() {
		t.Fatal("Bool's Swap or CompareAndSwap")
	}
	f.Store(true)
	if !f.Load() {
		t.Fatal("Bool's Store")
	}
}
