package gpu

import "d3dsim/gpu/shaderisa"

// runAhead reports whether the tile workers may rasterize batches of the
// draw while the command processor goes on with its geometry
// (tiles_native.go), with the batches in flight and area more pixels of
// bounding boxes. Where a draw stops must not depend on how far they got,
// so every checkpoint that would run while they work must be sure to pass
// whatever they did: the budgets (Limits) are checked with every pixel of
// the batches' bounding boxes shaded and every instruction of the pixel
// program run for each, an upper bound of what they can add; and the
// host's turn (SetYield) rules it out. hazards adds what the draw's memory
// must satisfy: the geometry (vertex and index buffers, the constant
// buffers) reads nothing the targets are written into, and writes nothing
// (no stream output, no geometry, hull or domain program).
func (ex *executor) runAhead(area uint64, hazards bool) bool {
	d, g := &ex.draw, ex.g
	p := &d.pipe
	if d.stop || g.yield != nil || p.ms.samples > 1 {
		return false
	}
	steps := uint64(0) // the pixel program's instructions a pixel, at most
	if p.prog != nil {
		if !straight(p.prog.ps.prog) {
			return false
		}
		steps = uint64(len(p.prog.ps.prog.Code))
	}
	area += d.tp.area
	if ex.overBudget(p.shaded+area, d.vsInstrs+p.instrs+area*steps) != "" {
		return false
	}
	return !hazards || ex.geometryApart()
}

// straight reports whether each instruction of prog runs at most once per
// lane: no loop and no subroutine.
func straight(prog *shaderisa.Program) bool {
	for i := range prog.Code {
		switch prog.Code[i].Op {
		case shaderisa.OpLoop, shaderisa.OpCall, shaderisa.OpCallc:
			return false
		}
	}
	return true
}

// geometryApart reports whether the draw's geometry stages read no memory
// its targets share and write none (runAhead).
func (ex *executor) geometryApart() bool {
	d, s := &ex.draw, &ex.st
	if s.so.on || d.prog.gs != nil || d.prog.hs != nil || d.prog.ds != nil {
		return false
	}
	p := &d.pipe
	targets := func(m []byte) bool {
		if overlap(m, p.ds.mem) || overlap(m, p.rt.mem) {
			return true
		}
		for i := range min(p.nrt, len(s.rt)) {
			if overlap(m, s.rt[i].mem) {
				return true
			}
		}
		return false
	}
	if targets(s.ib.mem) {
		return false
	}
	for i := range s.vb {
		if s.vb[i].bound && targets(s.vb[i].mem) {
			return false
		}
	}
	for st := range s.cb {
		for i := range s.cb[st] {
			if targets(s.cb[st][i]) {
				return false
			}
		}
	}
	return true
}
