package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	"math"
	"math/bits"
)

// The geometry stage ("Geometry-Shader Stage"): between the vertex stage
// and the clipper. The input assembler's primitives, their vertices as
// the vertex program left them, go to the geometry program one primitive
// (and GS instance) a lane, shader.Lanes lanes a run; each lane's emit
// hands its o# registers over as the next vertex of its output strip and
// cut ends the strip. The strips are then cut into points, lines or
// triangles (a triangle strip's odd triangles with their first two
// vertices swapped, as the input assembler's) and clipped and rasterized
// like the input assembler's primitives, lane by lane in the order of
// the primitives and, within one, of the instances: the output is
// ordered as D3D11 orders it.

// gsVert is one emitted vertex, or a cut, of a stream (emit_stream m#).
type gsVert struct {
	v      cvert
	cut    bool
	stream uint8
}

// gsBatch is the primitives of one run of the geometry program.
type gsBatch struct {
	n       int                    // lanes filled
	out     [shader.Lanes][]gsVert // each lane's emits and cuts
	emitted [shader.Lanes]uint32   // each lane's vertices (at most dcl_maxout are kept)
}

// prepareGeometry checks the geometry program's declaration and system
// values against the GPU and binds its constants and textures.
func (ex *executor) prepareGeometry() bool {
	s, ps := &ex.st, &ex.draw.prog
	gp := ps.gs.prog
	ps.gsDecl = gp.GS()
	ps.gsPos = int(s.prog[stageGS].sysReg & 0xFF)
	if ps.gsPos >= gp.Outputs && s.so.on && !s.so.rasterize {
		ps.gsPos = -1 // stream output only: no position is needed
	} else if ps.gsPos >= gp.Outputs {
		ex.fault("geometry program: SV_Position in o%d, but the program has %d outputs", ps.gsPos, gp.Outputs)
		return false
	}
	if gp.Outputs > isa.MaxVaryings {
		ex.fault("geometry program: %d outputs, more than the %d the GPU interpolates", gp.Outputs, isa.MaxVaryings)
		return false
	}
	// SET_PROGRAM's system values: SV_ViewportArrayIndex's output + 1 in
	// bits 8..15 (0: none).
	ps.gsVP = int(s.prog[stageGS].sysReg>>8&0xFF) - 1
	if ps.gsVP >= gp.Outputs || ps.gsVP >= 0 && ps.gsVP == ps.gsPos || s.prog[stageGS].sysReg>>24 != 0 {
		ex.fault("geometry program: system values %#x: SV_ViewportArrayIndex in o%d, SV_Position in o%d, of %d outputs", s.prog[stageGS].sysReg, ps.gsVP, ps.gsPos, gp.Outputs)
		return false
	}
	if !ex.prepareLayers(gp.Outputs) { // (layers.go)
		return false
	}
	ps.curVP = 0
	if ps.hs != nil {
		if want := ps.ts.gsInput(); want != ps.gsDecl.Input {
			ex.fault("geometry program: its input primitive is %s, but the tessellator makes %s", gsPrimName(ps.gsDecl.Input), gsPrimName(want))
			return false
		}
	} else if want := gsInputOf(s.topo); want != ps.gsDecl.Input {
		ex.fault("geometry program: its input primitive is %s, but the topology %s makes %s", gsPrimName(ps.gsDecl.Input), topoName(s.topo), gsPrimName(want))
		return false
	}
	ps.gsConsts = cbView{bufs: &s.cb[stageGS]}
	ps.gsTex = texUnit{st: s, stage: stageGS}
	if err := ps.gs.m.Bind(&ps.gsConsts, &ps.gsTex); err != nil {
		ex.fault("geometry program: %v", err)
		return false
	}
	ps.gsBatch.n = 0
	return true
}

// gsInputOf is the geometry program's input primitive a topology makes
// (0 for none).
func gsInputOf(topo uint32) uint32 {
	switch topo {
	case isa.TopoPointList:
		return shaderisa.GSInPoint
	case isa.TopoLineList, isa.TopoLineStrip:
		return shaderisa.GSInLine
	case isa.TopoTriangleList, isa.TopoTriangleStrip:
		return shaderisa.GSInTriangle
	case isa.TopoLineListAdj, isa.TopoLineStripAdj:
		return shaderisa.GSInLineAdj
	case isa.TopoTriangleAdj, isa.TopoTriStripAdj:
		return shaderisa.GSInTriangleAdj
	}
	return 0
}

func gsPrimName(p uint32) string {
	switch p {
	case shaderisa.GSInPoint:
		return "point"
	case shaderisa.GSInLine:
		return "line"
	case shaderisa.GSInTriangle:
		return "triangle"
	case shaderisa.GSInLineAdj:
		return "lineadj"
	case shaderisa.GSInTriangleAdj:
		return "triangleadj"
	}
	return "no primitive"
}

func topoName(t uint32) string {
	switch t {
	case isa.TopoPointList:
		return "POINTLIST"
	case isa.TopoLineList:
		return "LINELIST"
	case isa.TopoLineStrip:
		return "LINESTRIP"
	case isa.TopoTriangleList:
		return "TRIANGLELIST"
	case isa.TopoTriangleStrip:
		return "TRIANGLESTRIP"
	case isa.TopoLineListAdj:
		return "LINELIST_ADJ"
	case isa.TopoLineStripAdj:
		return "LINESTRIP_ADJ"
	case isa.TopoTriangleAdj:
		return "TRIANGLELIST_ADJ"
	case isa.TopoTriStripAdj:
		return "TRIANGLESTRIP_ADJ"
	}
	return "UNDEFINED"
}

// assembleGS is assemble with a geometry program bound: every vertex of
// a primitive is shaded (the adjacent ones too) and the primitive goes to
// the geometry stage. SV_PrimitiveID counts the instance's primitives
// from 0.
func (ex *executor) assembleGS(indexed bool, count, start uint32) {
	s, d := &ex.st, &ex.draw
	topo := s.topo
	if topo == isa.TopoTriStripAdj {
		ex.assembleGSStripAdj(indexed, count, start)
		return
	}
	strip := isStrip(topo)
	cut := s.ib.cut()
	var ring [6]cvert
	var in [6]*cvert
	prim := uint32(0)
	send := func(idx ...int) {
		for j, r := range idx {
			in[j] = &ring[r]
		}
		ex.gsPrimitive(&in, len(idx), prim)
		prim++
	}
	k := 0
	for i := uint32(0); i < count && !d.prog.failed && !d.stop; i++ {
		if indexed && strip && s.ib.index(uint64(start)+uint64(i)) == cut {
			k = 0
			continue
		}
		switch topo {
		case isa.TopoPointList:
			ex.programVertex(i, &ring[0])
			send(0)
		case isa.TopoLineList:
			ex.programVertex(i, &ring[k])
			if k++; k == 2 {
				send(0, 1)
				k = 0
			}
		case isa.TopoLineStrip:
			ex.programVertex(i, &ring[k%2])
			if k >= 1 {
				send((k-1)%2, k%2)
			}
			k++
		case isa.TopoTriangleList:
			ex.programVertex(i, &ring[k])
			if k++; k == 3 {
				send(0, 1, 2)
				k = 0
			}
		case isa.TopoTriangleStrip:
			ex.programVertex(i, &ring[k%3])
			if k >= 2 {
				a, b, c := (k-2)%3, (k-1)%3, k%3
				if k%2 == 1 {
					a, b = b, a
				}
				send(a, b, c)
			}
			k++
		case isa.TopoLineListAdj:
			ex.programVertex(i, &ring[k])
			if k++; k == 4 {
				send(0, 1, 2, 3)
				k = 0
			}
		case isa.TopoLineStripAdj:
			ex.programVertex(i, &ring[k%4])
			if k >= 3 {
				send((k-3)%4, (k-2)%4, (k-1)%4, k%4)
			}
			k++
		case isa.TopoTriangleAdj:
			ex.programVertex(i, &ring[k])
			if k++; k == 6 {
				send(0, 1, 2, 3, 4, 5)
				k = 0
			}
		}
	}
	ex.gsRun()
}

// gsPrimitive puts one input primitive in the batch, a lane per GS
// instance, running the batch first when it is full.
func (ex *executor) gsPrimitive(in *[6]*cvert, n int, prim uint32) {
	ps := &ex.draw.prog
	dcl := &ps.gsDecl
	b := &ps.gsBatch
	inst := int(dcl.Instances)
	if b.n+inst > shader.Lanes {
		ex.gsRun()
		if ps.failed || ex.draw.stop {
			return
		}
	}
	ex.draw.ctr.iaPrims++
	m := ps.gs.m
	stride := int(dcl.Stride)
	pos := ps.vsPos
	if ps.ds != nil {
		pos = ps.ts.dsPos // the domain program's vertices
	}
	for v := range n {
		cv := in[v]
		for r := range stride {
			val := attrReg(cv, r, pos, ps.nattr) // (varyings.go)
			reg := m.In(v*stride + r)
			for c := range 4 {
				bits := math.Float32bits(float32(val[c]))
				for l := b.n; l < b.n+inst; l++ {
					reg[c][l] = bits
				}
			}
		}
	}
	pid, iid := m.In(int(dcl.PrimitiveIDReg())), m.In(int(dcl.PrimitiveIDReg())+1)
	for l := 0; l < inst; l++ {
		pid[0][b.n+l] = prim
		iid[0][b.n+l] = uint32(l)
		b.out[b.n+l] = b.out[b.n+l][:0]
		b.emitted[b.n+l] = 0
	}
	b.n += inst
}

// gsRun runs the geometry program over the batch's lanes and draws what
// they emitted, lane by lane.
func (ex *executor) gsRun() {
	d := &ex.draw
	ps := &d.prog
	b := &ps.gsBatch
	n := b.n
	b.n = 0
	if n == 0 || ps.failed || d.stop {
		return
	}
	m := ps.gs.m
	dcl := &ps.gsDecl
	outs := ps.gs.prog.Outputs
	flat := ps.flatRegs() // the pixel program's constant inputs: their bits, unchanged (interp.go)
	m.Emit = func(lanes uint64, cut bool, stream uint8) {
		for a := lanes; a != 0; a &= a - 1 {
			j := bits.TrailingZeros64(a)
			if cut {
				nextGSVert(&b.out[j], true, stream)
				continue
			}
			if b.emitted[j] >= dcl.MaxVertices {
				continue // past dcl_maxout: dropped
			}
			b.emitted[j]++
			v := &nextGSVert(&b.out[j], false, stream).v
			zeroCvert(v, ps.nattr) // (varyings.go)
			for r := range outs {
				o := m.Out(r)
				var val [4]float64
				for c := range 4 {
					if flat>>r&1 != 0 && r != ps.gsPos {
						val[c] = float64(o[c][j])
					} else {
						val[c] = float64(math.Float32frombits(o[c][j]))
					}
				}
				if r == ps.gsPos {
					v.p = val
				} else {
					copy(v.a[4*r:4*r+4], val[:])
				}
			}
		}
	}
	mask := uint64(1)<<n - 1
	if n == shader.Lanes {
		mask = shader.AllLanes
	}
	// The outputs start at zero for every run, as a vertex program's.
	for r := range outs {
		*m.Out(r) = shader.Vec{}
	}
	_, err := m.Run(mask)
	m.Emit = nil
	d.ctr.gsInv += uint64(n)
	d.vsInstrs += m.LaneSteps
	if err != nil {
		ps.fail("geometry", err)
		return
	}
	if !ex.checkpoint() {
		return
	}
	for j := range n {
		ex.gsDraw(b.out[j], dcl.Output)
		if d.stop {
			return
		}
	}
}

// nextGSVert appends a vertex (or a cut) to a lane's output, reusing the
// slice's room: its attributes are not cleared (a vertex of 32 registers
// is a kilobyte; the emit writes the draw's).
func nextGSVert(out *[]gsVert, cut bool, stream uint8) *gsVert {
	if len(*out) == cap(*out) {
		*out = append(*out, gsVert{})
	} else {
		*out = (*out)[:len(*out)+1]
	}
	g := &(*out)[len(*out)-1]
	g.cut, g.stream = cut, stream
	return g
}

// gsDraw cuts one lane's output strips into primitives and draws them.
// Each stream has its own strips; a stream's primitives go to the
// stream-output buffers that take it and, the rasterized stream's, on
// to the rasterizer (the others are dropped with no stream output).
func (ex *executor) gsDraw(vs []gsVert, topo uint32) {
	d := &ex.draw
	so := &ex.st.so
	defer func() { so.cur = 0 }()
	var ks [4]int
	var last [4][2]int // each stream's two latest vertices (indices in vs)
	for i := range vs {
		st := vs[i].stream & 3
		if vs[i].cut {
			ks[st] = 0
			continue
		}
		if st != uint8(so.rast) && !so.on {
			continue // a stream nothing takes
		}
		so.cur = uint32(st)
		k := ks[st]
		prev1, prev2 := last[st][0], last[st][1] // the stream's vertices before this one
		last[st] = [2]int{i, prev1}
		var drawn uint64
		made := false
		if ps := &ex.draw.prog; ps.gsVP >= 0 || ps.gsRT >= 0 {
			// The primitive's viewport and render target array slice:
			// its first vertex's SV_ViewportArrayIndex and
			// SV_RenderTargetArrayIndex.
			first := i
			switch {
			case topo == shaderisa.GSOutLineStrip && k >= 1:
				first = prev1
			case topo == shaderisa.GSOutTriangleStrip && k >= 2:
				first = prev2
			}
			if ps.gsVP >= 0 {
				ex.useViewport(math.Float32bits(float32(vs[first].v.a[4*ps.gsVP])))
			}
			if ps.gsRT >= 0 {
				ex.useLayer(math.Float32bits(float32(vs[first].v.a[4*ps.gsRT]))) // (layers.go)
			}
		}
		// The primitive is counted before it is drawn, as the input
		// assembler's are (draw.go): its fragments carry its index.
		switch topo {
		case shaderisa.GSOutPointList:
			d.prim++
			drawn, made = ex.outPoint(&vs[i].v), true
		case shaderisa.GSOutLineStrip:
			if k >= 1 {
				d.prim++
				drawn, made = ex.outLine(&vs[prev1].v, &vs[i].v), true
			}
		case shaderisa.GSOutTriangleStrip:
			if k >= 2 {
				a, b := &vs[prev2].v, &vs[prev1].v
				if k%2 == 1 {
					a, b = b, a
				}
				d.prim++
				drawn, made = ex.outTriangle(a, b, &vs[i].v), true
			}
		}
		ks[st]++
		if made {
			d.ctr.gsPrims++
			d.ctr.cInv++
			d.ctr.cPrims += drawn
		}
	}
}

// useViewport makes viewport i (and scissor rectangle i) the one the
// rasterizer draws into, for the primitives after it (an index past the
// viewports is viewport 0): the triangles batched so far are drawn first.
func (ex *executor) useViewport(i uint32) {
	d, s := &ex.draw, &ex.st
	if i >= isa.MaxViewports {
		i = 0
	}
	if int(i) == d.prog.curVP {
		return
	}
	d.flush()
	d.prog.curVP = int(i)
	if i == 0 {
		d.vp = s.vp
	} else {
		d.vp = s.vpN[i]
	}
	ex.viewportBounds(int(i))
	p := &d.pipe
	p.zmin, p.zmax = min(d.vp.minZ, d.vp.maxZ), max(d.vp.minZ, d.vp.maxZ)
}
