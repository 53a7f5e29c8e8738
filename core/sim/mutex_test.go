package sim

import (
	"reflect"
	"testing"
)

// TestMutexParksAnInnerThread: a thread run inside another (on its own
// goroutine, one at a time) that wants a lock the outer one holds parks
// until the outer one releases it, and resumes at the release's time.
func TestMutexParksAnInnerThread(t *testing.T) {
	s := New(1)
	var log []string
	m := &Mutex{Sim: s, OnBlock: func(holder string, done bool) {
		log = append(log, map[bool]string{false: "block:", true: "got:"}[done]+s.Thread()+"<"+holder)
	}}
	step, resume := make(chan bool), make(chan struct{})
	s.SetBlocking(func() bool {
		if s.Thread() != "b" {
			return false
		}
		step <- true
		<-resume
		return true
	}, func(th string) {
		prev := s.Switch(th)
		resume <- struct{}{}
		<-step
		s.Switch(prev)
	})

	m.Lock() // main holds it
	s.Charge(100)
	s.Switch("b")
	go func() {
		m.Lock()
		log = append(log, "b runs at "+itoa(s.Now()))
		m.Unlock()
		step <- false
	}()
	if parked := <-step; !parked {
		t.Fatal("b did not park")
	}
	s.Switch("main")
	log = append(log, "main goes on")
	s.Charge(50)
	m.Unlock()
	want := []string{"block:b<main", "main goes on", "got:b<main", "b runs at 150"}
	if !reflect.DeepEqual(log, want) {
		t.Fatalf("got %q, want %q", log, want)
	}
	if h := m.Holder(); h != "" {
		t.Fatalf("still held by %q", h)
	}
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestMutexReentrant: the holder may take it again; it is free after as
// many Unlocks.
func TestMutexReentrant(t *testing.T) {
	s := New(1)
	m := &Mutex{Sim: s}
	m.Lock()
	m.Lock()
	m.Unlock()
	if m.Holder() != "main" {
		t.Fatal("released by the inner Unlock")
	}
	m.Unlock()
	if m.Holder() != "" {
		t.Fatalf("held by %q after both Unlocks", m.Holder())
	}
	m.Lock() // free again
	m.Unlock()
}
