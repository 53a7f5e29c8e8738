package gpu

import (
	"math/big"
	"math/rand"
	"testing"
)

// refLineLit is the diamond-exit rule of Direct3D 11's aliased lines, slow
// and exact (rational arithmetic): pixel (px, py) is lit by the segment
// (x0, y0)-(x1, y1) (24.8 fixed point) when the segment meets the pixel's
// diamond and its end is not inside it.
func refLineLit(x0, y0, x1, y1 int64, px, py int) bool {
	yMajor := abs(y1-y0) > abs(x1-x0)
	r := func(v int64) *big.Rat { return big.NewRat(v, 1<<subBits) }
	cx, cy := big.NewRat(2*int64(px)+1, 2), big.NewRat(2*int64(py)+1, 2)
	halfR := big.NewRat(1, 2)
	X0, Y0, X1, Y1 := r(x0), r(y0), r(x1), r(y1)
	at := func(t *big.Rat) (x, y *big.Rat) {
		x = new(big.Rat).Add(X0, new(big.Rat).Mul(t, new(big.Rat).Sub(X1, X0)))
		y = new(big.Rat).Add(Y0, new(big.Rat).Mul(t, new(big.Rat).Sub(Y1, Y0)))
		return
	}
	dist := func(x, y *big.Rat) *big.Rat {
		dx := new(big.Rat).Sub(x, cx)
		dy := new(big.Rat).Sub(y, cy)
		return new(big.Rat).Add(dx.Abs(dx), dy.Abs(dy))
	}
	contains := func(x, y *big.Rat) bool {
		switch dist(x, y).Cmp(halfR) {
		case -1:
			return true
		case 1:
			return false
		}
		switch {
		case x.Cmp(cx) == 0:
			return y.Cmp(cy) > 0 // bottom corner in, top corner out
		case y.Cmp(cy) == 0:
			return yMajor && x.Cmp(cx) > 0 // right corner: y-major only
		}
		return y.Cmp(cy) > 0 // lower edges in, upper edges out
	}
	if contains(X1, Y1) {
		return false
	}
	// The distance along the segment is convex, piecewise linear: its
	// minimum is at an end or where x or y crosses the centre.
	ts := []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 1)}
	for _, c := range [][3]*big.Rat{{X0, X1, cx}, {Y0, Y1, cy}} {
		d := new(big.Rat).Sub(c[1], c[0])
		if d.Sign() != 0 {
			t := new(big.Rat).Quo(new(big.Rat).Sub(c[2], c[0]), d)
			if t.Sign() > 0 && t.Cmp(big.NewRat(1, 1)) < 0 {
				ts = append(ts, t)
			}
		}
	}
	var onBoundary []*big.Rat
	for _, t := range ts {
		x, y := at(t)
		switch dist(x, y).Cmp(halfR) {
		case -1:
			return true
		case 0:
			if contains(x, y) {
				return true
			}
			onBoundary = append(onBoundary, t)
		}
	}
	// Along an edge: the points between two boundary points.
	for i := range onBoundary {
		for j := i + 1; j < len(onBoundary); j++ {
			m := new(big.Rat).Mul(new(big.Rat).Add(onBoundary[i], onBoundary[j]), halfR)
			if x, y := at(m); dist(x, y).Cmp(halfR) == 0 && contains(x, y) {
				return true
			}
		}
	}
	return false
}

// TestLineWalkMatchesReference: lineWalk lights exactly the pixels of the
// slow reference, for random lines of every slope, with endpoints anywhere
// on the subpixel grid and on coarse grids (pixel centres, corners, halves
// and quarters), where the rule's ties are.
func TestLineWalkMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	const w, h = 10, 10
	coord := func(grid int64) int64 {
		v := rng.Int63n((w + 4) << subBits)
		return v/grid*grid - 2<<subBits
	}
	n := 1000
	if testing.Short() {
		n = 100 // make race
	}
	for i := 0; i < n; i++ {
		grid := []int64{1, 32, 64, 128, 256}[i%5]
		x0, y0, x1, y1 := coord(grid), coord(grid), coord(grid), coord(grid)
		if i%7 == 0 { // axis-aligned and diagonal lines
			switch i % 3 {
			case 0:
				y1 = y0
			case 1:
				x1 = x0
			default:
				y1 = y0 + (x1 - x0)
			}
		}
		if x0 == x1 && y0 == y1 {
			continue
		}
		got := map[[2]int]bool{}
		if abs(x1-x0) >= abs(y1-y0) {
			lineWalk(x0, y0, x1, y1, 0, w, 0, h, false, func(pa, pb int, _ float64) { got[[2]int{pa, pb}] = true })
		} else {
			lineWalk(y0, x0, y1, x1, 0, h, 0, w, true, func(pa, pb int, _ float64) { got[[2]int{pb, pa}] = true })
		}
		for py := 0; py < h; py++ {
			for px := 0; px < w; px++ {
				if want := refLineLit(x0, y0, x1, y1, px, py); got[[2]int{px, py}] != want {
					t.Fatalf("line (%d, %d)-(%d, %d) /256: pixel (%d, %d) lit %v, want %v", x0, y0, x1, y1, px, py, got[[2]int{px, py}], want)
				}
			}
		}
	}
}
