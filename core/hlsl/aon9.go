package hlsl

import (
	"fmt"
	"math"

	"d3dsim/core/dxbc"
)

// The Direct3D 9 back end of the _level_9_x profiles: the Aon9 chunk fxc
// writes beside the shader model 4 program, vs_2_0/ps_2_0 on 9_1 and
// vs_2_x/ps_2_x on 9_3 ("Specifying Compiler Targets"), which feature level
// 9 hardware runs. It translates the optimised shader model 4 program
// instruction by instruction, as fxc's own Aon9 code mirrors its SHDR (the
// fixtures' "mul r0.xyz, r0.xyzx, cb0[0].wwww" is "mul r0.xyz, r0, c0.w"):
// the program is already lowered, inlined, optimised and register
// allocated, and the shader model 2 rules that count instructions,
// temporaries and dependent reads are then counted on the code feature
// level 9 hardware would run. What shader model 2 has no instruction for is
// expanded (sqrt as rsq and rcp, a division as rcp and mul, comparisons as
// slt/sge or cmp, movc as cmp or a mad); what this back end does not
// translate (flow control, integer conversions, dynamically indexed
// constants) is refused by name rather than written wrong.
//
// Registers: r# keep their numbers, scratch temporaries follow them; a
// vertex shader's v# are its inputs (dcl_texcoordN vN), its outputs oT#
// in register order after the position, which goes through a temporary
// to oPos with the runtime's position offset (c0: oPos.xy += w * c0.xy);
// a pixel shader's inputs are t# in the same order, its outputs
// temporaries moved to oC#/oDepth at the end. Constant buffers map to
// c# from c1 (vertex) or c0 (pixel) in slot order, literals to def
// constants after them. Integers are floats (bitwise operators are
// refused before, X3535), so the booleans a comparison makes are 1.0 and
// 0.0, and and/or/not of booleans are mul/max/1-x.

// level9Unroll marks each loop the source leaves to the optimiser as
// [unroll]: shader model 2 has no dynamic loops, and fxc unrolls them for
// the _level_9_x profiles. A [loop] the source asks for stays a loop,
// which the back end refuses by name.
func (g *gen) level9Unroll() {
	for i := range g.code {
		if g.code[i].Op == OpLoop && g.code[i].Unroll == 0 {
			g.code[i].Unroll = 1
		}
	}
}

// level9D3D9 names the Direct3D 9 target of a stage at a level, as fxc's
// messages name it.
func level9D3D9(st Stage, level string) string {
	p := map[Stage]string{Vertex: "vs", Pixel: "ps"}[st]
	if level == "9_3" {
		return p + "_2_x"
	}
	return p + "_2_0"
}

// d9 is an operand of the Direct3D 9 code: a register, its swizzle (a
// source) or mask (a destination), and the negate modifier.
type d9 struct {
	typ, n uint32
	swz    [4]uint8
	mask   uint8
	neg    bool
	rel    bool  // c[a0.relC + n]: vs_2_0's relative addressing
	relC   uint8 // the component of a0
}

func (o d9) dstTok(sat bool) uint32 {
	t := 1<<31 | o.typ&7<<28 | (o.typ>>3&3)<<11 | o.n&0x7ff | uint32(o.mask)<<16
	if sat {
		t |= 1 << 20
	}
	return t
}

func (o d9) srcTok() uint32 {
	t := 1<<31 | o.typ&7<<28 | (o.typ>>3&3)<<11 | o.n&0x7ff
	for i, c := range o.swz {
		t |= uint32(c&3) << (16 + 2*i)
	}
	if o.neg {
		t |= 1 << 24
	}
	if o.rel {
		t |= 1 << 13 // D3DSHADER_ADDRMODE_RELATIVE: a0's token follows
	}
	return t
}

// a0Tok is the token of the relative address that follows a relative
// source: a0, the component replicated.
func a0Tok(c uint8) uint32 {
	return 1<<31 | dxbc.D3D9Texture<<28 | uint32(c)*0x55<<16
}

// rep is the operand with lane l's component replicated.
func (o d9) rep(l int) d9 {
	c := o.swz[l]
	o.swz = [4]uint8{c, c, c, c}
	return o
}

func (o d9) negate() d9 { o.neg = !o.neg; return o }

func (o d9) to(mask uint8) d9 { o.mask = mask; return o }

var identity = [4]uint8{0, 1, 2, 3}

func reg9(typ, n uint32) d9 { return d9{typ: typ, n: n, swz: identity, mask: 0xf} }

// l9 translates one program.
type l9 struct {
	g       *gen
	p       *Program
	profile string // ps_4_0_level_9_1
	target  string // ps_2_0
	ps      bool
	level   string
	code    []uint32
	at      pos // the instruction being translated, for errors
	failed  bool

	cbBase   map[int]int    // a dynamically indexed buffer's slot -> its first c#
	cbReg    map[[2]int]int // a buffer's slot and register -> its c#
	nconst   int            // constant registers used
	defs     map[[4]uint32]int
	defCode  []uint32
	inReg    map[int]uint32 // SM4 input register -> t# (pixel) or v#
	posIn    int            // a pixel shader's SV_Position register (-1)
	outTemp  map[int]int    // SM4 output register -> its temporary
	outKind  map[int]d9     // ... and where it goes at the end
	scratch0 int            // the first scratch temporary
	next     int            // the next free scratch temporary
	temps    int            // temporaries used
	samplers []dxbc.Level9SamplerMap
	sampOf   map[[2]int]int
	arith    int
	tex      int
	level1   map[int][4]int  // a temporary's lanes' dependent-read levels
	isBool   map[int][4]bool // lanes that hold a comparison's 1.0 or 0.0
	maxRead  int
	offset   d9        // the position offset's constant
	a0       [4][2]int // the temporary and lane each component of a0 holds (mova); -1 none
	a0next   int       // the component mova loads next
	// tempWritten is the lanes of each temporary written so far.
	tempWritten map[int]uint8
	rels        int // relative sources of the current instruction still to read
}

// level9Aon9 translates the program into the Direct3D 9 shader of the
// Aon9 chunk and checks the shader model 2 rules that count its code. It
// reports errors through g (fxc's texts where fxc has one) and returns nil
// when there are any.
func (g *gen) level9Aon9(res *Result, profile string, entry pos) *dxbc.Level9 {
	p := res.Program
	t := &l9{g: g, p: p, profile: profile, target: level9D3D9(p.Stage, g.level9), ps: p.Stage == Pixel, level: g.level9,
		at: entry, cbBase: map[int]int{}, cbReg: map[[2]int]int{}, defs: map[[4]uint32]int{}, inReg: map[int]uint32{}, posIn: -1,
		a0: [4][2]int{{-1}, {-1}, {-1}, {-1}}, tempWritten: map[int]uint8{}, outTemp: map[int]int{}, outKind: map[int]d9{}, sampOf: map[[2]int]int{}, level1: map[int][4]int{}, isBool: map[int][4]bool{}}
	l := &dxbc.Level9{Version: 0xffff0200}
	if !t.ps {
		l.Version = 0xfffe0200
	}
	if g.level9 == "9_3" {
		l.Version |= 1
	}
	// The constant registers, as fxc lays them out: a dynamically indexed
	// buffer whole from c0 (DirectXTK's skinning: "c0 cb0 0 242"), then a
	// vertex shader's position offset (the runtime's, "Vertex Shader
	// position offset": oPos.xy += oPos.w * c.xy), then the registers each
	// other buffer's code reads, in runs of consecutive ones (DirectXTK's
	// BasicEffect pixel shader reads cb0[13] alone: "c0 cb0 13 1").
	used := map[[2]int]bool{}
	for _, in := range p.Code {
		for _, s := range in.Src {
			if s.File == FileCB {
				used[[2]int{s.Index, s.Elem}] = true
			}
		}
	}
	mapRun := func(slot, r, n int) {
		l.CBMaps = append(l.CBMaps, dxbc.Level9CBMap{Buffer: uint16(slot), Start: uint16(r), Count: uint16(n), Target: uint16(t.nconst)})
		for i := 0; i < n; i++ {
			t.cbReg[[2]int{slot, r + i}] = t.nconst + i
		}
		t.nconst += n
	}
	for _, cb := range p.CBSizes {
		if cb.Dynamic {
			t.cbBase[cb.Slot] = t.nconst
			mapRun(cb.Slot, 0, cb.Regs)
		}
	}
	if !t.ps {
		l.Runtime = []dxbc.Level9Runtime{{Kind: 0, Target: uint16(t.nconst)}}
		t.offset = reg9(dxbc.D3D9Const, uint32(t.nconst))
		t.nconst++
	}
	for _, cb := range p.CBSizes {
		for r := 0; r < cb.Regs && !cb.Dynamic; r++ {
			if !used[[2]int{cb.Slot, r}] {
				continue
			}
			n := 1
			for r+n < cb.Regs && used[[2]int{cb.Slot, r + n}] {
				n++
			}
			mapRun(cb.Slot, r, n)
			r += n - 1
		}
	}

	// Inputs and outputs.
	var decls []uint32
	for _, e := range res.Inputs {
		if t.ps && e.SysVal == SysPosition {
			t.posIn = e.Register
		}
	}
	for _, e := range res.Inputs {
		switch {
		case e.Register == t.posIn:
		case t.ps && e.SysVal != SysNone:
			if e.Used != 0 {
				t.fail(entry, "the pixel shader input %s", e.Semantic)
				return nil
			}
		case t.ps:
			t.inReg[e.Register] = uint32(texcoord(e.Register, t.posIn))
		default:
			t.inReg[e.Register] = uint32(e.Register)
		}
	}
	maxIn := map[bool]int{true: 8, false: 16}[t.ps]
	for _, d := range p.Inputs {
		r, ok := t.inReg[d.Reg]
		if d.Reg == t.posIn {
			t.fail(entry, "SV_Position as a pixel shader input (%s has no position register)", t.target)
			return nil
		}
		if !ok {
			t.fail(entry, "the input v%d", d.Reg)
			return nil
		}
		if int(r) >= maxIn {
			g.errorf(entry, eLevel9Semantic, "invalid %s input: %s has %d input registers", profile, t.target, maxIn)
			return nil
		}
		if t.ps {
			decls = append(decls, dxbc.D3D9Dcl|2<<24, 1<<31, reg9(dxbc.D3D9Texture, r).to(d.Mask).dstTok(false))
		} else {
			decls = append(decls, dxbc.D3D9Dcl|2<<24, 1<<31|5|r<<16, reg9(dxbc.D3D9Input, r).dstTok(false))
		}
	}
	t.scratch0 = p.Temps
	posOut := -1
	for _, e := range res.Outputs {
		if !t.ps && e.SysVal == SysPosition {
			posOut = e.Register
		}
	}
	for _, e := range res.Outputs {
		if _, done := t.outKind[e.Register]; done {
			continue
		}
		switch {
		case !t.ps && e.SysVal == SysPosition:
			t.outKind[e.Register] = reg9(dxbc.D3D9RastOut, 0)
		case !t.ps && e.SysVal == SysNone:
			k := texcoord(e.Register, posOut)
			if k >= 8 {
				g.errorf(entry, eLevel9Semantic, "invalid %s output: %s has 8 texture coordinate outputs, oT0-oT7", profile, t.target)
				return nil
			}
			t.outKind[e.Register] = reg9(dxbc.D3D9TexCrd, uint32(k))
			continue // written directly
		case t.ps && e.SysVal == SysTarget:
			t.outKind[e.Register] = reg9(dxbc.D3D9ColorOut, uint32(e.Index))
		case t.ps && e.SysVal == SysDepth:
			t.outKind[e.Register] = reg9(dxbc.D3D9DepthOut, 0)
		default:
			t.fail(entry, "the output %s", e.Semantic)
			return nil
		}
		t.outTemp[e.Register] = t.scratch0
		t.scratch0++
	}
	t.temps = t.scratch0
	for i := range p.Code {
		in := &p.Code[i]
		if in.Line > 0 {
			t.at = pos{in.Line, 1}
		}
		t.next = t.scratch0
		t.rels = 0
		for _, s := range in.Src {
			if s.File == FileCB && s.Rel != nil {
				t.rels++
			}
		}
		t.instr(in)
		if t.failed {
			return nil
		}
	}
	// The outputs that go through temporaries.
	for _, e := range res.Outputs {
		tmp, ok := t.outTemp[e.Register]
		if !ok || e.Used == 0 && e.Mask != 0 && !t.written(e.Register) {
			continue
		}
		o := t.outKind[e.Register]
		r := reg9(dxbc.D3D9Temp, uint32(tmp))
		if m := 0xf &^ t.writtenMask(e.Register); t.ps && m != 0 {
			// Lanes the shader leaves unwritten are 0, not a temporary's
			// unwritten lanes (oC# is written whole).
			t.emit(dxbc.D3D9Mov, false, r.to(m), t.consts().rep(0))
		}
		switch o.typ {
		case dxbc.D3D9RastOut:
			t.emit(dxbc.D3D9Mad, false, o.to(dxbc.XY), r.rep(3), t.offset, r)
			t.emit(dxbc.D3D9Mov, false, o.to(dxbc.Z|dxbc.W), r)
		case dxbc.D3D9DepthOut:
			t.emit(dxbc.D3D9Mov, false, o, r.rep(0))
		default:
			t.emit(dxbc.D3D9Mov, false, o, r)
		}
		delete(t.outTemp, e.Register)
	}
	if t.failed {
		return nil
	}
	t.limits(entry)
	if t.failed || len(g.errs) > 0 {
		return nil
	}
	var sdecl []uint32
	for _, s := range t.samplers {
		ty := uint32(2)
		switch p.texDecl(int(s.Resource)).Dim {
		case TexCube:
			ty = 3
		case Tex3D:
			ty = 4
		}
		sdecl = append(sdecl, dxbc.D3D9Dcl|2<<24, 1<<31|ty<<27, reg9(dxbc.D3D9Sampler, uint32(s.Target)).dstTok(false))
	}
	l.Samplers = t.samplers
	l.Code = append([]uint32{l.Version}, t.defCode...)
	l.Code = append(l.Code, decls...)
	l.Code = append(l.Code, sdecl...)
	l.Code = append(l.Code, t.code...)
	l.Code = append(l.Code, dxbc.D3D9End)
	return l
}

// texcoord is the oT#/t# of a vertex shader output or pixel shader input
// register: its number, less one past the position's register, so that a
// vertex shader's outputs and the pixel shader's inputs, whose registers
// match (the linkage rule), meet in the same texture coordinates.
func texcoord(reg, pos int) int {
	if pos >= 0 && pos < reg {
		return reg - 1
	}
	return reg
}

// written reports whether the program writes output register r.
func (t *l9) written(r int) bool { return t.writtenMask(r) != 0 }

// writtenMask is the lanes of output register r the program writes.
func (t *l9) writtenMask(r int) uint8 {
	var m uint8
	for _, in := range t.p.Code {
		for _, d := range in.Dst {
			if d.File == FileOutput && d.Index == r {
				m |= d.Mask
			}
		}
	}
	return m
}

// fail refuses what this back end does not translate, naming it.
func (t *l9) fail(at pos, format string, args ...any) {
	if t.failed {
		return
	}
	t.failed = true
	t.g.errorf(at, eNotImplemented, "not supported by this compiler for %s: %s in the Direct3D 9 code (%s)", t.profile, fmt.Sprintf(format, args...), t.target)
}

// limits checks the counts of the Direct3D 9 code against the target's
// ("ps_2_0": 64 arithmetic and 32 texture instruction slots, 12
// temporaries, 32 constants; ps_2_x: 512 slots, 32 temporaries;
// vs_2_0 and vs_2_x: 256 slots, 256 constants; 12 and 32 temporaries).
func (t *l9) limits(entry pos) {
	g := t.g
	switch {
	case t.ps && t.level == "9_1":
		if t.arith > 64 {
			g.errorf(entry, 5608, "Compiled shader code uses too many arithmetic instruction slots (%d). Max. allowed by the target (%s) is 64.", t.arith, t.target)
		}
		if t.tex > 32 {
			g.errorf(entry, 5609, "Compiled shader code uses too many texture instruction slots (%d). Max. allowed by the target (%s) is 32.", t.tex, t.target)
		}
	default:
		max := map[bool]int{true: 512, false: 256}[t.ps]
		if n := t.arith + t.tex; n > max {
			g.errorf(entry, 5608, "Compiled shader code uses too many instruction slots (%d). Max. allowed by the target (%s) is %d.", n, t.target, max)
		}
	}
	maxTemps := map[string]int{"9_1": 12, "9_3": 32}[t.level]
	if t.temps > maxTemps {
		g.errorf(entry, 4505, "maximum temp register index exceeded: the %s code uses %d temporary registers, %s has %d (r0-r%d)", t.target, t.temps, t.target, maxTemps, maxTemps-1)
	}
	maxConst := map[bool]int{true: 32, false: 256}[t.ps]
	if t.nconst > maxConst {
		g.errorf(entry, 4507, "maximum constant register index exceeded: the %s code uses %d constant registers, %s has %d (c0-c%d)", t.target, t.nconst, t.target, maxConst, maxConst-1)
	}
	if t.ps && t.level == "9_1" && t.maxRead > 4 {
		g.errorf(entry, 5426, "Shader uses texture addressing operations in a dependency chain that is too complex for the target shader model (%s) to handle.", t.target)
	}
}

// emit appends one instruction: dst first (a zero typ with mask 0 means
// none), then the sources.
func (t *l9) emit(op uint32, sat bool, dst d9, srcs ...d9) {
	if !t.ps && sat {
		// vs_2_0 has no _sat: clamp with max and min, in a temporary
		// (an oT# is written, never read).
		s := t.tmp().to(dst.mask)
		t.emit(op, false, s, srcs...)
		z := t.consts()
		t.emit(dxbc.D3D9Max, false, s, s, z.rep(0))
		t.emit(dxbc.D3D9Min, false, dst, s, z.rep(1))
		return
	}
	t.code = append(t.code, op, dst.dstTok(sat))
	n := len(srcs)
	for _, s := range srcs {
		t.code = append(t.code, s.srcTok())
		if s.rel {
			t.code = append(t.code, a0Tok(s.relC))
			n++
		}
	}
	t.code[len(t.code)-n-2] |= uint32(1+n) << 24
	for c, k := range t.a0 {
		if dst.typ == dxbc.D3D9Temp && k[0] == int(dst.n) {
			t.a0[c] = [2]int{-1} // the register this component was loaded from changes
		}
	}
	slots, tex, _ := dxbc.D3D9OpSlots(op)
	if tex {
		t.tex += slots
	} else {
		t.arith += slots
	}
	if dst.typ == dxbc.D3D9Temp {
		t.tempWritten[int(dst.n)] |= dst.mask
	}
	if dst.typ == dxbc.D3D9Temp && int(dst.n)+1 > t.temps {
		t.temps = int(dst.n) + 1
	}
}

// def is the constant register holding four values (bits), defined once.
func (t *l9) def(v [4]uint32) d9 {
	n, ok := t.defs[v]
	if !ok {
		n = t.nconst
		t.nconst++
		t.defs[v] = n
		t.defCode = append(t.defCode, dxbc.D3D9Def|5<<24, reg9(dxbc.D3D9Const, uint32(n)).dstTok(false), v[0], v[1], v[2], v[3])
	}
	return reg9(dxbc.D3D9Const, uint32(n))
}

// consts is the def of 0 and 1 (x and y) that comparisons, movc and the
// vertex shader's saturate use.
func (t *l9) consts() d9 { return t.def([4]uint32{0, math.Float32bits(1), 0, 0}) }

// tmp is a fresh scratch temporary for the current instruction.
func (t *l9) tmp() d9 {
	r := reg9(dxbc.D3D9Temp, uint32(t.next))
	t.next++
	if t.next > t.temps {
		t.temps = t.next
	}
	return r
}

// intOps read their sources as integers: their literals are integer
// values, which shader model 2 holds as floats.
func intOp(op Op) bool {
	switch op {
	case OpItof, OpUtof, OpIadd, OpImul, OpIneg, OpImin, OpImax, OpUmin, OpUmax, OpIlt, OpIge, OpIeq, OpIne, OpUlt, OpUge:
		return true
	}
	return false
}

// src converts a source read in lanes (a mask of the instruction's lanes),
// legal for the target: ps_2_0 and ps_2_x take .xyzw and replicate
// swizzles only, so another is copied into a scratch temporary lane by
// lane; |x| goes through abs.
func (t *l9) src(o Operand, lanes uint8, in *Instr) d9 {
	var r d9
	switch o.File {
	case FileTemp:
		r = reg9(dxbc.D3D9Temp, uint32(o.Index))
		var need uint8
		for _, i := range lanesOf(lanes) {
			need |= 1 << (o.Swz[i] & 3)
		}
		if miss := need &^ t.tempWritten[o.Index]; miss != 0 {
			// The SM4 program reads a lane no instruction wrote (0 there);
			// Direct3D 9 refuses a read of an unwritten temporary.
			t.emit(dxbc.D3D9Mov, false, r.to(miss), t.consts().rep(0))
		}
	case FileInput:
		n, ok := t.inReg[o.Index]
		if !ok || o.Index == t.posIn {
			t.fail(t.at, "the input v%d", o.Index)
			return r
		}
		r = reg9(map[bool]uint32{true: dxbc.D3D9Texture, false: dxbc.D3D9Input}[t.ps], n)
	case FileCB:
		if o.Rel != nil {
			return t.relative(o, lanes, in)
		}
		if intOp(in.Op) {
			t.fail(t.at, "an integer read from a constant buffer (this compiler writes no data conversion for it)")
			return r
		}
		r = reg9(dxbc.D3D9Const, uint32(t.cbReg[[2]int{o.Index, o.Elem}]))
	case FileImm:
		var v [4]uint32
		asInt := intOp(in.Op) || !o.Float && (in.Op == OpMov || in.Op == OpMovc)
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) == 0 {
				continue
			}
			b := o.Imm[i] // a literal's lanes are its own, unswizzled
			if asInt {
				b = math.Float32bits(float32(int32(b)))
			}
			v[i] = b
		}
		r = t.def(v)
		o.Swz = identity
	default:
		t.fail(t.at, "a %s operand", fileName(o.File))
		return r
	}
	r.swz = normSwz(o.Swz, lanes)
	if t.ps && o.File != FileImm {
		r = t.legal(r, lanes)
	}
	if o.Abs && (in.Op == OpLog || in.Op == OpRsq) {
		// log and rsq take the absolute value themselves.
		return r
	}
	if o.Abs {
		a := t.tmp()
		t.emit(dxbc.D3D9Abs, false, a.to(lanes), r)
		r = a
	}
	r.neg = o.Neg
	return r
}

// zeroImm reports a literal whose lanes are all 0.0 or -0.0.
func zeroImm(o Operand) bool {
	return o.File == FileImm && (o.Imm[0]|o.Imm[1]|o.Imm[2]|o.Imm[3])&^(1<<31) == 0
}

// ps20Swizzles are the arbitrary swizzles ps_2_0 takes besides .xyzw and
// the replicates ("Source Register Swizzling", ps_2_0): .yzxw, .zxyw and
// .wzyx.
var ps20Swizzles = [][4]uint8{{1, 2, 0, 3}, {2, 0, 1, 3}, {3, 2, 1, 0}}

// relative reads a dynamically indexed constant, c[a0.c + n] (vs_2_0's
// relative addressing; ps_2_0 has none): mova loads a component of a0
// from the index lane (rounded to the nearest integer, which an integer
// held as a float is); a0's four components keep the last four index
// lanes loaded while those lanes keep their values, as fxc's "mova a0.xy"
// and c26[a0.y] do. An instruction with two such sources reads the first
// into a scratch temporary.
func (t *l9) relative(o Operand, lanes uint8, in *Instr) d9 {
	if t.ps {
		t.fail(t.at, "a dynamically indexed constant buffer (%s has no relative addressing)", t.target)
		return d9{}
	}
	key := [2]int{o.Rel.Index, int(o.Rel.Swz[0] & 3)}
	c := -1
	for i, k := range t.a0 {
		if k == key {
			c = i
		}
	}
	if c < 0 {
		c = t.a0next
		t.a0next = (t.a0next + 1) % 4
		t.code = append(t.code, 46|2<<24, reg9(dxbc.D3D9Texture, 0).to(1<<c).dstTok(false), reg9(dxbc.D3D9Temp, uint32(key[0])).rep(key[1]).srcTok())
		t.arith++
		t.a0[c] = key
	}
	r := reg9(dxbc.D3D9Const, uint32(t.cbBase[o.Index]+o.Elem))
	r.rel, r.relC = true, uint8(c)
	r.swz = normSwz(o.Swz, lanes)
	if t.rels--; t.rels > 0 || o.Abs {
		// All but the last relative source: a0.x is loaded again.
		s := t.tmp()
		t.emit(dxbc.D3D9Mov, false, s.to(lanes), r)
		r = s
		if o.Abs {
			t.emit(dxbc.D3D9Abs, false, s.to(lanes), s)
		}
	}
	r.neg = o.Neg
	return r
}

// legal returns r if its swizzle on lanes is .xyzw or a replicate, else a
// scratch copy whose lanes hold what r's did.
func (t *l9) legal(r d9, lanes uint8) d9 {
	id, repl := true, true
	first := -1
	for i := 0; i < 4; i++ {
		if lanes&(1<<i) == 0 {
			continue
		}
		if r.swz[i] != uint8(i) {
			id = false
		}
		if first < 0 {
			first = int(r.swz[i])
		} else if int(r.swz[i]) != first {
			repl = false
		}
	}
	switch {
	case id:
		r.swz = identity
		return r
	case repl:
		return r.rep(bitIndex(lanes))
	}
	for _, sw := range ps20Swizzles {
		if r.swz == sw || t.onLanes(r.swz, sw, lanes) {
			r.swz = sw
			return r
		}
	}
	s := t.tmp()
	neg := r.neg
	r.neg = false
	for c := uint8(0); c < 4; c++ {
		var m uint8
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) != 0 && r.swz[i] == c {
				m |= 1 << i
			}
		}
		if m != 0 {
			t.emit(dxbc.D3D9Mov, false, s.to(m), r.rep(laneOf(r.swz, c)))
		}
	}
	s.neg = neg
	return s
}

// normSwz is a swizzle as the lanes read it: .xyzw or a replicate where it
// is one on them (as fxc prints "mov oT0.xy, v1" for SM4's v1.xyxx), else
// the lanes not read take the last read lane's component.
func normSwz(swz [4]uint8, lanes uint8) [4]uint8 {
	if lanes == 0 {
		return swz
	}
	id, first, repl := true, -1, true
	for _, i := range lanesOf(lanes) {
		id = id && swz[i] == uint8(i)
		if first < 0 {
			first = int(swz[i])
		}
		repl = repl && int(swz[i]) == first
	}
	switch {
	case id:
		return identity
	case repl:
		c := uint8(first)
		return [4]uint8{c, c, c, c}
	}
	last := swz[bitIndex(lanes)]
	for i := 0; i < 4; i++ {
		if lanes&(1<<i) != 0 {
			last = swz[i]
		} else {
			swz[i] = last
		}
	}
	return swz
}

// laneOf is a lane whose swizzle picks c.
func laneOf(swz [4]uint8, c uint8) int {
	for i, x := range swz {
		if x == c {
			return i
		}
	}
	return 0
}

func bitIndex(m uint8) int {
	for i := 0; i < 4; i++ {
		if m&(1<<i) != 0 {
			return i
		}
	}
	return 0
}

func fileName(f File) string {
	return map[File]string{FileIndexable: "indexable temporary (x#)", FileTex: "texture", FileSamp: "sampler", FileUAV: "unordered access view", FileTGSM: "groupshared"}[f]
}

// dst converts a destination: a temporary, a vertex shader's oT#, or an
// output's temporary.
func (t *l9) dst(o Operand) d9 {
	switch o.File {
	case FileTemp:
		return reg9(dxbc.D3D9Temp, uint32(o.Index)).to(o.Mask)
	case FileOutput:
		if tmp, ok := t.outTemp[o.Index]; ok {
			return reg9(dxbc.D3D9Temp, uint32(tmp)).to(o.Mask)
		}
		if k, ok := t.outKind[o.Index]; ok {
			return k.to(o.Mask)
		}
	}
	t.fail(t.at, "a destination %s", fileName(o.File))
	return d9{}
}

// constOnce copies all but the first distinct constant register of an
// instruction's sources into scratch temporaries: a shader model 2
// instruction reads at most one.
func (t *l9) constOnce(lanes []uint8, srcs ...*d9) {
	first := -1
	for i, s := range srcs {
		if s.typ != dxbc.D3D9Const {
			continue
		}
		key := int(s.n) | b2i(s.rel)<<16
		if first < 0 || key == first {
			first = key
			continue
		}
		c := t.tmp()
		cp := *s
		cp.neg = false
		t.emit(dxbc.D3D9Mov, false, c.to(lanes[i]), cp)
		c.neg = s.neg
		*s = c
	}
}

// lanesOf is the lanes of a destination mask.
func lanesOf(m uint8) []int {
	var l []int
	for i := 0; i < 4; i++ {
		if m&(1<<i) != 0 {
			l = append(l, i)
		}
	}
	return l
}

// setLevel records the dependent-read level and the boolean-ness of the
// lanes a destination writes.
func (t *l9) setLevel(d Operand, lvl int, boolean bool) {
	if d.File != FileTemp {
		return
	}
	l, b := t.level1[d.Index], t.isBool[d.Index]
	for _, i := range lanesOf(d.Mask) {
		l[i], b[i] = lvl, boolean
	}
	t.level1[d.Index], t.isBool[d.Index] = l, b
}

// srcLevel is the highest dependent-read level of the lanes a source
// reads (a temporary's; inputs and constants are level 0).
func (t *l9) srcLevel(o Operand, lanes uint8) int {
	if o.File != FileTemp {
		return 0
	}
	m := 0
	for _, i := range lanesOf(lanes) {
		m = max(m, t.level1[o.Index][o.Swz[i]&3])
	}
	return m
}

// srcBool reports whether every lane a source reads holds a boolean.
func (t *l9) srcBool(o Operand, lanes uint8) bool {
	if o.File == FileImm {
		return false
	}
	if o.File != FileTemp || o.Abs {
		return false
	}
	for _, i := range lanesOf(lanes) {
		if !t.isBool[o.Index][o.Swz[i]&3] {
			return false
		}
	}
	return true
}

// instr translates one shader model 4 instruction.
func (t *l9) instr(in *Instr) {
	if in.Op == OpRet || in.Op == OpNop {
		return
	}
	if len(in.Dst) == 0 && in.Op != OpDiscard {
		t.fail(t.at, "%s", t.opWhat(in.Op))
		return
	}
	var d Operand
	if len(in.Dst) > 0 {
		d = in.Dst[len(in.Dst)-1] // imul's low half
		if in.Op == OpSincos {
			t.sincos(in)
			return
		}
		if len(in.Dst) > 1 && in.Op != OpImul {
			t.fail(t.at, "%s", t.opWhat(in.Op))
			return
		}
	}
	m := d.Mask
	// The dependent-read level a result takes: the highest of its
	// sources' (sample's own rule is in sample).
	lvl := 0
	for i, s := range in.Src {
		lvl = max(lvl, t.srcLevel(s, in.readLanes(i)))
	}
	boolean := false
	switch in.Op {
	case OpMov, OpItof, OpUtof, OpAdd, OpIadd, OpMul, OpImul, OpMad, OpMin, OpMax, OpImin, OpImax, OpUmin, OpUmax, OpFrc, OpIneg:
		op := map[Op]uint32{OpMov: dxbc.D3D9Mov, OpItof: dxbc.D3D9Mov, OpUtof: dxbc.D3D9Mov, OpAdd: dxbc.D3D9Add, OpIadd: dxbc.D3D9Add,
			OpMul: dxbc.D3D9Mul, OpImul: dxbc.D3D9Mul, OpMad: dxbc.D3D9Mad, OpMin: dxbc.D3D9Min, OpMax: dxbc.D3D9Max, OpImin: dxbc.D3D9Min,
			OpImax: dxbc.D3D9Max, OpUmin: dxbc.D3D9Min, OpUmax: dxbc.D3D9Max, OpFrc: dxbc.D3D9Frc, OpIneg: dxbc.D3D9Mov}[in.Op]
		srcs := make([]d9, len(in.Src))
		ps := make([]*d9, len(in.Src))
		ls := make([]uint8, len(in.Src))
		for i, s := range in.Src {
			srcs[i] = t.src(s, m, in)
			ps[i], ls[i] = &srcs[i], m
		}
		if in.Op == OpIneg {
			srcs[0] = srcs[0].negate()
		}
		t.constOnce(ls, ps...)
		boolean = in.Op == OpMov && t.srcBool(in.Src[0], m)
		t.emit(op, in.Sat, t.dst(d), srcs...)
	case OpDp3, OpDp4, OpDp2:
		n := map[Op]uint8{OpDp2: dxbc.XY, OpDp3: dxbc.XY | dxbc.Z, OpDp4: 0xf}[in.Op]
		a, b := t.src(in.Src[0], n, in), t.src(in.Src[1], n, in)
		t.constOnce([]uint8{n, n}, &a, &b)
		switch {
		case in.Op != OpDp2:
			t.emit(map[Op]uint32{OpDp3: dxbc.D3D9Dp3, OpDp4: dxbc.D3D9Dp4}[in.Op], in.Sat, t.dst(d), a, b)
		case t.ps:
			z := t.consts()
			t.constOnce([]uint8{n, n, 1}, &a, &b, &z)
			t.emit(dxbc.D3D9Dp2add, in.Sat, t.dst(d), a, b, z.rep(0))
		default:
			s := t.tmp()
			t.emit(dxbc.D3D9Mul, false, s.to(dxbc.X), a.rep(1), b.rep(1))
			t.emit(dxbc.D3D9Mad, in.Sat, t.dst(d), a.rep(0), b.rep(0), s.rep(0))
		}
	case OpDerivRtx, OpDerivRty:
		// ps_2_x's gradients (ps_2_0 has none: refused before, level9Instr).
		a := t.src(in.Src[0], m, in)
		t.emit(map[Op]uint32{OpDerivRtx: dxbc.D3D9Dsx, OpDerivRty: dxbc.D3D9Dsy}[in.Op], in.Sat, t.dst(d), a)
	case OpRcp, OpRsq, OpExp, OpLog, OpSqrt:
		a := t.src(in.Src[0], m, in)
		op := map[Op]uint32{OpRcp: dxbc.D3D9Rcp, OpRsq: dxbc.D3D9Rsq, OpExp: dxbc.D3D9Exp, OpLog: dxbc.D3D9Log, OpSqrt: dxbc.D3D9Rsq}[in.Op]
		dst := t.dst(d)
		var s d9
		if in.Op == OpSqrt {
			s = t.tmp()
		}
		for _, i := range lanesOf(m) {
			if in.Op == OpSqrt {
				t.emit(dxbc.D3D9Rsq, false, s.to(1<<i), a.rep(i))
				t.emit(dxbc.D3D9Rcp, in.Sat, dst.to(1<<i), s.rep(i))
				continue
			}
			t.emit(op, in.Sat, dst.to(1<<i), a.rep(i))
		}
	case OpDiv:
		a, b := t.src(in.Src[0], m, in), t.src(in.Src[1], m, in)
		s := t.tmp()
		for _, i := range lanesOf(m) {
			t.emit(dxbc.D3D9Rcp, false, s.to(1<<i), b.rep(i))
		}
		t.emit(dxbc.D3D9Mul, in.Sat, t.dst(d), a, s)
	case OpFtoi, OpFtou, OpRoundZ:
		// Toward zero: floor(|x|) with x's sign (integers are floats).
		a := t.src(in.Src[0], m, in)
		f, s := t.tmp(), t.tmp()
		t.emit(dxbc.D3D9Abs, false, f.to(m), a)
		t.emit(dxbc.D3D9Frc, false, s.to(m), f)
		t.emit(dxbc.D3D9Add, false, f.to(m), f, s.negate())
		if t.ps {
			t.constOnce([]uint8{m}, &a)
			t.emit(dxbc.D3D9Cmp, in.Sat, t.dst(d), a, f, f.negate())
			break
		}
		z := t.consts()
		t.constOnce([]uint8{m, m}, &a, &z)
		t.emit(dxbc.D3D9Slt, false, s.to(m), a, z.rep(0))
		t.emit(dxbc.D3D9Add, false, s.to(m), s, s) // 2 where x < 0
		t.emit(dxbc.D3D9Mad, in.Sat, t.dst(d), s.negate(), f, f)
	case OpRoundNI, OpRoundPI:
		a := t.src(in.Src[0], m, in)
		s := t.tmp()
		if in.Op == OpRoundNI {
			t.emit(dxbc.D3D9Frc, false, s.to(m), a)
			t.emit(dxbc.D3D9Add, in.Sat, t.dst(d), a, s.negate())
		} else {
			t.emit(dxbc.D3D9Frc, false, s.to(m), a.negate())
			t.emit(dxbc.D3D9Add, in.Sat, t.dst(d), a, s)
		}
	case OpLt, OpGe, OpEq, OpNe, OpIlt, OpIge, OpIeq, OpIne, OpUlt, OpUge:
		a, b := t.src(in.Src[0], m, in), t.src(in.Src[1], m, in)
		t.constOnce([]uint8{m, m}, &a, &b)
		kind := map[Op]string{OpLt: "lt", OpIlt: "lt", OpUlt: "lt", OpGe: "ge", OpIge: "ge", OpUge: "ge", OpEq: "eq", OpIeq: "eq", OpNe: "ne", OpIne: "ne"}[in.Op]
		z := t.consts()
		zero, one := z.rep(0), z.rep(1)
		dst := t.dst(d)
		if !t.ps && (kind == "lt" || kind == "ge") {
			t.emit(map[string]uint32{"lt": dxbc.D3D9Slt, "ge": dxbc.D3D9Sge}[kind], false, dst, a, b)
			break
		}
		s := t.tmp()
		if zeroImm(in.Src[1]) {
			s = a // a - 0
		} else {
			t.emit(dxbc.D3D9Add, false, s.to(m), a, b.negate())
		}
		if kind == "eq" || kind == "ne" {
			sq := t.tmp()
			t.emit(dxbc.D3D9Mul, false, sq.to(m), s, s)
			s = sq.negate() // -(a-b)^2 >= 0 exactly when a == b
		}
		switch {
		case t.ps && (kind == "lt" || kind == "ne"):
			t.emit(dxbc.D3D9Cmp, false, dst, s, zero, one)
		case t.ps:
			t.emit(dxbc.D3D9Cmp, false, dst, s, one, zero)
		case kind == "eq":
			t.emit(dxbc.D3D9Sge, false, dst, s, zero)
		default:
			t.emit(dxbc.D3D9Slt, false, dst, s, zero)
		}
		boolean = true
	case OpAnd, OpOr:
		// Booleans (1.0 or 0.0) with booleans or with a value: and is a
		// product, or the larger.
		a, b := t.src(in.Src[0], m, in), t.src(in.Src[1], m, in)
		t.constOnce([]uint8{m, m}, &a, &b)
		t.emit(map[Op]uint32{OpAnd: dxbc.D3D9Mul, OpOr: dxbc.D3D9Max}[in.Op], false, t.dst(d), a, b)
		boolean = t.srcBool(in.Src[0], m) && t.srcBool(in.Src[1], m)
	case OpNot:
		a := t.src(in.Src[0], m, in)
		z := t.consts()
		t.constOnce([]uint8{m, 1}, &a, &z)
		t.emit(dxbc.D3D9Add, false, t.dst(d), a.negate(), z.rep(1))
		boolean = true
	case OpMovc:
		c, a, b := t.src(in.Src[0], m, in), t.src(in.Src[1], m, in), t.src(in.Src[2], m, in)
		if !t.srcBool(in.Src[0], m) {
			// Any non-zero value is true: 0 < c*c.
			s := t.tmp()
			t.emit(dxbc.D3D9Mul, false, s.to(m), c, c)
			if !t.ps {
				t.emit(dxbc.D3D9Slt, false, s.to(m), s.negate(), s)
			}
			c = s
		}
		if t.ps {
			// cmp takes its second source where the first is >= 0: -c >= 0
			// where c is 0 (false).
			t.constOnce([]uint8{m, m, m}, &c, &a, &b)
			t.emit(dxbc.D3D9Cmp, in.Sat, t.dst(d), c.negate(), b, a)
			break
		}
		s := t.tmp()
		t.constOnce([]uint8{m, m}, &a, &b)
		t.emit(dxbc.D3D9Add, false, s.to(m), a, b.negate())
		t.constOnce([]uint8{m, m, m}, &c, &s, &b)
		t.emit(dxbc.D3D9Mad, in.Sat, t.dst(d), c, s, b)
	case OpDiscard:
		if !t.ps {
			t.fail(t.at, "discard")
			return
		}
		c := t.src(in.Src[0], 1, in).rep(0)
		s := t.tmp()
		z := t.consts()
		isBool := t.srcBool(in.Src[0], 1)
		switch {
		case in.Test == TestNZ && isBool:
			t.emit(dxbc.D3D9Mov, false, s, c.negate())
		case in.Test == TestNZ:
			t.emit(dxbc.D3D9Mul, false, s, c, c)
			t.emit(dxbc.D3D9Mov, false, s, s.negate())
		case isBool:
			t.constOnce([]uint8{1, 1}, &c, &z)
			t.emit(dxbc.D3D9Add, false, s, c, z.rep(1).negate())
		default:
			t.emit(dxbc.D3D9Mul, false, s, c, c)
			t.emit(dxbc.D3D9Cmp, false, s, s.negate(), z.rep(1).negate(), z.rep(0))
		}
		t.emit(dxbc.D3D9Texkill, false, s)
		return
	case OpSample, OpSampleC:
		t.sample(in, d)
		return
	default:
		t.fail(t.at, "%s", t.opWhat(in.Op))
		return
	}
	t.setLevel(d, lvl, boolean)
}

// sincos translates sincos (sin and cos of each lane, either destination
// null) into shader model 2's sincos macro, which takes an angle in
// [-pi, pi] (so the angle is reduced first: frc(x / 2pi + 1/2) * 2pi - pi)
// and the two constants of its series ("sincos - ps", D3DSINCOSCONST1
// and 2), and writes cos to x and sin to y. Eight slots a lane.
func (t *l9) sincos(in *Instr) {
	sinD, cosD := in.Dst[0], in.Dst[1]
	m := sinD.Mask | cosD.Mask
	a := t.src(in.Src[0], m, in)
	f32 := func(v ...float32) (w [4]uint32) {
		for i, x := range v {
			w[i] = math.Float32bits(x)
		}
		return w
	}
	red := t.def(f32(1/(2*math.Pi), 0.5, 2*math.Pi, -math.Pi))
	c1 := t.def(f32(-1.5500992e-06, -2.1701389e-05, 0.0026041667, 0.00026041668))
	c2 := t.def(f32(-0.020833334, -0.125, 1, 0.5))
	s, r := t.tmp(), t.tmp()
	for _, i := range lanesOf(m) {
		x := a.rep(i)
		t.constOnce([]uint8{1, 1}, &x, &red)
		t.emit(dxbc.D3D9Mad, false, s.to(dxbc.X), x, red.rep(0), red.rep(1))
		t.emit(dxbc.D3D9Frc, false, s.to(dxbc.X), s.rep(0))
		t.emit(dxbc.D3D9Mad, false, s.to(dxbc.X), s.rep(0), red.rep(2), red.rep(3))
		t.emit(37, false, r.to(dxbc.XY), s.rep(0), c1, c2)
		if sinD.File != FileNull && sinD.Mask&(1<<i) != 0 {
			t.emit(dxbc.D3D9Mov, in.Sat, t.dst(sinD).to(1<<i), r.rep(1))
		}
		if cosD.File != FileNull && cosD.Mask&(1<<i) != 0 {
			t.emit(dxbc.D3D9Mov, in.Sat, t.dst(cosD).to(1<<i), r.rep(0))
		}
	}
	t.setLevel(sinD, 0, false)
	t.setLevel(cosD, 0, false)
}

// sample translates sample into texld (ps_2_0's coordinate is a t# or
// r# read whole, its result a whole r#) and its dependent-read level.
func (t *l9) sample(in *Instr, d Operand) {
	coord, tex, smp := in.Src[0], in.Src[1], in.Src[2]
	n := uint8(1)<<in.Dim.coords() - 1
	if in.Dim == Tex1D {
		// A 1D texture is a 2D one of one row: y is any value.
		coord.Swz[1], n = coord.Swz[0], dxbc.XY
	}
	if in.HasOffs {
		t.fail(t.at, "a sample offset")
		return
	}
	key := [2]int{smp.Index, tex.Index}
	target, ok := t.sampOf[key]
	if !ok {
		target = len(t.samplers)
		t.sampOf[key] = target
		t.samplers = append(t.samplers, dxbc.Level9SamplerMap{Target: uint8(target), Sampler: uint8(smp.Index), Resource: uint8(tex.Index)})
	}
	level := 1
	if coord.File != FileInput {
		level = 1 + max(1, t.srcLevel(coord, n))
		if coord.File != FileTemp {
			level = 2
		}
	}
	t.maxRead = max(t.maxRead, level)
	c := t.src(coord, n, in)
	if in.Op == OpSampleC {
		// Feature level 9's comparison filtering ("Direct3D feature
		// levels", the 9_x shadow support): texld of a depth texture with
		// the reference in z returns the comparison.
		if in.Dim != Tex2D {
			t.fail(t.at, "SampleCmp of a %s", in.Dim)
			return
		}
		s := t.tmp()
		t.emit(dxbc.D3D9Mov, false, s.to(dxbc.XY), c)
		t.emit(dxbc.D3D9Mov, false, s.to(dxbc.Z), t.src(in.Src[3], 1, in).rep(0))
		c = s
	}
	if c.neg || c.typ != dxbc.D3D9Temp && c.typ != dxbc.D3D9Texture || !t.identityOn(c.swz, n) {
		s := t.tmp()
		t.emit(dxbc.D3D9Mov, false, s.to(n), c)
		c = s
	}
	c.swz = identity
	sreg := reg9(dxbc.D3D9Sampler, uint32(target))
	dst := t.dst(d)
	if dst.typ == dxbc.D3D9Temp && d.Mask == 0xf && tex.Swz == identity {
		t.emit(dxbc.D3D9Texld, false, dst, c, sreg)
		if in.Sat {
			t.emit(dxbc.D3D9Mov, true, dst, reg9(dxbc.D3D9Temp, dst.n))
		}
	} else {
		s := t.tmp()
		t.emit(dxbc.D3D9Texld, false, s, c, sreg)
		s.swz = tex.Swz
		t.emit(dxbc.D3D9Mov, in.Sat, dst, t.legal(s, d.Mask))
	}
	t.setLevel(d, level, false)
}

// onLanes reports whether swz picks what sw does on lanes.
func (t *l9) onLanes(swz, sw [4]uint8, lanes uint8) bool {
	for _, i := range lanesOf(lanes) {
		if swz[i] != sw[i] {
			return false
		}
	}
	return true
}

func (t *l9) identityOn(swz [4]uint8, lanes uint8) bool {
	for _, i := range lanesOf(lanes) {
		if swz[i] != uint8(i) {
			return false
		}
	}
	return true
}

// opWhat names an instruction this back end does not translate, with
// the HLSL that makes it where that helps.
func (t *l9) opWhat(op Op) string {
	switch op {
	case OpLoop, OpEndloop, OpBreak, OpBreakc, OpContinue:
		return "a loop that is not unrolled (" + op.String() + "; shader model 2 has no dynamic loops: a loop runs a constant number of times, or fxc refuses it too, and [loop] keeps one)"
	case OpIf, OpElse, OpEndif, OpSwitch, OpCase, OpDefault, OpEndswitch:
		return "a branch that is not flattened (" + op.String() + "; fxc flattens a branch for shader model 2 where this compiler's optimiser does not: [flatten] the source)"
	case OpRoundNE:
		return "the conversion " + op.String() + " (round: to the nearest, ties to even)"
	}
	return "the instruction " + op.String()
}

// level9Container adds the Aon9 chunk before the program, where fxc
// writes it.
func level9Container(code []byte, l *dxbc.Level9) ([]byte, error) {
	c, err := dxbc.Parse(code)
	if err != nil {
		return nil, err
	}
	c.Chunks = append([]dxbc.Chunk{{FourCC: "Aon9", Data: l.Bytes()}}, c.Chunks...)
	return c.Build()
}
