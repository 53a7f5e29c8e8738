package shader

import (
	"math"

	. "d3dsim/gpu/shaderisa"
)

// The per-component kernels: each a tight loop over the block's lanes. Float
// kernels work on the float32 view of the same arrays; every product that
// feeds a sum is rounded first (float32(a*b) + c) so that no compiler fuses
// it into a multiply-add.

var kernels = [NumOps]kernel{
	OpMov:     kMov,
	OpMovc:    kMovc,
	OpAdd:     kAdd,
	OpMul:     kMul,
	OpMad:     kMad,
	OpDiv:     kDiv,
	OpMin:     kMin,
	OpMax:     kMax,
	OpRcp:     kRcp,
	OpRsq:     kRsq,
	OpSqrt:    kSqrt,
	OpExp2:    kExp2,
	OpLog2:    kLog2,
	OpSin:     kSin,
	OpCos:     kCos,
	OpFrc:     kFrc,
	OpFloor:   kFloor,
	OpCeil:    kCeil,
	OpRoundNE: kRoundNE,
	OpTrunc:   kTrunc,
	OpLt:      kLt,
	OpGe:      kGe,
	OpEq:      kEq,
	OpNe:      kNe,
	OpIAdd:    kIAdd,
	OpIMul:    kIMul,
	OpIShl:    kIShl,
	OpIShr:    kIShr,
	OpUShr:    kUShr,
	OpAnd:     kAnd,
	OpOr:      kOr,
	OpXor:     kXor,
	OpNot:     kNot,
	OpINeg:    kINeg,
	OpILt:     kILt,
	OpIGe:     kIGe,
	OpIEq:     kIEq,
	OpINe:     kINe,
	OpULt:     kULt,
	OpUGe:     kUGe,
	OpIToF:    kIToF,
	OpUToF:    kUToF,
	OpFToI:    kFToI,
	OpFToU:    kFToU,
	OpIMin:    kIMin,
	OpIMax:    kIMax,
	OpUMin:    kUMin,
	OpUMax:    kUMax,
	OpUDiv:    kUDiv,
	OpURem:    kURem,
}

// canonical marks the float arithmetic whose NaN results a pass after the
// kernel makes canonical (mov, movc, compares and conversions move or
// produce exact bits; add, mul, mad and div do it themselves).
var canonical = [NumOps]bool{
	OpDp2: true, OpDp3: true, OpDp4: true,
	OpMin: true, OpMax: true,
	OpSin: true, OpCos: true,
	OpDerivX: true, OpDerivY: true, OpDerivXFine: true, OpDerivYFine: true,
}

func mask(b bool) uint32 {
	if b {
		return 0xFFFFFFFF
	}
	return 0
}

func kMov(r, a, _, _ *[Lanes]uint32) { *r = *a }

func kMovc(r, a, b, c *[Lanes]uint32) {
	for i := range r {
		if a[i] != 0 {
			r[i] = b[i]
		} else {
			r[i] = c[i]
		}
	}
}

// The commonest float kernels canonicalise their own NaNs (canonical
// leaves them out): four lanes at a time, one well-predicted test per four;
// the one-source ones (rcp, rsq, sqrt, exp2, log2, frc and the roundings)
// with cn as they store each lane, instead of a second pass over the
// block.

var nanF = math.Float32frombits(canonNaN)

func cn(x float32) float32 {
	if x != x {
		return nanF
	}
	return x
}

func kAdd(r, a, b, _ *[Lanes]uint32) {
	rf, af, bf := f32(r), f32(a), f32(b)
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i]+bf[i], af[i+1]+bf[i+1], af[i+2]+bf[i+2], af[i+3]+bf[i+3]
		if s := (x0 + x1) + (x2 + x3); s != s { // a NaN lane, or infinities of both signs
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

func kMul(r, a, b, _ *[Lanes]uint32) {
	rf, af, bf := f32(r), f32(a), f32(b)
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i]*bf[i], af[i+1]*bf[i+1], af[i+2]*bf[i+2], af[i+3]*bf[i+3]
		if s := (x0 + x1) + (x2 + x3); s != s { // a NaN lane, or infinities of both signs
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

func kMad(r, a, b, c *[Lanes]uint32) {
	rf, af, bf, cf := f32(r), f32(a), f32(b), f32(c)
	for i := 0; i < Lanes; i += 4 {
		x0 := float32(af[i]*bf[i]) + cf[i]
		x1 := float32(af[i+1]*bf[i+1]) + cf[i+1]
		x2 := float32(af[i+2]*bf[i+2]) + cf[i+2]
		x3 := float32(af[i+3]*bf[i+3]) + cf[i+3]
		if s := (x0 + x1) + (x2 + x3); s != s { // a NaN lane, or infinities of both signs
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

func kDiv(r, a, b, _ *[Lanes]uint32) {
	rf, af, bf := f32(r), f32(a), f32(b)
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i]/bf[i], af[i+1]/bf[i+1], af[i+2]/bf[i+2], af[i+3]/bf[i+3]
		if s := (x0 + x1) + (x2 + x3); s != s { // a NaN lane, or infinities of both signs
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

// kMin and kMax return the number when one operand is NaN (IEEE minNum,
// as D3D11 asks).
func kMin(r, a, b, _ *[Lanes]uint32) {
	rf, af, bf := f32(r), f32(a), f32(b)
	for i := range rf {
		x, y := af[i], bf[i]
		if x < y || y != y {
			rf[i] = x
		} else {
			rf[i] = y
		}
	}
}

func kMax(r, a, b, _ *[Lanes]uint32) {
	rf, af, bf := f32(r), f32(a), f32(b)
	for i := range rf {
		x, y := af[i], bf[i]
		if x > y || y != y {
			rf[i] = x
		} else {
			rf[i] = y
		}
	}
}

func kRcp(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i] = cn(1 / af[i])
	}
}

// kSqrt: the float64 square root of a float32 rounds to the correctly
// rounded float32 result. (kRsq, 1/sqrt in float64: fastrsq.go.)
func kSqrt(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i] = cn(float32(math.Sqrt(float64(af[i]))))
	}
}

func kSin(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i], _ = sincos(af[i])
	}
}

func kCos(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		_, rf[i] = sincos(af[i])
	}
}

// kFrc takes four lanes that are all in [+0, 2**23) (their bits below
// 2**23's: no sign, no NaN) through the integer conversion: floor is the
// truncation there, exact as an int32 and back, and x - trunc(x) is the
// same float32 subtraction of the same operands as x - floor(x) (with no
// NaN to make canonical); half the instructions of the float64 floor and
// its tests a lane. The others lane by lane, as before.
func kFrc(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := 0; i < Lanes; i += 4 {
		if max(a[i], a[i+1], a[i+2], a[i+3]) < 0x4B000000 {
			x0, x1, x2, x3 := af[i], af[i+1], af[i+2], af[i+3]
			rf[i] = x0 - float32(int32(x0))
			rf[i+1] = x1 - float32(int32(x1))
			rf[i+2] = x2 - float32(int32(x2))
			rf[i+3] = x3 - float32(int32(x3))
			continue
		}
		for j := i; j < i+4; j++ {
			x := af[j]
			rf[j] = cn(x - float32(math.Floor(float64(x))))
		}
	}
}

func kFloor(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i] = cn(float32(math.Floor(float64(af[i]))))
	}
}

func kCeil(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i] = cn(float32(math.Ceil(float64(af[i]))))
	}
}

func kRoundNE(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i] = cn(float32(math.RoundToEven(float64(af[i]))))
	}
}

func kTrunc(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	for i := range rf {
		rf[i] = cn(float32(math.Trunc(float64(af[i]))))
	}
}

func kLt(r, a, b, _ *[Lanes]uint32) {
	af, bf := f32(a), f32(b)
	for i := range r {
		r[i] = mask(af[i] < bf[i])
	}
}

func kGe(r, a, b, _ *[Lanes]uint32) {
	af, bf := f32(a), f32(b)
	for i := range r {
		r[i] = mask(af[i] >= bf[i])
	}
}

func kEq(r, a, b, _ *[Lanes]uint32) {
	af, bf := f32(a), f32(b)
	for i := range r {
		r[i] = mask(af[i] == bf[i])
	}
}

func kNe(r, a, b, _ *[Lanes]uint32) {
	af, bf := f32(a), f32(b)
	for i := range r {
		r[i] = mask(af[i] != bf[i])
	}
}

func kIAdd(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] + b[i]
	}
}

func kIMul(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] * b[i]
	}
}

// Shifts use the low 5 bits of the count, as D3D11's do.
func kIShl(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] << (b[i] & 31)
	}
}

func kIShr(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = uint32(int32(a[i]) >> (b[i] & 31))
	}
}

func kUShr(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] >> (b[i] & 31)
	}
}

func kAnd(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] & b[i]
	}
}

func kOr(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] | b[i]
	}
}

func kXor(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = a[i] ^ b[i]
	}
}

func kNot(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = ^a[i]
	}
}

func kINeg(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = -a[i]
	}
}

func kILt(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = mask(int32(a[i]) < int32(b[i]))
	}
}

func kIGe(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = mask(int32(a[i]) >= int32(b[i]))
	}
}

func kIEq(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = mask(a[i] == b[i])
	}
}

func kINe(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = mask(a[i] != b[i])
	}
}

func kULt(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = mask(a[i] < b[i])
	}
}

func kUGe(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = mask(a[i] >= b[i])
	}
}

func kIToF(r, a, _, _ *[Lanes]uint32) {
	rf := f32(r)
	for i := range rf {
		rf[i] = float32(int32(a[i]))
	}
}

func kUToF(r, a, _, _ *[Lanes]uint32) {
	rf := f32(r)
	for i := range rf {
		rf[i] = float32(a[i])
	}
}

// ftoi and ftou clamp before converting (Go leaves out-of-range
// conversions to the machine: amd64 and wasm differ): NaN gives 0, the
// rest saturates, as D3D11 asks.
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

func kFToI(r, a, _, _ *[Lanes]uint32) {
	af := f32(a)
	for i := range r {
		r[i] = ftoi(af[i])
	}
}

func kFToU(r, a, _, _ *[Lanes]uint32) {
	af := f32(a)
	for i := range r {
		r[i] = ftou(af[i])
	}
}

func kIMin(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = uint32(min(int32(a[i]), int32(b[i])))
	}
}

func kIMax(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = uint32(max(int32(a[i]), int32(b[i])))
	}
}

func kUMin(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = min(a[i], b[i])
	}
}

func kUMax(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = max(a[i], b[i])
	}
}

// udiv and urem by zero give 0xFFFFFFFF, as D3D11's do.
func kUDiv(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		if b[i] == 0 {
			r[i] = math.MaxUint32
		} else {
			r[i] = a[i] / b[i]
		}
	}
}

func kURem(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		if b[i] == 0 {
			r[i] = math.MaxUint32
		} else {
			r[i] = a[i] % b[i]
		}
	}
}

// VectorKernels says whether the machine's kernels run several lanes per
// instruction here (GOEXPERIMENT=simd on amd64 with AVX2: vecOK).
func VectorKernels() bool { return vecOK }
