package tess

// triDomain tessellates a triangle patch: edge factors for u=0, v=0, w=0.
func (t *tessellator) triDomain(e0, e1, e2, inside float32) {
	edges, ins := []float32{e0, e1, e2}, []float32{inside}
	edgeOdd, inOdd, edgeFx, inFx, culled := t.process(edges, ins)
	if culled {
		return
	}
	if t.allOnes(edgeFx, inFx) {
		t.point(0, fxOne) // v=1: the start of edge u=0
		t.point(0, 0)     // w=1: the start of edge v=0
		t.point(fxOne, 0) // u=1: the start of edge w=0
		t.finishMinimal(func() { t.tri(0, 1, 2) })
		return
	}
	var outer [3]edgeSpec
	for i := range outer {
		outer[i] = newEdgeSpec(edgeFx[i], edgeOdd[i])
	}
	in := newEdgeSpec(inFx[0], inOdd[0])
	in.points = minPointsInside(in.points, in.odd)

	// The outer ring, clockwise from v=1 along u=0, then v=0, then w=0;
	// each edge's last point is the next one's first.
	for edge := range 3 {
		e := &outer[edge]
		last := e.points - 1
		for p := range last {
			q := p
			if edge != 1 { // edges u=0 and w=0 run their parameter downwards
				q = last - p
			}
			x := e.place(q)
			switch edge {
			case 0:
				t.point(0, x)
			case 1:
				t.point(x, 0)
			default:
				t.point(x, fxOne-x)
			}
		}
	}
	insideBase := len(t.points)

	// Inner rings, spiralling in. A ring's edge sits at the inside
	// factor's point `ring` from the outer edge, scaled by 2/3 into
	// barycentric space; along it, the parameters are pushed in by half
	// that distance.
	rings := in.points >> 1
	for ring := 1; ring < rings; ring++ {
		start, end := ring, in.points-1-ring
		perp := in.place(start) * fxTwoThirds
		perp = (perp + fxHalf) >> fxBits
		shift := (perp + 1) / 2
		for edge := range 3 {
			for p := start; p < end; p++ {
				q := p
				if edge != 1 {
					q = end - (p - start)
				}
				x := in.place(q)
				switch edge {
				case 0:
					t.point(perp, x-shift)
				case 1:
					t.point(x-shift, perp)
				default:
					t.point(x-shift, fxOne-(x-shift)-perp)
				}
			}
		}
	}
	if !in.odd {
		t.point(fxOneThird, fxOneThird) // the centre
	}
	if t.out == OutPoint {
		t.allPoints()
		return
	}
	t.triConnect(outer, in, insideBase)
}

func (t *tessellator) finishMinimal(tris func()) {
	if t.out == OutPoint {
		t.allPoints()
		return
	}
	tris()
}

func (t *tessellator) triConnect(outer [3]edgeSpec, in edgeSpec, insideBase int) {
	rings := (in.points + 1) >> 1 // an even factor's centre point counts
	var outPts [3]int
	var outSpec [3]*edgeSpec
	for i := range outer {
		outPts[i] = outer[i].points
		outSpec[i] = &outer[i]
	}
	inBase, outBase := insideBase, 0
	for ring := 1; ring < rings; ring++ {
		inPts := in.points - 2*ring
		ring0In, ring0Out := inBase, outBase
		for edge := range 3 {
			iBase, oBase := inBase, outBase
			if edge == 2 {
				// The last edge wraps to the ring's first points.
				t.wrap = wrapRemap{
					on:      true,
					inDelta: inBase, inBad: inPts - 1, inRepl: ring0In,
					outBase: inPts,
				}
				t.wrap.outDelta = outBase - t.wrap.outBase
				t.wrap.outBad = t.wrap.outBase + outPts[edge] - 1
				t.wrap.outRepl = ring0Out
				iBase, oBase = 0, t.wrap.outBase
			}
			if ring == 1 {
				t.stitchTransition(iBase, in.halfPts, in.odd, oBase, outSpec[edge].halfPts, outSpec[edge].odd)
			} else {
				t.stitchRegular(true, diagMirrored, inPts, iBase, oBase)
			}
			t.wrap.on = false
			outBase += outPts[edge] - 1
			inBase += inPts - 1
			outPts[edge] = inPts
		}
		if ring == 1 {
			for i := range outSpec {
				outSpec[i] = &in
			}
		}
	}
	if in.odd {
		t.tri(outBase, outBase+1, outBase+2) // the centre triangle
	}
}
