package gpu

import (
	"bytes"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Programmable draws: SET_PROGRAM binds a gpu/shaderisa program from GPU
// memory to a stage, SET_LAYOUT describes the vertex fetch (package isa's
// layout.go has the formats). The GPU decodes the words at the program's
// address at the draw, through a cache, and runs the vertex stage
// (vertexstage.go) and the pixel stage (pixelstage.go) through package
// shader; clipping, rasterization, depth and blending are the
// fixed-function pipeline's.

// maxProgramWords bounds SET_PROGRAM's size: far more than any D3D11
// shader needs, small enough that a bad size is refused before decoding.
const maxProgramWords = 1 << 20

// progBinding is SET_PROGRAM's state for one stage.
type progBinding struct {
	addr   uint64 // its GPU address
	mem    []byte // the program's words in GPU memory
	sysReg uint32
	bound  bool
}

// layoutState is SET_LAYOUT's state.
type layoutState struct {
	n   int
	els [isa.MaxVertexElements]isa.VertexElement
	vid uint8 // SV_VertexID input register, or isa.NoReg
	iid uint8 // SV_InstanceID input register, or isa.NoReg
}

// setProgramState runs SET_PROGRAM and SET_LAYOUT.
func (ex *executor) setProgramState(p isa.Packet) {
	s, a := &ex.st, p.Args
	switch p.Op {
	case isa.OpSetProgram:
		stage, addr, words, sys := a[0], p.Addr(1), a[3], a[4]
		if !ex.stageOK(&stage) {
			return
		}
		s.prog[stage] = progBinding{}
		if addr == 0 && words == 0 {
			return
		}
		if words == 0 || words > maxProgramWords {
			ex.fault("program of %d words outside 1..%d", words, maxProgramWords)
			return
		}
		if mem, ok := ex.bytes("program", addr, 4*uint64(words)); ok {
			s.prog[stage] = progBinding{addr: addr, mem: mem, sysReg: sys, bound: true}
		}
	case isa.OpSetLayout:
		l, err := isa.ParseLayout(a)
		if err != nil {
			ex.fault("%v", err)
			return
		}
		s.layout = layoutState{n: copy(s.layout.els[:], l.Elements), els: s.layout.els, vid: l.VertexIDReg, iid: l.InstanceIDReg}
	}
}

// progEntry is a decoded program in the cache, with the machine that runs
// it (the executor runs one buffer at a time: one machine per program).
type progEntry struct {
	code []byte // the words it was decoded from, as bytes
	prog *shaderisa.Program
	m    *shader.Machine
	err  error
	// inLanes: lanes 0..inLanes-1 of m's input registers may hold a
	// vertex's values; the others are zero (shadeVertices clears only
	// those it must).
	inLanes int
	// reads has bit c of entry r set when the program may read component
	// c of input register v#r: the pixel stage interpolates only those.
	reads [isa.MaxVaryings]uint8
	// copyIn is the input register the program copies to o0, whole and
	// unchanged but for its swizzle copySwz, when that is all it does
	// (mov o0, v#, and the ret an HLSL shader compiles to after it): its
	// pixels are the interpolated input's, which the Gouraud spans compute
	// (pixelstage.go); -1 for any other program.
	copyIn  int
	copySwz [4]uint8
	// mayFault: the program may fault while it runs (a loop may reach
	// the step limit, a texture slot is past the GPU's): it runs on one
	// goroutine.
	mayFault bool
	// fused: the program is texture × colour (fused.go).
	fused fusedPattern
	// moves: the program only moves inputs and immediates to outputs
	// (vs_passthrough's kind), so the vertex stage writes its outputs
	// itself (movesOnly); nil for any other program.
	moves []vsMove
	// outLanes and movedOut are where a vertex program's output r,
	// component c is read from (vertexOuts): m's output register, or
	// for a program of movs the input register it copies or an
	// immediate; made once, at decoding (m is the entry's for its life).
	outLanes, movedOut *[isa.MaxVaryings][4]laneSrc
	// uav: the program reads or writes an unordered access view
	// (psuav.go).
	uav bool
}

// maxCachedPrograms and maxCachedBytes bound the cache; past either it
// starts again.
const (
	maxCachedPrograms = 256
	maxCachedBytes    = 16 << 20
)

// progState is a draw's programmable state, kept in drawScratch.
type progState struct {
	cache      map[string]*progEntry // keyed by the program's bytes
	cacheBytes int
	recent     [4]*progEntry // the last programs found, compared before the map is hashed (a draw's programs, draw after draw)

	vs, ps      *progEntry // this draw's; ps nil for none (no colour written)
	vsPos       int        // output register of SV_Position
	psPos       int        // input register of SV_Position, -1 for none
	psDepth1    int        // output register of SV_Depth plus one, 0 for none
	psDepthKind uint32     // and how it is taken: isa.DepthOutAny, DepthOutGE, DepthOutLE
	psFront1    int        // input register of SV_IsFrontFace plus one, 0 for none
	psSamples1  int        // input register of the rasterizer's values plus one, 0 for none: x the sample count, y the coverage (msaa.go)
	psMask      bool       // the program writes SV_Coverage in output shaderisa.CoverageOutput
	psSample    bool       // the program runs once a covered sample on a multisampled target (SET_PROGRAM's bit 30, msaa.go)
	vsIn, psIn  int        // input registers of each program
	nattr       int        // attributes (four a register) the draw's vertices carry (varyings.go)
	flat, lin   uint32     // the pixel program's constant and noperspective inputs (interp.go)
	cent        uint32     // its centroid inputs (msaa.go)
	failed      bool       // a program faulted: the draw stops
	pxFailed    bool       // the pixel program faulted: no more pixels (drawInstances paints the warning colour)
	err         error

	consts   [2]cbView
	tex      [2]texUnit // each stage's (isa.StageVS, isa.StagePS)
	chunk    vsChunk
	outPlan  outPlan // vertexOuts' table, kept while its key stays the same
	prepared preparedProgs
	block    psBlock

	// The geometry stage's (geometry.go): its program (nil for none),
	// declaration, output register of SV_Position, bindings and batch.
	gs       *progEntry
	gsDecl   shaderisa.GSDecl
	gsPos    int
	gsVP     int // SV_ViewportArrayIndex's output register, -1 for none
	curVP    int // the viewport the draw's primitives go to now
	gsRT     int // SV_RenderTargetArrayIndex's output register, -1 for none (layers.go)
	curRT    int // the slice of the layered targets the draw's primitives go to now
	gsConsts cbView
	gsTex    texUnit
	gsBatch  gsBatch

	// The hull and domain stages' (tessstage.go): their programs (both
	// nil, or both bound) and the patch being tessellated.
	hs, ds *progEntry
	ts     tessState
}

// program returns the decoded program in mem. The cache is keyed by the
// words themselves, so a program rewritten in place, or moved by paging to
// another address, is decoded again only if its words changed: the GPU
// needs no notice from the driver that memory changed, and a stale program
// can never run. The last few programs found are compared word for word
// first: a draw after a draw with the same programs costs a compare of
// their words, not a hash and a map probe.
func (ps *progState) program(mem []byte) *progEntry {
	for _, e := range &ps.recent {
		if e != nil && string(e.code) == string(mem) {
			return e
		}
	}
	e, ok := ps.cache[string(mem)]
	if !ok {
		e = ps.decodeProgram(mem)
	}
	copy(ps.recent[1:], ps.recent[:len(ps.recent)-1])
	ps.recent[0] = e
	return e
}

// decodeProgram decodes the program in mem and caches it.
func (ps *progState) decodeProgram(mem []byte) *progEntry {
	if ps.cache == nil || len(ps.cache) >= maxCachedPrograms || ps.cacheBytes+len(mem) > maxCachedBytes {
		ps.cache, ps.cacheBytes = map[string]*progEntry{}, 0
	}
	ps.cacheBytes += len(mem)
	words := make([]uint32, len(mem)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(mem[4*i:])
	}
	e := &progEntry{code: bytes.Clone(mem), copyIn: -1}
	e.prog, e.err = shaderisa.Decode(words)
	if e.err == nil {
		e.m = shader.NewMachine(e.prog)
		e.copyIn, e.copySwz = copiedInput(e.prog)
		e.mayFault = mayFault(e.prog)
		e.fused = fusedProgram(e.prog)
		e.moves = movesOnly(e.prog)
		if e.prog.Stage == shaderisa.StageVertex && e.prog.Outputs <= isa.MaxVaryings {
			e.outLanes, e.movedOut = vertexLanes(e.m, e.prog.Outputs, e.moves)
		}
		e.uav = usesUAV(e.prog)
		for _, in := range e.prog.Code {
			for _, src := range in.Src {
				if src.File != shaderisa.FileInput {
					continue
				}
				n := uint32(1)
				if src.Rel {
					n = src.Len // any register of the array
				}
				for r := src.Index; r < src.Index+n && r < isa.MaxVaryings; r++ {
					for _, c := range src.Swizzle {
						e.reads[r] |= 1 << c
					}
				}
			}
		}
	}
	ps.cache[string(e.code)] = e
	return e
}

// copiedInput recognises a program whose one instruction is mov o0, v#
// (all four components, no modifier, no saturate), or that and a ret (what
// the translator makes of an HLSL shader returning its input): it returns
// the input register and the swizzle, or -1.
func copiedInput(p *shaderisa.Program) (int, [4]uint8) {
	if n := len(p.Code); n != 1 && (n != 2 || p.Code[1].Op != shaderisa.OpRet) {
		return -1, [4]uint8{}
	}
	in := &p.Code[0]
	if in.Op != shaderisa.OpMov || in.Sat || in.Dst.File != shaderisa.FileOutput || in.Dst.Index != 0 || in.Dst.Mask != 0xF || in.Dst.Rel {
		return -1, [4]uint8{}
	}
	s := &in.Src[0]
	if s.File != shaderisa.FileInput || s.Neg || s.Abs || s.Rel {
		return -1, [4]uint8{}
	}
	return int(s.Index), s.Swizzle
}

// vsMove is where one output component of a program of movs gets its
// bits: an input component, an immediate, or zero.
type vsMove struct {
	out, c   uint8 // the output register and component
	kind     uint8 // moveZero, moveInput or moveImm
	reg, src uint8 // moveInput: the input register and component
	imm      uint32
}

const (
	moveZero = iota
	moveInput
	moveImm
)

// movesOnly recognises a program whose instructions are all movs without
// saturate or source modifiers between inputs, immediates, temps and
// outputs, with at most a ret at the end (what an HLSL vertex shader that
// passes its inputs through compiles to: vs_passthrough). It follows the
// movs symbolically and returns, for every component of every output,
// where its bits come from (a component never written is zero, the
// machine's rule, and so is a temp component read before it is written);
// nil for any other program.
func movesOnly(p *shaderisa.Program) []vsMove {
	if len(p.Code) == 0 || p.Outputs > 32 {
		return nil
	}
	type sym struct {
		kind, reg, src uint8
		imm            uint32
	}
	temps := map[uint32]*[4]sym{}
	outs := make([][4]sym, p.Outputs)
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op == shaderisa.OpRet && i == len(p.Code)-1 {
			break
		}
		if in.Op != shaderisa.OpMov || in.Sat || len(in.Src) != 1 || in.Dst.Rel {
			return nil
		}
		s := &in.Src[0]
		if s.Neg || s.Abs || s.Rel {
			return nil
		}
		var val [4]sym
		for c := range 4 {
			sc := s.Swizzle[c]
			switch s.File {
			case shaderisa.FileImm:
				val[c] = sym{kind: moveImm, imm: s.Imm[sc]}
			case shaderisa.FileInput:
				if s.Index > 255 {
					return nil
				}
				val[c] = sym{kind: moveInput, reg: uint8(s.Index), src: sc}
			case shaderisa.FileTemp:
				if t := temps[s.Index]; t != nil {
					val[c] = t[sc]
				}
			default:
				return nil
			}
		}
		var dst *[4]sym
		switch in.Dst.File {
		case shaderisa.FileTemp:
			if temps[in.Dst.Index] == nil {
				temps[in.Dst.Index] = &[4]sym{}
			}
			dst = temps[in.Dst.Index]
		case shaderisa.FileOutput:
			if int(in.Dst.Index) >= len(outs) {
				return nil
			}
			dst = &outs[in.Dst.Index]
		default:
			return nil
		}
		for c := range 4 {
			if in.Dst.Mask>>c&1 != 0 {
				dst[c] = val[c]
			}
		}
	}
	moves := make([]vsMove, 0, 4*len(outs))
	for r := range outs {
		for c, v := range outs[r] {
			moves = append(moves, vsMove{out: uint8(r), c: uint8(c), kind: v.kind, reg: v.reg, src: v.src, imm: v.imm})
		}
	}
	return moves
}

// mayFault reports whether p may fault while it runs on the GPU's texture
// unit and constant buffers: a loop may run into the step limit, a texture
// access or resinfo may name a slot past the unit's (constant buffer
// slots the decoder allows are all the GPU's).
func mayFault(p *shaderisa.Program) bool {
	counted := countedLoops(p)
	for _, in := range p.Code {
		if in.Op == shaderisa.OpLoop && !counted {
			return true
		}
		for _, s := range in.Src {
			if s.File == shaderisa.FileTex && s.Index >= numTex {
				return true
			}
		}
	}
	return false
}

// countedLoops reports whether every loop of p is a counted loop whose
// program runs at most tiledLoopSteps steps (far under the machine's step
// limit, shader.DefaultStepLimit), so that it cannot fault by running too
// long and a tiled round of it stays short: the form the HLSL compiler and the
// translator give `for (int i = K; i < N; i++)` —
//
//	mov rC.c, l(K)        (outside any construct; nothing else writes rC.c before the loop)
//	loop
//	  ilt rT.t, rC.c, l(N)
//	  breakc_z rT.t
//	  ...                 (no loop, continue or call; nothing writes rC.c)
//	  iadd rC.c, rC.c, l(1)
//	endloop
//
// — runs its body at most N-K times whatever the lanes do (a break or a
// ret only leaves sooner), and the program's steps are then bounded by
// its straight instructions plus each loop's iterations times its length.
// No relative write to a temp anywhere (it could hit the counter); no
// subroutine.
func countedLoops(p *shaderisa.Program) bool {
	code := p.Code
	writes := func(in *shaderisa.Inst, reg uint32, c uint8) bool {
		if in.Op.MemDst() || !in.Op.HasDst() || in.Dst.File != shaderisa.FileTemp {
			return false
		}
		return in.Dst.Rel || in.Dst.Index == reg && in.Dst.Mask>>c&1 != 0
	}
	plain := func(o *shaderisa.Operand) bool { return !o.Neg && !o.Abs && !o.Rel }
	steps := uint64(0)
	depth := 0 // open if constructs at the top level
	for pc := 0; pc < len(code); pc++ {
		in := &code[pc]
		switch in.Op {
		case shaderisa.OpCall, shaderisa.OpCallc, shaderisa.OpLabel, shaderisa.OpEndLoop,
			shaderisa.OpContinue, shaderisa.OpContinuec:
			return false
		case shaderisa.OpIf:
			depth++
		case shaderisa.OpEndIf:
			depth--
		}
		if in.Op.HasDst() && !in.Op.MemDst() && in.Dst.File == shaderisa.FileTemp && in.Dst.Rel {
			return false
		}
		steps++
		if in.Op != shaderisa.OpLoop {
			continue
		}
		// The loop's end, its test and its increment.
		end := pc + 1
		for end < len(code) && code[end].Op != shaderisa.OpEndLoop {
			switch code[end].Op {
			case shaderisa.OpLoop, shaderisa.OpContinue, shaderisa.OpContinuec, shaderisa.OpCall, shaderisa.OpCallc, shaderisa.OpLabel:
				return false
			}
			end++
		}
		if end >= len(code) || end-pc < 4 {
			return false
		}
		test, brk, inc := &code[pc+1], &code[pc+2], &code[end-1]
		if test.Op != shaderisa.OpILt || brk.Op != shaderisa.OpBreakc || brk.NZ || inc.Op != shaderisa.OpIAdd || inc.Sat {
			return false
		}
		// iadd rC.c, rC.c, l(1): one component.
		c := uint8(0)
		for c < 4 && inc.Dst.Mask != 1<<c {
			c++
		}
		if c == 4 || inc.Dst.File != shaderisa.FileTemp || inc.Dst.Rel {
			return false
		}
		reg := inc.Dst.Index
		a, one := &inc.Src[0], &inc.Src[1]
		if a.File != shaderisa.FileTemp || a.Index != reg || a.Swizzle[c] != c || !plain(a) ||
			one.File != shaderisa.FileImm || !plain(one) || one.Imm[one.Swizzle[c]] != 1 {
			return false
		}
		// ilt rT.t, rC.c, l(N) and breakc_z rT.t.
		t := brk.Src[0].Swizzle[0]
		x, n := &test.Src[0], &test.Src[1]
		if brk.Src[0].File != shaderisa.FileTemp || !plain(&brk.Src[0]) || test.Dst.File != shaderisa.FileTemp ||
			test.Dst.Rel || test.Dst.Index != brk.Src[0].Index || test.Dst.Mask>>t&1 == 0 ||
			x.File != shaderisa.FileTemp || x.Index != reg || x.Swizzle[t] != c || !plain(x) ||
			n.File != shaderisa.FileImm || !plain(n) {
			return false
		}
		limit := int64(int32(n.Imm[n.Swizzle[t]]))
		// Nothing in the body writes the counter (the test may, if it is
		// the counter's own register in another component).
		if test.Dst.Index == reg && test.Dst.Mask>>c&1 != 0 {
			return false
		}
		for i := pc + 3; i < end-1; i++ {
			if writes(&code[i], reg, c) {
				return false
			}
		}
		// mov rC.c, l(K) at the top level before the loop, the last write
		// of rC.c there.
		start, found := int64(0), false
		for i := pc - 1; i >= 0; i-- {
			w := &code[i]
			if !writes(w, reg, c) {
				continue
			}
			k := &w.Src[0]
			if w.Op != shaderisa.OpMov || w.Sat || k.File != shaderisa.FileImm || !plain(k) || !topLevel(code[:i]) {
				return false
			}
			start, found = int64(int32(k.Imm[k.Swizzle[c]])), true
			break
		}
		if !found || depth != 0 {
			return false
		}
		iters := max(limit-start, 0)
		body := uint64(end - pc) // the loop's instructions after loop, endloop included
		steps += uint64(iters+1)*body - 1
		if steps > tiledLoopSteps {
			return false
		}
		pc = end
	}
	return steps <= tiledLoopSteps
}

// tiledLoopSteps bounds the steps of a counted-loop program that goes to
// the tile workers. A tiled draw yields to its host (the page, a budget)
// only between rounds of 256 rows, not between rows of blocks: a loop of
// 8,150 rounds (32,600 steps, under the machine's limit) on an 8000-pixel
// wide target made a round of some 67 billion lane-steps, during which the
// page could not answer and the run's instruction budget was not looked
// at. 256 steps keeps a round's cost that of a long straight program.
const tiledLoopSteps = 256

// topLevel reports whether the instruction after code is outside every if
// and loop.
func topLevel(code []shaderisa.Inst) bool {
	depth := 0
	for i := range code {
		switch code[i].Op {
		case shaderisa.OpIf, shaderisa.OpLoop:
			depth++
		case shaderisa.OpEndIf, shaderisa.OpEndLoop:
			depth--
		}
	}
	return depth == 0
}

// prepareProgram resolves the draw's programs; it reports false (after a
// fault) when the draw cannot run.
func (ex *executor) prepareProgram() bool {
	s, ps := &ex.st, &ex.draw.prog
	ps.failed, ps.pxFailed = false, false
	if ps.err != nil {
		ps.err = nil
	}
	ps.chunk.n = 0
	if !s.prog[isa.StageVS].bound {
		ps.setPrograms([5]*progEntry{})
		ex.fault("no vertex program")
		return false
	}
	if c := &ps.prepared; c.ok && c.gen == ex.gen && !ex.draw.pipeCache.off && c.sameCode(s) {
		// The programs the last draw prepared, in its state generation:
		// their slots are bound as they were (a SET_PROGRAM would have
		// begun another generation), and their words are the same bytes
		// (a draw may have written the memory), so the look-up would find
		// the same entries. The constants are read again (Bind).
		ps.setPrograms(c.progs)
		c.hits++
		return ex.bindProgram(ps.vs, isa.StageVS, "vertex") &&
			(ps.ps == nil || ex.bindProgram(ps.ps, isa.StagePS, "pixel")) && ex.prepareClipDist()
	}
	stage := func(st int, want shaderisa.Stage, what string) (*progEntry, bool) {
		b := &s.prog[st]
		if !b.bound {
			return nil, true
		}
		e := ps.program(b.mem)
		switch {
		case e.err != nil:
			ex.fault("%s program: %v", what, e.err)
			return nil, false
		case e.prog.Stage != want:
			ex.fault("%s program is a %v program", what, e.prog.Stage)
			return nil, false
		}
		return e, true
	}
	var progs [5]*progEntry // vertex, pixel, geometry, hull, domain (setPrograms)
	for i, st := range &drawStages {
		var ok bool
		if progs[i], ok = stage(st.slot, st.want, st.what); !ok {
			ps.setPrograms(progs)
			return false
		}
	}
	ps.setPrograms(progs)
	if c := &ps.prepared; c.ok && c.gen == ex.gen && samePrograms(&c.progs, &progs) && !ex.draw.pipeCache.off {
		c.hits++
		// The state and the programs of the last draw that prepared them
		// (no packet but draws since): what follows would set every field
		// as that draw left it. The constants are read again (Bind).
		return ex.bindProgram(ps.vs, isa.StageVS, "vertex") &&
			(ps.ps == nil || ex.bindProgram(ps.ps, isa.StagePS, "pixel")) && ex.prepareClipDist()
	}
	ps.prepared.ok = false
	vp := ps.vs.prog
	ps.vsPos, ps.vsIn = int(s.prog[isa.StageVS].sysReg), vp.Inputs
	if !ex.prepareTess() {
		return false
	}
	if ps.hs != nil && ps.vsPos >= vp.Outputs {
		ps.vsPos = -1 // the domain program makes the position: the vertex program need not
	}
	if ps.gs != nil {
		if !ex.prepareGeometry() {
			return false
		}
		if ps.vsPos >= vp.Outputs {
			ps.vsPos = -1 // the geometry program makes the position: the vertex program need not
		}
	} else if ps.vsPos >= vp.Outputs && ps.hs == nil && ex.st.so.on && !ex.st.so.rasterize {
		ps.vsPos = -1 // streamed out and never rasterized (D3D11_SO_NO_RASTERIZED_STREAM): no position is needed
	} else if ps.vsPos >= vp.Outputs && ps.hs == nil {
		ex.fault("vertex program: SV_Position in o%d, but the program has %d outputs", ps.vsPos, vp.Outputs)
		return false
	}
	if vp.Outputs > isa.MaxVaryings {
		ex.fault("vertex program: %d outputs, more than the %d the GPU interpolates", vp.Outputs, isa.MaxVaryings)
		return false
	}
	if ps.tex[isa.StageVS].st != s {
		// (the same every draw: written once, see setPrograms)
		ps.consts[isa.StageVS] = cbView{bufs: &s.cb[isa.StageVS]}
		ps.consts[isa.StagePS] = cbView{bufs: &s.cb[isa.StagePS]}
		ps.tex = [2]texUnit{{st: s, stage: isa.StageVS}, {st: s, stage: isa.StagePS}}
	}
	if !ex.bindProgram(ps.vs, isa.StageVS, "vertex") {
		return false
	}
	ps.flat, ps.lin, ps.cent = 0, 0, 0
	if ps.ps != nil {
		pp := ps.ps.prog
		sys := s.prog[isa.StagePS].sysReg
		ps.psIn, ps.psPos = pp.Inputs, int(sys&0xFF)
		if ps.psPos == isa.NoReg {
			ps.psPos = -1
		}
		ps.psDepth1, ps.psFront1, ps.psSamples1, ps.psMask = int(sys>>8&0x3F), int(sys>>16&0x3F), int(sys>>24&0x3F), sys>>31 != 0
		ps.psDepthKind = sys >> isa.DepthOutShift & 3
		ps.psSample = sys>>30&1 != 0
		if ps.psDepth1 > pp.Outputs || ps.psFront1 > pp.Inputs || ps.psFront1 != 0 && ps.psFront1-1 == ps.psPos ||
			ps.psSamples1 > pp.Inputs || ps.psSamples1 != 0 && (ps.psSamples1-1 == ps.psPos || ps.psSamples1 == ps.psFront1) ||
			ps.psMask && (pp.Outputs <= shaderisa.CoverageOutput || ps.psDepth1-1 == shaderisa.CoverageOutput) ||
			ps.psDepthKind > isa.DepthOutLE {
			ex.fault("pixel program: system values %#x: SV_Depth in o%d, SV_IsFrontFace in v%d, of %d outputs and %d inputs", sys, ps.psDepth1-1, ps.psFront1-1, pp.Outputs, pp.Inputs)
			return false
		}
		if pp.Inputs > isa.MaxVaryings || ps.psPos >= pp.Inputs {
			ex.fault("pixel program: %d inputs, SV_Position in v%d: at most %d inputs, the position one of them", pp.Inputs, ps.psPos, isa.MaxVaryings)
			return false
		}
		ps.setInterp(pp)
		if !ex.bindProgram(ps.ps, isa.StagePS, "pixel") {
			return false
		}
	}
	ps.setAttrs()
	if !ex.prepareClipDist() {
		return false
	}
	if ps.gs == nil && ps.hs == nil && ps.ds == nil {
		ps.prepared.ok, ps.prepared.gen, ps.prepared.progs = true, ex.gen, progs
	}
	return true
}

// preparedProgs is the last draw prepareProgram prepared in full: its state
// generation (ex.gen, bumped by every packet that is not a draw and by every
// buffer) and programs. A draw of the same programs in the same generation
// finds every field prepareProgram sets as that draw left it: nothing but
// draws ran since, and a draw changes none of them. Draws with geometry or
// tessellation programs prepare in full (their stages set up more).
type preparedProgs struct {
	ok    bool
	gen   uint64
	progs [5]*progEntry
	hits  uint64 // draws that found them (for tests)
}

// sameCode reports whether the programs bound in s are the prepared ones,
// byte for byte: a vertex and perhaps a pixel program, no other stage.
func (c *preparedProgs) sameCode(s *state) bool {
	vs, ps := &s.prog[isa.StageVS], &s.prog[isa.StagePS]
	if s.prog[stageGS].bound || s.prog[stageHS].bound || s.prog[stageDS].bound ||
		c.progs[0] == nil || string(vs.mem) != string(c.progs[0].code) {
		return false
	}
	if !ps.bound {
		return c.progs[1] == nil
	}
	return c.progs[1] != nil && string(ps.mem) == string(c.progs[1].code)
}

// samePrograms is a == b, entry by entry (the arrays' == is a call to
// memequal).
func samePrograms(a, b *[5]*progEntry) bool {
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4]
}

// bindProgram binds a draw's vertex or pixel program (stage) to the draw's
// constants and textures: the constants are read into the program's
// uniforms every draw (a draw may have written the buffer's memory).
func (ex *executor) bindProgram(e *progEntry, stage int, what string) bool {
	ps := &ex.draw.prog
	if err := e.m.Bind(&ps.consts[stage], &ps.tex[stage]); err != nil {
		ex.fault("%s program: %v", what, err)
		return false
	}
	return true
}

// drawStages are the program slots a draw resolves, in the order
// prepareProgram resolves them (the first fault stops it).
var drawStages = [5]struct {
	slot int
	want shaderisa.Stage
	what string
}{
	{isa.StageVS, shaderisa.StageVertex, "vertex"},
	{isa.StagePS, shaderisa.StagePixel, "pixel"},
	{stageGS, shaderisa.StageGeometry, "geometry"},
	{stageHS, shaderisa.StageHull, "hull"},
	{stageDS, shaderisa.StageDomain, "domain"},
}

// setPrograms sets the draw's programs (drawStages' order; nil: none, or
// not resolved), writing only those that changed: while the garbage
// collector marks, every pointer store goes through its write barrier, and
// under WebAssembly the barriers of clearing and setting the same entries
// draw after draw were 4% of the draws scene.
func (ps *progState) setPrograms(p [5]*progEntry) {
	for i, f := range [5]**progEntry{&ps.vs, &ps.ps, &ps.gs, &ps.hs, &ps.ds} {
		if *f != p[i] {
			*f = p[i]
		}
	}
}

// fail records the first fault of a program during the draw and stops it.
func (ps *progState) fail(what string, err error) {
	if !ps.failed {
		ps.failed, ps.err = true, fmt.Errorf("%s program: %w", what, err)
		ps.pxFailed = what == "pixel"
	}
}

// cbView is one stage's constant buffers as shader.Constants: bounded
// reads, zeros past the end or from an unbound slot (SET_CB resolved the
// memory, so a read cannot page-fault).
type cbView struct{ bufs *[numCB][]byte }

func (c *cbView) Constant(slot, elem int) ([4]uint32, error) {
	var v [4]uint32
	if slot < 0 || slot >= numCB {
		return v, fmt.Errorf("constant buffer slot %d outside 0..%d", slot, numCB-1)
	}
	b := c.bufs[slot]
	if elem < 0 || elem >= len(b)/16+1 {
		return v, nil
	}
	for i := range v {
		if o := 16*elem + 4*i; o+4 <= len(b) {
			v[i] = binary.LittleEndian.Uint32(b[o:])
		}
	}
	return v, nil
}

// texUnit is the texture unit as shader.Textures for one stage's textures
// and samplers: the sampler of sample.go (filter8 below computes its bits
// for 8-bit textures).
type texUnit struct {
	st    *state
	stage uint32
}

func (u *texUnit) Texture(q *shader.TexQuery) error {
	if q.Texture < 0 || q.Texture >= numTex {
		return fmt.Errorf("texture slot %d outside 0..%d", q.Texture, numTex-1)
	}
	tex := &u.st.tex[u.stage][q.Texture]
	// plain: SET_TEX's surface (a one-level 2D SET_VIEW's too) or nothing.
	plain := tex.bound() || u.st.view[u.stage][q.Texture] == nil
	out := q.Out
	noOffset := q.Offset == [3]int32{}
	if q.Op == shader.TexLoad && noOffset && plain {
		for m := q.Mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			x, y := int32(q.Coord[0][l]), int32(q.Coord[1][l])
			var c [4]uint32
			if tex.bound() && x >= 0 && y >= 0 && int(x) < tex.w && int(y) < tex.h {
				// ld reads the texel's bits (integers for an integer format).
				c = tex.load(int(x), int(y))
			}
			out[0][l], out[1][l], out[2][l], out[3][l] = c[0], c[1], c[2], c[3]
		}
		return nil
	}
	switch q.Op {
	case shader.TexLoad, shader.TexLoadRaw, shader.TexLoadStructured:
		u.general(u.viewOf(q.Texture), &loadSampler, q)
		return nil
	}
	if q.Sampler < 0 || q.Sampler >= numSamplers {
		return fmt.Errorf("sampler slot %d outside 0..%d", q.Sampler, numSamplers-1)
	}
	sm := &u.st.smp[u.stage][q.Sampler]
	simple := (q.Op == shader.TexSample || q.Op == shader.TexSampleLevel || q.Op == shader.TexSampleGrad) &&
		(!sm.ex || sm.simple) && noOffset && plain
	if !simple {
		u.general(u.viewOf(q.Texture), sm, q)
		return nil
	}
	if tex.bound() && (tex.fmt == isa.FmtRGBA8 || tex.fmt == isa.FmtBGRA8) {
		filter8(tex, sm, q)
		return nil
	}
	cu, cv := q.Coord[0], q.Coord[1]
	for m := q.Mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		c := tex.sample(sm, float64(math.Float32frombits(cu[l])), float64(math.Float32frombits(cv[l])))
		out[0][l], out[1][l], out[2][l], out[3][l] = math.Float32bits(c[0]), math.Float32bits(c[1]), math.Float32bits(c[2]), math.Float32bits(c[3])
	}
	return nil
}

// viewOf is slot t's view (a surface set without SET_TEX's view, as the
// GPU's own tests do, as its view of one level).
func (u *texUnit) viewOf(t int) *texView {
	if v := u.st.view[u.stage][t]; v != nil {
		return v
	}
	sv := surfaceView(&u.st.tex[u.stage][t]) // not kept: the unit is shared by the tile workers
	return &sv
}

// IgnoresGradients: with one level, one filter for magnification and
// minification and no anisotropy in every bound view and sampler, the
// level of detail picks nothing, so the shader machine need not take
// derivatives (the lod instruction takes them anyway).
func (u *texUnit) IgnoresGradients() bool {
	bound := false
	for i := range u.st.texN[u.stage] {
		if v := u.st.view[u.stage][i]; v != nil {
			bound = true
			if !isa.IsBuffer(v.kind) && v.nmips > 1 {
				return false
			}
		} else if u.st.tex[u.stage][i].bound() {
			bound = true // one level
		}
	}
	if !bound {
		return true
	}
	for k := range u.st.smp[u.stage] {
		if sm := &u.st.smp[u.stage][k]; sm.aniso() || sm.linearMin() != sm.linearMag() {
			return false
		}
	}
	return true
}

// Info is resinfo's and bufinfo's view of slot t# (an unbound slot is the
// zero TexInfo): the view's most detailed level's size, its levels, its
// array size (cubes for a cube array), a buffer view's elements.
func (u *texUnit) Info(t int) (shader.TexInfo, error) {
	if t < 0 || t >= numTex {
		return shader.TexInfo{}, fmt.Errorf("texture slot %d outside 0..%d", t, numTex-1)
	}
	v := u.viewOf(t)
	switch {
	case !v.bound():
		return shader.TexInfo{}, nil
	case isa.IsBuffer(v.kind):
		return shader.TexInfo{Kind: v.kind, Elements: v.count, Mips: 1}, nil
	}
	top := v.level(0, 0)
	info := shader.TexInfo{Width: top.W, Height: top.H, Mips: v.nmips, Kind: v.kind, Samples: max(v.samples, 1)}
	switch v.kind {
	case isa.ViewTex3D:
		info.Depth = top.D
	case isa.ViewTex1DArray, isa.ViewTex2DArray:
		info.Layers = v.nslice
	case isa.ViewTexCubeArray:
		info.Layers = v.nslice / 6
	}
	if u.st.view[u.stage][t] == nil {
		info.Kind = 0 // SET_TEX's: as it always was
	}
	return info, nil
}

// filter8 is surface.sample over a block, for a bound 8-bit texture: the
// same arithmetic (texel, then lerpTexels' bilinear filter, split into its
// rows and columns), with the texels read straight from memory when the
// lane's footprint is inside the texture (fetch, through the address modes,
// for the others). The lane mask is a test per lane rather than a loop
// over its bits: blocks are mostly full.
func filter8(tex *surface, sm *sampler, q *shader.TexQuery) {
	cu, cv, out := q.Coord[0], q.Coord[1], q.Out
	mask := q.Mask
	w, h := float64(tex.w), float64(tex.h)
	mem, pitch := tex.mem, tex.pitch
	// The bit offsets of red and blue in a texel's little-endian word.
	rs, bs := uint(0), uint(16)
	if tex.fmt == isa.FmtBGRA8 {
		rs, bs = 16, 0
	}
	if sm.filter == isa.FilterPoint {
		for l := range shader.Lanes {
			if mask>>l&1 == 0 {
				continue
			}
			x, _ := texel(float64(math.Float32frombits(cu[l])) * w)
			y, _ := texel(float64(math.Float32frombits(cv[l])) * h)
			if uint(x) < uint(tex.w) && uint(y) < uint(tex.h) {
				o := y*pitch + 4*x
				t := uint32(mem[o]) | uint32(mem[o+1])<<8 | uint32(mem[o+2])<<16 | uint32(mem[o+3])<<24
				out[0][l] = math.Float32bits(unormF32[uint8(t>>rs)])
				out[1][l] = math.Float32bits(unormF32[uint8(t>>8)])
				out[2][l] = math.Float32bits(unormF32[uint8(t>>bs)])
				out[3][l] = math.Float32bits(unormF32[uint8(t>>24)])
				continue
			}
			c := tex.fetch(sm, x, y)
			out[0][l], out[1][l], out[2][l], out[3][l] = math.Float32bits(c[0]), math.Float32bits(c[1]), math.Float32bits(c[2]), math.Float32bits(c[3])
		}
		return
	}
	// Three passes: the texel coordinates of every lane, the rows of the
	// filter, its columns; each lane's chain of dependent steps is long,
	// and lanes of one pass overlap where a lane at a time would wait.
	var xs, ys [shader.Lanes]int32
	var fxs, fys [shader.Lanes]float32
	for l := range shader.Lanes {
		x, fx := texel(float64(float64(math.Float32frombits(cu[l]))*w) - 0.5)
		y, fy := texel(float64(float64(math.Float32frombits(cv[l]))*h) - 0.5)
		xs[l], ys[l], fxs[l], fys[l] = int32(x), int32(y), fx, fy
	}
	// The rows of the filter (lerpRows), down each column of the block:
	// a lane with the texels and fx of the lane above (a texture
	// magnified along y, its u the same down the column) has its rows.
	var tops, bots [4][shader.Lanes]float32
	for i, l := range colLanes {
		if mask>>l&1 == 0 {
			continue
		}
		x, y, fx := int(xs[l]), int(ys[l]), fxs[l]
		if a := aboveLane[i]; a >= 0 && mask>>a&1 != 0 && xs[a] == xs[l] && ys[a] == ys[l] && math.Float32bits(fxs[a]) == math.Float32bits(fx) {
			for k := range 4 {
				tops[k][l], bots[k][l] = tops[k][a], bots[k][a]
			}
			continue
		}
		if uint(x) < uint(tex.w-1) && uint(y) < uint(tex.h-1) {
			// All four texels inside: every address mode leaves them be.
			o := y*pitch + 4*x
			t0 := binary.LittleEndian.Uint64(mem[o:])
			t1 := binary.LittleEndian.Uint64(mem[o+pitch:])
			tops[0][l], bots[0][l] = rows8(t0>>rs, t0>>(32+rs), t1>>rs, t1>>(32+rs), fx)
			tops[1][l], bots[1][l] = rows8(t0>>8, t0>>40, t1>>8, t1>>40, fx)
			tops[2][l], bots[2][l] = rows8(t0>>bs, t0>>(32+bs), t1>>bs, t1>>(32+bs), fx)
			tops[3][l], bots[3][l] = rows8(t0>>24, t0>>56, t1>>24, t1>>56, fx)
			continue
		}
		c00, c10 := tex.fetch(sm, x, y), tex.fetch(sm, x+1, y)
		c01, c11 := tex.fetch(sm, x, y+1), tex.fetch(sm, x+1, y+1)
		for k := range 4 {
			tops[k][l], bots[k][l] = lerpRows(c00[k], c10[k], c01[k], c11[k], fx)
		}
	}
	for k := range 4 {
		o, top, bot := &out[k], &tops[k], &bots[k]
		if mask == shader.AllLanes {
			for l := range o {
				o[l] = math.Float32bits(lerpCols(top[l], bot[l], fys[l]))
			}
			continue
		}
		for l := range o {
			if mask>>l&1 != 0 {
				o[l] = math.Float32bits(lerpCols(top[l], bot[l], fys[l]))
			}
		}
	}
}

// colLanes are a block's lanes column by column, top to bottom;
// aboveLane[i] is the lane above colLanes[i], -1 on the top row.
var colLanes, aboveLane = func() (c [shader.Lanes]uint8, a [shader.Lanes]int) {
	for x := range 8 {
		for y := range 8 {
			c[8*x+y] = uint8(shader.QuadLane(x, y))
			a[8*x+y] = -1
			if y > 0 {
				a[8*x+y] = shader.QuadLane(x, y-1)
			}
		}
	}
	return c, a
}()

// rows8 is lerpRows of four unorm8 channels (the low bytes of a, b, c, d).
func rows8(a, b, c, d uint64, fx float32) (top, bot float32) {
	return lerpRows(unormF32[uint8(a)], unormF32[uint8(b)], unormF32[uint8(c)], unormF32[uint8(d)], fx)
}

// loadSampler addresses ld's texels, already inside the texture.
var loadSampler = sampler{filter: isa.FilterPoint, u: isa.AddrClamp, v: isa.AddrClamp}
