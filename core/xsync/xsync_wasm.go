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

// Int64, Int32, Uint64 and Bool are values that goroutines share, with
// sync/atomic's methods for them.
type (
	Int64  = integer[int64]
	Int32  = integer[int32]
	Uint64 = integer[uint64]
	Bool   = value[bool]
)

// value is a T that goroutines share (Load, Store, Swap, CompareAndSwap).
type value[T comparable] struct {
	v T
}

// Load returns the value.
func (x *value[T]) Load() T { return x.v }

// Store sets the value.
func (x *value[T]) Store(v T) { x.v = v }

// Swap sets the value and returns the old one.
func (x *value[T]) Swap(v T) T {
	old := x.v
	x.v = v
	return old
}

// CompareAndSwap sets the value to new if it is old, and reports whether
// it did.
func (x *value[T]) CompareAndSwap(old, new T) bool {
	if x.v != old {
		return false
	}
	x.v = new
	return true
}

// integer is a value with Add.
type integer[T int32 | int64 | uint64] struct {
	value[T]
}

// Add adds delta and returns the new value.
func (x *integer[T]) Add(delta T) T {
	x.v += delta
	return x.v
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
