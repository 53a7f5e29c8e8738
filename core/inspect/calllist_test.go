package inspect

import "testing"

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
