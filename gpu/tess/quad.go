package tess

// quadDomain tessellates a quad patch: edge factors for u=0, v=0, u=1,
// v=1 and inside factors for the u and v directions.
func (t *tessellator) quadDomain(e0, e1, e2, e3, insideU, insideV float32) {
	edges, ins := []float32{e0, e1, e2, e3}, []float32{insideU, insideV}
	edgeOdd, inOdd, edgeFx, inFx, culled := t.process(edges, ins)
	if culled {
		return
	}
	if t.allOnes(edgeFx, inFx) {
		t.point(0, 0)
		t.point(fxOne, 0)
		t.point(fxOne, fxOne)
		t.point(0, fxOne)
		t.finishMinimal(func() {
			t.tri(0, 1, 3)
			t.tri(1, 2, 3)
		})
		return
	}
	var outer [4]edgeSpec
	for i := range outer {
		outer[i] = newEdgeSpec(edgeFx[i], edgeOdd[i])
	}
	var in [2]edgeSpec // the u and v directions
	for i := range in {
		in[i] = newEdgeSpec(inFx[i], inOdd[i])
		in[i].points = minPointsInside(in[i].points, in[i].odd)
	}

	// The outer ring, clockwise from (0,0)... : edge u=0 runs v downwards,
	// v=0 runs u upwards, u=1 runs v upwards, v=1 runs u downwards.
	for edge := range 4 {
		e := &outer[edge]
		last := e.points - 1
		for p := range last {
			q := p
			if edge == 0 || edge == 3 {
				q = last - p
			}
			x := e.place(q)
			if edge&1 == 1 {
				v := int64(0)
				if edge == 3 {
					v = fxOne
				}
				t.point(x, v)
			} else {
				u := int64(0)
				if edge == 2 {
					u = fxOne
				}
				t.point(u, x)
			}
		}
	}
	insideBase := len(t.points)

	// Inner rings, clockwise, spiralling towards the centre.
	nu, nv := in[0].points, in[1].points
	rings := min(nu, nv) >> 1
	for ring := 1; ring < rings; ring++ {
		start := ring
		end := [2]int{nu - 1 - start, nv - 1 - start}
		for edge := range 4 {
			across, along := edge&1, (edge+1)&1
			perpPoint := start
			if edge >= 2 {
				perpPoint = end[across]
			}
			perp := in[across].place(perpPoint)
			for p := start; p < end[along]; p++ {
				q := p
				if edge == 0 || edge == 3 {
					q = end[along] - (p - start)
				}
				x := in[along].place(q)
				if along == 1 {
					t.point(perp, x)
				} else {
					t.point(x, perp)
				}
			}
		}
	}
	// An even inside factor leaves a degenerate ring: a row of points.
	switch {
	case nu > nv && !in[1].odd:
		for p := rings; p <= nu-1-rings; p++ {
			t.point(in[0].place(p), fxHalf)
		}
	case nv >= nu && !in[0].odd:
		for p := nv - 1 - rings; p >= rings; p-- {
			t.point(fxHalf, in[1].place(p))
		}
	}
	if t.out == OutPoint {
		t.allPoints()
		return
	}
	t.quadConnect(outer, in, insideBase)
}

func (t *tessellator) quadConnect(outer [4]edgeSpec, in [2]edgeSpec, insideBase int) {
	nu, nv := in[0].points, in[1].points
	toCentre := [2]int{(nu + 1) >> 1, (nv + 1) >> 1} // an even factor's centre row counts
	rings := min(toCentre[0], toCentre[1])
	// The ring where an even inside factor's row of points lies: travelling
	// round it breaks the usual point order.
	degenerate := [2]int{-1, -1}
	if !in[1].odd {
		degenerate[0] = toCentre[1] - 1
	}
	if !in[0].odd {
		degenerate[1] = toCentre[0] - 1
	}
	var outPts [4]int
	var outSpec [4]*edgeSpec
	for i := range outer {
		outPts[i] = outer[i].points
		outSpec[i] = &outer[i]
	}
	inBase, outBase := insideBase, 0
	for ring := 1; ring < rings; ring++ {
		inPts := [2]int{nu - 2*ring, nv - 2*ring}
		ring0In, ring0Out := inBase, outBase
		for edge := range 4 {
			axis := (edge + 1) & 1
			iBase, oBase := inBase, outBase
			switch {
			case edge == 3 && ring == degenerate[axis]:
				base := inBase + 1
				t.mirror = mirrorRemap{on: true, base: base, end: base<<1 - 1,
					bad: outBase + outPts[edge] - 1, badRepl: ring0Out}
				iBase = base
			case edge == 3:
				t.wrap = wrapRemap{
					on:      true,
					inDelta: inBase, inBad: inPts[axis] - 1, inRepl: ring0In,
					outBase: inPts[axis],
				}
				t.wrap.outDelta = outBase - t.wrap.outBase
				t.wrap.outBad = t.wrap.outBase + outPts[edge] - 1
				t.wrap.outRepl = ring0Out
				iBase, oBase = 0, t.wrap.outBase
			case edge == 2 && ring == degenerate[axis]:
				t.mirror = mirrorRemap{on: true, base: inBase, end: inBase << 1, bad: -1, badRepl: -1}
				iBase = inBase
			}
			if ring == 1 {
				t.stitchTransition(iBase, in[axis].halfPts, in[axis].odd, oBase, outSpec[edge].halfPts, outSpec[edge].odd)
			} else {
				t.stitchRegular(true, diagMirrored, inPts[axis], iBase, oBase)
			}
			t.wrap.on, t.mirror.on = false, false
			outBase += outPts[edge] - 1
			if edge == 2 && ring == degenerate[axis] {
				inBase -= inPts[axis] - 1
			} else {
				inBase += inPts[axis] - 1
			}
			outPts[edge] = inPts[axis]
		}
		if ring == 1 {
			for i := range outSpec {
				outSpec[i] = &in[i&1]
			}
		}
	}

	// The centre: a strip of quads when the smaller inside factor is odd.
	switch {
	case nu > nv && in[1].odd:
		quads := ((nu>>1)-(nv>>1))<<1 + 1
		if !in[0].odd {
			quads++
		}
		base := outBase + quads + 2
		t.mirror = mirrorRemap{on: true, base: base, end: base + base + quads, bad: base, badRepl: outBase}
		t.stitchRegular(false, diagInsideToOutside, quads+1, base, outBase+1)
		t.mirror.on = false
	case nv >= nu && in[0].odd:
		quads := ((nv>>1)-(nu>>1))<<1 + 1
		if !in[1].odd {
			quads++
		}
		base := outBase + quads + 1
		t.mirror = mirrorRemap{on: true, base: base, end: base + base + quads, bad: -1, badRepl: -1}
		diag := diagInsideToOutsideExceptMiddle
		if !in[1].odd {
			diag = diagInsideToOutside
		}
		t.stitchRegular(false, diag, quads+1, base, outBase)
		t.mirror.on = false
	}
}
