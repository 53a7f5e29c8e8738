package main

import "testing"

// TestBenchOOO: the out-of-order bench scene runs clean both ways, gives the
// same frame, and two engines finish its two independent chains in clearly
// less virtual GPU time than one engine in order (virtual time is
// deterministic, so the bound is not a timing assertion).
func TestBenchOOO(t *testing.T) {
	inOrder, ooo, err := benchOOO(20)
	if err != nil {
		t.Fatal(err)
	}
	if s := float64(inOrder) / float64(ooo); s < 1.5 {
		t.Errorf("speed-up %.2f (in order %d ns, out of order %d ns), want at least 1.5 with two independent chains on two engines", s, inOrder, ooo)
	}
}
