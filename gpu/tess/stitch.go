package tess

// rulerPosition is where the point split in i-th ends up on a half edge of
// the largest factor: the ruler function's order, the order in which
// halving every segment again and again adds points (0, 32, 16, 8, 17, 4,
// ...). Stitching two rows of different factors walks both rows in this
// order, so the triangles between them depend only on the two factors.
func rulerPosition(i int) int {
	if i == 0 {
		return 0
	}
	y := i - 1
	for base := 16; base >= 1; base /= 2 {
		if y%2 == 1 {
			return base + (y-1)/2
		}
		y /= 2
	}
	return 32
}

const rulerLen = 33

var rulerOrder = func() (r [rulerLen]int) {
	for i := range r {
		r[i] = rulerPosition(i)
	}
	return r
}()

// diagonals is how stitchRegular cuts the quads between two rows.
type diagonals uint8

const (
	diagInsideToOutside diagonals = iota
	diagInsideToOutsideExceptMiddle
	diagMirrored
)

// stitchRegular joins an inside row of n points to an outside row that
// has the same number (a strip), or two more (a trapezoid: a triangle at
// each end).
func (t *tessellator) stitchRegular(trapezoid bool, diag diagonals, n, in, out int) {
	if trapezoid {
		t.tri(out, out+1, in)
		out++
	}
	p := 0
	switch diag {
	case diagInsideToOutside:
		for ; p < n-1; p++ {
			t.tri(in, out, out+1)
			t.tri(in, out+1, in+1)
			in++
			out++
		}
	case diagInsideToOutsideExceptMiddle:
		for ; p < n/2-1; p++ {
			t.tri(out, out+1, in)
			t.tri(in, out+1, in+1)
			in++
			out++
		}
		t.tri(out, in+1, in)
		t.tri(out, out+1, in+1)
		in++
		out++
		p += 2
		for ; p < n; p++ {
			t.tri(out, out+1, in)
			t.tri(in, out+1, in+1)
			in++
			out++
		}
	case diagMirrored:
		for ; p < n/2; p++ {
			t.tri(out, in+1, in)
			t.tri(out, out+1, in+1)
			in++
			out++
		}
		for ; p < n-1; p++ {
			t.tri(in, out, out+1)
			t.tri(in, out+1, in+1)
			in++
			out++
		}
	}
	if trapezoid {
		t.tri(out, out+1, in)
	}
}

// stitchTransition joins the outer ring's edge (its own factor) to the
// first inner ring's edge (the inside factor), one half edge at a time in
// ruler order, with a quad or a triangle in the middle as the parities
// require.
func (t *tessellator) stitchTransition(in int, inHalf int, inOdd bool, out int, outHalf int, outOdd bool) {
	if inOdd {
		inHalf--
	}
	if outOdd {
		outHalf--
	}
	advanceOut := func() {
		t.tri(out, out+1, in)
		out++
	}
	advanceIn := func() {
		t.tri(in, out, in+1)
		in++
	}
	// First half: position 0 on the outside only, then both rows.
	if rulerOrder[0] < outHalf {
		advanceOut()
	}
	for i := 1; i < rulerLen; i++ {
		if rulerOrder[i] < inHalf {
			advanceIn()
		}
		if rulerOrder[i] < outHalf {
			advanceOut()
		}
	}
	// The middle.
	if inOdd != outOdd || inOdd {
		switch {
		case inOdd == outOdd: // a quad
			t.tri(in, out, in+1)
			t.tri(in+1, out, out+1)
			in++
			out++
		case !inOdd: // a triangle pointing inside
			t.tri(in, out, out+1)
			out++
		default: // a triangle pointing outside
			t.tri(in, out, in+1)
			in++
		}
	}
	// Second half, the mirror of the first.
	for i := rulerLen - 1; i >= 1; i-- {
		if rulerOrder[i] < outHalf {
			advanceOut()
		}
		if rulerOrder[i] < inHalf {
			advanceIn()
		}
	}
	if rulerOrder[0] < outHalf {
		advanceOut()
	}
}
