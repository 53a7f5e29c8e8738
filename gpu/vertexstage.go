package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	tfmt "d3dsim/gpu/texel"
	"encoding/binary"
	"math"
	"math/bits"
)

// The programmable vertex stage: the draw's vertices, in the order the
// primitive assembler asks for them, are fetched through the layout (SET_LAYOUT)
// and shaded shader.Lanes at a time; assemble then takes them one by one.

// vsChunk is a block of shaded vertices: draw vertices base..base+n-1.
type vsChunk struct {
	base uint32
	n    int
	out  [shader.Lanes]cvert
}

// drawParams are the draw packet's, for the vertex stage.
type drawParams struct {
	indexed, strip bool
	count, start   uint32
	base           int32

	instance, startInstance uint32
}

// programVertex returns draw vertex i (the i-th of the draw) shaded by the
// vertex program.
func (ex *executor) programVertex(i uint32, out *cvert) {
	c := &ex.draw.prog.chunk
	if c.n == 0 || i < c.base || i-c.base >= uint32(c.n) {
		ex.shadeVertices(i)
	}
	n := ex.draw.prog.nattr
	if ex.draw.prog.failed || ex.draw.stop {
		zeroCvert(out, n) // w = 0: outside the clip volume, drawn nowhere
		return
	}
	copyCvert(out, &c.out[i-c.base], n) // the draw's attributes only (varyings.go)
}

// chunkTriangles draws the triangles of a triangle list from draw vertex i
// (the first of a triangle) to the end of the block of shaded vertices
// that holds it, reading their vertices in place in the block (no copy
// into the assembler's ring), and returns the vertices it took: 0 when
// the draw failed or stopped or the triangle at i ends in the next block
// (then programVertex, vertex by vertex: the block that holds i is shaded
// already, the vertices are the same). Like assemble, it stops after a
// triangle that failed or stopped the draw.
func (ex *executor) chunkTriangles(i, count uint32) uint32 {
	d := &ex.draw
	c := &d.prog.chunk
	if c.n == 0 || i < c.base || i-c.base >= uint32(c.n) {
		ex.shadeVertices(i)
	}
	n, end := uint32(0), min(c.n, int(count-c.base)) // (the draw's vertices in the block)
	for j := int(i - c.base); j+3 <= end && !d.prog.failed && !d.stop; j += 3 {
		v := (*[3]cvert)(c.out[j:])
		d.prim++
		ex.assembled(ex.outTriangle(&v[0], &v[1], &v[2]))
		n += 3
	}
	return n
}

// shadeVertices fetches and shades draw vertices i0.. (a block).
func (ex *executor) shadeVertices(i0 uint32) {
	s, d := &ex.st, &ex.draw
	ps, dp := &d.prog, &d.params
	c := &ps.chunk
	m := ps.vs.m
	n := int(min(uint32(shader.Lanes), dp.count-i0))
	c.base, c.n = i0, n
	if ps.vs.movedOut != nil && !dp.indexed && ex.g.swatch == nil && ps.gs == nil && ps.hs == nil && !d.direct.off &&
		ex.directVertices(int64(dp.start)+int64(i0), n) {
		return
	}
	// Every lane of every input register reads zero but for what the
	// fetch below writes; only the lanes the last block wrote can be
	// other than zero.
	// (A linear fetch writes every component of its elements' registers in
	// lanes 0..n-1: those are not cleared first.)
	linear := !dp.indexed && ex.linearFetch(int64(dp.start)+int64(i0), n)
	var full uint64
	if linear {
		full = ex.draw.fetch.full
	}
	if z := max(ps.vs.inLanes, n); z > 0 {
		for r := range ps.vsIn {
			in, lo := m.In(r), 0
			if full>>(r&63)&1 != 0 {
				lo = n
			}
			for j := lo; j < z; j++ {
				in[0][j], in[1][j], in[2][j], in[3][j] = 0, 0, 0, 0
			}
		}
	}
	ps.vs.inLanes = n
	cut := s.ib.cut()
	var mask uint64
	linear = linear && ex.fetchLinear(m, int64(dp.start)+int64(i0), n)
	if linear {
		mask = ^uint64(0) >> (shader.Lanes - n)
	}
	for j := range n {
		if linear {
			break // fetched by fetchLinear
		}
		i := i0 + uint32(j)
		var v int64
		var vid uint32
		if dp.indexed {
			idx := s.ib.index(uint64(dp.start) + uint64(i))
			if dp.strip && idx == cut {
				continue // assemble restarts the strip: never asks for it
			}
			v, vid = int64(idx)+int64(dp.base), idx
		} else {
			v = int64(dp.start) + int64(i)
			vid = uint32(v)
		}
		mask |= 1 << j
		for k := range s.layout.n {
			e := &s.layout.els[k]
			if int(e.Reg) >= ps.vsIn {
				continue // an element the program does not read
			}
			vi := v
			if e.PerInstance {
				vi = int64(dp.startInstance)
				if e.StepRate != 0 {
					vi += int64(dp.instance / e.StepRate)
				}
			}
			fetchElement(&s.vb[e.Slot], vi, e, m.In(int(e.Reg)), j)
		}
		if r := int(s.layout.vid); r < ps.vsIn {
			m.In(r)[0][j] = vid
		}
		if r := int(s.layout.iid); r < ps.vsIn {
			m.In(r)[0][j] = dp.instance
		}
	}
	if mask == 0 {
		return
	}
	d.ctr.vsInv += uint64(bits.OnesCount64(mask))
	var tr *shader.Trace
	if ex.g.swatch != nil {
		if tr = ex.traceVertices(m, i0, n, dp.instance); tr != nil {
			w := ex.g.swatch
			if dp.indexed {
				w.VertexID = s.ib.index(uint64(dp.start) + uint64(w.Vertex))
			} else {
				w.VertexID = dp.start + w.Vertex
			}
		}
	}
	moves := ps.vs.moves
	if tr != nil {
		moves = nil // traced: the program runs on the machine, and its outputs are the machine's
	}
	if moves != nil {
		// The outputs are read straight from the inputs below (movedLanes).
		d.vsInstrs += uint64(len(ps.vs.prog.Code) * bits.OnesCount64(mask)) // what the program would have run
	} else {
		_, err := m.Run(mask)
		if tr != nil {
			ex.endTrace(m, tr)
		}
		d.vsInstrs += m.LaneSteps
		if err != nil {
			ps.fail("vertex", err)
			return
		}
	}
	if !ex.checkpoint() {
		return
	}
	// The varyings: the program's outputs, and zeros up to the draw's
	// attributes (varyings.go: the registers the pixel program reads, or
	// a later stage writes).
	outs := ps.vs.prog.Outputs
	vary := ps.nattr / 4
	flat := ps.flatRegs()
	if ps.gs != nil || ps.hs != nil {
		flat = 0 // the geometry or hull program reads values; its outputs are the pixel program's inputs
	}
	src := ps.vs.outLanes
	if moves != nil {
		src = ps.vs.movedOut // the outputs read straight from the inputs
	}
	d.direct.kept = 0 // (vertexOuts writes the components directOuts keeps)
	vertexOuts(&ps.outPlan, &c.out, mask, src, ps.vsPos, vary, outs, flat)
}

// laneSrc is where a vertex program's output component is read from: the
// lanes of a register, or when v is nil the immediate every lane has.
type laneSrc struct {
	v   *[shader.Lanes]uint32
	imm uint32
}

// vertexLanes makes a vertex program's tables of laneSrc (progEntry): its
// outputs in m, and for a program of movs (moves, or nil) what each output
// component copies (movedLanes).
func vertexLanes(m *shader.Machine, outs int, moves []vsMove) (out, moved *[isa.MaxVaryings][4]laneSrc) {
	out = new([isa.MaxVaryings][4]laneSrc)
	for r := range outs {
		for c := range 4 {
			out[r][c].v = &m.Out(r)[c]
		}
	}
	if moves != nil {
		moved = new([isa.MaxVaryings][4]laneSrc)
		for r := range outs {
			for c := range 4 {
				moved[r][c].v, moved[r][c].imm = movedLanes(m, &moves[4*r+c])
			}
		}
	}
	return out, moved
}

// vertexOuts converts the outputs of the block's lanes in mask to
// clip-space vertices: the position (output pos, or none when it is below
// 0) and vary varyings, output r's component c read from src[r][c], as a
// float (or, for the constant registers of flat, its bits unchanged:
// interp.go), zeros for the registers past the program's outs. The work is a
// table (outPlan) made once for the arguments and kept while they stay the
// same, draw after draw: the components read from lanes, the constant ones,
// and the runs of zeros, cleared a vertex at a time.
func vertexOuts(plan *outPlan, out *[shader.Lanes]cvert, mask uint64, src *[isa.MaxVaryings][4]laneSrc, pos, vary, outs int, flat uint32) {
	plan.ensure(src, pos, vary, outs, flat)
	var buf [shader.Lanes]uint8
	lanes := buf[:0]
	for w := mask; w != 0; w &= w - 1 {
		lanes = append(lanes, uint8(bits.TrailingZeros64(w)))
	}
	const lm = shader.Lanes - 1
	for k := range 4 {
		op := &plan.pos[k]
		if op.v == nil {
			for _, j := range lanes {
				out[j&lm].p[k] = op.x
			}
			continue
		}
		v := op.v
		for _, j := range lanes {
			out[j&lm].p[k] = float64(math.Float32frombits(v[j&lm]))
		}
	}
	plan.constants(out, mask)
	for i := range plan.ops {
		op := &plan.ops[i]
		a, v := int(op.i)&(numAttr-1), op.v
		if op.raw {
			for _, j := range lanes {
				out[j&lm].a[a] = float64(v[j&lm])
			}
			continue
		}
		for _, j := range lanes {
			out[j&lm].a[a] = float64(math.Float32frombits(v[j&lm]))
		}
	}
}

// ensure makes the table for its arguments unless it has it.
func (plan *outPlan) ensure(src *[isa.MaxVaryings][4]laneSrc, pos, vary, outs int, flat uint32) {
	if k := &plan.key; !plan.ok || k.src != src || k.pos != pos || k.vary != vary || k.outs != outs || k.flat != flat {
		plan.make(outKey{src, pos, vary, outs, flat}) // (compared field by field: the struct's == is a call)
	}
}

// constants writes the constant components (the zero runs and the
// immediates) of the vertices of out in mask, only in the lanes that do
// not hold them already: out is the chunk's, which only vertexOuts and
// directOuts write, and the table's components are its alone.
func (plan *outPlan) constants(out *[shader.Lanes]cvert, mask uint64) {
	const lm = shader.Lanes - 1
	if plan.out != out {
		plan.out, plan.kept = out, 0
	}
	if fresh := mask &^ plan.kept; fresh != 0 {
		for w := fresh; w != 0; w &= w - 1 {
			o := &out[bits.TrailingZeros64(w)&lm]
			for _, z := range plan.zero {
				clear(o.a[z[0]:z[1]])
			}
			for i := range plan.consts {
				op := &plan.consts[i]
				o.a[op.i&(numAttr-1)] = op.x
			}
		}
		plan.kept |= fresh
	}
}

// outKey is what vertexOuts' table depends on.
type outKey struct {
	src             *[isa.MaxVaryings][4]laneSrc
	pos, vary, outs int
	flat            uint32
}

// outOp is one output component: its attribute, and its lanes (v, as a
// float or, raw, as the integer its bits are) or the constant x.
type outOp struct {
	v   *[shader.Lanes]uint32
	x   float64
	i   uint16
	raw bool
}

// outPlan is vertexOuts' table for one key: the position's four components,
// the attribute components read from lanes, the constant ones that are not
// zero, and the runs of attributes that are (each [first, end)); and the
// lanes of out that hold the constant ones and the zeros already. The table is a function of the key alone
// (the laneSrc tables are made once a program entry, vertexLanes), so the
// values written are those a walk component by component writes.
type outPlan struct {
	ok     bool
	key    outKey
	pos    [4]outOp
	ops    []outOp // read from lanes
	consts []outOp // immediates other than zero
	zero   [][2]uint16
	out    *[shader.Lanes]cvert // the vertices whose kept lanes hold consts and zero
	kept   uint64
}

func (p *outPlan) make(k outKey) {
	p.ok, p.key, p.ops, p.consts, p.zero, p.out, p.kept = true, k, p.ops[:0], p.consts[:0], p.zero[:0], nil, 0
	var zero laneSrc // no position, past the outputs, the position's register: zeros
	for c := range 4 {
		s := &zero
		if k.pos >= 0 {
			s = &k.src[k.pos&(isa.MaxVaryings-1)][c]
		}
		p.pos[c] = outOp{v: s.v, x: float64(math.Float32frombits(s.imm))}
	}
	for r := range min(k.vary, isa.MaxVaryings) {
		fl := k.flat>>r&1 != 0
		for c := range 4 {
			s := &zero
			if r < k.outs && r != k.pos {
				s = &k.src[r][c]
			}
			i := uint16((4*r + c) & (numAttr - 1))
			op := outOp{v: s.v, i: i, raw: fl && s.v != nil}
			if s.v == nil {
				op.x = float64(math.Float32frombits(s.imm))
				if fl {
					op.x = float64(s.imm)
				}
				if math.Float64bits(op.x) == 0 {
					if n := len(p.zero); n > 0 && p.zero[n-1][1] == i {
						p.zero[n-1][1] = i + 1
					} else {
						p.zero = append(p.zero, [2]uint16{i, i + 1})
					}
					continue
				}
				p.consts = append(p.consts, op)
				continue
			}
			p.ops = append(p.ops, op)
		}
	}
}

// movedLanes is output component mv's lanes for a program of movs only
// (movesOnly): the input component it copies, or nil and its immediate
// (moveZero's is 0). The vertex stage reads a draw's vertices' outputs this
// way instead of running the movs over the machine's registers.
func movedLanes(m *shader.Machine, mv *vsMove) (*[shader.Lanes]uint32, uint32) {
	if mv.kind == moveInput {
		return &m.In(int(mv.reg))[mv.src], 0
	}
	return nil, mv.imm
}

// fetchLinear is the fetch of shadeVertices for n consecutive vertices
// v0.. of a draw that is not indexed, when every element the program reads is
// per vertex, of 32-bit components, and inside its buffer for all n (the
// bounds checked once, for the last): element by element, lane by lane,
// the same words fetchElement writes. It reports false, having written
// nothing, for any other draw.
func (ex *executor) fetchLinear(m *shader.Machine, v0 int64, n int) bool {
	s, ps, dp := &ex.st, &ex.draw.prog, &ex.draw.params
	if !ex.linearFetch(v0, n) {
		return false
	}
	fc := &ex.draw.fetch
	for k := range fc.nels {
		e := &fc.els[k&(isa.MaxVertexElements-1)]
		fetchWords(m.In(int(e.reg)), e.mem, e.at+e.stride*uint64(v0), e.stride, n, int(e.w), e.one)
	}
	if r := int(s.layout.vid); r < ps.vsIn {
		for j := range n {
			m.In(r)[0][j] = uint32(v0 + int64(j))
		}
	}
	if r := int(s.layout.iid); r < ps.vsIn {
		for j := range n {
			m.In(r)[0][j] = dp.instance
		}
	}
	return true
}

// linearFetch reports whether fetchLinear takes vertices v0..v0+n-1. The
// elements' checks are a function of the state (the layout and the vertex
// buffers, which only state packets set) and the program's inputs: made once
// a state generation (ex.gen, bumped by every packet that is not a draw and
// by every buffer), they leave a draw one comparison, its last vertex
// against the last every element holds.
func (ex *executor) linearFetch(v0 int64, n int) bool {
	if v0 < 0 || n == 0 {
		return false
	}
	fc, vsIn := &ex.draw.fetch, ex.draw.prog.vsIn
	if !fc.ok || fc.gen != ex.gen || fc.vsIn != vsIn {
		fc.ok, fc.gen, fc.vsIn = true, ex.gen, vsIn
		fc.linear, fc.maxLast, fc.full = ex.fetchBounds(fc)
	}
	return fc.linear && uint64(v0)+uint64(n-1) <= fc.maxLast
}

// fetchCheck is fetchLinear's checks of the elements for one state
// generation and the program's inputs.
type fetchCheck struct {
	ok      bool
	gen     uint64
	vsIn    int
	linear  bool   // every element the program reads is per vertex, of 32-bit components
	maxLast uint64 // the last vertex every such element holds whole in its buffer
	full    uint64 // the input registers such elements write, every component
	// the elements, in the layout's order: what fetchWords needs of each
	els  [isa.MaxVertexElements]linearEl
	nels int
}

// linearEl is an element fetchLinear fetches: its register, its words and
// the value of the components past them, and where vertex 0's are.
type linearEl struct {
	mem        []byte
	at, stride uint64
	reg, w     uint8
	one        uint32
}

// fetchBounds is fetchCheck's figures: whether every element the program
// reads may be fetched by fetchLinear, and the last vertex whose elements
// all lie in their buffers (vertex l's element lies in its buffer when
// offset + stride*l + the element's offset + its size <= the buffer's
// size; when no vertex does, linear is false); and it lists the elements
// in fc.els.
func (ex *executor) fetchBounds(fc *fetchCheck) (linear bool, maxLast, full uint64) {
	s, ps := &ex.st, &ex.draw.prog
	maxLast = math.MaxUint64
	fc.nels = 0
	for k := range s.layout.n {
		e := &s.layout.els[k]
		if int(e.Reg) >= ps.vsIn {
			continue
		}
		if e.PerInstance || vtxWords(e.Format) == 0 {
			return false, 0, 0
		}
		vb := &s.vb[e.Slot]
		end, mem := vb.offset+uint64(e.Offset)+uint64(e.Format.Size()), uint64(len(vb.mem))
		if vb.stride == 0 || end > mem {
			return false, 0, 0
		}
		maxLast = min(maxLast, (mem-end)/vb.stride)
		full |= 1 << (e.Reg & 63)
		one := math.Float32bits(1)
		if e.Format.Int() {
			one = 1
		}
		fc.els[fc.nels&(isa.MaxVertexElements-1)] = linearEl{mem: vb.mem, at: vb.offset + uint64(e.Offset), stride: vb.stride, reg: e.Reg, w: uint8(vtxWords(e.Format)), one: one}
		fc.nels++
	}
	return true, maxLast, full
}

// fetchWords writes lanes 0..n-1 of in from n vertices of w 32-bit words
// (1 to 4), the first at mem[at], stride bytes apart; the components past
// w read 0, 0 and one. The caller has checked that they are in mem.
func fetchWords(in *shader.Vec, mem []byte, at, stride uint64, n, w int, one uint32) {
	const lm = shader.Lanes - 1
	x, y, z, q := &in[0], &in[1], &in[2], &in[3]
	for j := range n {
		b := mem[at : at+uint64(4*w)]
		at += stride
		k := j & lm
		switch len(b) {
		case 16:
			x[k], y[k], z[k], q[k] = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:]), binary.LittleEndian.Uint32(b[12:])
		case 12:
			x[k], y[k], z[k], q[k] = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:]), one
		case 8:
			x[k], y[k], z[k], q[k] = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), 0, one
		default:
			x[k], y[k], z[k], q[k] = binary.LittleEndian.Uint32(b), 0, 0, one
		}
	}
}

// vtxWords is the 32-bit words of a vertex format of 32-bit components, 0
// for any other.
func vtxWords(f isa.VertexFormat) int {
	switch f {
	case isa.VtxRGBA32F, isa.VtxRGBA32UI, isa.VtxRGBA32SI:
		return 4
	case isa.VtxRGB32F, isa.VtxRGB32UI, isa.VtxRGB32SI:
		return 3
	case isa.VtxRG32F, isa.VtxRG32UI, isa.VtxRG32SI:
		return 2
	case isa.VtxR32F, isa.VtxR32UI, isa.VtxR32SI:
		return 1
	}
	return 0
}

// fetchElement reads element e of vertex (or instance) v from vb into lane
// j of register in as four words: the format's components, then the
// defaults 0, 0, 0, 1 (written in place: a returned array cost a copy
// per element).
// An element not wholly inside the buffer (or of a negative vertex) reads
// zeros: the input assembler's bounded fetch (draw.go).
func fetchElement(vb *vbuf, v int64, e *isa.VertexElement, in *shader.Vec, j int) {
	one := math.Float32bits(1)
	if e.Format.Int() {
		one = 1
	}
	in[0][j], in[1][j], in[2][j], in[3][j] = 0, 0, 0, one
	n := uint64(len(vb.mem))
	if v < 0 || vb.offset > n {
		return
	}
	var base uint64
	if vb.stride != 0 {
		if uint64(v) > (n-vb.offset)/vb.stride {
			return
		}
		base = vb.stride * uint64(v)
	}
	base += vb.offset // <= n
	size := uint64(e.Format.Size())
	if uint64(e.Offset) > n-base || n-base-uint64(e.Offset) < size {
		return
	}
	b := vb.mem[base+uint64(e.Offset):]
	switch e.Format {
	case isa.VtxRGBA8, isa.VtxBGRA8:
		for k := range 4 {
			in[k][j] = math.Float32bits(float32(b[k]) / 255)
		}
		if e.Format == isa.VtxBGRA8 {
			in[0][j], in[2][j] = in[2][j], in[0][j]
		}
	case isa.VtxRGBA8UI:
		for k := range 4 {
			in[k][j] = uint32(b[k])
		}
	case isa.VtxRGBA32F, isa.VtxRGBA32UI, isa.VtxRGBA32SI:
		b = b[:16] // (one bounds check for the four words)
		in[0][j], in[1][j], in[2][j], in[3][j] = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]),
			binary.LittleEndian.Uint32(b[8:]), binary.LittleEndian.Uint32(b[12:])
	case isa.VtxRGB32F, isa.VtxRGB32UI, isa.VtxRGB32SI:
		b = b[:12]
		in[0][j], in[1][j], in[2][j] = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	case isa.VtxRG32F, isa.VtxR32F, isa.VtxRG32UI, isa.VtxR32UI, isa.VtxRG32SI, isa.VtxR32SI:
		for k := range e.Format.Components() {
			in[k][j] = binary.LittleEndian.Uint32(b[4*k:])
		}
	default:
		// Every other format through the texture unit's decoder: the
		// same numbers a texel of the format reads as.
		v := tfmt.Decode(e.Format.Texel(), b)
		in[0][j], in[1][j], in[2][j], in[3][j] = v[0], v[1], v[2], v[3]
	}
}
