package hlsl

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// The reference evaluator runs a lowered Program on one invocation's
// inputs with float32 IEEE arithmetic and no fused multiply-add: mad is
// float32(a*b)+c, dpN adds its products left to right, each product
// rounded. It is the oracle the GPU's shader core is checked against.

// Env is what one invocation reads.
type Env struct {
	Inputs [][4]uint32   // v#
	CB     [][][4]uint32 // cb slot -> its 16-byte registers
	// Sample returns the filtered texel of texture tex through sampler
	// samp at (u, v) and mip level lod. Sample (the implicit-LOD form) is
	// given lod 0: one invocation has no neighbours to take derivatives from;
	// so is the explicit-gradient form (SampleGrad, sample_d: the level is
	// the texture unit's to derive), and the biased form (SampleBias,
	// sample_b) its bias, clamped to [-16, 15.99].
	Sample func(tex, samp int, u, v, lod float32) [4]float32
	// Load returns the texel (x, y) of mip level mip, raw bits.
	Load func(tex int, x, y, mip int32) [4]uint32
	// Info returns texture tex's width, height and mip count, for
	// resinfo (GetDimensions); the zero values are an unbound texture.
	Info func(tex int) (width, height, mips uint32)
	// MaxSteps bounds the instructions executed (default 1<<20), so a
	// loop that never ends returns an error instead of hanging.
	MaxSteps int
	// Deriv computes a derivative instruction (deriv_rt*) of the value v
	// this invocation holds at instruction pc; RunQuad sets it to exchange
	// values with the other invocations of the 2x2 quad. Without it a
	// derivative is an error: one invocation has no neighbours.
	Deriv func(pc int, op Op, v [4]uint32) [4]uint32
}

// Output is what one invocation wrote.
type Output struct {
	Regs      [][4]uint32 // o#
	Discarded bool
}

// ErrSteps is returned when a run exceeds Env.MaxSteps.
var ErrSteps = errors.New("hlsl: shader ran more than its step limit")

func f32(u uint32) float32 { return math.Float32frombits(u) }

// lanewise reports whether the evaluator computes op one lane at a time
// from the same lane of each source.
func lanewise(o Op) bool {
	switch o {
	case OpMov, OpMovc, OpAdd, OpMul, OpMad, OpDiv, OpMin, OpMax, OpRsq, OpSqrt, OpExp, OpLog, OpFrc,
		OpRoundNI, OpRoundPI, OpRoundZ, OpLt, OpGe, OpEq, OpNe, OpAnd, OpOr, OpXor, OpNot, OpItof, OpFtoi,
		OpUtof, OpFtou, OpIadd, OpIneg, OpImin, OpImax, OpUmin, OpUmax, OpIlt, OpIge, OpIeq, OpIne, OpUlt, OpUge,
		OpIshl, OpIshr, OpUshr, OpRoundNE, OpCountbits, OpFirstbitHi, OpFirstbitLo, OpFirstbitShi, OpBfrev,
		OpF32tof16, OpF16tof32, OpRcp:
		return true
	}
	return false
}

// floatOp reports whether op reads its sources as floats, which decides
// what the neg and abs modifiers do.
func floatOp(o Op) bool {
	switch o {
	case OpAdd, OpMul, OpMad, OpDiv, OpMin, OpMax, OpRsq, OpSqrt, OpExp, OpLog, OpFrc, OpRoundNI, OpRoundPI,
		OpRoundZ, OpLt, OpGe, OpEq, OpNe, OpFtoi, OpFtou, OpDp2, OpDp3, OpDp4, OpSincos, OpMov, OpMovc,
		OpSample, OpSampleL, OpSampleB, OpSampleD, OpRoundNE, OpF32tof16, OpRcp, OpDerivRtx, OpDerivRty,
		OpDerivRtxCoarse, OpDerivRtxFine, OpDerivRtyCoarse, OpDerivRtyFine:
		return true
	}
	return false
}

func floatResult(o Op) bool {
	switch o {
	case OpAdd, OpMul, OpMad, OpDiv, OpMin, OpMax, OpRsq, OpSqrt, OpExp, OpLog, OpFrc, OpRoundNI, OpRoundPI,
		OpRoundZ, OpItof, OpUtof, OpDp2, OpDp3, OpDp4, OpSincos, OpRoundNE, OpF16tof32, OpRcp:
		return true
	}
	return false
}

// ftoi converts as D3D10+ hardware does: NaN gives 0 and out-of-range
// values saturate (Go leaves this implementation-defined).
func ftoi(f float32) int32 {
	switch {
	case f != f:
		return 0
	case f >= 2147483648:
		return math.MaxInt32
	case f <= -2147483648:
		return math.MinInt32
	}
	return int32(f)
}

func ftou(f float32) uint32 {
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 4294967296:
		return math.MaxUint32
	}
	return uint32(f)
}

func b2u(b bool) uint32 {
	if b {
		return 0xffffffff
	}
	return 0
}

// laneOp computes one lane of a lanewise instruction (sources already
// modified).
func laneOp(o Op, a, b, c uint32) uint32 {
	fa, fb, fc := f32(a), f32(b), f32(c)
	F := math.Float32bits
	switch o {
	case OpMov:
		return a
	case OpMovc:
		if a != 0 {
			return b
		}
		return c
	case OpAdd:
		return F(fa + fb)
	case OpMul:
		return F(fa * fb)
	case OpMad:
		return F(float32(fa*fb) + fc)
	case OpDiv:
		return F(fa / fb)
	case OpMin:
		if fa != fa {
			return b
		}
		if fb != fb {
			return a
		}
		return F(min(fa, fb))
	case OpMax:
		if fa != fa {
			return b
		}
		if fb != fb {
			return a
		}
		return F(max(fa, fb))
	case OpRsq:
		return F(float32(1 / math.Sqrt(float64(fa))))
	case OpSqrt:
		return F(float32(math.Sqrt(float64(fa))))
	case OpExp:
		return F(float32(math.Exp2(float64(fa))))
	case OpLog:
		return F(float32(math.Log2(float64(fa))))
	case OpFrc:
		return F(fa - float32(math.Floor(float64(fa))))
	case OpRoundNI:
		return F(float32(math.Floor(float64(fa))))
	case OpRoundPI:
		return F(float32(math.Ceil(float64(fa))))
	case OpRoundZ:
		return F(float32(math.Trunc(float64(fa))))
	case OpLt:
		return b2u(fa < fb)
	case OpGe:
		return b2u(fa >= fb)
	case OpEq:
		return b2u(fa == fb)
	case OpNe:
		return b2u(fa != fb)
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	case OpNot:
		return ^a
	case OpItof:
		return F(float32(int32(a)))
	case OpUtof:
		return F(float32(a))
	case OpFtoi:
		return uint32(ftoi(fa))
	case OpFtou:
		return ftou(fa)
	case OpIadd:
		return a + b
	case OpIneg:
		return -a
	case OpImin:
		return uint32(min(int32(a), int32(b)))
	case OpImax:
		return uint32(max(int32(a), int32(b)))
	case OpUmin:
		return min(a, b)
	case OpUmax:
		return max(a, b)
	case OpIlt:
		return b2u(int32(a) < int32(b))
	case OpIge:
		return b2u(int32(a) >= int32(b))
	case OpIeq:
		return b2u(a == b)
	case OpIne:
		return b2u(a != b)
	case OpUlt:
		return b2u(a < b)
	case OpUge:
		return b2u(a >= b)
	case OpIshl:
		return a << (b & 31)
	case OpIshr:
		return uint32(int32(a) >> (b & 31))
	case OpUshr:
		return a >> (b & 31)
	case OpRoundNE:
		return F(float32(math.RoundToEven(float64(fa))))
	case OpRcp:
		return F(1 / fa)
	case OpCountbits:
		return uint32(bits.OnesCount32(a))
	case OpFirstbitLo:
		if a == 0 {
			return 0xffffffff
		}
		return uint32(bits.TrailingZeros32(a))
	case OpFirstbitShi:
		if int32(a) < 0 {
			a = ^a
		}
		fallthrough
	case OpFirstbitHi:
		if a == 0 {
			return 0xffffffff
		}
		return uint32(bits.LeadingZeros32(a))
	case OpBfrev:
		return bits.Reverse32(a)
	case OpF32tof16:
		return uint32(toHalf(fa))
	case OpF16tof32:
		return F(fromHalf(uint16(a)))
	}
	return 0
}

// toHalf converts to a half float ("Floating-point rules", D3D11.3:
// round to nearest even, out-of-range values to infinity, NaN kept a NaN).
func toHalf(f float32) uint16 {
	u := math.Float32bits(f)
	sign := uint16(u>>16) & 0x8000
	exp := int(u>>23&0xff) - 127
	mant := u & 0x7fffff
	switch {
	case f != f:
		return sign | 0x7e00
	case exp == 128: // infinity
		return sign | 0x7c00
	case exp > 15:
		return sign | 0x7c00
	case exp >= -14:
		// Normal: 10 bits of mantissa, rounded to nearest even.
		h := uint32(exp+15)<<10 | mant>>13
		rem := mant & 0x1fff
		if rem > 0x1000 || rem == 0x1000 && h&1 != 0 {
			h++ // may carry into the exponent, up to infinity: right
		}
		return sign | uint16(h)
	case exp >= -25:
		// Denormal: the implicit bit shifted in.
		m := mant | 0x800000
		shift := uint(-exp - 14 + 13)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 != 0 {
			h++
		}
		return sign | uint16(h)
	}
	return sign
}

// fromHalf converts a half float exactly.
func fromHalf(h uint16) float32 {
	sign := float32(1)
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	mant := float32(h & 0x3ff)
	switch exp {
	case 0:
		return sign * mant * float32(math.Ldexp(1, -24))
	case 31:
		if mant != 0 {
			return float32(math.NaN())
		}
		return sign * float32(math.Inf(1))
	}
	return sign * (1 + mant/1024) * float32(math.Ldexp(1, exp-15))
}

type machine struct {
	p    *Program
	env  *Env
	r    [][4]uint32
	o    [][4]uint32
	x    [][][4]uint32 // x# arrays
	disc bool
}

// xElem finds the x# register an operand names; nil when a dynamic index
// leaves the array (an out-of-range read gives 0, a write is dropped, as
// D3D10+ define).
func (m *machine) xElem(op Operand) (*[4]uint32, error) {
	e := op.Elem
	if op.Rel != nil {
		rv, err := m.read(*op.Rel, false)
		if err != nil {
			return nil, err
		}
		e += int(int32(rv[0]))
	}
	if op.Index < 0 || op.Index >= len(m.x) || e < 0 || e >= len(m.x[op.Index]) {
		return nil, nil
	}
	return &m.x[op.Index][e], nil
}

func (m *machine) read(op Operand, isFloat bool) ([4]uint32, error) {
	var raw [4]uint32
	switch op.File {
	case FileImm:
		raw = op.Imm
		return applyMods(raw, op, isFloat), nil
	case FileTemp:
		if op.Index >= len(m.r) {
			return raw, fmt.Errorf("hlsl: r%d out of range", op.Index)
		}
		raw = m.r[op.Index]
	case FileInput:
		if op.Index < len(m.env.Inputs) {
			raw = m.env.Inputs[op.Index]
		}
	case FileOutput:
		if op.Index < len(m.o) {
			raw = m.o[op.Index]
		}
	case FileCB:
		e := op.Elem
		if op.Rel != nil {
			rv, err := m.read(*op.Rel, false)
			if err != nil {
				return raw, err
			}
			e += int(int32(rv[0]))
		}
		// Out-of-range constant-buffer reads return 0, as D3D10+ defines.
		if op.Index < len(m.env.CB) && e >= 0 && e < len(m.env.CB[op.Index]) {
			raw = m.env.CB[op.Index][e]
		}
	case FileIndexable:
		r, err := m.xElem(op)
		if err != nil {
			return raw, err
		}
		if r != nil {
			raw = *r
		}
	default:
		return raw, fmt.Errorf("hlsl: cannot read register file %d", op.File)
	}
	var v [4]uint32
	for i := 0; i < 4; i++ {
		v[i] = raw[op.Swz[i]&3]
	}
	return applyMods(v, op, isFloat), nil
}

func applyMods(v [4]uint32, op Operand, isFloat bool) [4]uint32 {
	for i := range v {
		if isFloat {
			if op.Abs {
				v[i] &^= 0x80000000
			}
			if op.Neg {
				v[i] ^= 0x80000000
			}
		} else if op.Neg {
			v[i] = -v[i]
		}
	}
	return v
}

func (m *machine) write(d Operand, v [4]uint32, sat bool) error {
	var reg *[4]uint32
	switch d.File {
	case FileNull:
		return nil
	case FileTemp:
		if d.Index >= len(m.r) {
			return fmt.Errorf("hlsl: r%d out of range", d.Index)
		}
		reg = &m.r[d.Index]
	case FileOutput:
		for d.Index >= len(m.o) {
			if len(m.o) > 64 {
				return fmt.Errorf("hlsl: o%d out of range", d.Index)
			}
			m.o = append(m.o, [4]uint32{})
		}
		reg = &m.o[d.Index]
	case FileIndexable:
		r, err := m.xElem(d)
		if err != nil {
			return err
		}
		if r == nil {
			return nil
		}
		reg = r
	default:
		return fmt.Errorf("hlsl: cannot write register file %d", d.File)
	}
	for i := 0; i < 4; i++ {
		if d.Mask&(1<<i) == 0 {
			continue
		}
		x := v[i]
		if sat {
			f := f32(x)
			switch {
			case f != f || f < 0:
				f = 0
			case f > 1:
				f = 1
			}
			x = math.Float32bits(f)
		}
		reg[i] = x
	}
	return nil
}

// Run executes the program once. A program that fails Validate is
// refused, so a hand-built one cannot crash the evaluator.
func Run(p *Program, env *Env) (*Output, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := &machine{p: p, env: env, r: make([][4]uint32, p.Temps)}
	for _, n := range p.Indexables {
		m.x = append(m.x, make([][4]uint32, n))
	}
	for _, o := range p.Outputs {
		for o.Reg >= len(m.o) {
			m.o = append(m.o, [4]uint32{})
		}
	}
	limit := env.MaxSteps
	if limit <= 0 {
		limit = 1 << 20
	}
	// Matching brackets, found once.
	match := make([]int, len(p.Code))
	cases := map[int][]int{} // switch -> its case and default labels
	var stack []int
	for i, in := range p.Code {
		switch in.Op {
		case OpIf, OpLoop, OpSwitch:
			stack = append(stack, i)
		case OpCase, OpDefault:
			if len(stack) == 0 || p.Code[stack[len(stack)-1]].Op != OpSwitch {
				return nil, errors.New("hlsl: case outside a switch")
			}
			cases[stack[len(stack)-1]] = append(cases[stack[len(stack)-1]], i)
		case OpElse:
			if len(stack) == 0 {
				return nil, errors.New("hlsl: else without if")
			}
			match[stack[len(stack)-1]] = i
			stack[len(stack)-1] = i
		case OpEndif, OpEndloop, OpEndswitch:
			if len(stack) == 0 {
				return nil, errors.New("hlsl: unbalanced endif/endloop")
			}
			match[stack[len(stack)-1]] = i
			match[i] = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		return nil, errors.New("hlsl: unterminated if/loop")
	}
	var loops []int // each loop and switch we are in: where it starts
	steps := 0
	for pc := 0; pc < len(p.Code); pc++ {
		steps++
		if steps > limit {
			return nil, ErrSteps
		}
		in := &p.Code[pc]
		isF := floatOp(in.Op)
		var src [5][4]uint32 // sample_d has five sources
		for i, s := range in.Src {
			if s.File == FileTex || s.File == FileSamp {
				continue
			}
			fl := isF
			if (in.Op == OpMovc && i == 0) || (in.Op == OpLd) {
				fl = false
			}
			v, err := m.read(s, fl)
			if err != nil {
				return nil, err
			}
			src[i] = v
		}
		test := func() bool { return (src[0][0] != 0) == (in.Test == TestNZ) }
		switch in.Op {
		case OpIf:
			if !test() {
				// Jump to else (then run its body) or endif.
				pc = match[pc]
			}
		case OpElse:
			// Reached the else at the end of the then-branch: skip to endif.
			pc = match[pc]
		case OpEndif:
		case OpLoop:
			loops = append(loops, pc)
		case OpEndloop:
			pc = match[pc] // to the loop instruction; the next step runs the body again
		case OpSwitch:
			loops = append(loops, pc)
			target := match[pc] - 1 // no label: to the endswitch
			for _, c := range cases[pc] {
				lab := &p.Code[c]
				if lab.Op == OpDefault && target == match[pc]-1 {
					target = c
				}
				if lab.Op == OpCase && lab.Src[0].Imm[0] == src[0][0] {
					target = c
					break
				}
			}
			pc = target
		case OpCase, OpDefault:
			// Reached from the case above: fall through.
		case OpEndswitch:
			loops = loops[:len(loops)-1]
		case OpBreak, OpBreakc:
			if in.Op == OpBreakc && !test() {
				continue
			}
			if len(loops) == 0 {
				return nil, errors.New("hlsl: break outside a loop")
			}
			pc = match[loops[len(loops)-1]]
			loops = loops[:len(loops)-1]
		case OpContinue:
			for len(loops) > 0 && p.Code[loops[len(loops)-1]].Op == OpSwitch {
				loops = loops[:len(loops)-1]
			}
			if len(loops) == 0 {
				return nil, errors.New("hlsl: continue outside a loop")
			}
			pc = loops[len(loops)-1]
		case OpRet:
			return &Output{Regs: m.o, Discarded: m.disc}, nil
		case OpDiscard:
			if test() {
				m.disc = true
				if env.Deriv == nil {
					return &Output{Regs: m.o, Discarded: true}, nil
				}
				// In a quad a discarded invocation goes on as a helper,
				// for its neighbours' derivatives.
			}
		case OpDp2, OpDp3, OpDp4:
			n := int(in.Op-OpDp2) + 2
			acc := float32(f32(src[0][0]) * f32(src[1][0]))
			for i := 1; i < n; i++ {
				acc = acc + float32(f32(src[0][i])*f32(src[1][i]))
			}
			r := math.Float32bits(acc)
			if err := m.write(in.Dst[0], [4]uint32{r, r, r, r}, in.Sat); err != nil {
				return nil, err
			}
		case OpSincos:
			var s, c [4]uint32
			for i := 0; i < 4; i++ {
				x := float64(f32(src[0][i]))
				s[i] = math.Float32bits(float32(math.Sin(x)))
				c[i] = math.Float32bits(float32(math.Cos(x)))
			}
			if err := m.write(in.Dst[0], s, in.Sat); err != nil {
				return nil, err
			}
			if err := m.write(in.Dst[1], c, in.Sat); err != nil {
				return nil, err
			}
		case OpImul:
			var lo [4]uint32
			for i := 0; i < 4; i++ {
				lo[i] = src[0][i] * src[1][i]
			}
			if err := m.write(in.Dst[1], lo, in.Sat); err != nil {
				return nil, err
			}
		case OpUdiv:
			var q, r [4]uint32
			for i := 0; i < 4; i++ {
				if src[1][i] == 0 {
					q[i], r[i] = 0xffffffff, 0xffffffff
				} else {
					q[i], r[i] = src[0][i]/src[1][i], src[0][i]%src[1][i]
				}
			}
			if err := m.write(in.Dst[0], q, false); err != nil {
				return nil, err
			}
			if err := m.write(in.Dst[1], r, false); err != nil {
				return nil, err
			}
		case OpDerivRtx, OpDerivRty, OpDerivRtxCoarse, OpDerivRtxFine, OpDerivRtyCoarse, OpDerivRtyFine:
			if env.Deriv == nil {
				return nil, fmt.Errorf("hlsl: %s needs the other invocations of the quad (RunQuad)", in.Op)
			}
			if err := m.write(in.Dst[0], env.Deriv(pc, in.Op, src[0]), in.Sat); err != nil {
				return nil, err
			}
		case OpSample, OpSampleL, OpSampleB, OpSampleD:
			if env.Sample == nil {
				return nil, errors.New("hlsl: sample with no Env.Sample")
			}
			lod := float32(0)
			switch in.Op {
			case OpSampleL:
				lod = f32(src[3][0])
			case OpSampleB:
				// The implicit level (0 here) plus the bias, clamped as
				// "sample_b (sm4 - asm)" says.
				if b := f32(src[3][0]); b == b {
					lod = min(max(b, -16), 15.99)
				}
			}
			t := env.Sample(in.Src[1].Index, in.Src[2].Index, f32(src[0][0]), f32(src[0][1]), lod)
			var v [4]uint32
			for i := 0; i < 4; i++ {
				v[i] = math.Float32bits(t[in.Src[1].Swz[i]&3])
			}
			if err := m.write(in.Dst[0], v, in.Sat); err != nil {
				return nil, err
			}
		case OpResinfo:
			if env.Info == nil {
				return nil, errors.New("hlsl: resinfo with no Env.Info")
			}
			v := resinfo(env.Info, in.Src[1].Index, src[0][0], in.Uint)
			var r [4]uint32
			for i := range r {
				r[i] = v[in.Src[1].Swz[i]&3]
			}
			if err := m.write(in.Dst[0], r, in.Sat); err != nil {
				return nil, err
			}
		case OpLd:
			if env.Load == nil {
				return nil, errors.New("hlsl: ld with no Env.Load")
			}
			t := env.Load(in.Src[1].Index, int32(src[0][0]), int32(src[0][1]), int32(src[0][3]))
			var v [4]uint32
			for i := 0; i < 4; i++ {
				v[i] = t[in.Src[1].Swz[i]&3]
			}
			if err := m.write(in.Dst[0], v, false); err != nil {
				return nil, err
			}
		default:
			if !lanewise(in.Op) {
				return nil, fmt.Errorf("hlsl: the evaluator does not run %s", in.Op)
			}
			var v [4]uint32
			for i := 0; i < 4; i++ {
				v[i] = laneOp(in.Op, src[0][i], src[1][i], src[2][i])
			}
			if err := m.write(in.Dst[0], v, in.Sat); err != nil {
				return nil, err
			}
		}
	}
	return &Output{Regs: m.o, Discarded: m.disc}, nil
}

// resinfo is "resinfo (sm4 - asm)" for a Texture2D: [width, height, 0, mip
// count] at the mip level (at least 1 texel), 0 but the mip count past the
// last level, all 0 for an unbound texture; floats unless _uint.
func resinfo(info func(int) (uint32, uint32, uint32), tex int, mip uint32, asUint bool) [4]uint32 {
	w, h, mips := info(tex)
	var v [4]uint32
	if mips != 0 {
		v[3] = mips
		if mip < mips {
			v[0], v[1] = max(w>>min(mip, 31), 1), max(h>>min(mip, 31), 1)
		}
	}
	if !asUint {
		for i := range v {
			v[i] = math.Float32bits(float32(v[i]))
		}
	}
	return v
}
