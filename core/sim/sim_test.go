package sim

import (
	"reflect"
	"strconv"
	"testing"
)

func TestEventsRunInTimeOrderOnTheirThreads(t *testing.T) {
	s := New(1)
	var got []string
	rec := func(name string) func() {
		return func() { got = append(got, name+"@"+s.Thread()+":"+strconv.FormatInt(s.Now(), 10)) }
	}
	s.Schedule(300, "gpu0", rec("c"))
	s.Schedule(100, "gpu0", rec("a"))
	s.Schedule(100, "isr", rec("b")) // same time: scheduling order
	s.Charge(200)
	s.Poll() // runs a and b (due at 100 <= 200), not c
	if want := []string{"a@gpu0:100", "b@isr:100"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after Poll: %v, want %v", got, want)
	}
	if s.Thread() != "main" || s.Now() != 200 {
		t.Fatalf("main thread disturbed: %s at %d", s.Thread(), s.Now())
	}
	done := false
	s.Schedule(350, "dpc", func() { done = true })
	if !s.RunUntil(func() bool { return done }) {
		t.Fatal("RunUntil returned false")
	}
	if s.Now() != 350 {
		t.Fatalf("main waited until %d, want 350", s.Now())
	}
	if got[len(got)-1] != "c@gpu0:300" {
		t.Fatalf("c did not run: %v", got)
	}
}

func TestSeededChoicesRepeat(t *testing.T) {
	draw := func(seed uint64) []int {
		s := New(seed)
		var out []int
		for range 20 {
			out = append(out, s.Intn(7))
		}
		return out
	}
	if !reflect.DeepEqual(draw(5), draw(5)) {
		t.Fatal("same seed, different choices")
	}
	if reflect.DeepEqual(draw(5), draw(6)) {
		t.Fatal("different seeds, same 20 choices")
	}
}

func TestNewThreadStartsAtItsCreatorsTime(t *testing.T) {
	s := New(1)
	s.Charge(500)
	prev := s.Switch("worker")
	if prev != "main" || s.Now() != 500 {
		t.Fatalf("worker starts at %d after %s", s.Now(), prev)
	}
	s.Charge(10)
	s.Switch("main")
	if s.Now() != 500 || s.ThreadTime("worker") != 510 {
		t.Fatal("clocks are not per thread")
	}
}

// TestStartedThreadBeginsAtItsStarter: a thread registered with Start
// begins at the starter's time, whichever thread runs just before it; one
// never started begins at the previous running thread's time.
func TestStartedThreadBeginsAtItsStarter(t *testing.T) {
	s := New(1)
	s.Switch("idle") // a thread that does nothing: stays at 0
	s.Switch("main")
	s.Charge(5000)
	s.Start("worker")
	s.Switch("idle")
	s.Switch("worker")
	if got := s.Now(); got != 5000 {
		t.Fatalf("worker starts at %d, want its starter's 5000", got)
	}
	s.Charge(100)
	s.Switch("main")
	s.Start("worker") // started again later: its clock never goes back
	s.Switch("worker")
	if got := s.Now(); got != 5100 {
		t.Fatalf("worker at %d after a second Start, want 5100", got)
	}
	s.Switch("idle")
	s.Switch("other")
	if got := s.Now(); got != 0 {
		t.Fatalf("an unstarted thread begins at %d, want idle's 0", got)
	}
}

// TestPollCharge: PollCharge is Poll then Charge — due events run first, at
// their own times, and the charge lands on the running thread afterwards.
func TestPollCharge(t *testing.T) {
	s := New(1)
	s.Charge(10)
	var ran []int64
	s.Schedule(5, "gpu0", func() { ran = append(ran, s.Now()) })
	s.Schedule(20, "gpu0", func() { ran = append(ran, s.Now()) })
	s.PollCharge(3)
	if len(ran) != 1 || ran[0] != 5 {
		t.Fatalf("events run %v, want the one due at 5", ran)
	}
	if now := s.Now(); now != 13 {
		t.Fatalf("now %d after PollCharge(3) at 10, want 13", now)
	}
	s.PollCharge(10) // nothing due at 13: charged at once
	if now := s.Now(); now != 23 || len(ran) != 1 {
		t.Fatalf("now %d, events %v; want 23 and the event at 20 still queued", now, ran)
	}
	s.PollCharge(0)
	if len(ran) != 2 || ran[1] != 20 {
		t.Fatalf("events run %v, want the one at 20 now", ran)
	}
}
