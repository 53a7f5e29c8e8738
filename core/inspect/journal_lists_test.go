package inspect

import (
	"testing"

	"d3dsim/core/machine"
)

// TestCallListKeepsEveryCall fills a callList past several chunks and
// reads every call back, at each boundary of a chunk too.
func TestCallListKeepsEveryCall(t *testing.T) {
	for _, n := range []int{0, 1, callChunk - 1, callChunk, callChunk + 1, 3*callChunk + 17} {
		var l callList
		for i := range n {
			l.add(callRec{seq: uint64(i) + 1, line: int32(i)})
		}
		if l.n != n {
			t.Fatalf("%d calls added: n = %d", n, l.n)
		}
		for i := range n {
			if c := l.at(i); c.seq != uint64(i)+1 || c.line != int32(i) {
				t.Fatalf("%d calls: call %d is seq %d line %d", n, i, c.seq, c.line)
			}
		}
		// Only the first chunk grows by append; the others are whole.
		for k := 1; k < len(l.chunks); k++ {
			if cap(l.chunks[k]) != callChunk {
				t.Errorf("%d calls: chunk %d has capacity %d, want %d", n, k, cap(l.chunks[k]), callChunk)
			}
		}
	}
}

// TestDrawChargesByWord logs draws' charges in the GPU's order and out of
// it (a buffer run again) and reads each back by its DMA buffer and word.
func TestDrawChargesByWord(t *testing.T) {
	j := &Journal{charges: map[uint64]*dmaCharges{}}
	c := func(n uint64) machine.DrawCharge { return machine.DrawCharge{Shaded: n, Passed: n + 1, Instrs: n + 2} }
	for w := 4; w < 400; w += 4 {
		j.logDraw(7, w, c(uint64(w)))
		j.logDraw(9, w+1, c(uint64(w)+1000))
	}
	j.logDraw(7, 8, c(5))  // again: replaced
	j.logDraw(7, 6, c(6))  // between two: inserted
	j.logDraw(7, 1, c(77)) // before all
	want := map[[2]int]uint64{{7, 4}: 4, {7, 8}: 5, {7, 6}: 6, {7, 1}: 77, {7, 396}: 396, {9, 5}: 1004, {9, 397}: 1396}
	for k, n := range want {
		got, ok := j.charge(uint64(k[0]), k[1])
		if !ok || got != c(n) {
			t.Errorf("charge(%d, %d) = %+v, %v; want %+v", k[0], k[1], got, ok, c(n))
		}
	}
	for _, k := range [][2]int{{7, 5}, {7, 400}, {9, 4}, {8, 4}} {
		if got, ok := j.charge(uint64(k[0]), k[1]); ok {
			t.Errorf("charge(%d, %d) = %+v, want none", k[0], k[1], got)
		}
	}
	if j.nCharges != 2*99+2 {
		t.Errorf("%d charges kept, want %d", j.nCharges, 2*99+2)
	}
}
