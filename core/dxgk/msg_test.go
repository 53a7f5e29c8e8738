package dxgk

import (
	"fmt"
	"math"
	"testing"
)

// TestMessagesAsSprintf: the messages built with strconv (msg.go) are the
// fmt formats they replace, at the edges of every number.
func TestMessagesAsSprintf(t *testing.T) {
	u64 := []uint64{0, 1, 9, 10, 0xff, 0x1_0000_0000, math.MaxUint64}
	ints := []int{0, 1, -1, 42, math.MaxInt, math.MinInt}
	strs := []string{"", "vb", "an idle instance from its renaming list", "x (y): %d"}
	for i, e := range ints {
		for j, v := range u64 {
			if got, want := patchMsg(e, v), fmt.Sprintf("engine %d, submission fence %d", e, v); got != want {
				t.Errorf("patchMsg = %q, want %q", got, want)
			}
			n, note := ints[(i+j)%len(ints)], strs[(i+j)%len(strs)]
			if got, want := submitMsg(e, v, n, note), fmt.Sprintf("engine %d, submission fence %d, %d words%s", e, v, n, note); got != want {
				t.Errorf("submitMsg = %q, want %q", got, want)
			}
			w := u64[(i+2*j)%len(u64)]
			h, toH, ctx := HAllocation(v), HAllocation(w), HContext(uint64(e))
			obj, how := strs[j%len(strs)], strs[i%len(strs)]
			got := renameMsg(h, obj, w, v, ctx, how, v, toH, e)
			want := fmt.Sprintf("rename %v (%s): the instance at %#x stays with fence %d of %v; the lock gets %s at %#x, handle %v (renaming list: %d)",
				h, obj, w, v, ctx, how, v, toH, e)
			if got != want {
				t.Errorf("renameMsg = %q, want %q", got, want)
			}
		}
	}
}
