package gpu

import (
	"math"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	"d3dsim/gpu/tess"
)

// The tessellation stages ("Tessellation Stages"): between the vertex
// stage and the geometry stage (or the clipper). The input assembler cuts
// a patch-list draw into patches of n control points, each shaded by the
// vertex program; for each patch the hull program runs once per output
// control point (phase 0) and once for the patch constants (phase 1, its
// tess factors in the registers dcl_hs names); the fixed-function
// tessellator (gpu/tess) turns the factors into domain points and
// primitives; the domain program runs once per domain point, shader.Lanes
// points a run, with the output control points, the patch constants and
// SV_DomainLocation; the primitives then go on as the input assembler's
// would, to the geometry program if one is bound. A patch makes at most
// tess.MaxPoints points and tess.MaxTriangles triangles (a quad at the
// maximum factor 64), so one patch's work is bounded; the draw's
// checkpoint runs after every run of the domain program.

// tessState is the draw's tessellation: the declarations, the
// tessellator's settings, and the patch being worked on.
type tessState struct {
	hs     shaderisa.HSDecl
	ds     shaderisa.DSDecl
	dsPos  int // output register of the domain program's SV_Position, -1 for none
	domain tess.Domain
	part   tess.Partitioning
	out    tess.Output

	hsConsts, dsConsts cbView
	hsTex, dsTex       texUnit

	cps   [shaderisa.MaxControlPoints]cvert // the patch's input control points (the vertex program's)
	ocp   []uint32                          // output control points: OutCP*OutStride registers of 4 words
	pc    []uint32                          // patch constants: PCRegs registers of 4 words
	verts []cvert                           // the domain program's vertices
}

// gsInput is the geometry program's input primitive the tessellator's
// output makes.
func (ts *tessState) gsInput() uint32 {
	switch ts.out {
	case tess.OutPoint:
		return shaderisa.GSInPoint
	case tess.OutLine:
		return shaderisa.GSInLine
	}
	return shaderisa.GSInTriangle
}

// prepareTess checks the hull and domain programs against each other,
// the topology and the GPU, and binds their constants and textures.
func (ex *executor) prepareTess() bool {
	s, ps := &ex.st, &ex.draw.prog
	cp := isa.PatchControlPoints(s.topo)
	switch {
	case ps.hs == nil && ps.ds == nil:
		if cp != 0 {
			ex.fault("topology %d (a patch list of %d control points) without hull and domain programs", s.topo, cp)
			return false
		}
		return true
	case ps.hs == nil || ps.ds == nil:
		ex.fault("a hull program needs a domain program and a domain program a hull program")
		return false
	}
	ts := &ps.ts
	ts.hs, ts.ds = ps.hs.prog.HS(), ps.ds.prog.DS()
	h, d := &ts.hs, &ts.ds
	switch {
	case cp == 0:
		ex.fault("hull program: the topology %s is not a patch list", topoName(s.topo))
		return false
	case cp != h.InCP:
		ex.fault("hull program: %d input control points, but the topology's patches have %d", h.InCP, cp)
		return false
	case d.CP != h.OutCP || d.Domain != h.Domain:
		ex.fault("domain program: %d control points of the %s domain, but the hull program outputs %d of the %s domain", d.CP, tessDomainName(d.Domain), h.OutCP, tessDomainName(h.Domain))
		return false
	case d.Stride > h.OutStride || d.PCRegs > h.PCRegs:
		ex.fault("domain program: reads %d registers a control point and %d patch constants, the hull program writes %d and %d", d.Stride, d.PCRegs, h.OutStride, h.PCRegs)
		return false
	}
	ts.domain = map[uint32]tess.Domain{shaderisa.TessDomainTri: tess.DomainTri, shaderisa.TessDomainQuad: tess.DomainQuad, shaderisa.TessDomainIsoline: tess.DomainIsoline}[h.Domain]
	ts.part = tess.Partitioning(h.Part) // the same numbers
	ts.out = tess.Output(h.Output)      // the same numbers
	ts.dsPos = int(s.prog[stageDS].sysReg & 0xFF)
	dp := ps.ds.prog
	if ts.dsPos >= dp.Outputs {
		if ps.gs == nil {
			ex.fault("domain program: SV_Position in o%d, but the program has %d outputs", ts.dsPos, dp.Outputs)
			return false
		}
		ts.dsPos = -1 // the geometry program makes the position
	}
	if dp.Outputs > isa.MaxVaryings {
		ex.fault("domain program: %d outputs, more than the %d the GPU interpolates", dp.Outputs, isa.MaxVaryings)
		return false
	}
	ts.hsConsts, ts.dsConsts = cbView{bufs: &s.cb[stageHS]}, cbView{bufs: &s.cb[stageDS]}
	ts.hsTex, ts.dsTex = texUnit{st: s, stage: stageHS}, texUnit{st: s, stage: stageDS}
	if err := ps.hs.m.Bind(&ts.hsConsts, &ts.hsTex); err != nil {
		ex.fault("hull program: %v", err)
		return false
	}
	if err := ps.ds.m.Bind(&ts.dsConsts, &ts.dsTex); err != nil {
		ex.fault("domain program: %v", err)
		return false
	}
	ts.ocp = make([]uint32, 4*h.OutCP*h.OutStride)
	ts.pc = make([]uint32, 4*h.PCRegs)
	return true
}

func tessDomainName(d uint32) string {
	switch d {
	case shaderisa.TessDomainTri:
		return "tri"
	case shaderisa.TessDomainQuad:
		return "quad"
	case shaderisa.TessDomainIsoline:
		return "isoline"
	}
	return "unknown"
}

// assembleTess cuts the draw's vertices into patches and tessellates each
// (a partial patch at the end is dropped, as D3D11 drops it).
func (ex *executor) assembleTess(count uint32) {
	d := &ex.draw
	ts := &d.prog.ts
	n := ts.hs.InCP
	prim := uint32(0)
	k := uint32(0)
	for i := uint32(0); i < count && !d.prog.failed && !d.stop; i++ {
		ex.programVertex(i, &ts.cps[k])
		if k++; k == n {
			ex.tessPatch(prim)
			prim++
			k = 0
		}
	}
	if d.prog.gs != nil {
		ex.gsRun()
	}
}

// tessPatch runs the hull program over one patch, tessellates it, runs
// the domain program over its points and draws its primitives.
func (ex *executor) tessPatch(prim uint32) {
	d := &ex.draw
	ps := &d.prog
	ts := &ps.ts
	h := &ts.hs
	d.ctr.iaPrims++
	d.ctr.hsInv++

	m := ps.hs.m
	for r := range ps.hs.prog.Inputs {
		*m.In(r) = shader.Vec{}
	}
	// The input control points, the same in every lane.
	for n := range int(h.InCP) {
		for r := range int(h.InStride) {
			val := attrReg(&ts.cps[n], r, ps.vsPos, ps.nattr)
			reg := m.In(n*int(h.InStride) + r)
			for c := range 4 {
				b := math.Float32bits(float32(val[c]))
				for l := range int(h.OutCP) {
					reg[c][l] = b
				}
			}
		}
	}
	ids := m.In(int(h.IDReg()))
	// Phase 0: a lane per output control point.
	for l := range int(h.OutCP) {
		ids[0][l], ids[1][l], ids[2][l] = prim, uint32(l), 0
	}
	if !ex.runTess(m, ps.hs.prog.Outputs, uint64(1)<<h.OutCP-1, "hull") {
		return
	}
	for l := range int(h.OutCP) {
		for r := range int(h.OutStride) {
			o := m.Out(r)
			for c := range 4 {
				ts.ocp[4*(l*int(h.OutStride)+r)+c] = o[c][l]
			}
		}
	}
	// Phase 1: one lane, the output control points beside the input ones.
	base := int(h.InCP * h.InStride)
	for i, w := range ts.ocp {
		m.In(base + i/4)[i%4][0] = w
	}
	ids[0][0], ids[1][0], ids[2][0] = prim, 0, 1
	if !ex.runTess(m, ps.hs.prog.Outputs, 1, "hull") {
		return
	}
	for r := range int(h.PCRegs) {
		o := m.Out(r)
		for c := range 4 {
			ts.pc[4*r+c] = o[c][0]
		}
	}

	// The tessellator.
	var f tess.Factors
	factor := func(loc uint8) float32 {
		if loc == shaderisa.NoFactor {
			return 0
		}
		return math.Float32frombits(ts.pc[int(loc>>2)*4+int(loc&3)])
	}
	for k := range 4 {
		f.Edge[k] = factor(h.EdgeFactor[k])
	}
	for k := range 2 {
		f.Inside[k] = factor(h.InsideFactor[k])
	}
	mesh, err := tess.Tessellate(ts.domain, ts.part, ts.out, f)
	if err != nil {
		ps.fail("hull", err) // the declarations were checked: not reached
		return
	}
	if len(mesh.Points) == 0 {
		return // culled
	}

	// The domain program, shader.Lanes points a run.
	dsm := ps.ds.m
	ds := &ts.ds
	dp := ps.ds.prog
	for r := range dp.Inputs {
		*dsm.In(r) = shader.Vec{}
	}
	for i := range int(ds.CP * ds.Stride) {
		n, r := i/int(ds.Stride), i%int(ds.Stride)
		src := 4 * (n*int(h.OutStride) + r)
		reg := dsm.In(i)
		for c := range 4 {
			for l := range shader.Lanes {
				reg[c][l] = ts.ocp[src+c]
			}
		}
	}
	for r := range int(ds.PCRegs) {
		reg := dsm.In(int(ds.CP*ds.Stride) + r)
		for c := range 4 {
			for l := range shader.Lanes {
				reg[c][l] = ts.pc[4*r+c]
			}
		}
	}
	loc, pid := dsm.In(int(ds.LocationReg())), dsm.In(int(ds.LocationReg())+1)
	for l := range shader.Lanes {
		pid[0][l] = prim
	}
	if cap(ts.verts) < len(mesh.Points) {
		ts.verts = make([]cvert, len(mesh.Points))
	}
	ts.verts = ts.verts[:len(mesh.Points)]
	flat := ps.flatRegs()
	if ps.gs != nil {
		flat = 0 // the geometry program reads values
	}
	vary := ps.nattr / 4 // (varyings.go)
	for p0 := 0; p0 < len(mesh.Points); p0 += shader.Lanes {
		n := min(shader.Lanes, len(mesh.Points)-p0)
		for l := range n {
			pt := mesh.Points[p0+l]
			w := float32(0)
			if ts.domain == tess.DomainTri {
				w = 1 - pt.U - pt.V
			}
			loc[0][l], loc[1][l], loc[2][l] = math.Float32bits(pt.U), math.Float32bits(pt.V), math.Float32bits(w)
		}
		mask := uint64(1)<<n - 1
		if n == shader.Lanes {
			mask = shader.AllLanes
		}
		if !ex.runTess(dsm, dp.Outputs, mask, "domain") {
			return
		}
		d.ctr.dsInv += uint64(n)
		for l := range n {
			cv := &ts.verts[p0+l]
			zeroCvert(cv, ps.nattr)
			if ts.dsPos >= 0 {
				o := dsm.Out(ts.dsPos)
				for c := range 4 {
					cv.p[c] = float64(math.Float32frombits(o[c][l]))
				}
			}
			for r := range vary {
				if r >= dp.Outputs || r == ts.dsPos {
					continue
				}
				o := dsm.Out(r)
				for c := range 4 {
					if flat>>r&1 != 0 {
						cv.a[4*r+c] = float64(o[c][l]) // a constant input: its bits (interp.go)
					} else {
						cv.a[4*r+c] = float64(math.Float32frombits(o[c][l]))
					}
				}
			}
		}
		if !ex.checkpoint() {
			return
		}
	}

	// The primitives, in the tessellator's order.
	v := ts.verts
	idx := mesh.Indices
	per := map[tess.Output]int{tess.OutPoint: 1, tess.OutLine: 2, tess.OutTriangleCW: 3, tess.OutTriangleCCW: 3}[ts.out]
	for i := 0; i+per <= len(idx) && !d.stop && !ps.failed; i += per {
		if ps.gs != nil {
			var in [6]*cvert
			for j := range per {
				in[j] = &v[idx[i+j]]
			}
			ia := d.ctr.iaPrims
			ex.gsPrimitive(&in, per, prim)
			d.ctr.iaPrims = ia // the input assembler's primitives are the patches
			continue
		}
		var drawn uint64
		d.prim++ // before it is drawn, as the input assembler's (draw.go)
		switch per {
		case 1:
			drawn = ex.outPoint(&v[idx[i]])
		case 2:
			drawn = ex.outLine(&v[idx[i]], &v[idx[i+1]])
		default:
			drawn = ex.outTriangle(&v[idx[i]], &v[idx[i+1]], &v[idx[i+2]])
		}
		d.ctr.cInv++
		d.ctr.cPrims += drawn
	}
}

// runTess runs a hull or domain program over the lanes in mask, its
// outputs zeroed first, and counts its work as the vertex stage's.
func (ex *executor) runTess(m *shader.Machine, outs int, mask uint64, what string) bool {
	d := &ex.draw
	for r := range outs {
		*m.Out(r) = shader.Vec{}
	}
	_, err := m.Run(mask)
	d.vsInstrs += m.LaneSteps
	if err != nil {
		d.prog.fail(what, err)
		return false
	}
	return true
}
