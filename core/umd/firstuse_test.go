package umd

import "testing"

// TestFirstUse: keys numbered in first-use order, found by the scan and,
// past firstUseScan, by the map, and forgotten by reset; against a map.
func TestFirstUse(t *testing.T) {
	var f firstUse[uint64]
	for _, n := range []int{0, 1, firstUseScan, firstUseScan + 1, 3 * firstUseScan, 2} {
		want := map[uint64]int{}
		for i := range 2 * n {
			k := uint64(i*7919%(n+1)) + 100 // repeats among the keys
			if _, ok := want[k]; !ok {
				want[k] = len(want)
				if got := f.add(k); got != want[k] {
					t.Fatalf("n=%d: add(%d) = %d, want %d", n, k, got, want[k])
				}
			}
			if got, ok := f.index(k); !ok || got != want[k] {
				t.Fatalf("n=%d: index(%d) = %d, %v, want %d", n, k, got, ok, want[k])
			}
		}
		for k := range uint64(100 + n + 2) {
			w, in := want[k]
			if got, ok := f.index(k); ok != in || got != w {
				t.Fatalf("n=%d: index(%d) = %d, %v, want %d, %v", n, k, got, ok, w, in)
			}
		}
		if len(f.keys) != len(want) || (f.m != nil) != (len(want) > firstUseScan) {
			t.Fatalf("n=%d: %d keys, map %v", n, len(f.keys), f.m != nil)
		}
		f.reset()
		if _, ok := f.index(100); ok || len(f.keys) != 0 || f.m != nil {
			t.Fatalf("n=%d: a key outlived reset", n)
		}
	}
}
