package sim

import "d3dsim/core/xsync"

// Mutex is a lock that simulated threads hold: a driver's lock, such as the
// one that lets one thread at a time call the kernel callbacks of an
// HCONTEXT ("Changes from Direct3D 10").
//
// Between real goroutines it is a sync.Mutex. A scheduler that runs one
// simulated thread inside another (a thread descheduled inside a kernel
// callback while another runs, see SetBlocking) cannot let the inner one
// block on a lock the outer one holds: the outer one could never go on to
// release it. With SetBlocking, the inner thread parks instead — its
// scheduler hands control back to the holder — and the holder's Unlock
// wakes it; the waiter's clock then moves to the release (it waited until
// then). OnBlock, if set, is told when a thread starts and ends such a
// wait, so the wait shows on its lane.
//
// The simulated thread holding it may take it again (a driver entered again
// through a runtime callback, inside a DDI that holds it): it is free once
// every Lock has had its Unlock. Real goroutines that share a simulated
// thread's name are one thread to it: only one simulated thread's calls
// should take it.
type Mutex struct {
	Sim     *Sim
	OnBlock func(holder string, done bool)

	real xsync.Mutex
	// owner is the id of the clock of the simulated thread holding the
	// lock (0 when free), set by the Lock that took real and cleared by the
	// Unlock before it releases real: atomic, so that an uncontended Lock
	// takes no second lock (issue 32's draw rate: every Draw's HCONTEXT),
	// and a number, not a pointer, so that its stores are no calls (a
	// pointer's atomic store has a write barrier).
	owner xsync.Int32
	// slow counts what an Unlock must look at under mu: a Lock on its
	// slow path (from before it looks at the owner until it leaves), a
	// Lock again by the owner (until its Unlock), a parked waiter (until
	// it is woken). At 0 an Unlock only clears the owner and releases
	// real (issue 32's draw rate: every Draw's HCONTEXT, a second lock
	// round trip and the clock's time read for nobody before).
	slow xsync.Int32
	mu   xsync.Mutex // guards the fields below
	// waiters are the parked threads, first come first served.
	depth      int // Locks by the owner beyond the first
	waiters    []string
	releasedAt int64
}

// SetBlocking installs how simulated threads block on a Mutex another
// simulated thread holds: park, called on the blocked thread, hands control
// back to the holder and returns once wake(thread) was called for it, or
// returns false at once if the thread cannot park (it is not one the
// scheduler runs inside another); wake, called by the Unlock of the holder,
// runs the woken thread until it finishes what it was doing or parks again.
func (s *Sim) SetBlocking(park func() bool, wake func(thread string)) {
	s.mu.Lock()
	s.park, s.wake = park, wake
	s.mu.Unlock()
}

func (s *Sim) blocking() (park func() bool, wake func(string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.park, s.wake
}

// Lock takes the lock for the running simulated thread, parking it while
// another simulated thread holds it (see SetBlocking).
func (m *Mutex) Lock() {
	c := m.Sim.cur.Load() // (the running thread: its name is me)
	if m.real.TryLock() {
		m.owner.Store(c.id)
		return
	}
	m.slow.Add(1) // (before the owner is looked at: Unlock)
	me := c.name
	m.mu.Lock()
	holder := m.holder()
	if holder == me {
		m.depth++ // (slow stays counted until the Unlock of this Lock)
		m.mu.Unlock()
		return
	}
	m.mu.Unlock()
	if park, _ := m.Sim.blocking(); park != nil && holder != "" && holder != me {
		m.mu.Lock()
		m.waiters = append(m.waiters, me)
		m.mu.Unlock()
		if m.OnBlock != nil {
			m.OnBlock(holder, false)
		}
		if park() {
			// The holder released the lock before it woke this thread.
			m.real.Lock()
			m.owner.Store(c.id)
			m.mu.Lock()
			at := m.releasedAt
			m.mu.Unlock()
			m.slow.Add(-1)
			m.Sim.AdvanceTo(at)
			if m.OnBlock != nil {
				m.OnBlock(holder, true)
			}
			return
		}
		m.mu.Lock()
		for i, w := range m.waiters {
			if w == me {
				m.waiters = append(m.waiters[:i], m.waiters[i+1:]...)
				break
			}
		}
		m.mu.Unlock()
	}
	m.real.Lock()
	m.owner.Store(c.id)
	m.slow.Add(-1)
}

// holder is the name of the owner's thread ("" when the lock is free).
func (m *Mutex) holder() string { return m.Sim.clockNamed(m.owner.Load()) }

// Unlock releases the lock and runs the first parked waiter, if any, until
// it is done with it.
func (m *Mutex) Unlock() {
	// The owner is cleared before slow is looked at, and a Lock counts
	// itself in slow before it looks at the owner: one of the two sees
	// the other (a Lock that finds no owner waits on real).
	c := m.owner.Swap(0)
	if m.slow.Load() == 0 {
		m.real.Unlock()
		return
	}
	m.unlockSlow(c)
}

// unlockSlow is Unlock when a Lock went its slow way: the owner's Lock
// again (c, the owner's clock id, is put back), or a waiter to wake.
func (m *Mutex) unlockSlow(c int32) {
	m.mu.Lock()
	if m.depth > 0 {
		m.depth--
		m.owner.Store(c)
		m.mu.Unlock()
		m.slow.Add(-1)
		return
	}
	m.releasedAt = m.Sim.Now()
	var next string
	if len(m.waiters) > 0 {
		next = m.waiters[0]
		m.waiters = m.waiters[1:]
	}
	m.mu.Unlock()
	m.real.Unlock()
	if next != "" {
		if _, wake := m.Sim.blocking(); wake != nil {
			wake(next)
		}
	}
}

// Holder is the simulated thread holding the lock ("" when it is free).
func (m *Mutex) Holder() string {
	return m.holder()
}
