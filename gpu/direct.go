package gpu

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
)

// The outputs of a vertex program of movs read straight from the vertex
// buffers.
//
// A draw of a few vertices whose vertex program only moves its inputs to
// its outputs (movesOnly: vs_passthrough, and what the HLSL compiler makes
// of a shader returning its input) fetched each vertex's elements into the
// machine's input lanes (fetchLinear) and then converted the lanes the
// outputs copy to clip-space vertices (vertexOuts): every word written once
// and read once more. When the fetch is linear (fetchLinear would take the
// vertices) and nothing else reads the input lanes — no geometry or
// tessellation stage, no shader watch, no vertex or instance id in the
// inputs — directOuts reads each output component's word from its element
// in the buffer, where fetchWords would have read it, and writes the vertex:
// the same values, the input lanes never written. directPlan is the table
// of where each of vertexOuts' components comes from, made once for the
// output table (outPlan) and the fetch's elements (fetchCheck, a state
// generation's).

// directPlan is directOuts' table: for the position's four components and
// each of the output table's components read from lanes, the element's
// words or the constant the lane would hold (ops, made first), and the same
// as runs of consecutive words of one element written to consecutive
// components of the vertex (runs) and the constants (fixed).
type directPlan struct {
	ok, usable bool
	key        outKey
	gen        uint64 // the fetch's elements' (fetchCheck.gen, .vsIn)
	vsIn       int
	ops        []directOp // the position's four components, then outPlan.ops, in order
	runs       []directOp // ops of words, k consecutive ones at a time
	fixed      []directOp // ops of constants
	hits       uint64     // blocks it shaded (for tests)
	off        bool       // every block through the input lanes (for tests: the reference)

	// kept: the lanes of keptOut (the block's) that hold the fixed
	// components already: directOuts wrote them last with this table
	// (make and vertexOuts, which writes those components from lanes,
	// clear it).
	kept    uint64
	keptOut *[shader.Lanes]cvert
}

// directOp is one output component, or k consecutive ones: vertex v's
// words at mem[at+stride*v:] (as floats, or raw, their bits as integers),
// or, when mem is nil, x; written to the vertex's component d (its
// position's four, then its attributes: vertexWords).
type directOp struct {
	mem        []byte
	at, stride uint64
	x          float64
	raw        bool
	d, k       int
}

// vertexWords is a clip-space vertex as one array: the position's four
// components, then the attributes.
type vertexWords = [4 + numAttr]float64

// (cvert is vertexWords: the same size, its attributes right after the
// position; either array bound below is negative, a compile error, if not)
var (
	_ [unsafe.Sizeof(cvert{}) - unsafe.Sizeof(vertexWords{})]struct{}
	_ [unsafe.Sizeof(vertexWords{}) - unsafe.Sizeof(cvert{})]struct{}
	_ [unsafe.Offsetof(cvert{}.a) - 4*8]struct{}
	_ [4*8 - unsafe.Offsetof(cvert{}.a)]struct{}
)

// directVertices shades the n vertices v0.. of the draw's block through
// directOuts and reports true, or reports false, having done nothing, when
// the table does not apply (see directPlan).
func (ex *executor) directVertices(v0 int64, n int) bool {
	s, d := &ex.st, &ex.draw
	ps := &d.prog
	if int(s.layout.vid) < ps.vsIn || int(s.layout.iid) < ps.vsIn || !ex.linearFetch(v0, n) {
		return false
	}
	fc := &d.fetch
	src, pos, vary, outs, flat := ps.vs.movedOut, ps.vsPos, ps.nattr/4, ps.vs.prog.Outputs, ps.flatRegs()
	if ps.ps != nil && !s.so.on && d.cd.nclip == 0 && d.cd.ncull == 0 {
		// Past the pixel program's inputs a varying is the stream
		// output's or a clip or cull distance's (varyings.go): with
		// neither, the vertex program's other outputs are read by
		// nothing (the clipper and the lines copy them, no more). The
		// block's attributes there keep what they held.
		vary = min(vary, ps.psIn)
	}
	plan := &ps.outPlan
	plan.ensure(src, pos, vary, outs, flat)
	dt := &d.direct
	if k := &dt.key; !dt.ok || k.src != plan.key.src || k.pos != plan.key.pos || k.vary != plan.key.vary || k.outs != plan.key.outs ||
		k.flat != plan.key.flat || dt.gen != fc.gen || dt.vsIn != fc.vsIn { // (field by field: the struct's != is a call)
		dt.make(plan, fc, ps.vs.m, ps.vsIn)
	}
	if !dt.usable {
		return false
	}
	dt.hits++
	d.ctr.vsInv += uint64(n)
	d.vsInstrs += uint64(len(ps.vs.prog.Code) * n) // what the program would have run
	if !ex.checkpoint() {
		return true
	}
	out := &ps.chunk.out
	directOuts(dt, plan, out, v0, n)
	return true
}

// make fills the table for plan and the fetch's elements fc, of machine m
// with vsIn input registers. It is usable unless an output copies an input
// register past vsIn (whose lanes no fetch clears).
func (dt *directPlan) make(plan *outPlan, fc *fetchCheck, m *shader.Machine, vsIn int) {
	dt.ok, dt.usable, dt.key, dt.gen, dt.vsIn, dt.kept = true, true, plan.key, fc.gen, fc.vsIn, 0
	op := func(o *outOp, d int) directOp {
		if o.v == nil {
			return directOp{x: o.x, d: d, k: 1}
		}
		for r := range vsIn {
			in := m.In(r)
			for c := range 4 {
				if o.v != &in[c] {
					continue
				}
				// The lane holds what the last element of register r
				// fetched (fetchLinear fetches in the layout's order), or
				// zero.
				op := directOp{raw: o.raw, d: d, k: 1}
				for k := range fc.nels {
					e := &fc.els[k&(isa.MaxVertexElements-1)]
					if int(e.reg) != r {
						continue
					}
					switch {
					case c < int(e.w):
						op = directOp{mem: e.mem, at: e.at + 4*uint64(c), stride: e.stride, raw: o.raw, d: d, k: 1}
					case c == 3:
						op = directOp{x: laneValue(e.one, o.raw), d: d, k: 1}
					default:
						op = directOp{d: d, k: 1}
					}
				}
				return op
			}
		}
		dt.usable = false
		return directOp{}
	}
	dt.ops, dt.runs, dt.fixed = dt.ops[:0], dt.runs[:0], dt.fixed[:0]
	for k := range plan.pos {
		dt.ops = append(dt.ops, op(&plan.pos[k], k))
	}
	for i := range plan.ops {
		dt.ops = append(dt.ops, op(&plan.ops[i], 4+int(plan.ops[i].i)&(numAttr-1)))
	}
	for _, o := range dt.ops {
		if o.mem == nil {
			dt.fixed = append(dt.fixed, o)
			continue
		}
		if n := len(dt.runs); n > 0 {
			r := &dt.runs[n-1]
			if r.k < 4 && unsafe.SliceData(r.mem) == unsafe.SliceData(o.mem) && len(r.mem) == len(o.mem) && r.stride == o.stride &&
				r.raw == o.raw && o.at == r.at+4*uint64(r.k) && o.d == r.d+r.k {
				r.k++
				continue
			}
		}
		dt.runs = append(dt.runs, o)
	}
}

// laneValue is a lane's word w as vertexOuts converts it.
func laneValue(w uint32, raw bool) float64 {
	if raw {
		return float64(w)
	}
	return float64(math.Float32frombits(w))
}

// directOuts writes vertices v0..v0+n-1 into lanes 0..n-1 of out: what
// fetchLinear and vertexOuts write there. The caller has checked that
// their words are in their buffers (linearFetch).
func directOuts(dt *directPlan, plan *outPlan, out *[shader.Lanes]cvert, v0 int64, n int) {
	const lm = shader.Lanes - 1
	mask := ^uint64(0) >> (shader.Lanes - n)
	plan.constants(out, mask)
	if dt.keptOut != out {
		dt.keptOut, dt.kept = out, 0
	}
	if fresh := mask &^ dt.kept; fresh != 0 {
		for _, o := range dt.fixed {
			d := o.d % len(vertexWords{})
			for w := fresh; w != 0; w &= w - 1 {
				(*vertexWords)(unsafe.Pointer(&out[bits.TrailingZeros64(w)&lm]))[d] = o.x
			}
		}
		dt.kept |= fresh
	}
	for i := range dt.runs {
		r := &dt.runs[i]
		mem, stride, d, k := r.mem, r.stride, r.d, r.k
		at := r.at + stride*uint64(v0)
		if r.raw || d > len(vertexWords{})-k {
			for j := range n {
				f := (*vertexWords)(unsafe.Pointer(&out[j&lm]))
				b := mem[at : at+4*uint64(k)]
				for c := range k {
					f[(d+c)%len(vertexWords{})] = laneValue(binary.LittleEndian.Uint32(b[4*c:]), r.raw)
				}
				at += stride
			}
			continue
		}
		// (k words of a vertex as floats, unrolled: one bounds check a
		// vertex for the words and one for the components; the switch
		// outside the vertices' loop)
		switch k {
		case 4:
			for j := range n {
				f := (*vertexWords)(unsafe.Pointer(&out[j&lm]))
				g, b := (*[4]float64)(f[d:d+4]), (*[16]byte)(mem[at:at+16])
				g[0], g[1] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[0:]))), float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4:])))
				g[2], g[3] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[8:]))), float64(math.Float32frombits(binary.LittleEndian.Uint32(b[12:])))
				at += stride
			}
		case 3:
			for j := range n {
				f := (*vertexWords)(unsafe.Pointer(&out[j&lm]))
				g, b := (*[3]float64)(f[d:d+3]), (*[12]byte)(mem[at:at+12])
				g[0], g[1] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[0:]))), float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4:])))
				g[2] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[8:])))
				at += stride
			}
		case 2:
			for j := range n {
				f := (*vertexWords)(unsafe.Pointer(&out[j&lm]))
				g, b := (*[2]float64)(f[d:d+2]), (*[8]byte)(mem[at:at+8])
				g[0], g[1] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[0:]))), float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4:])))
				at += stride
			}
		default:
			for j := range n {
				f := (*vertexWords)(unsafe.Pointer(&out[j&lm]))
				f[d] = float64(math.Float32frombits(binary.LittleEndian.Uint32(mem[at:])))
				at += stride
			}
		}
	}
}
