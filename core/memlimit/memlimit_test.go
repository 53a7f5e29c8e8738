package memlimit

import (
	"fmt"
	"testing"
)

type fakeTB struct{ failed string }

func (f *fakeTB) Helper()                           {}
func (f *fakeTB) Fatalf(format string, args ...any) { f.failed = fmt.Sprintf(format, args...) }

var sink [][]byte

func TestCheck(t *testing.T) {
	var ok fakeTB
	Check(&ok, 8<<20, "a small input", func() { sink = append(sink[:0], make([]byte, 1<<20)) })
	if ok.failed != "" {
		t.Errorf("1 MiB under an 8 MiB ceiling failed: %s", ok.failed)
	}
	var bad fakeTB
	Check(&bad, 8<<20, "a greedy input", func() {
		for i := 0; i < 16; i++ {
			sink = append(sink, make([]byte, 1<<20))
		}
	})
	if bad.failed == "" {
		t.Error("16 MiB under an 8 MiB ceiling passed")
	}
	sink = nil
}

func TestReadings(t *testing.T) {
	a := Allocated()
	sink = append(sink, make([]byte, 4<<20))
	if Allocated()-a < 4<<20 {
		t.Errorf("Allocated did not see a 4 MiB allocation")
	}
	if HeapObjects() == 0 {
		t.Error("HeapObjects is 0")
	}
	sink = nil
}
