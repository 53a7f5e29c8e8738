//go:build wasm

package xsync

// Mutex is a mutual exclusion lock (sync.Mutex's contract: the zero value
// is unlocked, it must not be copied after first use, and Unlock of an
// unlocked Mutex panics). Uncontended, Lock and Unlock are a load
// and a store. A goroutine that finds it held waits on a channel until the
// holder's Unlock wakes every waiter; one of them takes it, the others wait
// again (contention is rare here: a holder that blocks, such as a draw the
// page suspends between slices).
type Mutex struct {
	held bool
	wait chan struct{} // closed by Unlock: made by the first waiter
}

// Lock locks m, waiting while another goroutine holds it.
func (m *Mutex) Lock() {
	if !m.held {
		m.held = true
		return
	}
	m.lockSlow()
}

func (m *Mutex) lockSlow() {
	for m.held {
		if m.wait == nil {
			m.wait = make(chan struct{})
		}
		<-m.wait
	}
	m.held = true
}

// TryLock locks m if it is free and reports whether it did.
func (m *Mutex) TryLock() bool {
	if m.held {
		return false
	}
	m.held = true
	return true
}

// Unlock unlocks m and wakes the goroutines waiting for it.
func (m *Mutex) Unlock() {
	if !m.held {
		panic("xsync: unlock of unlocked mutex")
	}
	m.held = false
	if w := m.wait; w != nil {
		m.wait = nil
		close(w)
	}
}

// Int64 is an int64 that goroutines share (atomic.Int64's methods).
type Int64 struct {
	v int64
}

// Load returns the value.
func (x *Int64) Load() int64 { return x.v }

// Store sets the value.
func (x *Int64) Store(v int64) { x.v = v }

// Add adds delta and returns the new value.
func (x *Int64) Add(delta int64) int64 {
	x.v += delta
	return x.v
}

// Swap sets the value and returns the old one.
func (x *Int64) Swap(v int64) int64 {
	old := x.v
	x.v = v
	return old
}

// CompareAndSwap sets the value to new if it is old, and reports whether
// it did.
func (x *Int64) CompareAndSwap(old, new int64) bool {
	if x.v != old {
		return false
	}
	x.v = new
	return true
}

// Pointer is a *T that goroutines share (atomic.Pointer's methods).
type Pointer[T any] struct {
	_ [0]*T
	p *T
}

// Load returns the pointer.
func (x *Pointer[T]) Load() *T { return x.p }

// Store sets the pointer.
func (x *Pointer[T]) Store(p *T) { x.p = p }

// Swap sets the pointer and returns the old one.
func (x *Pointer[T]) Swap(p *T) *T {
	old := x.p
	x.p = p
	return old
}

// CompareAndSwap sets the pointer to new if it is old, and reports whether
// it did.
func (x *Pointer[T]) CompareAndSwap(old, new *T) bool {
	if x.p != old {
		return false
	}
	x.p = new
	return true
}

// Int32 is an int32 that goroutines share (atomic.Int32's methods).
type Int32 struct {
	v int32
}

// Load returns the value.
func (x *Int32) Load() int32 { return x.v }

// Store sets the value.
func (x *Int32) Store(v int32) { x.v = v }

// Add adds delta and returns the new value.
func (x *Int32) Add(delta int32) int32 {
	x.v += delta
	return x.v
}

// Swap sets the value and returns the old one.
func (x *Int32) Swap(v int32) int32 {
	old := x.v
	x.v = v
	return old
}

// CompareAndSwap sets the value to new if it is old, and reports whether
// it did.
func (x *Int32) CompareAndSwap(old, new int32) bool {
	if x.v != old {
		return false
	}
	x.v = new
	return true
}

// Uint64 is a uint64 that goroutines share (atomic.Uint64's methods).
type Uint64 struct {
	v uint64
}

// Load returns the value.
func (x *Uint64) Load() uint64 { return x.v }

// Store sets the value.
func (x *Uint64) Store(v uint64) { x.v = v }

// Add adds delta and returns the new value.
func (x *Uint64) Add(delta uint64) uint64 {
	x.v += delta
	return x.v
}

// Swap sets the value and returns the old one.
func (x *Uint64) Swap(v uint64) uint64 {
	old := x.v
	x.v = v
	return old
}

// CompareAndSwap sets the value to new if it is old, and reports whether
// it did.
func (x *Uint64) CompareAndSwap(old, new uint64) bool {
	if x.v != old {
		return false
	}
	x.v = new
	return true
}

// Bool is a bool that goroutines share (atomic.Bool's methods).
type Bool struct {
	v bool
}

// Load returns the value.
func (x *Bool) Load() bool { return x.v }

// Store sets the value.
func (x *Bool) Store(v bool) { x.v = v }

// Swap sets the value and returns the old one.
func (x *Bool) Swap(v bool) bool {
	old := x.v
	x.v = v
	return old
}

// CompareAndSwap sets the value to new if it is old, and reports whether
// it did.
func (x *Bool) CompareAndSwap(old, new bool) bool {
	if x.v != old {
		return false
	}
	x.v = new
	return true
}
