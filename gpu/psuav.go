package gpu

import (
	"encoding/binary"

	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// The pixel stage's unordered access views (SET_UAV of stage isa.StagePS,
// bound by OMSetRenderTargetsAndUnorderedAccessViews): a pixel program that
// reads or writes a u# runs for every covered pixel, on one goroutine, a
// block at a time in the rasterizer's order (primitive order, then rows,
// then the lanes of each 8x8 block in quad order), so its stores and
// atomics happen in the same order on every run and every machine: what
// D3D11 leaves unordered between pixels is ordered here, deterministically.
// Helper lanes and discarded pixels write nothing (the executor's memory
// operations take the live lanes only). The program runs before the depth
// test, as D3D11 runs a pixel shader without [earlydepthstencil]: a pixel
// that then fails the depth test has still written its views (with it,
// early.go, the test runs first).

// usesUAV reports whether p reads or writes a u#.
func usesUAV(p *shaderisa.Program) bool {
	for i := range p.Code {
		in := &p.Code[i]
		if in.Dst.File == shaderisa.FileUAV {
			return true
		}
		for _, s := range in.Src {
			if s.File == shaderisa.FileUAV {
				return true
			}
		}
	}
	return false
}

// bindPixelUAVs binds the pixel stage's views to the draw's pixel machine
// and takes the draw off the fast paths that do not run the program (the
// Gouraud spans, the fused texture program) and off the tile workers.
func (ex *executor) bindPixelUAVs() {
	s, d := &ex.st, &ex.draw
	p := &d.pipe
	var uavs [shaderisa.MaxUAVs]*shader.UAV
	for i := range s.psUAV {
		u := &s.psUAV[i]
		if !u.bound {
			continue
		}
		uavs[i] = &u.view
		u.view.Counter = nil
		if u.counter != nil {
			u.count = binary.LittleEndian.Uint32(u.counter)
			u.view.Counter = &u.count
			d.uavCounters = true
		}
	}
	d.prog.ps.m.BindCompute(uavs)
	p.tileable = false
	p.blk.fused.on = false
	if p.kind == spanColor {
		p.kind = spanProgram
	}
}

// endPixelUAVs writes the pixel stage's hidden counters back after a draw.
// Only a draw whose bindPixelUAVs bound a counter has any (uavCounters):
// every draw calls it, and the walk of the slots was 75 instructions.
func (ex *executor) endPixelUAVs() {
	if !ex.draw.uavCounters {
		return
	}
	ex.draw.uavCounters = false
	for i := range ex.st.psUAV {
		if u := &ex.st.psUAV[i]; u.bound && u.view.Counter != nil {
			binary.LittleEndian.PutUint32(u.counter, u.count)
			u.view.Counter = nil
		}
	}
}

// uavOnlySize is the pixel grid of a draw with no render target and no
// depth buffer: D3D11 rasterizes it when the pixel stage has views bound
// (UAV-only rendering), over the viewport, clipped to the GPU's largest
// surface.
func (ex *executor) uavOnlySize() (w, h int, ok bool) {
	s := &ex.st
	e := ex.draw.prog.ps
	if e == nil || !e.uav || !s.vpSet {
		return 0, 0, false
	}
	for i := range s.psUAV {
		if s.psUAV[i].bound {
			vp := &s.vp
			w, h = int(min(max(vp.x+vp.w, 0), maxDim)), int(min(max(vp.y+vp.h, 0), maxDim))
			return w, h, w > 0 && h > 0
		}
	}
	return 0, 0, false
}
