package tess

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func uniform(d Domain, f float32) Factors {
	switch d {
	case DomainTri:
		return Factors{Edge: [4]float32{f, f, f}, Inside: [2]float32{f}}
	case DomainQuad:
		return Factors{Edge: [4]float32{f, f, f, f}, Inside: [2]float32{f, f}}
	}
	return Factors{Edge: [4]float32{f, f}}
}

func mustTess(t *testing.T, d Domain, p Partitioning, o Output, f Factors) Mesh {
	t.Helper()
	m, err := Tessellate(d, p, o, f)
	if err != nil {
		t.Fatalf("%s %s %s %v: %v", d, p, o, f, err)
	}
	return m
}

// The counts of a uniformly tessellated patch follow from the ring
// structure: a quad of integer factor n has n+1 points a side and two
// triangles a cell; a triangle has rings of 3(n-2k) points (the centre a
// point when n is even, a triangle when odd), ring k joined to ring k+1 by
// 6(n-2k-1) triangles; an isoline of density d and detail n has d lines of
// n+1 points.
func TestUniformIntegerCounts(t *testing.T) {
	for n := 1; n <= MaxFactor; n++ {
		q := mustTess(t, DomainQuad, PartInteger, OutTriangleCW, uniform(DomainQuad, float32(n)))
		if len(q.Points) != (n+1)*(n+1) || q.Primitives(OutTriangleCW) != 2*n*n {
			t.Errorf("quad %d: %d points %d triangles, want %d and %d", n, len(q.Points), len(q.Indices)/3, (n+1)*(n+1), 2*n*n)
		}
		points, tris := 0, 0
		for k := 0; n-2*k > 0; k++ {
			points += 3 * (n - 2*k)
			if n-2*k >= 2 {
				tris += 6 * (n - 2*k - 1)
			}
		}
		if n%2 == 0 {
			points++
		} else {
			tris++
		}
		if n == 1 {
			points, tris = 3, 1
		}
		tr := mustTess(t, DomainTri, PartInteger, OutTriangleCCW, uniform(DomainTri, float32(n)))
		if len(tr.Points) != points || tr.Primitives(OutTriangleCCW) != tris {
			t.Errorf("tri %d: %d points %d triangles, want %d and %d", n, len(tr.Points), len(tr.Indices)/3, points, tris)
		}
		for _, d := range []int{1, 2, 7} {
			l := mustTess(t, DomainIsoline, PartInteger, OutLine, Factors{Edge: [4]float32{float32(d), float32(n)}})
			if len(l.Points) != d*(n+1) || l.Primitives(OutLine) != d*n {
				t.Errorf("isoline %dx%d: %d points %d lines, want %d and %d", d, n, len(l.Points), l.Primitives(OutLine), d*(n+1), d*n)
			}
		}
	}
}

func TestFactorOne(t *testing.T) {
	tri := mustTess(t, DomainTri, PartInteger, OutTriangleCW, uniform(DomainTri, 1))
	if !slices.Equal(tri.Points, []Point{{0, 1}, {0, 0}, {1, 0}}) || !slices.Equal(tri.Indices, []uint32{0, 1, 2}) {
		t.Errorf("tri at 1: %v %v", tri.Points, tri.Indices)
	}
	ccw := mustTess(t, DomainTri, PartFractionalOdd, OutTriangleCCW, uniform(DomainTri, 1))
	if !slices.Equal(ccw.Indices, []uint32{0, 2, 1}) {
		t.Errorf("ccw tri at 1: %v", ccw.Indices)
	}
	quad := mustTess(t, DomainQuad, PartInteger, OutTriangleCW, uniform(DomainQuad, 0.5)) // rounds up to 1
	if len(quad.Points) != 4 || quad.Primitives(OutTriangleCW) != 2 {
		t.Errorf("quad at 1: %v %v", quad.Points, quad.Indices)
	}
	pts := mustTess(t, DomainQuad, PartInteger, OutPoint, uniform(DomainQuad, 1))
	if !slices.Equal(pts.Indices, []uint32{0, 1, 2, 3}) {
		t.Errorf("quad points at 1: %v", pts.Indices)
	}
	line := mustTess(t, DomainIsoline, PartInteger, OutLine, Factors{Edge: [4]float32{1, 1}})
	if !slices.Equal(line.Points, []Point{{0, 0}, {1, 0}}) || !slices.Equal(line.Indices, []uint32{0, 1}) {
		t.Errorf("isoline at 1: %v %v", line.Points, line.Indices)
	}
}

// Fractional odd at 3.5: five segments, the layout a quarter of the way
// (the fraction of half the factor above its floor, (3.5/2+1/2) - 2) from
// factor 3's (0, 1/3, 1/3, 2/3, 2/3, 1: the new points split out of the
// thirds) to factor 5's (0, 1/5, ..., 1): 0, 0.3, 0.35, 0.65, 0.7, 1.
// Fractional even at 3: between factor 2 (0, 1/2, 1/2, 1/2, 1) and
// factor 4 (quarters) half way: 0, 0.375, 0.5, 0.625, 1.
func TestFractionalPlacement(t *testing.T) {
	cases := []struct {
		p    Partitioning
		f    float32
		want []float64
	}{
		{PartFractionalOdd, 3.5, []float64{0, 0.3, 0.35, 0.65, 0.7, 1}},
		{PartFractionalOdd, 3, []float64{0, 1.0 / 3, 2.0 / 3, 1}},
		{PartFractionalOdd, 5, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{PartFractionalEven, 3, []float64{0, 0.375, 0.5, 0.625, 1}},
		{PartFractionalEven, 4, []float64{0, 0.25, 0.5, 0.75, 1}},
		{PartInteger, 3.2, []float64{0, 0.25, 0.5, 0.75, 1}},
		{PartPow2, 3, []float64{0, 1.0 / 3, 2.0 / 3, 1}},
	}
	for _, c := range cases {
		// An isoline's detail places points along u with the partitioning.
		m := mustTess(t, DomainIsoline, c.p, OutPoint, Factors{Edge: [4]float32{1, c.f}})
		var got []float64
		for _, p := range m.Points {
			got = append(got, float64(p.U))
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %g: %v, want %v", c.p, c.f, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 2.0/65536 {
				t.Errorf("%s %g: %v, want %v", c.p, c.f, got, c.want)
				break
			}
		}
		// The same edge on a quad patch.
		q := mustTess(t, DomainQuad, c.p, OutPoint, Factors{Edge: [4]float32{5, c.f, 5, 5}, Inside: [2]float32{5, 5}})
		var onEdge []float64
		for _, p := range q.Points {
			if p.V == 0 {
				onEdge = append(onEdge, float64(p.U))
			}
		}
		slices.Sort(onEdge)
		if !slices.Equal(onEdge, got) {
			t.Errorf("%s %g: quad edge v=0 %v, isoline %v", c.p, c.f, onEdge, got)
		}
	}
}

func TestCullAndClamp(t *testing.T) {
	nan := float32(math.NaN())
	for _, f := range []float32{0, -1, nan} {
		for _, d := range []Domain{DomainTri, DomainQuad} {
			fs := uniform(d, 4)
			fs.Edge[1] = f
			if m := mustTess(t, d, PartInteger, OutTriangleCW, fs); len(m.Points)+len(m.Indices) != 0 {
				t.Errorf("%s with edge %g: not culled", d, f)
			}
		}
		if m := mustTess(t, DomainIsoline, PartInteger, OutLine, Factors{Edge: [4]float32{f, 3}}); len(m.Points) != 0 {
			t.Errorf("isoline density %g: not culled", f)
		}
	}
	// An inside factor that is NaN or 0 is clamped, not culled.
	a := mustTess(t, DomainQuad, PartInteger, OutTriangleCW, Factors{Edge: [4]float32{3, 3, 3, 3}, Inside: [2]float32{nan, 0}})
	b := mustTess(t, DomainQuad, PartInteger, OutTriangleCW, Factors{Edge: [4]float32{3, 3, 3, 3}, Inside: [2]float32{1, 1}})
	if !slices.Equal(a.Indices, b.Indices) || !slices.Equal(a.Points, b.Points) {
		t.Error("quad inside NaN/0 differs from inside 1")
	}
	// Above the maximum is the maximum.
	for _, p := range []Partitioning{PartInteger, PartFractionalOdd, PartFractionalEven} {
		hi := mustTess(t, DomainTri, p, OutTriangleCW, uniform(DomainTri, 1000))
		top := float32(MaxEvenFactor)
		if p == PartFractionalOdd {
			top = MaxOddFactor
		}
		max := mustTess(t, DomainTri, p, OutTriangleCW, uniform(DomainTri, top))
		if !slices.Equal(hi.Points, max.Points) || !slices.Equal(hi.Indices, max.Indices) {
			t.Errorf("%s: 1000 differs from %g", p, top)
		}
	}
	quadMax := mustTess(t, DomainQuad, PartFractionalEven, OutTriangleCW, uniform(DomainQuad, 1e9))
	if len(quadMax.Points) > MaxPoints || quadMax.Primitives(OutTriangleCW) > MaxTriangles {
		t.Errorf("quad at the maximum: %d points %d triangles", len(quadMax.Points), quadMax.Primitives(OutTriangleCW))
	}
}

func TestCheck(t *testing.T) {
	bad := []struct {
		d Domain
		p Partitioning
		o Output
	}{
		{DomainIsoline, PartInteger, OutTriangleCW},
		{DomainTri, PartInteger, OutLine},
		{DomainQuad, PartInteger, OutLine},
		{0, PartInteger, OutPoint},
		{DomainTri, 9, OutPoint},
		{DomainTri, PartInteger, 0},
	}
	for _, c := range bad {
		if _, err := Tessellate(c.d, c.p, c.o, uniform(DomainQuad, 2)); err == nil {
			t.Errorf("%s %s %s: no error", c.d, c.p, c.o)
		}
	}
}

func cross(a, b, c Point) float64 {
	return (float64(b.U)-float64(a.U))*(float64(c.V)-float64(a.V)) - (float64(b.V)-float64(a.V))*(float64(c.U)-float64(a.U))
}

type patchCase struct {
	d Domain
	p Partitioning
	f Factors
}

func (c patchCase) String() string { return fmt.Sprintf("%s %s %v", c.d, c.p, c.f) }

// randomCases are patches of random factors for every domain and
// partitioning, mixed edge and inside factors included.
func randomCases(n int) []patchCase {
	r := rand.New(rand.NewPCG(27, 35))
	factor := func() float32 {
		switch r.IntN(4) {
		case 0:
			return float32(1 + r.IntN(64)) // integers
		case 1:
			return 1 + r.Float32()*6 // small, fractional
		default:
			return 1 + r.Float32()*63
		}
	}
	var cs []patchCase
	for range n {
		for _, d := range []Domain{DomainTri, DomainQuad} {
			for _, p := range []Partitioning{PartInteger, PartPow2, PartFractionalOdd, PartFractionalEven} {
				cs = append(cs, patchCase{d, p, Factors{
					Edge:   [4]float32{factor(), factor(), factor(), factor()},
					Inside: [2]float32{factor(), factor()},
				}})
			}
		}
	}
	return cs
}

func someCases() []patchCase {
	var cs []patchCase
	for _, d := range []Domain{DomainTri, DomainQuad} {
		for _, p := range []Partitioning{PartInteger, PartFractionalOdd, PartFractionalEven} {
			for _, f := range []float32{1, 1.5, 2, 2.5, 3, 3.5, 4, 5.25, 7, 8, 16.75, 64} {
				cs = append(cs, patchCase{d, p, uniform(d, f)})
				// Edges differing from the inside and from each other.
				cs = append(cs, patchCase{d, p, Factors{Edge: [4]float32{f, 1, 2 * f, 3}, Inside: [2]float32{1, f}}})
				cs = append(cs, patchCase{d, p, Factors{Edge: [4]float32{1, 1, 1, 1}, Inside: [2]float32{f, f / 2}}})
			}
		}
	}
	return append(cs, randomCases(8)...)
}

// The mesh of a patch covers its domain exactly once: every triangle is
// wound the same way (clockwise as asked, the minimal patch's order) with
// a positive area, the areas add up to the domain's (1/2 for a triangle in
// u, v, 1 for a quad), every edge between two triangles is used once in
// each direction and every boundary edge lies on the domain's boundary;
// every point is used, none twice, all within the domain.
func TestMeshCoversTheDomain(t *testing.T) {
	for _, c := range someCases() {
		for _, o := range []Output{OutTriangleCW, OutTriangleCCW} {
			m := mustTess(t, c.d, c.p, o, c.f)
			if err := checkMesh(c.d, o, m, c.degenerateAllowed()); err != nil {
				t.Errorf("%s %s: %v", c, o, err)
			}
		}
	}
}

// degenerateAllowed: fractional partitioning places a point that is
// splitting in at its neighbour's place (to 16 fraction bits) while the
// factor is just above the lower count, and keeps a ring that has
// collapsed onto the outer one when an inside factor is about 1 (D3D11's
// "degenerate transition regions"): those points repeat and those
// triangles have no area. Integer partitioning has neither.
func (c patchCase) degenerateAllowed() bool {
	return c.p == PartFractionalOdd || c.p == PartFractionalEven
}

func checkMesh(d Domain, o Output, m Mesh, degenerate bool) error {
	sign := 1.0
	if o == OutTriangleCCW {
		sign = -1
	}
	// Points at the same place are one point (only where degenerate).
	canon := make([]uint32, len(m.Points))
	first := map[Point]uint32{}
	for i, p := range m.Points {
		if j, ok := first[p]; ok {
			if !degenerate {
				return fmt.Errorf("point %v twice", p)
			}
			canon[i] = j
			continue
		}
		first[p] = uint32(i)
		canon[i] = uint32(i)
		if p.U < 0 || p.V < 0 || p.U > 1 || p.V > 1 || d == DomainTri && float64(p.U)+float64(p.V) > 1+1e-6 {
			return fmt.Errorf("point %v outside the %s domain", p, d)
		}
	}
	if len(m.Indices)%3 != 0 {
		return fmt.Errorf("%d indices", len(m.Indices))
	}
	used := make([]bool, len(m.Points))
	type edge struct{ a, b uint32 }
	edges := make(map[edge]int, len(m.Indices))
	area := 0.0
	for i := 0; i < len(m.Indices); i += 3 {
		a, b, c := m.Indices[i], m.Indices[i+1], m.Indices[i+2]
		if int(a) >= len(m.Points) || int(b) >= len(m.Points) || int(c) >= len(m.Points) {
			return fmt.Errorf("triangle %d: index out of range", i/3)
		}
		used[a], used[b], used[c] = true, true, true
		x := sign * cross(m.Points[a], m.Points[b], m.Points[c])
		if x == 0 && degenerate {
			continue
		}
		a, b, c = canon[a], canon[b], canon[c]
		if x <= 0 {
			return fmt.Errorf("triangle %d (%v %v %v) wound the wrong way or degenerate: %g", i/3, m.Points[a], m.Points[b], m.Points[c], x)
		}
		area += x / 2
		for _, e := range []edge{{a, b}, {b, c}, {c, a}} {
			edges[e]++
		}
	}
	want := 1.0
	if d == DomainTri {
		want = 0.5
	}
	if math.Abs(area-want) > 1e-6 {
		return fmt.Errorf("triangles cover %g of the domain's %g", area, want)
	}
	for i, u := range used {
		if !u && canon[i] == uint32(i) {
			return fmt.Errorf("point %d %v unused", i, m.Points[i])
		}
	}
	for e, n := range edges {
		if n != 1 {
			return fmt.Errorf("edge %v used %d times one way", e, n)
		}
		if edges[edge{e.b, e.a}] == 0 {
			p, q := m.Points[e.a], m.Points[e.b]
			onBoundary := p.U == 0 && q.U == 0 || p.V == 0 && q.V == 0 ||
				d == DomainQuad && (p.U == 1 && q.U == 1 || p.V == 1 && q.V == 1) ||
				d == DomainTri && float64(p.U)+float64(p.V) == 1 && float64(q.U)+float64(q.V) == 1
			if !onBoundary {
				return fmt.Errorf("edge %v-%v has one triangle and is not on the boundary: a crack", p, q)
			}
		}
	}
	return nil
}

// edgePoints are the parameters of the points on one side of the domain,
// measured along it from its start (u=0: v; v=0: u; w=0: u; u=1: v; v=1: u).
func edgePoints(d Domain, m Mesh, side int) []float32 {
	var out []float32
	for _, p := range m.Points {
		switch {
		case side == 0 && p.U == 0:
			out = append(out, p.V)
		case side == 1 && p.V == 0:
			out = append(out, p.U)
		case d == DomainTri && side == 2 && float64(p.U)+float64(p.V) == 1:
			out = append(out, p.U)
		case d == DomainQuad && side == 2 && p.U == 1:
			out = append(out, p.V)
		case d == DomainQuad && side == 3 && p.V == 1:
			out = append(out, p.U)
		}
	}
	slices.Sort(out)
	return out
}

// The points of a side depend only on that side's factor (and the
// partitioning): neighbouring patches that agree on a shared edge's factor
// meet at the same points, whatever their other factors and domains, so
// there are no cracks. A side of factor f has the points the partitioning
// gives f: integer f+1 (rounded up), fractional the odd or even count.
func TestSharedEdgesMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range []Partitioning{PartInteger, PartFractionalOdd, PartFractionalEven} {
		for _, f := range []float32{1, 1.25, 2, 2.5, 3, 3.75, 6, 9.5, 31, 64} {
			var ref []float32
			for range 8 {
				other := func() float32 { return 1 + r.Float32()*20 }
				for _, d := range []Domain{DomainTri, DomainQuad} {
					fs := Factors{Edge: [4]float32{other(), other(), other(), other()}, Inside: [2]float32{other(), other()}}
					side := r.IntN(3)
					if d == DomainQuad {
						side = r.IntN(4)
					}
					fs.Edge[side] = f
					got := edgePoints(d, mustTess(t, d, p, OutTriangleCW, fs), side)
					if ref == nil {
						ref = got
						if n := len(ref); n != edgeCount(p, f) {
							t.Errorf("%s %g: %d points on the edge, want %d", p, f, n, edgeCount(p, f))
						}
						continue
					}
					if !slices.Equal(got, ref) {
						t.Errorf("%s edge %g on %s side %d (%v): %v, first seen %v", p, f, d, side, fs, got, ref)
					}
				}
			}
		}
	}
}

func edgeCount(p Partitioning, f float32) int {
	switch p {
	case PartFractionalOdd:
		n := int(math.Ceil(float64(min(f, MaxOddFactor))))
		if n%2 == 0 {
			n++
		}
		return n + 1
	case PartFractionalEven:
		n := int(math.Ceil(float64(max(f, 2))))
		if n%2 == 1 {
			n++
		}
		return n + 1
	}
	return int(math.Ceil(float64(f))) + 1
}

func TestRulerOrder(t *testing.T) {
	// Each position 0..32 once; the first few are the halvings.
	seen := map[int]bool{}
	for _, v := range rulerOrder {
		seen[v] = true
	}
	if len(seen) != rulerLen {
		t.Errorf("ruler order not a permutation: %v", rulerOrder)
	}
	if want := []int{0, 32, 16, 8, 17, 4, 18, 9, 19, 2}; !slices.Equal(rulerOrder[:10], want) {
		t.Errorf("ruler order %v, want it to start %v", rulerOrder[:10], want)
	}
	if reciprocal(3) != 0x5555 || reciprocal(6) != 0x2aab || reciprocal(64) != 0x400 {
		t.Error("reciprocals")
	}
}

// Points output lists every domain point once, in order.
func TestPointOutput(t *testing.T) {
	for _, c := range someCases()[:40] {
		tris := mustTess(t, c.d, c.p, OutTriangleCW, c.f)
		pts := mustTess(t, c.d, c.p, OutPoint, c.f)
		if !slices.Equal(tris.Points, pts.Points) || len(pts.Indices) != len(pts.Points) {
			t.Errorf("%s: point output differs", c)
		}
		for i, x := range pts.Indices {
			if int(x) != i {
				t.Errorf("%s: point index %d is %d", c, i, x)
				break
			}
		}
	}
}
