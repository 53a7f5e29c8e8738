package translate

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// The reference: a slow, obviously correct interpreter of the DXBC
// instructions themselves, one lane at a time (in lockstep over the block
// for straight-line code, so that derivatives see their quad). It follows
// the rules "Direct3D 11.3 Functional Specification" sets and the ISA
// documents (gpu/shader's doc.go) for bits: products rounded before sums,
// NaN results of float arithmetic canonical, _sat sends NaN to 0. exp,
// log, sin and cos come from the ISA's own routines (a one-instruction
// ISA program): the test is of the translation, not of the
// transcendentals.

type vec = [4]uint32

const canonNaN = 0x7FC00000

func f(u uint32) float32 { return math.Float32frombits(u) }
func u(x float32) uint32 { return math.Float32bits(x) }

func canon(v uint32) uint32 {
	if v&0x7FFFFFFF > 0x7F800000 {
		return canonNaN
	}
	return v
}

func sat(v uint32) uint32 {
	x := f(v)
	switch {
	case !(x > 0):
		return 0
	case x > 1:
		return u(1)
	}
	return v
}

func bmask(b bool) uint32 {
	if b {
		return 0xFFFFFFFF
	}
	return 0
}

// isaUnary runs op on x with a one-instruction ISA program.
var isaMachines = map[shaderisa.Op]*shader.Machine{}

func isaUnary(op shaderisa.Op, x uint32) uint32 {
	m := isaMachines[op]
	if m == nil {
		p, err := (&shaderisa.Program{Stage: shaderisa.StageVertex, Inputs: 1, Outputs: 1,
			Code: []shaderisa.Inst{{Op: op, Dst: shaderisa.O(0), Src: []shaderisa.Operand{shaderisa.V(0)}}}}).Check()
		if err != nil {
			panic(err)
		}
		m = shader.NewMachine(p)
		isaMachines[op] = m
	}
	m.In(0)[0][0] = x
	if _, err := m.Run(1); err != nil {
		panic(err)
	}
	return m.Out(0)[0][0]
}

// refOp is a per-component op: kind int reads modifiers as integers;
// arith marks float arithmetic (NaN results canonical).
type refOp struct {
	n     int
	isInt bool
	arith bool
	f     func(a, b, c uint32) uint32
}

func fl1(g func(x float32) float32) func(a, b, c uint32) uint32 {
	return func(a, _, _ uint32) uint32 { return u(g(f(a))) }
}

func fl2(g func(x, y float32) float32) func(a, b, c uint32) uint32 {
	return func(a, b, _ uint32) uint32 { return u(g(f(a), f(b))) }
}

func ftoi(x float32) uint32 {
	switch {
	case x != x:
		return 0
	case x >= 2147483648:
		return math.MaxInt32
	case x <= -2147483648:
		return 1 << 31
	}
	return uint32(int32(x))
}

func ftou(x float32) uint32 {
	switch {
	case !(x > 0):
		return 0
	case x >= 4294967296:
		return math.MaxUint32
	}
	return uint32(x)
}

func udiv(a, b uint32) uint32 {
	if b == 0 {
		return math.MaxUint32
	}
	return a / b
}

func urem(a, b uint32) uint32 {
	if b == 0 {
		return math.MaxUint32
	}
	return a % b
}

var refOps = map[dxbc.Opcode]refOp{
	dxbc.OpMov:  {n: 1, f: func(a, _, _ uint32) uint32 { return a }},
	dxbc.OpMovc: {n: 3, f: func(a, b, c uint32) uint32 { return map[bool]uint32{true: b, false: c}[a != 0] }},
	dxbc.OpAdd:  {n: 2, arith: true, f: fl2(func(x, y float32) float32 { return x + y })},
	dxbc.OpMul:  {n: 2, arith: true, f: fl2(func(x, y float32) float32 { return x * y })},
	dxbc.OpDiv:  {n: 2, arith: true, f: fl2(func(x, y float32) float32 { return x / y })},
	dxbc.OpMad: {n: 3, arith: true, f: func(a, b, c uint32) uint32 {
		return u(float32(f(a)*f(b)) + f(c))
	}},
	dxbc.OpMin: {n: 2, arith: true, f: fl2(func(x, y float32) float32 {
		if x < y || y != y {
			return x
		}
		return y
	})},
	dxbc.OpMax: {n: 2, arith: true, f: fl2(func(x, y float32) float32 {
		if x > y || y != y {
			return x
		}
		return y
	})},
	dxbc.OpRcp:       {n: 1, arith: true, f: fl1(func(x float32) float32 { return 1 / x })},
	dxbc.OpRsq:       {n: 1, arith: true, f: fl1(func(x float32) float32 { return float32(1 / math.Sqrt(float64(x))) })},
	dxbc.OpSqrt:      {n: 1, arith: true, f: fl1(func(x float32) float32 { return float32(math.Sqrt(float64(x))) })},
	dxbc.OpExp:       {n: 1, arith: true, f: func(a, _, _ uint32) uint32 { return isaUnary(shaderisa.OpExp2, a) }},
	dxbc.OpLog:       {n: 1, arith: true, f: func(a, _, _ uint32) uint32 { return isaUnary(shaderisa.OpLog2, a) }},
	dxbc.OpFrc:       {n: 1, arith: true, f: fl1(func(x float32) float32 { return x - float32(math.Floor(float64(x))) })},
	dxbc.OpRoundNE:   {n: 1, arith: true, f: fl1(func(x float32) float32 { return float32(math.RoundToEven(float64(x))) })},
	dxbc.OpRoundNI:   {n: 1, arith: true, f: fl1(func(x float32) float32 { return float32(math.Floor(float64(x))) })},
	dxbc.OpRoundPI:   {n: 1, arith: true, f: fl1(func(x float32) float32 { return float32(math.Ceil(float64(x))) })},
	dxbc.OpRoundZ:    {n: 1, arith: true, f: fl1(func(x float32) float32 { return float32(math.Trunc(float64(x))) })},
	dxbc.OpLt:        {n: 2, f: func(a, b, _ uint32) uint32 { return bmask(f(a) < f(b)) }},
	dxbc.OpGe:        {n: 2, f: func(a, b, _ uint32) uint32 { return bmask(f(a) >= f(b)) }},
	dxbc.OpEq:        {n: 2, f: func(a, b, _ uint32) uint32 { return bmask(f(a) == f(b)) }},
	dxbc.OpNe:        {n: 2, f: func(a, b, _ uint32) uint32 { return bmask(f(a) != f(b)) }},
	dxbc.OpFtoi:      {n: 1, f: func(a, _, _ uint32) uint32 { return ftoi(f(a)) }},
	dxbc.OpFtou:      {n: 1, f: func(a, _, _ uint32) uint32 { return ftou(f(a)) }},
	dxbc.OpItof:      {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return u(float32(int32(a))) }},
	dxbc.OpUtof:      {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return u(float32(a)) }},
	dxbc.OpIadd:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return a + b }},
	dxbc.OpIshl:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return a << (b & 31) }},
	dxbc.OpIshr:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return uint32(int32(a) >> (b & 31)) }},
	dxbc.OpUshr:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return a >> (b & 31) }},
	dxbc.OpAnd:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return a & b }},
	dxbc.OpOr:        {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return a | b }},
	dxbc.OpXor:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return a ^ b }},
	dxbc.OpNot:       {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return ^a }},
	dxbc.OpIneg:      {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return -a }},
	dxbc.OpIlt:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return bmask(int32(a) < int32(b)) }},
	dxbc.OpIge:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return bmask(int32(a) >= int32(b)) }},
	dxbc.OpIeq:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return bmask(a == b) }},
	dxbc.OpIne:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return bmask(a != b) }},
	dxbc.OpUlt:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return bmask(a < b) }},
	dxbc.OpUge:       {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return bmask(a >= b) }},
	dxbc.OpImin:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return uint32(min(int32(a), int32(b))) }},
	dxbc.OpImax:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return uint32(max(int32(a), int32(b))) }},
	dxbc.OpUmin:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return min(a, b) }},
	dxbc.OpUmax:      {n: 2, isInt: true, f: func(a, b, _ uint32) uint32 { return max(a, b) }},
	dxbc.OpUbfe:      {n: 3, isInt: true, f: func(a, b, c uint32) uint32 { return bfe(a, b, c, false) }},
	dxbc.OpIbfe:      {n: 3, isInt: true, f: func(a, b, c uint32) uint32 { return bfe(a, b, c, true) }},
	dxbc.OpCountbits: {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return uint32(bits.OnesCount32(a)) }},
	dxbc.OpFirstbitLo: {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 {
		if a == 0 {
			return 0xFFFFFFFF
		}
		return uint32(bits.TrailingZeros32(a))
	}},
	dxbc.OpFirstbitHi: {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 {
		if a == 0 {
			return 0xFFFFFFFF
		}
		return uint32(bits.LeadingZeros32(a))
	}},
	dxbc.OpFirstbitShi: {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 {
		if int32(a) < 0 {
			a = ^a
		}
		if a == 0 {
			return 0xFFFFFFFF
		}
		return uint32(bits.LeadingZeros32(a))
	}},
	dxbc.OpF16toF32: {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return half(a) }},
	dxbc.OpF32toF16: {n: 1, f: func(a, _, _ uint32) uint32 { return toHalf(a) }},
	dxbc.OpBfrev:    {n: 1, isInt: true, f: func(a, _, _ uint32) uint32 { return bits.Reverse32(a) }},
	dxbc.OpImad:     {n: 3, isInt: true, f: func(a, b, c uint32) uint32 { return a*b + c }},
	dxbc.OpUmad:     {n: 3, isInt: true, f: func(a, b, c uint32) uint32 { return a*b + c }},
}

// bfe is ubfe/ibfe as the Direct3D 11.3 functional specification writes it.
func bfe(width, offset, v uint32, signed bool) uint32 {
	w, o := width&31, offset&31
	switch {
	case w == 0:
		return 0
	case w+o < 32:
		if signed {
			return uint32(int32(v<<(32-(w+o))) >> (32 - w))
		}
		return v << (32 - (w + o)) >> (32 - w)
	}
	if signed {
		return uint32(int32(v) >> o)
	}
	return v >> o
}

// half converts the low 16 bits, a binary16, to float32 bits.
func half(a uint32) uint32 {
	h := a & 0xFFFF
	sign, e, m := (h&0x8000)<<16, h>>10&0x1F, h&0x3FF
	switch e {
	case 0:
		return u(float32(m)*(1.0/(1<<24))) | sign
	case 31:
		return sign | 0x7F800000 | m<<13
	}
	return sign | (e+112)<<23 | m<<13
}

// toHalf converts a float to binary16 bits, rounding to nearest even, in
// float64 arithmetic: the significand scaled to 10 bits after the point
// and rounded, carries raising the exponent; denormal halves below 2^-14,
// infinity past the largest finite (65504) once rounded.
func toHalf(a uint32) uint32 {
	x := float64(f(a))
	sign := a >> 16 & 0x8000
	switch {
	case x != x:
		return sign | 0x7E00 | a>>13&0x3FF
	case math.IsInf(x, 0):
		return sign | 0x7C00
	}
	x = math.Abs(x)
	if x == 0 {
		return sign
	}
	fr, e := math.Frexp(x) // x = fr * 2^e, fr in [0.5, 1)
	e--                    // x = (2 fr) * 2^e
	if e < -14 {
		return sign | uint32(math.RoundToEven(x*(1<<24))) // a denormal (or the smallest normal, by carry)
	}
	q := math.RoundToEven(fr * 2 * 1024) // 1024..2048
	if q == 2048 {
		q, e = 1024, e+1
	}
	if e > 15 {
		return sign | 0x7C00
	}
	return sign | uint32(e+15)<<10 | (uint32(q) - 1024)
}

// bfi is bfi as the specification writes it.
func bfi(width, offset, insert, base uint32) uint32 {
	w, o := width&31, offset&31
	mask := (uint32(1)<<w - 1) << o
	return insert<<o&mask | base&^mask
}

// refEnv is what both sides read: constants and the texture function.
type refEnv struct {
	cb map[[2]uint32]vec
}

// Constant implements shader.Constants.
func (e *refEnv) Constant(slot, elem int) ([4]uint32, error) {
	return e.cb[[2]uint32{uint32(slot), uint32(elem)}], nil
}

// texel is the test texture unit: a fixed function of the access, so the
// reference and the ISA machine can both compute it. x holds what the
// later ops add: a comparison's reference, a gather's channel, texel
// offsets.
func texel(op shader.TexOp, t, s int, c vec, lod uint32) vec {
	return texelX(op, t, s, c, lod, texExtra{})
}

type texExtra struct {
	ref     float32
	channel uint8
	off     [3]int32
}

func texelX(op shader.TexOp, t, s int, c vec, lod uint32, x texExtra) vec {
	var out vec
	switch op {
	case shader.TexLoad, shader.TexLoadRaw, shader.TexLoadStructured:
		for k := range out {
			out[k] = c[0]*3 + c[1]*5 + c[2]*7 + c[3]*11 + uint32(t*13+k) + uint32(op)*29 +
				uint32(x.off[0])*17 + uint32(x.off[1])*19 + uint32(x.off[2])*23
		}
	default:
		for k := range out {
			v := float32(f(c[0])*1.5) + float32(f(c[1])*0.25) + f(c[2]) + float32(t) + float32(s*2) + float32(k)*0.125 + f(lod)
			v += float32(x.off[0])*0.015625 + float32(x.off[1])*0.0078125 + float32(x.off[2])*0.00390625
			if op >= shader.TexSampleCmp {
				v += float32(f(c[3])*0.5) + float32(x.ref*3) + float32(op)*0.0625 + float32(x.channel)*0.03125
			}
			out[k] = canon(u(v))
		}
	}
	return out
}

// Texture implements shader.Textures with texel: sample_l's level,
// sample_b's bias and sample_d's gradients (gradKey) enter the texel as
// its lod argument (plain sample's derivatives do not: the reference
// computes none), as do the later ops' references, channels and offsets.
func (e *refEnv) Texture(q *shader.TexQuery) error {
	for i := range shader.Lanes {
		if q.Mask>>i&1 == 0 {
			continue
		}
		var c vec
		for k := range c {
			c[k] = q.Coord[k][i]
		}
		var lod uint32
		switch {
		case q.Op == shader.TexSampleLevel:
			lod = u(q.LOD[i])
		case q.Op == shader.TexSampleGrad:
			lod = u(gradKey(q.DX[0][i], q.DX[1][i], q.DY[0][i], q.DY[1][i]))
		case q.Bias != nil:
			lod = u(q.Bias[i])
		}
		x := texExtra{channel: q.Channel, off: [3]int32{int32(q.Offset[0]), int32(q.Offset[1]), int32(q.Offset[2])}}
		if q.Ref != nil {
			x.ref = q.Ref[i]
		}
		if q.OffsetXY[0] != nil {
			x.off = [3]int32{s6(q.OffsetXY[0][i]), s6(q.OffsetXY[1][i]), 0}
		}
		if q.Op == shader.TexLoad || q.Op == shader.TexLoadRaw {
			// ld reads integers; ld_raw its byte offset alone.
			if q.Op == shader.TexLoadRaw {
				c = vec{c[0]}
			}
		} else if q.Op == shader.TexLoadStructured {
			c = vec{c[0], c[1]}
		}
		v := texelX(q.Op, q.Texture, q.Sampler, c, lod, x)
		for k := range v {
			q.Out[k][i] = v[k]
		}
	}
	return nil
}

// s6 is gather4_po's offset: the low six bits, signed ("gather4_po (sm5 -
// asm)").
func s6(w uint32) int32 { return int32(w<<26) >> 26 }

// gradKey folds sample_d's gradients into one float, each product rounded.
func gradKey(dxu, dxv, dyu, dyv float32) float32 {
	return float32(float32(float32(dxu*2)+float32(dxv*3))+float32(dyu*5)) + float32(dyv*7)
}

// refBias is sample_b's bias as "sample_b (sm4 - asm)" clamps it: to
// [-16, 15.99], a NaN to 0.
func refBias(b float32) float32 {
	if b != b {
		return 0
	}
	return min(max(b, -16), 15.99)
}

// Info implements shader.Textures: fixed views per slot (t0 a 2D texture,
// t1 a 2D array, t2 a cube, t3 a structured buffer, t4 a raw one, t5 a
// typed one, t6 a 3D texture, t8 a 1D array, t9 a cube array, t7
// unbound).
func (e *refEnv) Info(t int) (shader.TexInfo, error) {
	switch t {
	case 0:
		return shader.TexInfo{Width: 300, Height: 77, Mips: 9}, nil
	case 1:
		return shader.TexInfo{Width: 64, Height: 1024, Layers: 5, Mips: 11}, nil
	case 2:
		return shader.TexInfo{Kind: shader.ViewTexCube, Width: 32, Height: 32, Layers: 6, Mips: 6}, nil
	case 3:
		return shader.TexInfo{Kind: shader.ViewStructured, Elements: 37}, nil
	case 4:
		return shader.TexInfo{Kind: shader.ViewRawBuffer, Elements: 1000}, nil
	case 5:
		return shader.TexInfo{Kind: shader.ViewBuffer, Elements: 12}, nil
	case 6:
		return shader.TexInfo{Kind: shader.ViewTex3D, Width: 40, Height: 20, Depth: 10, Mips: 6}, nil
	case 7:
		return shader.TexInfo{}, nil
	case 8:
		return shader.TexInfo{Kind: shader.ViewTex1DArray, Width: 100, Height: 1, Layers: 3, Mips: 7}, nil
	case 9:
		return shader.TexInfo{Kind: shader.ViewTexCubeArray, Width: 8, Height: 8, Layers: 2, Mips: 4}, nil
	}
	return shader.TexInfo{Width: uint32(16 << (t % 8)), Height: uint32(8 + t), Mips: uint32(1 + t%4)}, nil
}

// refResinfo is resinfo per "resinfo (sm4 - asm)": [width, height or a
// 1D array's size, depth or a 2D or cube array's size, mip count] at the
// mip level, 0 for the first three past the last level, every component
// 0 for an unbound slot; ret is the instruction's return type
// (dxbc.ResinfoFloat, RcpFloat, Uint).
func refResinfo(info shader.TexInfo, mip, ret uint32) vec {
	if info.Mips == 0 {
		return vec{}
	}
	var w, h, a uint32
	if mip < info.Mips {
		w, h, a = info.Width, info.Height, info.Layers
		d := info.Depth
		for range mip {
			w, h, d = max(w/2, 1), max(h/2, 1), max(d/2, 1)
		}
		switch info.Kind {
		case shader.ViewTex1D:
			h, a = 0, 0
		case shader.ViewTex1DArray:
			h, a = info.Layers, 0
		case shader.ViewTex3D:
			a = d
		case shader.ViewTexCube:
			a = 0
		}
	}
	switch ret {
	case dxbc.ResinfoUint:
		return vec{w, h, a, info.Mips}
	case dxbc.ResinfoRcpFloat:
		return vec{u(1 / float32(w)), u(1 / float32(h)), u(float32(a)), u(float32(info.Mips))}
	}
	return vec{u(float32(w)), u(float32(h)), u(float32(a)), u(float32(info.Mips))}
}

// refLane is one lane's registers.
type refLane struct {
	r, v, o        []vec
	dead           bool
	ret, brk, cont bool             // stopped until the function, loop or iteration ends
	x              map[uint64][]vec // x#[] arrays
}

type refMachine struct {
	p     *dxbc.Program
	env   *refEnv
	icb   []vec
	lanes []refLane
	code  []dxbc.Instruction
	match []int // if->else/endif, else->endif, loop->endloop, endloop->loop
}

func newRef(p *dxbc.Program, env *refEnv, lanes, inputs, outputs, temps int) *refMachine {
	m := &refMachine{p: p, env: env}
	for _, in := range p.Instructions {
		switch {
		case in.Op == dxbc.OpCustomData && in.CustomClass == 3:
			for i := 0; i+4 <= len(in.Data); i += 4 {
				m.icb = append(m.icb, vec(in.Data[i:i+4]))
			}
		case isDecl(in.Op):
		default:
			m.code = append(m.code, in)
		}
	}
	m.match = make([]int, len(m.code))
	var stack []int
	for pc, in := range m.code {
		switch in.Op {
		case dxbc.OpIf:
			stack = append(stack, pc)
		case dxbc.OpLoop, dxbc.OpSwitch:
			stack = append(stack, pc)
		case dxbc.OpEndswitch:
			m.match[stack[len(stack)-1]] = pc
			stack = stack[:len(stack)-1]
		case dxbc.OpElse:
			m.match[stack[len(stack)-1]] = pc
			stack[len(stack)-1] = pc
		case dxbc.OpEndif:
			m.match[stack[len(stack)-1]] = pc
			stack = stack[:len(stack)-1]
		case dxbc.OpEndloop:
			open := stack[len(stack)-1]
			m.match[open], m.match[pc] = pc, open
			stack = stack[:len(stack)-1]
		}
	}
	m.lanes = make([]refLane, lanes)
	for i := range m.lanes {
		m.lanes[i] = refLane{r: make([]vec, temps), v: make([]vec, inputs), o: make([]vec, outputs), x: map[uint64][]vec{}}
		for _, in := range p.Instructions {
			if in.Op == dxbc.OpDclIndexableTemp {
				m.lanes[i].x[uint64(in.Extra[0])] = make([]vec, in.Extra[1])
			}
		}
	}
	return m
}

// read returns a source's value for lane l, swizzled and modified.
func (m *refMachine) read(l *refLane, o *dxbc.Operand, isInt bool) vec {
	var raw vec
	switch o.Type {
	case dxbc.RegTemp:
		raw = l.r[o.Indices[0].Imm]
	case dxbc.RegInput:
		if k, ok := m.inRange(l, o); ok {
			raw = l.v[k]
		}
	case dxbc.RegImmediate32:
		if len(o.Imm) == 1 {
			raw = vec{o.Imm[0], o.Imm[0], o.Imm[0], o.Imm[0]}
		} else {
			raw = vec(o.Imm)
		}
	case dxbc.RegImmediate64: // d(a, b): the doubles' words, low first
		if len(o.Imm) == 2 {
			raw = vec{o.Imm[0], o.Imm[1], o.Imm[0], o.Imm[1]}
		} else {
			raw = vec(o.Imm)
		}
	case dxbc.RegImmediateCB:
		// Out of range (a register index) reads zero.
		if k := m.index(l, o.Indices[0]); k < uint64(len(m.icb)) {
			raw = m.icb[k]
		}
	case dxbc.RegIndexableTemp:
		if a := l.x[o.Indices[0].Imm]; m.index(l, o.Indices[1]) < uint64(len(a)) {
			raw = a[m.index(l, o.Indices[1])]
		}
	case dxbc.RegConstantBuffer:
		// The element is a 32-bit sum (it wraps, as D3D11 computes it);
		// one past the end reads zero.
		elem := o.Indices[1].Imm
		if rel := o.Indices[1].Rel; rel != nil {
			elem = uint64(uint32(elem) + m.read(l, rel, true)[0])
		}
		if elem < shaderisa.MaxCBIndex {
			raw = m.env.cb[[2]uint32{uint32(o.Indices[0].Imm), uint32(elem)}]
		}
	default:
		panic(fmt.Sprintf("reference: source type %d", o.Type))
	}
	var v vec
	for k := range v {
		switch {
		case o.Components == 1:
			v[k] = raw[0]
		case o.Mode == dxbc.SelectOne:
			v[k] = raw[o.Swiz[0]]
		case o.Mode == dxbc.SelectSwizzle:
			v[k] = raw[o.Swiz[k]]
		default:
			v[k] = raw[k]
		}
		abs, neg := o.Modifier&dxbc.ModAbs != 0, o.Modifier&dxbc.ModNeg != 0
		if isInt {
			if abs && int32(v[k]) < 0 {
				v[k] = -v[k]
			}
			if neg {
				v[k] = -v[k]
			}
		} else {
			if abs {
				v[k] &^= 1 << 31
			}
			if neg {
				v[k] ^= 1 << 31
			}
		}
	}
	return v
}

// inRange is the register an input or output operand names for lane l:
// a register index must stay inside the dcl_indexrange holding its
// immediate part (else it reads 0 and writes nothing).
func (m *refMachine) inRange(l *refLane, o *dxbc.Operand) (uint64, bool) {
	ix := o.Indices[0]
	if ix.Rel == nil {
		return ix.Imm, true
	}
	k := m.index(l, ix)
	for _, in := range m.p.Instructions {
		if in.Op != dxbc.OpDclIndexRange || in.Operands[0].Type != o.Type {
			continue
		}
		start, n := in.Operands[0].Indices[0].Imm, uint64(in.Extra[0])
		if ix.Imm-start < n {
			return k, k-start < n
		}
	}
	panic("reference: no dcl_indexrange")
}

// readDouble is double p of a source (its swizzled components 2p and
// 2p+1, low word first), the modifier applied to the double's sign.
func (m *refMachine) readDouble(l *refLane, o *dxbc.Operand, p int) float64 {
	plain := *o
	plain.Modifier = dxbc.ModNone
	v := m.read(l, &plain, true)
	d := math.Float64frombits(uint64(v[2*p]) | uint64(v[2*p+1])<<32)
	if o.Modifier&dxbc.ModAbs != 0 {
		d = math.Abs(d)
	}
	if o.Modifier&dxbc.ModNeg != 0 {
		d = -d
	}
	return d
}

// index is an index's value for lane l: immediate, plus a register's.
func (m *refMachine) index(l *refLane, ix dxbc.Index) uint64 {
	k := ix.Imm
	if ix.Rel != nil {
		k = uint64(uint32(k) + m.read(l, ix.Rel, true)[0])
	}
	return k
}

// write stores v into a destination's masked components.
func (m *refMachine) write(l *refLane, o *dxbc.Operand, v vec) {
	var r *vec
	switch o.Type {
	case dxbc.RegNull:
		return
	case dxbc.RegTemp:
		r = &l.r[o.Indices[0].Imm]
	case dxbc.RegOutput:
		k, ok := m.inRange(l, o)
		if !ok {
			return // outside its dcl_indexrange: dropped
		}
		r = &l.o[k]
	case dxbc.RegIndexableTemp:
		a := l.x[o.Indices[0].Imm]
		k := m.index(l, o.Indices[1])
		if k >= uint64(len(a)) {
			return // out of range: dropped
		}
		r = &a[k]
	default:
		panic("reference: destination type")
	}
	for k := range v {
		if o.WriteMask>>k&1 != 0 {
			r[k] = v[k]
		}
	}
}

// finish applies _sat and canonical NaNs.
func finish(v vec, satur, arith bool) vec {
	for k := range v {
		if satur {
			v[k] = sat(v[k])
		} else if arith {
			v[k] = canon(v[k])
		}
	}
	return v
}

// exec runs one non-flow instruction for lane l.
func (m *refMachine) exec(l *refLane, in *dxbc.Instruction) {
	ops := in.Operands
	if op, ok := refOps[in.Op]; ok {
		var s [3]vec
		for i := range op.n {
			s[i] = m.read(l, &ops[1+i], op.isInt)
		}
		var r vec
		for k := range r {
			r[k] = op.f(s[0][k], s[1][k], s[2][k])
		}
		m.write(l, &ops[0], finish(r, in.Saturate(), op.arith))
		return
	}
	switch in.Op {
	case dxbc.OpDp2, dxbc.OpDp3, dxbc.OpDp4:
		n := 2 + int(in.Op-dxbc.OpDp2)
		a, b := m.read(l, &ops[1], false), m.read(l, &ops[2], false)
		sum := f(a[0]) * f(b[0])
		for k := 1; k < n; k++ {
			sum = sum + float32(f(a[k])*f(b[k]))
		}
		m.write(l, &ops[0], finish(vec{u(sum), u(sum), u(sum), u(sum)}, in.Saturate(), true))
	case dxbc.OpSincos:
		a := m.read(l, &ops[2], false)
		var s, c vec
		for k := range a {
			s[k], c[k] = isaUnary(shaderisa.OpSin, a[k]), isaUnary(shaderisa.OpCos, a[k])
		}
		s, c = finish(s, in.Saturate(), true), finish(c, in.Saturate(), true)
		m.write(l, &ops[0], s)
		m.write(l, &ops[1], c)
	case dxbc.OpUdiv:
		a, b := m.read(l, &ops[2], true), m.read(l, &ops[3], true)
		var q, r vec
		for k := range a {
			q[k], r[k] = udiv(a[k], b[k]), urem(a[k], b[k])
		}
		m.write(l, &ops[0], q)
		m.write(l, &ops[1], r)
	case dxbc.OpUaddc, dxbc.OpUsubb:
		a, b := m.read(l, &ops[2], true), m.read(l, &ops[3], true)
		var r, c vec
		for k := range a {
			if in.Op == dxbc.OpUaddc {
				s, carry := bits.Add32(a[k], b[k], 0)
				r[k], c[k] = s, carry
			} else {
				d, borrow := bits.Sub32(a[k], b[k], 0)
				r[k], c[k] = d, borrow
			}
		}
		m.write(l, &ops[0], r)
		m.write(l, &ops[1], c)
	case dxbc.OpImul, dxbc.OpUmul:
		a, b := m.read(l, &ops[2], true), m.read(l, &ops[3], true)
		var lo, hi vec
		for k := range a {
			p := uint64(a[k]) * uint64(b[k])
			if in.Op == dxbc.OpImul {
				p = uint64(int64(int32(a[k])) * int64(int32(b[k])))
			}
			hi[k], lo[k] = uint32(p>>32), uint32(p)
		}
		m.write(l, &ops[0], hi)
		m.write(l, &ops[1], lo)
	case dxbc.OpBfi:
		var s [4]vec
		for i := range s {
			s[i] = m.read(l, &ops[1+i], true)
		}
		var r vec
		for k := range r {
			r[k] = bfi(s[0][k], s[1][k], s[2][k], s[3][k])
		}
		m.write(l, &ops[0], r)
	case dxbc.OpSwapc:
		c, a, b := m.read(l, &ops[2], false), m.read(l, &ops[3], false), m.read(l, &ops[4], false)
		var d0, d1 vec
		for k := range c {
			if c[k] != 0 {
				d0[k], d1[k] = b[k], a[k]
			} else {
				d0[k], d1[k] = a[k], b[k]
			}
		}
		m.write(l, &ops[0], d0)
		m.write(l, &ops[1], d1)
	case dxbc.OpSampleC, dxbc.OpSampleCLZ, dxbc.OpGather4, dxbc.OpGather4C, dxbc.OpGather4PO, dxbc.OpGather4POC,
		dxbc.OpLod, dxbc.OpLdRaw, dxbc.OpLdStructured, dxbc.OpBufinfo:
		m.write(l, &ops[0], finish(m.texLater(l, in), in.Saturate(), false))
	case dxbc.OpSampleInfo:
		one := u(1)
		if in.Controls&1 != 0 {
			one = 1
		}
		var r vec
		sw := ops[1].Swiz
		switch {
		case ops[1].Components == 0:
			sw = [4]uint8{0, 1, 2, 3}
		case ops[1].Mode == dxbc.SelectOne:
			sw = [4]uint8{sw[0], sw[0], sw[0], sw[0]}
		}
		for k := range r {
			if sw[k] == 0 {
				r[k] = one
			}
		}
		m.write(l, &ops[0], finish(r, in.Saturate(), false))
	case dxbc.OpSamplePos:
		m.write(l, &ops[0], vec{})
	case dxbc.OpSample, dxbc.OpSampleL, dxbc.OpLd, dxbc.OpSampleB, dxbc.OpSampleD, dxbc.OpResinfo:
		c := m.read(l, &ops[1], in.Op == dxbc.OpResinfo)
		t := int(ops[2].Indices[0].Imm)
		x := texExtra{off: aoffimmi(in)}
		texel := func(op shader.TexOp, t, s int, c vec, lod uint32) vec { return texelX(op, t, s, c, lod, x) }
		var v vec
		switch in.Op {
		case dxbc.OpLd:
			v = texel(shader.TexLoad, t, 0, c, 0)
		case dxbc.OpResinfo:
			info, _ := m.env.Info(t)
			v = refResinfo(info, c[0], in.Controls&3)
		case dxbc.OpSample:
			v = texel(shader.TexSample, t, int(ops[3].Indices[0].Imm), c, 0)
		case dxbc.OpSampleB:
			b := refBias(f(m.read(l, &ops[4], false)[0]))
			v = texel(shader.TexSample, t, int(ops[3].Indices[0].Imm), c, u(b))
		case dxbc.OpSampleD:
			dx, dy := m.read(l, &ops[4], false), m.read(l, &ops[5], false)
			g := gradKey(f(dx[0]), f(dx[1]), f(dy[0]), f(dy[1]))
			v = texel(shader.TexSampleGrad, t, int(ops[3].Indices[0].Imm), c, u(g))
		default:
			lod := m.read(l, &ops[4], false)[0]
			v = texel(shader.TexSampleLevel, t, int(ops[3].Indices[0].Imm), c, lod)
		}
		var r vec
		for k := range r {
			r[k] = v[ops[2].Swiz[k]]
		}
		m.write(l, &ops[0], finish(r, in.Saturate(), false))
	case dxbc.OpDadd, dxbc.OpDmul, dxbc.OpDmin, dxbc.OpDmax, dxbc.OpDmov, dxbc.OpDmovc, dxbc.OpFtod:
		var r vec
		for p := range 2 {
			a, b := m.readDouble(l, &ops[1], p), 0.0
			if in.Op != dxbc.OpDmov && in.Op != dxbc.OpFtod && in.Op != dxbc.OpDmovc {
				b = m.readDouble(l, &ops[2], p)
			}
			var v float64
			switch in.Op {
			case dxbc.OpDadd:
				v = a + b
			case dxbc.OpDmul:
				v = a * b
			case dxbc.OpDmin:
				v = b
				if a < b || b != b {
					v = a
				}
			case dxbc.OpDmax:
				v = b
				if a > b || b != b {
					v = a
				}
			case dxbc.OpDmov:
				v = a
			case dxbc.OpDmovc:
				// The condition's 32-bit component p picks double p.
				v = m.readDouble(l, &ops[3], p)
				if m.read(l, &ops[1], true)[p] != 0 {
					v = m.readDouble(l, &ops[2], p)
				}
			case dxbc.OpFtod:
				v = float64(f(m.read(l, &ops[1], false)[p]))
			}
			bits := math.Float64bits(v)
			if v != v && in.Op != dxbc.OpDmov && in.Op != dxbc.OpDmovc {
				bits = 0x7FF8000000000000
			}
			r[2*p], r[2*p+1] = uint32(bits), uint32(bits>>32)
		}
		m.write(l, &ops[0], r)
	case dxbc.OpDeq, dxbc.OpDge, dxbc.OpDlt, dxbc.OpDne, dxbc.OpDtof:
		// The k-th component written takes double k.
		var r vec
		k := 0
		for c := range 4 {
			if ops[0].WriteMask>>c&1 == 0 {
				continue
			}
			a := m.readDouble(l, &ops[1], k)
			switch in.Op {
			case dxbc.OpDtof:
				r[c] = canon(u(float32(a)))
			case dxbc.OpDeq:
				r[c] = bmask(a == m.readDouble(l, &ops[2], k))
			case dxbc.OpDge:
				r[c] = bmask(a >= m.readDouble(l, &ops[2], k))
			case dxbc.OpDlt:
				r[c] = bmask(a < m.readDouble(l, &ops[2], k))
			case dxbc.OpDne:
				r[c] = bmask(a != m.readDouble(l, &ops[2], k))
			}
			k++
		}
		m.write(l, &ops[0], r)
	case dxbc.OpEvalCentroid, dxbc.OpEvalSampleIndex:
		m.write(l, &ops[0], m.read(l, &ops[1], false))
	case dxbc.OpNop:
	default:
		panic(fmt.Sprintf("reference: %s", in.Op))
	}
}

// isDeriv reports the derivative ops, which the reference runs over quads.
func isDeriv(op dxbc.Opcode) bool {
	switch op {
	case dxbc.OpDerivRtx, dxbc.OpDerivRty, dxbc.OpDerivRtxCoarse, dxbc.OpDerivRtyCoarse, dxbc.OpDerivRtxFine, dxbc.OpDerivRtyFine:
		return true
	}
	return false
}

// deriv runs a derivative over every quad (lanes 4q..4q+3: top-left,
// top-right, bottom-left, bottom-right).
func (m *refMachine) deriv(in *dxbc.Instruction, run []bool) {
	res := make([]vec, len(m.lanes))
	for q := 0; q+4 <= len(m.lanes); q += 4 {
		var v [4]vec
		for i := range v {
			v[i] = m.read(&m.lanes[q+i], &in.Operands[1], false)
		}
		for k := range 4 {
			d := func(a, b int) uint32 { return u(f(v[b][k]) - f(v[a][k])) }
			var r [4]uint32
			switch in.Op {
			case dxbc.OpDerivRtx, dxbc.OpDerivRtxCoarse:
				r = [4]uint32{d(0, 1), d(0, 1), d(0, 1), d(0, 1)}
			case dxbc.OpDerivRty, dxbc.OpDerivRtyCoarse:
				r = [4]uint32{d(0, 2), d(0, 2), d(0, 2), d(0, 2)}
			case dxbc.OpDerivRtxFine:
				r = [4]uint32{d(0, 1), d(0, 1), d(2, 3), d(2, 3)}
			case dxbc.OpDerivRtyFine:
				r = [4]uint32{d(0, 2), d(1, 3), d(0, 2), d(1, 3)}
			}
			for i := range 4 {
				res[q+i][k] = r[i]
			}
		}
	}
	for i := range m.lanes {
		if run[i] {
			m.write(&m.lanes[i], &in.Operands[0], finish(res[i], in.Saturate(), true))
		}
	}
}

// test evaluates a condition's _z/_nz test.
func test(m *refMachine, l *refLane, in *dxbc.Instruction) bool {
	v := m.read(l, &in.Operands[0], true)[0]
	return (v != 0) == (in.Test() == dxbc.TestNonZero)
}

// run executes the program on every lane, structured: an if runs its
// branches over the lanes that take them, a loop repeats its body while
// any lane is in it; break, continue, ret and discard only mark lanes,
// which stop running until their construct ends. Derivatives read the
// whole quad.
func (m *refMachine) run() {
	active := make([]bool, len(m.lanes))
	for i := range active {
		active[i] = true
	}
	m.block(0, m.body(-1), active)
}

// body returns where the code starting after pc ends: the next label, or
// the end (pc -1: the main program).
func (m *refMachine) body(pc int) int {
	for k := pc + 1; k < len(m.code); k++ {
		if m.code[k].Op == dxbc.OpLabel {
			return k
		}
	}
	return len(m.code)
}

// call runs label l's subroutine over the lanes that call it; a ret
// inside it returns from it (the lanes run on in the caller), a discard
// inside it ends the lane.
func (m *refMachine) call(l uint64, called []bool) {
	for pc := range m.code {
		if in := &m.code[pc]; in.Op == dxbc.OpLabel && in.Operands[0].Indices[0].Imm == l {
			m.block(pc+1, m.body(pc), called)
			for i := range called {
				if called[i] && !m.lanes[i].dead {
					m.lanes[i].ret = false
				}
			}
			return
		}
	}
	panic("reference: no such label")
}

func (l *refLane) running(active bool) bool { return active && !l.ret && !l.brk && !l.cont }

// block runs code[start:end] over the active lanes.
func (m *refMachine) block(start, end int, active []bool) {
	for pc := start; pc < end; pc++ {
		in := &m.code[pc]
		switch in.Op {
		case dxbc.OpIf:
			mid := m.match[pc] // else or endif
			then, other := make([]bool, len(active)), make([]bool, len(active))
			for i := range active {
				l := &m.lanes[i]
				if l.running(active[i]) {
					c := test(m, l, in)
					then[i], other[i] = c, !c
				}
			}
			m.block(pc+1, mid, then)
			if m.code[mid].Op == dxbc.OpElse {
				endif := m.match[mid]
				m.block(mid+1, endif, other)
				mid = endif
			}
			pc = mid
		case dxbc.OpLoop:
			endloop := m.match[pc]
			in := make([]bool, len(active))
			for i := range active {
				in[i] = m.lanes[i].running(active[i])
			}
			for iter := 0; slices.Contains(in, true); iter++ {
				if iter > 1<<16 {
					panic("reference: endless loop")
				}
				m.block(pc+1, endloop, in)
				for i := range in {
					l := &m.lanes[i]
					if !in[i] {
						continue // lanes outside this loop keep their marks
					}
					if l.brk || l.ret {
						in[i] = false
					}
					l.brk, l.cont = false, false
				}
			}
			pc = endloop
		case dxbc.OpSwitch:
			pc = m.switchBlock(pc, active)
		case dxbc.OpCall, dxbc.OpCallc:
			called := make([]bool, len(active))
			for i := range active {
				l := &m.lanes[i]
				called[i] = l.running(active[i]) && (in.Op == dxbc.OpCall || test(m, l, in))
			}
			m.call(in.Operands[len(in.Operands)-1].Indices[0].Imm, called)
		case dxbc.OpBreak, dxbc.OpBreakc, dxbc.OpContinue, dxbc.OpContinuec, dxbc.OpRet, dxbc.OpRetc, dxbc.OpDiscard:
			for i := range active {
				l := &m.lanes[i]
				if !l.running(active[i]) {
					continue
				}
				switch in.Op {
				case dxbc.OpBreak:
					l.brk = true
				case dxbc.OpContinue:
					l.cont = true
				case dxbc.OpRet:
					l.ret = true
				case dxbc.OpBreakc:
					l.brk = test(m, l, in)
				case dxbc.OpContinuec:
					l.cont = test(m, l, in)
				case dxbc.OpRetc:
					l.ret = test(m, l, in)
				case dxbc.OpDiscard:
					if test(m, l, in) {
						l.ret, l.dead = true, true
					}
				}
			}
		case dxbc.OpNop:
		default:
			run := make([]bool, len(active))
			for i := range active {
				run[i] = m.lanes[i].running(active[i])
			}
			if isDeriv(in.Op) {
				m.deriv(in, run)
				continue
			}
			for i := range run {
				if run[i] {
					m.exec(&m.lanes[i], in)
				}
			}
		}
	}
}

// switchBlock runs the switch at pc and returns its endswitch: each lane
// enters at its matching case label (or default) and runs on from there
// through the following labels until a break; break leaves the switch.
func (m *refMachine) switchBlock(pc int, active []bool) int {
	end := m.match[pc]
	target := make([]int, len(active))
	for i := range active {
		target[i] = -1
		l := &m.lanes[i]
		if !l.running(active[i]) {
			continue
		}
		sel := m.read(l, &m.code[pc].Operands[0], true)[0]
		def := -1
		for k := pc + 1; k < end; k++ {
			switch in := &m.code[k]; in.Op {
			case dxbc.OpSwitch:
				k = m.match[k]
			case dxbc.OpDefault:
				def = k
			case dxbc.OpCase:
				if in.Operands[0].Imm[0] == sel && target[i] < 0 {
					target[i] = k
				}
			}
		}
		if target[i] < 0 {
			target[i] = def
		}
	}
	in := make([]bool, len(active))
	seg := pc + 1
	for k := pc + 1; k <= end; k++ {
		op := m.code[k].Op
		if op == dxbc.OpSwitch {
			k = m.match[k]
			continue
		}
		if op != dxbc.OpCase && op != dxbc.OpDefault && k != end {
			continue
		}
		m.block(seg, k, in)
		for i := range in {
			if target[i] == k {
				in[i] = true
			}
		}
		seg = k + 1
	}
	for i := range in {
		if in[i] {
			m.lanes[i].brk = false
		}
	}
	return end
}

// texLater is the reference of the texture ops after SM4.0's six:
// operands as "sample_c (sm4 - asm)", "gather4_c (sm5 - asm)", "gather4_po
// (sm5 - asm)", "lod (sm4.1 - asm)", "ld_raw (sm5 - asm)", "ld_structured
// (sm5 - asm)" and "bufinfo (sm5 - asm)" order them, through the resource's
// swizzle.
func (m *refMachine) texLater(l *refLane, in *dxbc.Instruction) vec {
	ops := in.Operands
	res := 2
	switch in.Op {
	case dxbc.OpGather4PO, dxbc.OpGather4POC, dxbc.OpLdStructured:
		res = 3
	case dxbc.OpBufinfo:
		res = 1
	}
	t := int(ops[res].Indices[0].Imm)
	x := texExtra{off: aoffimmi(in)}
	smp := func() int {
		o := &ops[res+1]
		if o.Components == 4 {
			x.channel = o.Swiz[0]
		}
		return int(o.Indices[0].Imm)
	}
	var v vec
	switch in.Op {
	case dxbc.OpBufinfo:
		info, _ := m.env.Info(t)
		n := uint32(0)
		if info.Kind >= shader.ViewBuffer {
			n = info.Elements
		}
		v = vec{n, n, n, n}
	case dxbc.OpLdRaw:
		v = texelX(shader.TexLoadRaw, t, 0, vec{m.read(l, &ops[1], true)[0]}, 0, x)
	case dxbc.OpLdStructured:
		v = texelX(shader.TexLoadStructured, t, 0, vec{m.read(l, &ops[1], true)[0], m.read(l, &ops[2], true)[0]}, 0, x)
	default:
		c := m.read(l, &ops[1], false)
		s := smp()
		op := map[dxbc.Opcode]shader.TexOp{dxbc.OpSampleC: shader.TexSampleCmp, dxbc.OpSampleCLZ: shader.TexSampleCmpLevelZero,
			dxbc.OpGather4: shader.TexGather, dxbc.OpGather4PO: shader.TexGather, dxbc.OpGather4C: shader.TexGatherCmp,
			dxbc.OpGather4POC: shader.TexGatherCmp, dxbc.OpLod: shader.TexLOD}[in.Op]
		switch in.Op {
		case dxbc.OpSampleC, dxbc.OpSampleCLZ, dxbc.OpGather4C:
			x.ref = f(m.read(l, &ops[4], false)[0])
		case dxbc.OpGather4POC:
			x.ref = f(m.read(l, &ops[5], false)[0])
		}
		if in.Op == dxbc.OpGather4PO || in.Op == dxbc.OpGather4POC {
			o := m.read(l, &ops[2], true)
			x.off = [3]int32{s6(o[0]), s6(o[1]), 0}
		}
		v = texelX(op, t, s, c, 0, x)
	}
	var r vec
	for k := range r {
		r[k] = v[ops[res].Swiz[k]]
	}
	return r
}

// aoffimmi is an instruction's immediate texel offsets (u, v, w).
func aoffimmi(in *dxbc.Instruction) [3]int32 {
	for _, e := range in.Extended {
		if e&0x3F == 1 {
			return [3]int32{int32(e<<19) >> 28, int32(e<<15) >> 28, int32(e<<11) >> 28}
		}
	}
	return [3]int32{}
}
