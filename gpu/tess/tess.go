package tess

import (
	"fmt"
	"math"
	"math/bits"
)

// Domain is the patch's parameter space (D3D11_TESSELLATOR_DOMAIN).
type Domain uint8

const (
	DomainTri Domain = iota + 1
	DomainQuad
	DomainIsoline
)

// Partitioning is how a tess factor divides an edge
// (D3D11_TESSELLATOR_PARTITIONING).
type Partitioning uint8

const (
	PartInteger Partitioning = iota + 1
	PartPow2
	PartFractionalOdd
	PartFractionalEven
)

// Output is the primitive the tessellator emits
// (D3D11_TESSELLATOR_OUTPUT_PRIMITIVE).
type Output uint8

const (
	OutPoint Output = iota + 1
	OutLine
	OutTriangleCW
	OutTriangleCCW
)

var domainNames = [...]string{DomainTri: "tri", DomainQuad: "quad", DomainIsoline: "isoline"}
var partNames = [...]string{PartInteger: "integer", PartPow2: "pow2", PartFractionalOdd: "fractional_odd", PartFractionalEven: "fractional_even"}
var outNames = [...]string{OutPoint: "point", OutLine: "line", OutTriangleCW: "triangle_cw", OutTriangleCCW: "triangle_ccw"}

func (d Domain) String() string {
	if int(d) < len(domainNames) && d != 0 {
		return domainNames[d]
	}
	return fmt.Sprintf("domain(%d)", d)
}

func (p Partitioning) String() string {
	if int(p) < len(partNames) && p != 0 {
		return partNames[p]
	}
	return fmt.Sprintf("partitioning(%d)", p)
}

func (o Output) String() string {
	if int(o) < len(outNames) && o != 0 {
		return outNames[o]
	}
	return fmt.Sprintf("output(%d)", o)
}

// The factor ranges of the D3D11 tessellator
// (D3D11_TESSELLATOR_{MIN,MAX}_{ODD,EVEN}_TESSELLATION_FACTOR and the
// isoline density's).
const (
	MinOddFactor  = 1
	MaxOddFactor  = 63
	MinEvenFactor = 2
	MaxEvenFactor = 64
	MaxFactor     = 64
)

// MaxPoints and MaxTriangles bound one patch's output (a quad at 64).
const (
	MaxPoints    = (MaxFactor + 1) * (MaxFactor + 1)
	MaxTriangles = 2 * MaxFactor * MaxFactor
)

// Factors are a patch's tess factors as the hull shader's patch-constant
// phase writes them. Tri: Edge[0..2] are SV_TessFactor for the edges
// u=0, v=0, w=0 and Inside[0] SV_InsideTessFactor. Quad: Edge[0..3] for
// u=0, v=0, u=1, v=1 and Inside[0..1] for the u and v directions.
// Isoline: Edge[0] is the line density (how many lines) and Edge[1] the
// line detail (how many segments a line has).
type Factors struct {
	Edge   [4]float32
	Inside [2]float32
}

// Point is a domain point: SV_DomainLocation's u and v (w = 1-u-v on a
// triangle).
type Point struct{ U, V float32 }

// Mesh is one tessellated patch: its domain points and an index list of
// the output primitive (3 indices a triangle, 2 a line, 1 a point).
type Mesh struct {
	Points  []Point
	Indices []uint32
}

// Primitives is the number of primitives the index list holds.
func (m *Mesh) Primitives(out Output) int {
	switch out {
	case OutTriangleCW, OutTriangleCCW:
		return len(m.Indices) / 3
	case OutLine:
		return len(m.Indices) / 2
	}
	return len(m.Indices)
}

// Check reports whether a domain, partitioning and output primitive go
// together, as the HLSL compiler and the runtime require: line output for
// the isoline domain only, triangles for tri and quad domains only.
func Check(d Domain, p Partitioning, o Output) error {
	if d < DomainTri || d > DomainIsoline {
		return fmt.Errorf("tessellator: unknown domain %d", d)
	}
	if p < PartInteger || p > PartFractionalEven {
		return fmt.Errorf("tessellator: unknown partitioning %d", p)
	}
	if o < OutPoint || o > OutTriangleCCW {
		return fmt.Errorf("tessellator: unknown output primitive %d", o)
	}
	if d == DomainIsoline && (o == OutTriangleCW || o == OutTriangleCCW) {
		return fmt.Errorf("tessellator: the isoline domain outputs points or lines, not %s", o)
	}
	if d != DomainIsoline && o == OutLine {
		return fmt.Errorf("tessellator: the %s domain outputs points or triangles, not lines", d)
	}
	return nil
}

// Tessellate tessellates one patch. A culled patch (an edge factor not
// greater than 0, or NaN) gives an empty mesh.
func Tessellate(d Domain, p Partitioning, o Output, f Factors) (Mesh, error) {
	if err := Check(d, p, o); err != nil {
		return Mesh{}, err
	}
	t := tessellator{part: p, out: o}
	switch d {
	case DomainTri:
		t.triDomain(f.Edge[0], f.Edge[1], f.Edge[2], f.Inside[0])
	case DomainQuad:
		t.quadDomain(f.Edge[0], f.Edge[1], f.Edge[2], f.Edge[3], f.Inside[0], f.Inside[1])
	case DomainIsoline:
		t.isolineDomain(f.Edge[0], f.Edge[1])
	}
	return Mesh{Points: t.points, Indices: t.indices}, nil
}

// 16.16 fixed point.
const (
	fxBits      = 16
	fxOne       = int64(1) << fxBits
	fxHalf      = fxOne >> 1
	fxFracMask  = fxOne - 1
	fxOneThird  = 0x5555
	fxTwoThirds = 0xaaaa
	// epsilon is the smallest positive fixed-point fraction, 2^-16.
	epsilon = float32(1.0 / 65536)
)

// toFixed converts a clamped factor (within [0, 2^15)) to 16.16, rounding
// to nearest even at the last fraction bit.
func toFixed(f float32) int64 {
	return int64(math.RoundToEven(float64(f) * float64(fxOne)))
}

// toFloat is exact: a location has at most 17 significant bits.
func toFloat(x int64) float32 { return float32(x) / float32(fxOne) }

func fxFloor(x int64) int64 { return x &^ fxFracMask }

func fxCeil(x int64) int64 {
	if x&fxFracMask != 0 {
		return fxFloor(x) + fxOne
	}
	return x
}

// reciprocal is 1/n in 16.16, rounded to nearest: the step between the
// points of an edge of n segments.
func reciprocal(n int) int64 {
	if n <= 0 {
		return 0xffffffff
	}
	return (fxOne + int64(n)/2) / int64(n)
}

// clampFactor is D3D11's min(hi, max(lo, f)) with NaN giving lo.
func clampFactor(f, lo, hi float32) float32 {
	if f != f || f < lo {
		return lo
	}
	if f > hi {
		return hi
	}
	return f
}

func evenInt(f float32) bool { return int(f)&1 == 0 }

// edgeSpec is what the placement of the points along one tess factor
// needs: the fixed-point factor's half split into its floor and ceiling.
type edgeSpec struct {
	odd      bool
	halfFrac int64 // the fraction of half the factor
	halfPts  int   // points on a half edge (ceil of half the factor)
	split    int   // the point that splits in between floor and ceiling
	invFloor int64 // 1 / segments at the floor of the factor
	invCeil  int64 // 1 / segments at the ceiling
	points   int   // points on the whole edge
}

// numPoints is how many points an edge of factor f has.
func numPoints(f int64, odd bool) int {
	if odd {
		return int((fxCeil(fxHalf+(f+1)/2) * 2) >> fxBits)
	}
	return int((fxCeil((f+1)/2)*2)>>fxBits) + 1
}

func clearTopBit(v int) int {
	if v <= 0 {
		return 0
	}
	return v &^ (1 << (bits.Len(uint(v)) - 1))
}

func newEdgeSpec(f int64, odd bool) edgeSpec {
	e := edgeSpec{odd: odd, points: numPoints(f, odd)}
	h := (f + 1) / 2
	// A factor of 1 under even parity is placed as if odd.
	if odd || h == fxHalf {
		h += fxHalf
	}
	fl, ce := fxFloor(h), fxCeil(h)
	e.halfFrac = h - fl
	e.halfPts = int(ce >> fxBits)
	switch {
	case ce == fl:
		e.split = e.halfPts + 1 // no point splits
	case odd && fl == fxOne:
		e.split = 0
	case odd:
		e.split = clearTopBit(int(fl>>fxBits)-1)<<1 + 1
	default:
		e.split = clearTopBit(int(fl>>fxBits))<<1 + 1
	}
	nf, nc := int((fl*2)>>fxBits), int((ce*2)>>fxBits)
	if odd {
		nf--
		nc--
	}
	e.invFloor, e.invCeil = reciprocal(nf), reciprocal(nc)
	return e
}

// place is the location in [0, 1] of point i of the edge: the first half
// measured from 0, the second the mirror of the first measured from 1.
func (e *edgeSpec) place(i int) int64 {
	flip := false
	if i >= e.halfPts {
		i = e.halfPts*2 - i
		if e.odd {
			i--
		}
		flip = true
	}
	if i == e.halfPts {
		return fxHalf // the middle, which the 16-bit steps cannot hit exactly
	}
	onCeil, onFloor := i, i
	if i > e.split {
		onFloor--
	}
	locFloor := int64(onFloor) * e.invFloor
	locCeil := int64(onCeil) * e.invCeil
	loc := (locFloor*(fxOne-e.halfFrac) + locCeil*e.halfFrac + fxHalf) >> fxBits
	if flip {
		loc = fxOne - loc
	}
	return loc
}

// tessellator holds one patch's output as it is built, and the index
// remapping the ring stitchers use to walk a ring's wrap-around (or a
// reversed row) as if its points were consecutive.
type tessellator struct {
	part    Partitioning
	out     Output
	points  []Point
	indices []uint32

	wrap   wrapRemap
	mirror mirrorRemap
}

// wrapRemap: the last edge of a ring ends on the ring's first point;
// stitching sees inside points from 0 and outside points from outBase.
type wrapRemap struct {
	on                     bool
	inDelta, inBad, inRepl int
	outBase                int
	outDelta, outBad       int
	outRepl                int
}

// mirrorRemap: a degenerate middle row of points walked backwards.
type mirrorRemap struct {
	on           bool
	base, end    int
	bad, badRepl int
}

func (t *tessellator) integerLike() bool {
	return t.part == PartInteger || t.part == PartPow2
}

func (t *tessellator) bounds() (lo, hi float32) {
	switch t.part {
	case PartFractionalEven:
		return MinEvenFactor, MaxEvenFactor
	case PartFractionalOdd:
		return MinOddFactor, MaxOddFactor
	}
	return MinOddFactor, MaxEvenFactor
}

// fracOdd is the parity fractional partitioning fixes.
func (t *tessellator) fracOdd() bool { return t.part == PartFractionalOdd }

func (t *tessellator) point(u, v int64) {
	t.points = append(t.points, Point{toFloat(u), toFloat(v)})
}

func (t *tessellator) remap(i int) int {
	switch {
	case t.wrap.on:
		w := &t.wrap
		if i >= w.outBase {
			if i == w.outBad {
				return w.outRepl
			}
			return i + w.outDelta
		}
		if i == w.inBad {
			return w.inRepl
		}
		return i + w.inDelta
	case t.mirror.on:
		m := &t.mirror
		if i == m.bad {
			return m.badRepl
		}
		if i >= m.base {
			return m.end - i
		}
	}
	return i
}

func (t *tessellator) index(i int) { t.indices = append(t.indices, uint32(t.remap(i))) }

// tri adds a triangle given clockwise, stored in the winding the output
// primitive asks for.
func (t *tessellator) tri(a, b, c int) {
	t.index(a)
	if t.out == OutTriangleCW {
		t.index(b)
		t.index(c)
	} else {
		t.index(c)
		t.index(b)
	}
}

func (t *tessellator) allPoints() {
	for i := range t.points {
		t.index(i)
	}
}

// processEdges clamps, rounds and classifies a patch's factors (the part
// common to tri and quad). It returns the parities (true for odd) of the
// edges and inside factors and their fixed-point values, or culled.
func (t *tessellator) process(edges, inside []float32) (edgeOdd, inOdd []bool, edgeFx, inFx []int64, culled bool) {
	for _, e := range edges {
		if !(e > 0) {
			return nil, nil, nil, nil, true
		}
	}
	lo, hi := t.bounds()
	for i := range edges {
		edges[i] = clampFactor(edges[i], lo, hi)
		if t.integerLike() {
			edges[i] = float32(math.Ceil(float64(edges[i])))
		}
	}
	if t.part == PartFractionalOdd {
		// Keep a picture frame: any factor above 1 lifts the inside ones.
		frame := false
		for _, e := range edges {
			frame = frame || e > MinOddFactor+epsilon/2
		}
		for _, f := range inside {
			if len(inside) > 1 { // a tri's one inside factor does not count
				frame = frame || f > MinOddFactor+epsilon/2
			}
		}
		if frame {
			lo = MinOddFactor + epsilon
		}
	}
	for i := range inside {
		inside[i] = clampFactor(inside[i], lo, hi)
		if t.integerLike() {
			inside[i] = float32(math.Ceil(float64(inside[i])))
		}
	}
	edgeOdd, inOdd = make([]bool, len(edges)), make([]bool, len(inside))
	edgeFx, inFx = make([]int64, len(edges)), make([]int64, len(inside))
	for i, e := range edges {
		edgeOdd[i] = t.fracOdd()
		if t.integerLike() {
			edgeOdd[i] = !evenInt(e)
		}
		edgeFx[i] = toFixed(e)
	}
	for i, f := range inside {
		inOdd[i] = t.fracOdd()
		if t.integerLike() {
			inOdd[i] = !(evenInt(f) || f == 1)
		}
		inFx[i] = toFixed(f)
	}
	return edgeOdd, inOdd, edgeFx, inFx, false
}

// allOnes: integer or fractional_odd factors all 1 give the minimal patch.
func (t *tessellator) allOnes(fx ...[]int64) bool {
	if !t.integerLike() && !t.fracOdd() {
		return false
	}
	for _, s := range fx {
		for _, v := range s {
			if v != fxOne {
				return false
			}
		}
	}
	return true
}

// minPointsInside keeps a degenerate transition ring when the inside
// factor is 1.
func minPointsInside(n int, odd bool) int {
	m := 3
	if odd {
		m = 4
	}
	return max(n, m)
}
