package shaderisa

import "math"

// Program is a shader of the ISA: what Decode returns, what Assemble
// builds, what an encoder (the UMD's translator) fills in and Check
// validates, and what the GPU's executor (package gpu/shader) runs. It is
// a plain value, immutable once decoded, so one Program may be shared by
// many executors (the GPU caches it per code address).
type Program struct {
	Stage   Stage
	Inputs  int // v0..v(Inputs-1)
	Outputs int // o0..o(Outputs-1)
	Temps   int // r0..r(Temps-1)
	Code    []Inst
	ICB     [][4]uint32 // the immediate constant buffer icb[] (dcl_immediateConstantBuffer)
	// Interp is a pixel program's interpolation mode per input register
	// (all InterpPerspective, the zero value, for other stages).
	Interp [MaxInputs]Interp
}

// hasInterp reports whether the header carries the interpolation modes.
func (p *Program) hasInterp() bool { return p.Interp != [MaxInputs]Interp{} }

// HeaderLen is the length in words of the program's encoded header: the
// code begins there.
func (p *Program) HeaderLen() int {
	n := HeaderWords
	if p.hasInterp() {
		n += 2
	}
	if len(p.ICB) > 0 {
		n += 1 + 4*len(p.ICB)
	}
	return n
}

// Encode returns the program's binary form: the header, then the code.
// Decode(p.Encode()) gives p back when p is valid; Encode itself does not
// validate (the GPU decodes whatever reaches its memory).
func (p *Program) Encode() []uint32 {
	header, version := p.HeaderLen(), uint32(Version)
	if len(p.ICB) > 0 {
		version = VersionICB
	}
	w := make([]uint32, header, header+4*len(p.Code))
	for i := range p.Code {
		w = appendInst(w, &p.Code[i])
	}
	w[0] = Magic
	w[1] = version | uint32(p.Stage)<<16
	w[2] = uint32(p.Inputs)&0xFF | (uint32(p.Outputs)&0xFF)<<8 | (uint32(p.Temps)&0xFFFF)<<16
	w[3] = uint32(len(w) - header)
	at := HeaderWords
	if p.hasInterp() {
		w[1] |= HeaderInterp
		for r, m := range p.Interp {
			w[at+r/16] |= uint32(m&3) << (2 * (r % 16))
		}
		at += 2
	}
	if len(p.ICB) > 0 {
		w[at] = uint32(len(p.ICB))
		for i, v := range p.ICB {
			copy(w[at+1+4*i:], v[:])
		}
	}
	return w
}

func appendInst(w []uint32, in *Inst) []uint32 {
	start := len(w)
	tok := uint32(in.Op)
	if in.Sat {
		tok |= instSat
	}
	if in.NZ {
		tok |= instNZ
	}
	if in.Op == OpCall || in.Op == OpCallc || in.Op == OpLabel {
		tok |= (in.Label & 0xFFF) << instLabelShift
	}
	if in.Op.TakesOffset() {
		for k, o := range in.Offset {
			tok |= uint32(o) & 0xF << (instOffsetShift + 4*k)
		}
	}
	if in.Op.TakesChannel() {
		tok |= uint32(in.Channel&3) << instChannelShift
	}
	w = append(w, tok)
	if int(in.Op) < len(ops) && ops[in.Op].dst {
		w = appendOperand(w, &in.Dst, true)
	}
	for i := range in.Src {
		w = appendOperand(w, &in.Src[i], false)
	}
	n := len(w) - start
	w[start] |= uint32(n&0xFF) << 8
	return w
}

// appendOperand writes a destination's mask or a source's swizzle (a
// sampler has neither).
func appendOperand(w []uint32, o *Operand, dst bool) []uint32 {
	tok := uint32(o.File) & 0xF
	switch {
	case dst:
		tok |= uint32(o.Mask&0xF) << 4
	case o.File != FileSampler:
		for c, s := range o.Swizzle {
			tok |= uint32(s&3) << (8 + 2*c)
		}
	}
	if o.Neg {
		tok |= opndNeg
	}
	if o.Abs {
		tok |= opndAbs
	}
	if o.Rel {
		tok |= opndRel
	}
	w = append(w, tok)
	switch o.File {
	case FileImm:
		w = append(w, o.Imm[:]...)
	case FileCB:
		w = append(w, o.Index, o.Elem)
		if o.Rel {
			w = append(w, o.RelReg<<2|uint32(o.RelComp&3))
		}
	case FileNone:
	default:
		w = append(w, o.Index)
		if o.Rel {
			w = append(w, o.Elem, o.RelReg<<2|uint32(o.RelComp&3), o.Len)
		}
	}
	return w
}

// Swz returns a swizzle from component letters ("xyzw", "xxxx", "x").
// A short swizzle repeats its last letter, as in D3D's assembly.
// An empty string is the identity; a letter other than xyzw or rgba gives a
// swizzle Check refuses.
func Swz(s string) [4]uint8 {
	if s == "" {
		return Identity
	}
	var z [4]uint8
	for i := range z {
		c := s[min(i, len(s)-1)]
		z[i] = compIndex(c)
	}
	return z
}

func compIndex(c byte) uint8 {
	switch c {
	case 'x', 'r':
		return 0
	case 'y', 'g':
		return 1
	case 'z', 'b':
		return 2
	case 'w', 'a':
		return 3
	}
	return 0xFF
}

// Identity is the swizzle xyzw.
var Identity = [4]uint8{0, 1, 2, 3}

// R, V, O, CB and L build operands for encoders (the UMD's translator,
// tests): a destination uses Mask, a source Swizzle.
func R(i uint32) Operand { return Operand{File: FileTemp, Index: i, Mask: 0xF, Swizzle: Identity} }
func V(i uint32) Operand { return Operand{File: FileInput, Index: i, Mask: 0xF, Swizzle: Identity} }
func O(i uint32) Operand { return Operand{File: FileOutput, Index: i, Mask: 0xF, Swizzle: Identity} }
func CB(slot, elem uint32) Operand {
	return Operand{File: FileCB, Index: slot, Elem: elem, Swizzle: Identity}
}
func L(x, y, z, w uint32) Operand {
	return Operand{File: FileImm, Swizzle: Identity, Imm: [4]uint32{x, y, z, w}}
}
func T(i uint32) Operand { return Operand{File: FileTex, Index: i, Swizzle: Identity} }
func S(i uint32) Operand { return Operand{File: FileSampler, Index: i} }

// LF builds an immediate of four floats.
func LF(x, y, z, w float32) Operand {
	return L(math.Float32bits(x), math.Float32bits(y), math.Float32bits(z), math.Float32bits(w))
}

// WithRel makes a temp, input or output operand relative: register elem +
// r(reg).comp of the array of n registers from o's, per lane
// (x#[r#.c + n] and v[r#.c + n] of SM4).
func (o Operand) WithRel(elem, n, reg uint32, comp uint8) Operand {
	o.Rel, o.Elem, o.Len, o.RelReg, o.RelComp = true, elem, n, reg, comp
	return o
}

// ICBRel builds icb[r(reg).comp + elem] of an immediate constant buffer of
// n elements.
func ICBRel(elem, n, reg uint32, comp uint8) Operand {
	return Operand{File: FileICB, Swizzle: Identity, Rel: true, Elem: elem, Len: n, RelReg: reg, RelComp: comp}
}

// CBRel builds cb[slot][r(reg).comp + elem], indexed per lane.
func CBRel(slot, elem, reg uint32, comp uint8) Operand {
	o := CB(slot, elem)
	o.Rel, o.RelReg, o.RelComp = true, reg, comp
	return o
}

// WithMask returns a destination writing the components of mask ("xy",
// "xyzw"; letters in any order).
func (o Operand) WithMask(mask string) Operand {
	o.Mask = 0
	for i := range len(mask) {
		if c := compIndex(mask[i]); c < 4 {
			o.Mask |= 1 << c
		}
	}
	return o
}

// WithSwizzle returns a source reading the components of s (see Swz).
func (o Operand) WithSwizzle(s string) Operand { o.Swizzle = Swz(s); return o }

// WithNeg returns a source that is negated.
func (o Operand) WithNeg() Operand { o.Neg = !o.Neg; return o }

// WithAbs returns a source whose absolute value is taken.
func (o Operand) WithAbs() Operand { o.Abs = true; return o }
