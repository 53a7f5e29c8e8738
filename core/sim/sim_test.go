package sim

import (
	"reflect"
	"testing"
)

func TestEventsRunInTimeOrderOnTheirThreads(t *testing.T) {
	s := New(1)
	var got []string
	rec := func(name string) func() {
		return func() { got = append(got, name+"@"+s.Thread()+":"+itoa(s.Now())) }
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

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
