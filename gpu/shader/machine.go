package shader

import (
	"errors"
	"fmt"
	"unsafe"

	. "d3dsim/gpu/shaderisa"
)

// Lanes is the width of a block: 64 pixels (an 8x8 tile, 16 quads) or 64
// vertices. Execution masks are uint64s, one bit per lane.
const Lanes = 64

// AllLanes is the execution mask of a full block.
const AllLanes = ^uint64(0)

// DefaultStepLimit bounds the instructions one Run executes (each over the
// whole block): a loop that never ends is a fault, not a hang.
const DefaultStepLimit = 1 << 16

// Vec is one vec4 register of a block, structure-of-arrays: component c of
// lane i is v[c][i], the bits of a float32 or a 32-bit integer.
type Vec [4][Lanes]uint32

// F returns component c as float32s (the same memory).
func (v *Vec) F(c int) *[Lanes]float32 { return f32(&v[c]) }

func f32(p *[Lanes]uint32) *[Lanes]float32 { return (*[Lanes]float32)(unsafe.Pointer(p)) }

// Constants is the machine's view of the bound constant buffers in GPU
// memory (the gpu package implements it over its memory model).
type Constants interface {
	// Constant returns element elem (16 bytes) of the buffer in slot. An
	// unbound slot or an element past the buffer's end reads as zero, as
	// in D3D11; an error (a page fault) faults the draw.
	Constant(slot, elem int) ([4]uint32, error)
}

// TexOp is the kind of a texture access.
type TexOp uint8

const (
	TexSample      TexOp = iota // filtered, level of detail from DX and DY (plus Bias)
	TexSampleLevel              // filtered, level of detail LOD
	TexLoad                     // one texel at integer coordinates, no sampler
	TexSampleGrad               // filtered, level of detail from DX and DY, given by the program (sample_d)
	// Added with the texture unit's comparison, gather and buffer reads.
	TexSampleCmp          // sample_c: each texel compared with Ref, then filtered; LOD from DX and DY
	TexSampleCmpLevelZero // sample_c_lz: the same at the view's most detailed level
	TexGather             // gather4: channel Channel of the bilinear footprint's four texels
	TexGatherCmp          // gather4_c: their comparisons with Ref
	TexLOD                // lod: x the level of detail clamped, y unclamped (DX and DY)
	TexLoadRaw            // ld_raw: four words from byte Coord[0] of a raw buffer
	TexLoadStructured     // ld_structured: four words from structure Coord[0], byte Coord[1]
)

// TexQuery is one texture instruction over a block, handed to Textures.
// The arrays belong to the Machine and are valid during the call only.
type TexQuery struct {
	Op      TexOp
	Texture int    // t#
	Sampler int    // s# (not for TexLoad)
	Mask    uint64 // the lanes to fill
	Coord   [4]*[Lanes]uint32
	DX, DY  [2]*[Lanes]float32 // TexSample, TexSampleGrad: d(u, v)/dx and /dy per lane (nil for TexSample from a GradientFree)
	LOD     *[Lanes]float32    // TexSampleLevel
	Bias    *[Lanes]float32    // TexSample: added to the level of detail (sample_b); nil: none
	Out     *Vec               // filled for Mask lanes: float bits (integers for integer formats)

	// W are d(w)/dx and /dy for 3D and cube textures (nil when the
	// machine leaves gradients to a GradientFree unit).
	DXW, DYW *[Lanes]float32
	Ref      *[Lanes]float32   // TexSampleCmp*, TexGatherCmp: the reference value
	Offset   [3]int32          // texel offsets (aoffimmi)
	OffsetXY [2]*[Lanes]uint32 // gather4_po: per-lane texel offsets (low 6 bits, signed); nil: Offset
	Channel  uint8             // TexGather*: the channel returned
}

// Coordinates: TexSample, TexSampleGrad and TexSampleLevel read Coord as
// floats (u, v, then the array slice in z); TexLoad as integers (x, y, the
// array slice in z, the mip level in w).
//
// Level of detail: TexSample and TexSampleGrad select it the same way,
// from DX and DY in each lane, so that sample_d given the quad's own
// derivatives samples exactly as sample does. They differ only in where
// the gradients come from: for TexSample the Machine takes them from the
// quad (coarse: the same in the quad's four lanes), for TexSampleGrad the
// program gives them per lane ("sample_d (sm4 - asm)"). For TexSample,
// Bias (when not nil) is added to the level computed from DX and DY,
// before the sampler's own bias and clamps; the Machine has clamped it to
// [-16, 15.99] (a NaN bias is 0), as "sample_b (sm4 - asm)" asks.

// TexInfo is what resinfo reads of the view bound at a t# slot: the
// dimensions of its most detailed mip level, its array size and its mip
// count. The zero TexInfo is an unbound slot.
type TexInfo struct {
	Width, Height uint32
	Layers        uint32 // a 2D array view's array size; 0 for a 2D texture
	Mips          uint32 // mip levels in the view; 0 only for an unbound slot
	// Kind is the view's (View*; 0 is a 2D texture or array by Layers,
	// as before there were others), Depth a 3D texture's, Elements a
	// buffer view's element count.
	Kind     uint32
	Depth    uint32
	Elements uint32
	// Samples is the view's samples a pixel (SET_VIEW's: 1 for a view of
	// one sample, 0 unbound); a multisampled view's Width counts its
	// samples side by side (pixels x Samples), which resinfo divides out.
	Samples uint32
}

// View kinds of TexInfo, the numbers of the GPU's SET_VIEW (package
// gpu/isa's View*; the gpu package's tests hold them equal).
const (
	ViewTex1D = iota + 1
	ViewTex1DArray
	ViewTex2D
	ViewTex2DArray
	ViewTex3D
	ViewTexCube
	ViewTexCubeArray
	ViewBuffer
	ViewRawBuffer
	ViewStructured
)

// Textures is the texture unit the gpu package implements.
type Textures interface {
	// Texture runs one texture access over a block; an error (a page
	// fault) faults the draw.
	Texture(q *TexQuery) error
	// Info returns the dimensions of the view at slot texture, for
	// resinfo: an unbound slot is the zero TexInfo and no error; an error
	// (a page fault reading the descriptor) faults the draw.
	Info(texture int) (TexInfo, error)
}

// GradientFree is a Textures whose TexSample ignores DX and DY (a texture
// unit whose textures have one mip level: the level of detail picks
// nothing). When IgnoresGradients reports true at Bind, the Machine leaves
// DX and DY nil rather than take the quads' derivatives for every sample.
type GradientFree interface {
	IgnoresGradients() bool
}

// Fault is the error Run returns: the program did something the GPU
// refuses at that instruction.
type Fault struct {
	PC     int
	Reason string
	Err    error // the Constants' or Textures' error, if any
}

func (f *Fault) Error() string {
	if f.Err != nil {
		return fmt.Sprintf("shader: instruction %d: %s: %v", f.PC, f.Reason, f.Err)
	}
	return fmt.Sprintf("shader: instruction %d: %s", f.PC, f.Reason)
}

func (f *Fault) Unwrap() error { return f.Err }

// ErrStepLimit is wrapped by the fault of a program that ran more than
// StepLimit instructions in one block.
var ErrStepLimit = errors.New("shader: step limit")

// xsrc is a source operand resolved against a Machine: the swizzled
// component arrays, and what must still be done at each execution.
type xsrc struct {
	c   [4]*[Lanes]uint32
	mod bool // neg or abs: computed into scratch
	neg bool
	abs bool
	rel bool // a relative cb element or array register: gathered per lane
	swz [4]uint8
	// rel: cb slot, base element and the register component added to it
	slot, elem uint32
	relReg     *[Lanes]uint32
	// rel, not cb: the file, and the array's first register and length
	relFile   File
	base, len uint32
	index     uint32 // t#, s#, u#, g#
	file      File
}

// maxSrcs is the most sources an op has (sample_d).
const maxSrcs = 5

// xinst is an instruction resolved against a Machine.
type xinst struct {
	op    Op
	sat   bool
	nz    bool
	canon bool // float arithmetic: NaN results canonical
	// folded: the kernel takes a saturate or a source's modifier itself
	// (satFold, vecFold); no other kernel replaces it.
	folded bool
	mask   uint8
	dst    [4]*[Lanes]uint32
	src    [maxSrcs]xsrc
	nsrc   uint8
	jump   int32
	rel    bool // a source is a relative cb element: its reads may fault
	plain  bool // no source has a modifier or is relative: fetch has nothing to do
	// uniDst is the register (index in regs) whose components in mask
	// the instruction writes, for the uniform tracking (uniform.go):
	// uniNone for none, uniAll when it may write others too; uniSrc the
	// first two sources' registers, uniConst for an immediate or a cb
	// element (the same in every lane), uniNone for any other.
	uniDst int32
	uniSrc [2]int32
	uniOp  bool // uniform.go evaluates it once for a block whose sources are uniform
	kernel kernel
	// konst: the sources (a bit each) the same in every lane for the
	// draw, for dot's specialised sum (special.go; the default build).
	konst uint8
	// bcast: the one-pass kernel of three components with a broadcast
	// source (bcast.go; the default build), nil for none.
	bcast bcastKernel
	// run: the length of the straight run from here (straight.go, at
	// most 255), 0 for none.
	run uint8
	// counted: a loop's counted form (counted.go), nil for the others.
	counted *countedLoop
	// direct: with every lane active, the op may write the destination as
	// it goes (no component is read after it is written).
	direct bool
	dstVec *Vec
	// dstRel: the destination is register dstElem + dstRelReg of the array
	// of dstLen registers from dstBase in dstFile, per lane (scatter).
	offset    [3]int32 // a texture op's immediate texel offsets
	channel   uint8    // a gather's channel
	dstRel    bool
	dstFile   File
	dstBase   uint32
	dstLen    uint32
	dstElem   uint32
	dstRelReg *[Lanes]uint32
}

// kernel computes one component of a per-component op.
type kernel func(r, a, b, c *[Lanes]uint32)

// frame is an open if or loop of Run's control-flow stack.
type frame struct {
	loop   bool
	call   bool   // a subroutine's: next is the return address
	saved  uint64 // the mask when the construct was entered, less lanes that left
	cond   uint64 // if: the lanes that took the then-branch
	broken uint64 // loop: the lanes that left by break
	next   int32  // where to go when no lane is active
}

// Machine runs one Program over blocks of Lanes lanes. It holds the
// registers, so it is not safe for concurrent use: the GPU keeps one per
// goroutine (they may share the Program).
type Machine struct {
	prog        *Program
	code        []xinst
	zero        []zeroReg // register components each block starts at zero
	quads       bool      // derivatives or implicit-derivative sampling: run whole quads
	regs        []Vec     // inputs, then outputs, then temps
	in, out     []Vec
	temps       []Vec
	uniforms    []Vec // cb operands broadcast per draw
	uniKeys     [][2]uint32
	imms        []Vec
	consts      Constants
	tex         Textures
	noGrad      bool // tex is GradientFree
	noGradSaved bool
	StepLimit   int // instructions per Run; 0 means DefaultStepLimit
	// Steps is the instructions the last Run executed, each over the
	// whole block, the fault's included; LaneSteps counts each once per
	// lane it ran for, helper lanes left out: a lane's count is its own
	// path's length, however the lanes were grouped into blocks, which is
	// what the GPU charges in virtual time and counts against a run's
	// budget.
	Steps     int
	LaneSteps uint64
	// Emit is the geometry stage's: called at emit (cut false) and cut
	// (cut true) with the lanes that run it, whose o# registers hold the
	// vertex emitted, and the output stream (0..3) the instruction names.
	Emit func(lanes uint64, cut bool, stream uint8)

	// uni holds, per register, the components every lane of the block
	// holds the same value in (uniform.go); uniSet is what the
	// instruction just run made uniform.
	uni    []uint8
	uniSet uint8

	// noCounted runs counted loops the general way, countedRuns counts
	// those run round by round (counted.go; for the tests).
	noCounted   bool
	countedRuns int
	// noFused runs straight runs one instruction at a time, fusedRuns
	// counts those run straight (straight.go; for the tests).
	noFused   bool
	fusedRuns int

	res     Vec
	scratch [maxSrcs]Vec // per source: modifiers, relative gathers
	modded  [maxSrcs][4]*[Lanes]uint32
	texOut  Vec
	ddx     [3][Lanes]float32
	ddy     [3][Lanes]float32
	bias    [Lanes]float32
	query   TexQuery
	relErr  *Fault // a relative cb read that faulted (gather), reported by Run
	stack   []frame
	trace   *Trace
	compute computeState // the compute stage's views and groupshared memory (compute.go) // SetTrace's (trace.go), nil when not tracing
}

// NewMachine resolves p's operands against a new register file. p must be
// a decoded program (Decode, Check or Assemble give one): NewMachine
// follows its control flow as Decode matched it.
func NewMachine(p *Program) *Machine {
	m := &Machine{prog: p, StepLimit: DefaultStepLimit}
	flow, _ := p.Flow() // a decoded program's flow is matched: no error
	m.zero, m.quads = findZero(p), needsQuads(p)
	m.regs = make([]Vec, p.Inputs+p.Outputs+p.Temps)
	m.in = m.regs[:p.Inputs:p.Inputs]
	m.out = m.regs[p.Inputs : p.Inputs+p.Outputs : p.Inputs+p.Outputs]
	m.temps = m.regs[p.Inputs+p.Outputs:]
	uni := map[[2]uint32]int{}
	imm := map[[4]uint32]int{}
	for _, in := range p.Code {
		for _, s := range in.Src {
			switch {
			case s.File == FileCB && !s.Rel:
				k := [2]uint32{s.Index, s.Elem}
				if _, ok := uni[k]; !ok {
					uni[k] = len(m.uniKeys)
					m.uniKeys = append(m.uniKeys, k)
				}
			case s.File == FileImm:
				v, _ := foldImm(in.Op, s)
				if _, ok := imm[v]; !ok {
					imm[v] = len(imm)
				}
			}
		}
	}
	m.uniforms = make([]Vec, len(m.uniKeys))
	m.imms = make([]Vec, len(imm))
	for v, i := range imm {
		for c := range 4 {
			for l := range Lanes {
				m.imms[i][c][l] = v[c]
			}
		}
	}
	m.code = make([]xinst, len(p.Code))
	for pc := range p.Code {
		in := &p.Code[pc]
		x := &m.code[pc]
		x.op, x.sat, x.nz, x.jump = in.Op, in.Sat, in.NZ, flow.Jump[pc]
		x.offset = [3]int32{int32(in.Offset[0]), int32(in.Offset[1]), int32(in.Offset[2])}
		x.channel = in.Channel
		x.kernel = kernels[in.Op]
		if k := specialKernel(in); k != nil {
			x.kernel = k // an operand the same in every lane (special.go)
		}
		x.konst = konstSrcs(in)
		x.canon = canonical[in.Op] && !selfCanon[in.Op]
		if in.Op.MemDst() {
			// A store's or atomic's view or groupshared memory:
			// compute.go writes it, never a register.
			x.mask, x.dstFile, x.dstBase = in.Dst.Mask, in.Dst.File, in.Dst.Index
		} else if in.Op.HasDst() {
			x.mask = in.Dst.Mask
			v := m.reg(in.Dst.File, in.Dst.Index)
			x.dstVec = v
			for c := range 4 {
				x.dst[c] = &v[c]
			}
			if d := &in.Dst; d.Rel {
				x.dstRel, x.dstFile, x.dstBase, x.dstLen, x.dstElem = true, d.File, d.Index, d.Len, d.Elem
				x.dstRelReg = &m.temps[d.RelReg][d.RelComp]
			}
		}
		x.nsrc = uint8(len(in.Src))
		for k, s := range in.Src {
			xs := &x.src[k]
			xs.swz, xs.neg, xs.abs = s.Swizzle, s.Neg, s.Abs
			xs.mod = s.Neg || s.Abs
			xs.index, xs.file = s.Index, s.File
			var v *Vec
			switch s.File {
			case FileTemp, FileInput, FileICB:
				if s.Rel {
					xs.rel, xs.relFile, xs.base, xs.len, xs.elem = true, s.File, s.Index, s.Len, s.Elem
					xs.relReg = &m.temps[s.RelReg][s.RelComp]
					v = &m.scratch[k]
					break
				}
				v = m.reg(s.File, s.Index)
			case FileImm:
				iv, folded := foldImm(in.Op, s)
				v = &m.imms[imm[iv]]
				if folded {
					xs.mod, xs.neg, xs.abs = false, false, false
				}
			case FileCB:
				if s.Rel {
					xs.rel, xs.slot, xs.elem = true, s.Index, s.Elem
					x.rel = true
					xs.relReg = &m.temps[s.RelReg][s.RelComp]
					v = &m.scratch[k]
				} else {
					v = &m.uniforms[uni[[2]uint32{s.Index, s.Elem}]]
				}
			}
			if v != nil {
				for c := range 4 {
					xs.c[c] = &v[s.Swizzle[c]]
				}
			}
		}
		if !vecOK && in.Op == OpLog2 && !x.src[0].rel && x.src[0].abs && !x.src[0].neg {
			// log2 |x|: the kernel clears the sign (fastlog.go).
			x.kernel, x.src[0].mod, x.src[0].abs = kLog2Abs, false, false
		}
		vecFold(x)
		satFold(x, in)
		if in.Op == OpLoop {
			x.counted = m.findCounted(p.Code, pc)
		}
		x.setDirect()
		x.plain = true
		for k := range int(x.nsrc) {
			if x.src[k].mod || x.src[k].rel {
				x.plain = false
			}
		}
		x.bcast = broadcastKernel(x)
		m.resolveUniform(x, in)
	}
	m.findFused(p)
	m.uni = make([]uint8, len(m.regs))
	return m
}

// foldImm returns an immediate operand's values with its modifiers
// applied as fetch applies them (two's complement for integer ops, the sign
// bit for the others), so that the machine reads it as it is; folded is
// false, and the values the operand's own, for a double op's (a double's
// sign is its high word's) and an operand with no modifier.
func foldImm(op Op, s Operand) (v [4]uint32, folded bool) {
	v = s.Imm
	if !s.Neg && !s.Abs || op.Kind() == KindDouble {
		return v, false
	}
	for c := range v {
		if op.Kind() == KindInt {
			if s.Abs && int32(v[c]) < 0 {
				v[c] = -v[c]
			}
			if s.Neg {
				v[c] = -v[c]
			}
			continue
		}
		if s.Abs {
			v[c] &^= 1 << 31
		}
		if s.Neg {
			v[c] ^= 1 << 31
		}
	}
	return v, true
}

// setDirect decides whether x may write its destination as it goes.
func (x *xinst) setDirect() {
	if x.mask == 0 || x.dstRel || x.op.MemDst() {
		return
	}
	x.direct = true
	for c := range 4 {
		for c2 := c + 1; c2 < 4; c2++ {
			if x.mask>>c&1 == 0 || x.mask>>c2&1 == 0 {
				continue
			}
			for k := range int(x.nsrc) {
				if x.src[k].c[c2] == x.dst[c] {
					x.direct = false
				}
			}
		}
	}
}

func (m *Machine) reg(f File, i uint32) *Vec {
	switch f {
	case FileInput:
		return &m.in[i]
	case FileOutput:
		return &m.out[i]
	}
	return &m.temps[i]
}

// Program returns the program the machine runs.
func (m *Machine) Program() *Program { return m.prog }

// In returns input register v#: the caller fills it before Run.
func (m *Machine) In(i int) *Vec { return &m.in[i] }

// Out returns output register o#: Run leaves the results there.
func (m *Machine) Out(i int) *Vec { return &m.out[i] }

// Bind sets the draw's constant buffers and textures: the constants the
// program names are read now (once per draw, not per block); relative
// (dynamically indexed) elements are read by Run. Either may be nil: an
// unbound constant reads as zero, a texture access faults.
func (m *Machine) Bind(c Constants, t Textures) error {
	// Assigned only when they change: two interfaces are four write
	// barriers a draw while the collector marks, 1% of node's profile of
	// the draws scene, which binds the same views every draw.
	if !sameWords(&m.consts, &c) {
		m.consts = c
	}
	if !sameWords(&m.tex, &t) {
		m.tex = t
	}
	m.noGrad = false
	if m.quads {
		// (Only sample, sample_b and sample_c read it, and they make
		// m.quads: a program without them, every vertex program of a
		// draw, need not ask; under WebAssembly the interface assertion
		// and the unit's walk of its samplers were 1.4% of the draws
		// scene.)
		g, ok := t.(GradientFree)
		m.noGrad = ok && g.IgnoresGradients()
	}
	for i, k := range m.uniKeys {
		var v [4]uint32
		if c != nil {
			var err error
			v, err = c.Constant(int(k[0]), int(k[1]))
			if err != nil {
				return &Fault{PC: -1, Reason: fmt.Sprintf("reading cb%d[%d]", k[0], k[1]), Err: err}
			}
		}
		u := &m.uniforms[i]
		for comp := range 4 {
			for l := range Lanes {
				u[comp][l] = v[comp]
			}
		}
	}
	return nil
}

// sameWords reports whether two interface values hold the same type and
// the same word: the same pointer, for the views Bind is given. (Not ==,
// which compares the values and panics on a type that is not comparable.)
func sameWords[I any](a, b *I) bool {
	// (word by word: the arrays' == is a call to memequal, 26 instructions
	// a Bind)
	p, q := (*[2]unsafe.Pointer)(unsafe.Pointer(a)), (*[2]unsafe.Pointer)(unsafe.Pointer(b))
	return p[0] == q[0] && p[1] == q[1]
}
