package gpu

import "d3dsim/gpu/isa"

// Layered rendering (isa/layers.go): a render target or depth buffer of
// several slices, set by SET_RT_LAYERS. The surface is its first slice, as
// SET_RT's; layers keeps every slice's bytes, so a geometry program's
// SV_RenderTargetArrayIndex can move the draw to another.

// maxLayers bounds a layered surface's slices (D3D11's 2048 array slices).
const maxLayers = 2048

// layers is a layered surface's slices: all of them from the first, each
// pitch bytes after the one before.
type layers struct {
	all   []byte
	n     int
	pitch int
}

// slice returns surface s moved to its slice i (slice 0 when i is past
// its slices, as D3D11 specifies for SV_RenderTargetArrayIndex).
func (s surface) slice(i uint32) surface {
	if s.layers == nil || i >= uint32(s.layers.n) {
		i = 0
	}
	if s.layers != nil {
		off := int(i) * s.layers.pitch
		s.mem = s.layers.all[off : off+len(s.mem) : off+len(s.mem)]
	}
	return s
}

// setRTLayers runs SET_RT_LAYERS.
func (ex *executor) setRTLayers(p isa.Packet) {
	s, a := &ex.st, p.Args
	slot := a[0]
	if slot > isa.DSLayers {
		ex.fault("slot %d outside 0..%d (%d: the depth buffer)", slot, isa.DSLayers, isa.DSLayers)
		return
	}
	what, use, dst := "render target", useColor, &s.ds
	if slot == isa.DSLayers {
		what, use = "depth buffer", useDepth
	} else {
		dst = &s.rt[slot]
	}
	*dst = surface{}
	surf, ok := ex.surface(p, 1, what, use)
	if !ok {
		return
	}
	n, pitch := a[7], a[8]
	if n == 0 || n > maxLayers || n > 1 && uint64(pitch) < uint64(len(surf.mem)) {
		ex.fault("%s: %d slices %d bytes apart (1..%d slices, at least a slice's %d bytes apart)", what, n, pitch, maxLayers, len(surf.mem))
		return
	}
	all, ok := ex.bytes(what, p.Addr(1), uint64(pitch)*uint64(n-1)+uint64(len(surf.mem)))
	if !ok {
		return
	}
	surf.layers = &layers{all: all, n: int(n), pitch: int(pitch)}
	*dst = surf
}

// prepareLayers reads the geometry program's SV_RenderTargetArrayIndex
// output (SET_PROGRAM's system values, bits 16..23: its register + 1, 0
// for none) for a draw that starts at slice 0.
func (ex *executor) prepareLayers(outputs int) bool {
	ps := &ex.draw.prog
	sys := ex.st.prog[stageGS].sysReg
	ps.gsRT, ps.curRT = int(sys>>isa.RTArrayIndexShift&0xFF)-1, 0
	if ps.gsRT >= outputs || ps.gsRT >= 0 && (ps.gsRT == ps.gsPos || ps.gsRT == ps.gsVP) {
		ex.fault("geometry program: system values %#x: SV_RenderTargetArrayIndex in o%d, SV_Position in o%d, SV_ViewportArrayIndex in o%d, of %d outputs",
			sys, ps.gsRT, ps.gsPos, ps.gsVP, outputs)
		return false
	}
	return true
}

// useLayer makes slice i of the layered render targets and depth buffer
// the one the rasterizer draws into, for the primitives after it (slice 0
// of a target that has no slice i): the triangles batched so far are drawn
// first.
func (ex *executor) useLayer(i uint32) {
	d, s := &ex.draw, &ex.st
	if int64(i) == int64(d.prog.curRT) {
		return
	}
	d.flush()
	d.prog.curRT = int(i)
	p := &d.pipe
	for k := range s.rt {
		d.layerRTs[k] = s.rt[k].slice(i)
	}
	p.rts, p.rt = &d.layerRTs, d.layerRTs[0]
	if p.ds.bound() {
		p.ds = s.ds.slice(i)
	}
	// The fast paths' view of the target as words (pixelstage.go).
	if blk := &d.prog.block; blk.words != nil {
		blk.words = pixelWords(&p.rt)
	}
	if p.words != nil {
		p.words = pixelWords(&p.rt)
	}
	ex.watchLayer(i) // (watch.go)
}
