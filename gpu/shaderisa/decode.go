package shaderisa

import (
	"errors"
	"fmt"
	"slices"
)

// ErrBadCode is what every Decode error wraps: the GPU reports it as a
// fault of the draw that named the code.
var ErrBadCode = errors.New("shader: bad code")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadCode, fmt.Sprintf(format, args...))
}

// Decode checks and decodes a program's words: the header, every
// instruction and operand (known opcodes, register files allowed where they
// appear, indices within the declared counts and the machine's limits, no
// stray bits), balanced if/else/endif and loop/endloop, break and continue
// inside a loop, pixel-only ops in pixel programs. Bad words give an error
// wrapping ErrBadCode, never a panic; the work is linear in len(words).
func Decode(words []uint32) (*Program, error) {
	if len(words) < HeaderWords {
		return nil, bad("%d words, shorter than the header", len(words))
	}
	if words[0] != Magic {
		return nil, bad("magic %#08x, want %#08x", words[0], Magic)
	}
	v := words[1] & 0xFFFF
	if v != Version && v != VersionICB {
		return nil, bad("version %d, want %d or %d", v, Version, VersionICB)
	}
	if words[1]>>25 != 0 {
		return nil, bad("reserved header bits %#08x", words[1])
	}
	p := &Program{
		Stage:   Stage(words[1] >> 16 & 0xFF),
		Inputs:  int(words[2] & 0xFF),
		Outputs: int(words[2] >> 8 & 0xFF),
		Temps:   int(words[2] >> 16),
	}
	switch {
	case p.Stage >= numStages:
		return nil, bad("stage %d", p.Stage)
	case p.Inputs > MaxInputs:
		return nil, bad("%d inputs, at most %d", p.Inputs, MaxInputs)
	case p.Outputs > MaxOutputs:
		return nil, bad("%d outputs, at most %d", p.Outputs, MaxOutputs)
	case p.Temps > MaxTemps:
		return nil, bad("%d temps, at most %d", p.Temps, MaxTemps)
	}
	header := HeaderWords
	if words[1]&HeaderInterp != 0 {
		if len(words) < header+2 {
			return nil, bad("%d words, shorter than the header", len(words))
		}
		if p.Stage != StagePixel {
			return nil, bad("interpolation modes in a %s program", p.Stage)
		}
		for r := range p.Interp {
			m := Interp(words[header+r/16] >> (2 * (r % 16)) & 3)
			if m >= numInterps || m != InterpPerspective && r >= p.Inputs {
				return nil, bad("interpolation mode %d for v%d of %d inputs", m, r, p.Inputs)
			}
			p.Interp[r] = m
		}
		if !p.hasInterp() {
			return nil, bad("interpolation modes all linear, yet given")
		}
		header += 2
	}
	if v == VersionICB {
		if len(words) < header+1 {
			return nil, bad("%d words, shorter than the header", len(words))
		}
		k := words[header]
		if k == 0 || k > MaxICB || uint64(header+1)+4*uint64(k) > uint64(len(words)) {
			return nil, bad("an immediate constant buffer of %d elements (1..%d, in %d words)", k, MaxICB, len(words))
		}
		p.ICB = make([][4]uint32, k)
		for i := range p.ICB {
			copy(p.ICB[i][:], words[header+1+4*i:])
		}
		header += 1 + 4*int(k)
	}
	n := words[3]
	if n > MaxCode || int(n) != len(words)-header {
		return nil, bad("code length %d, but %d words follow the header", n, len(words)-header)
	}
	code := words[header:]
	for pc := 0; pc < len(code); {
		in, size, err := decodeInst(code[pc:], p)
		if err != nil {
			return nil, fmt.Errorf("%w (instruction %d, word %d)", err, len(p.Code), header+pc)
		}
		p.Code = append(p.Code, in)
		pc += size
	}
	if _, err := p.Flow(); err != nil {
		return nil, err
	}
	if err := p.checkCompute(); err != nil {
		return nil, err
	}
	if err := p.checkGeometry(); err != nil {
		return nil, err
	}
	if err := p.checkTess(); err != nil {
		return nil, err
	}
	return p, nil
}

// SharedDecl is a groupshared declaration (dcl_tgsm): its size in bytes,
// its structure stride (0: raw) and where it starts in the group's
// memory, in 32-bit words.
type SharedDecl struct {
	Bytes, Stride, Word uint32
}

// ThreadGroup returns a compute program's thread-group size (its
// dcl_thread_group), or zeros for a program without one.
func (p *Program) ThreadGroup() [3]uint32 {
	for i := range p.Code {
		if in := &p.Code[i]; in.Op == OpDclThreadGroup {
			return [3]uint32{in.Src[0].Imm[0], in.Src[0].Imm[1], in.Src[0].Imm[2]}
		}
	}
	return [3]uint32{}
}

// Shared returns the groupshared declarations by g# (zero for a g# not
// declared) and the words of groupshared memory they take together.
func (p *Program) Shared() ([]SharedDecl, uint32) {
	var out []SharedDecl
	var words uint32
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op != OpDclTGSM {
			continue
		}
		g := in.Src[0].Index
		for uint32(len(out)) <= g {
			out = append(out, SharedDecl{})
		}
		out[g] = SharedDecl{Bytes: in.Src[1].Imm[0], Stride: in.Src[1].Imm[1], Word: words}
		words += in.Src[1].Imm[0] / 4
	}
	return out, words
}

// checkCompute checks a compute program's declarations: exactly one
// dcl_thread_group within D3D11's limits (x and y 1..1024, z 1..64, at
// most 1024 threads), each g# declared once before it is used, with a
// size that is a multiple of 4 (and of a structured declaration's
// stride), MaxTGSMBytes in all.
func (p *Program) checkCompute() error {
	if p.Stage != StageCompute {
		return nil
	}
	groups := 0
	var declared [MaxTGSM]bool
	total := uint64(0)
	for pc := range p.Code {
		in := &p.Code[pc]
		switch in.Op {
		case OpDclThreadGroup:
			groups++
			v := in.Src[0].Imm
			x, y, z := uint64(v[0]), uint64(v[1]), uint64(v[2])
			if x == 0 || y == 0 || z == 0 || x > MaxGroupThreads || y > MaxGroupThreads || z > MaxGroupThreadsZ ||
				x*y*z > MaxGroupThreads || v[3] != 0 {
				return bad("instruction %d: dcl_thread_group %d, %d, %d: each 1..1024 (z 1..64), at most %d threads in all",
					pc, v[0], v[1], v[2], MaxGroupThreads)
			}
		case OpDclTGSM:
			g, v := in.Src[0].Index, in.Src[1].Imm
			if declared[g] {
				return bad("instruction %d: g%d declared twice", pc, g)
			}
			declared[g] = true
			if v[0] == 0 || v[0]%4 != 0 || v[1]%4 != 0 || v[1] != 0 && v[0]%v[1] != 0 || v[2] != 0 || v[3] != 0 {
				return bad("instruction %d: dcl_tgsm g%d of %d bytes, stride %d: a multiple of 4 bytes (and of the stride)", pc, g, v[0], v[1])
			}
			total += uint64(v[0])
			if total > MaxTGSMBytes {
				return bad("instruction %d: groupshared memory past %d bytes", pc, MaxTGSMBytes)
			}
		default:
			ops := append([]Operand{in.Dst}, in.Src...)
			for _, o := range ops {
				if o.File == FileTGSM && !declared[o.Index] {
					return bad("instruction %d: %s uses g%d before its dcl_tgsm", pc, in.Op, o.Index)
				}
			}
		}
	}
	if groups != 1 {
		return bad("a compute program has one dcl_thread_group, this one %d", groups)
	}
	return nil
}

// Check validates a program built in memory (by an encoder or the
// assembler) the way the GPU will: it decodes its encoding.
// Fields too wide for their bits are refused first, so that the encoding
// cannot wrap them into something valid.
func (p *Program) Check() (*Program, error) {
	switch {
	case p.Inputs < 0 || p.Inputs > MaxInputs:
		return nil, bad("%d inputs, at most %d", p.Inputs, MaxInputs)
	case p.Outputs < 0 || p.Outputs > MaxOutputs:
		return nil, bad("%d outputs, at most %d", p.Outputs, MaxOutputs)
	case p.Temps < 0 || p.Temps > MaxTemps:
		return nil, bad("%d temps, at most %d", p.Temps, MaxTemps)
	case len(p.Code) > MaxCode:
		return nil, bad("%d instructions", len(p.Code))
	case len(p.ICB) > MaxICB:
		return nil, bad("an immediate constant buffer of %d elements, at most %d", len(p.ICB), MaxICB)
	}
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op >= numOps || len(in.Src) != len(ops[in.Op].srcs) {
			return nil, bad("instruction %d: %s with %d sources", i, in.Op, len(in.Src))
		}
		if in.Label >= MaxLabels {
			return nil, bad("instruction %d: label %d, at most %d", i, in.Label, MaxLabels-1)
		}
		for _, o := range in.Offset {
			if o < -8 || o > 7 || o != 0 && !in.Op.TakesOffset() {
				return nil, bad("instruction %d (%s): texel offset %d", i, in.Op, o)
			}
		}
		if in.Channel > 3 || in.Channel != 0 && !in.Op.TakesChannel() {
			return nil, bad("instruction %d (%s): gather channel %d", i, in.Op, in.Channel)
		}
		all := append([]Operand{in.Dst}, in.Src...)
		for _, o := range all {
			if o.File >= numFiles || o.Mask > 0xF || o.RelComp > 3 || o.RelReg >= MaxTemps ||
				o.Swizzle[0] > 3 || o.Swizzle[1] > 3 || o.Swizzle[2] > 3 || o.Swizzle[3] > 3 {
				return nil, bad("instruction %d (%s): an operand field out of range", i, in.Op)
			}
		}
	}
	return Decode(p.Encode())
}

func decodeInst(w []uint32, p *Program) (Inst, int, error) {
	tok := w[0]
	var in Inst
	in.Op = Op(tok & 0xFF)
	valid := uint32(instValid)
	if in.Op == OpCall || in.Op == OpCallc || in.Op == OpLabel {
		valid = instValidLabel
		in.Label = tok >> instLabelShift & 0xFFF
	}
	if in.Op.TakesOffset() {
		valid |= 0xFFF << instOffsetShift
		for k := range in.Offset {
			in.Offset[k] = int8(tok>>(instOffsetShift+4*k)&0xF<<4) >> 4
		}
	}
	if in.Op.TakesChannel() {
		valid |= 3 << instChannelShift
		in.Channel = uint8(tok >> instChannelShift & 3)
	}
	if tok&^valid != 0 {
		return in, 0, bad("reserved instruction bits %#08x", tok)
	}
	size := int(tok >> 8 & 0xFF)
	if in.Op >= numOps {
		return in, 0, bad("unknown opcode %d", tok&0xFF)
	}
	info := &ops[in.Op]
	if size < 1 || size > len(w) {
		return in, 0, bad("%s: length %d, %d words left", in.Op, size, len(w))
	}
	in.Sat = tok&instSat != 0
	in.NZ = tok&instNZ != 0
	if in.Sat && !floatResult(in.Op) {
		return in, 0, bad("%s: saturate on an op without float results", in.Op)
	}
	if in.NZ && !info.test {
		return in, 0, bad("%s: a test on an op without one", in.Op)
	}
	if info.ps && p.Stage != StagePixel {
		return in, 0, bad("%s: pixel stage only", in.Op)
	}
	if info.cs && p.Stage != StageCompute && !(p.Stage == StagePixel && PixelUAVOp(in.Op)) {
		return in, 0, bad("%s: compute stage only", in.Op)
	}
	if info.gs && p.Stage != StageGeometry {
		return in, 0, bad("%s: geometry stage only", in.Op)
	}
	if info.hs && p.Stage != StageHull || info.ds && p.Stage != StageDomain {
		return in, 0, bad("%s: %s stage only", in.Op, map[bool]string{true: "hull", false: "domain"}[info.hs])
	}
	body := w[1:size]
	if info.dst {
		o, k, err := decodeOperand(body, true, p)
		if err != nil {
			return in, 0, fmt.Errorf("%w (%s destination)", err, in.Op)
		}
		mem := o.File == FileUAV || o.File == FileTGSM && !info.uavOnly
		switch {
		case info.mem && !mem:
			return in, 0, bad("%s: destination in register file %s, want u#%s", in.Op, fileName(o.File), map[bool]string{false: " or g#", true: ""}[info.uavOnly])
		case !info.mem && (o.File == FileUAV || o.File == FileTGSM):
			return in, 0, bad("%s: destination in register file %s", in.Op, fileName(o.File))
		case mem && o.Rel:
			return in, 0, bad("%s: a relative %s", in.Op, fileName(o.File))
		}
		in.Dst, body = o, body[k:]
	}
	if len(info.srcs) > 0 {
		in.Src = make([]Operand, len(info.srcs))
	}
	for i, class := range info.srcs {
		o, k, err := decodeOperand(body, false, p)
		if err != nil {
			return in, 0, fmt.Errorf("%w (%s source %d)", err, in.Op, i)
		}
		ok := false
		switch class {
		case argReg:
			ok = o.File == FileTemp || o.File == FileInput || o.File == FileCB || o.File == FileImm || o.File == FileICB
		case argTex:
			ok = o.File == FileTex && !o.Neg && !o.Abs
		case argSmp:
			ok = o.File == FileSampler && !o.Neg && !o.Abs
		case argRes:
			ok = (o.File == FileTex || (o.File == FileUAV || o.File == FileTGSM) && p.Stage == StageCompute ||
				o.File == FileUAV && p.Stage == StagePixel) && !o.Neg && !o.Abs && !o.Rel
		case argUAV:
			ok = o.File == FileUAV && !o.Neg && !o.Abs && !o.Rel
		case argMem:
			ok = (o.File == FileUAV || o.File == FileTGSM) && !o.Neg && !o.Abs && !o.Rel
		case ArgTGSM:
			ok = o.File == FileTGSM && !o.Rel && o.Swizzle == Identity
		case ArgImm:
			ok = o.File == FileImm && o.Swizzle == Identity && !o.Neg && !o.Abs
		}
		if !ok || isResInfo(in.Op) && o.File == FileTGSM {
			return in, 0, bad("%s source %d: register file %s not allowed", in.Op, i, fileName(o.File))
		}
		if info.kind == KindFlow && (o.Neg || o.Abs) {
			// A condition is a test of bits: -0.0 would be "nonzero".
			return in, 0, bad("%s: a condition takes no modifier", in.Op)
		}
		if isResInfo(in.Op) && (o.Neg || o.Abs) {
			// The mip level is an unsigned integer: a float modifier on it
			// has no meaning.
			return in, 0, bad("%s: the mip level takes no modifier", in.Op)
		}
		if in.Op == OpDMovc && i == 0 && (o.Neg || o.Abs) {
			return in, 0, bad("dmovc: a condition takes no modifier")
		}
		in.Src[i], body = o, body[k:]
	}
	if len(body) != 0 {
		return in, 0, bad("%s: %d words after the operands", in.Op, len(body))
	}
	if info.dst {
		switch m := in.Dst.Mask; {
		case doubleResult(in.Op) && m != 0x3 && m != 0xC && m != 0xF:
			return in, 0, bad("%s: a double destination writes xy, zw or xyzw, not mask %#x", in.Op, m)
		case fromDoubles(in.Op) && m&^0x3 != 0:
			return in, 0, bad("%s: writes x and y only (doubles 0 and 1), not mask %#x", in.Op, m)
		}
	}
	return in, size, nil
}

// doubleResult reports whether op writes doubles (pairs of components).
func doubleResult(op Op) bool {
	switch op {
	case OpDAdd, OpDMul, OpDMin, OpDMax, OpDMov, OpDMovc, OpFToD:
		return true
	}
	return false
}

// fromDoubles reports whether op writes 32-bit results from doubles:
// component x from double 0, y from double 1.
func fromDoubles(op Op) bool {
	switch op {
	case OpDEq, OpDGe, OpDLt, OpDNe, OpDToF:
		return true
	}
	return false
}

// isResInfo reports whether op is one of the resinfo forms.
func isResInfo(op Op) bool { return op == OpResInfo || op == OpResInfoUint || op == OpResInfoRcp }

// floatResult reports whether op writes floats (so _sat means something).
func floatResult(op Op) bool {
	switch op {
	case OpLt, OpGe, OpEq, OpNe, OpFToI, OpFToU, OpResInfoUint, OpF32ToF16:
		return false
	case OpIToF, OpUToF, OpF16ToF32, OpDToF:
		return true
	}
	if ops[op].kind == KindDouble {
		return false // _sat on doubles is not in shader model 5
	}
	return ops[op].dst && ops[op].kind != KindInt
}

func fileName(f File) string {
	if f < numFiles && f != FileNone {
		return filePrefix[f]
	}
	return fmt.Sprintf("%d", f)
}

func decodeOperand(w []uint32, dst bool, p *Program) (Operand, int, error) {
	var o Operand
	if len(w) == 0 {
		return o, 0, bad("operand missing")
	}
	tok := w[0]
	if tok&^opndValid != 0 {
		return o, 0, bad("reserved operand bits %#08x", tok)
	}
	o.File = File(tok & 0xF)
	o.Mask = uint8(tok >> 4 & 0xF)
	for c := range o.Swizzle {
		o.Swizzle[c] = uint8(tok >> (8 + 2*c) & 3)
	}
	o.Neg, o.Abs, o.Rel = tok&opndNeg != 0, tok&opndAbs != 0, tok&opndRel != 0
	switch {
	case dst && (o.File != FileTemp && o.File != FileOutput && o.File != FileUAV && o.File != FileTGSM):
		return o, 0, bad("destination in register file %s", fileName(o.File))
	case dst && (o.Mask == 0 || tok>>8&0xFF != 0 || o.Neg || o.Abs):
		return o, 0, bad("destination token %#08x: a mask, and no swizzle or modifier", tok)
	case !dst && o.Mask != 0:
		return o, 0, bad("source token %#08x with a write mask", tok)
	case o.File == FileSampler && tok>>8&0xFF != 0:
		return o, 0, bad("sampler with a swizzle")
	case o.Rel && o.File != FileCB && o.File != FileTemp && o.File != FileInput && o.File != FileOutput && o.File != FileICB:
		return o, 0, bad("a relative index on register file %s", fileName(o.File))
	case o.File == FileTGSM && p.Stage != StageCompute:
		return o, 0, bad("g#: groupshared memory is a compute program's")
	case o.File == FileICB && !o.Rel:
		return o, 0, bad("icb without a relative index (a constant element is an immediate)")
	}
	need := 2
	switch o.File {
	case FileImm:
		need = 5
	case FileCB:
		need = 3
		if o.Rel {
			need = 4
		}
	case FileNone:
		return o, 0, bad("operand without a register file")
	default:
		if o.Rel {
			need = 5
		}
	}
	if o.File >= numFiles {
		return o, 0, bad("register file %d", o.File)
	}
	if len(w) < need {
		return o, 0, bad("operand needs %d words, %d left", need, len(w))
	}
	var limit uint32
	switch o.File {
	case FileImm:
		copy(o.Imm[:], w[1:5])
		return o, need, nil
	case FileTemp:
		limit = uint32(p.Temps)
	case FileInput:
		limit = uint32(p.Inputs)
	case FileOutput:
		limit = uint32(p.Outputs)
	case FileTex:
		limit = MaxTextures
	case FileSampler:
		limit = MaxSamplers
	case FileCB:
		limit = MaxCBSlots
	case FileICB:
		limit = uint32(len(p.ICB))
	case FileUAV:
		limit = MaxUAVs
	case FileTGSM:
		limit = MaxTGSM
	}
	o.Index = w[1]
	if o.Index >= limit {
		return o, 0, bad("%s%d out of range (%d)", fileName(o.File), o.Index, limit)
	}
	if o.Rel && o.File != FileCB {
		o.Elem, o.RelReg, o.RelComp, o.Len = w[2], w[3]>>2, uint8(w[3]&3), w[4]
		switch {
		case o.Len == 0 || uint64(o.Index)+uint64(o.Len) > uint64(limit):
			return o, 0, bad("%s[%d..%d+%d): the array is past the %d registers", fileName(o.File), o.Index, o.Index, o.Len, limit)
		case o.RelReg >= uint32(p.Temps):
			return o, 0, bad("%s[r%d]: relative register out of range", fileName(o.File), o.RelReg)
		}
		return o, need, nil
	}
	if o.File == FileCB {
		o.Elem = w[2]
		if o.Elem >= MaxCBIndex {
			return o, 0, bad("cb%d[%d]: element out of range (%d)", o.Index, o.Elem, MaxCBIndex)
		}
		if o.Rel {
			o.RelReg, o.RelComp = w[3]>>2, uint8(w[3]&3)
			if o.RelReg >= uint32(p.Temps) {
				return o, 0, bad("cb%d[r%d]: relative register out of range", o.Index, o.RelReg)
			}
		}
	}
	return o, need, nil
}

// Flow is a program's control flow, matched: what an executor follows.
// Both slices have one entry per instruction.
type Flow struct {
	// Jump: for if, its else (or its endif when it has none); for else,
	// its endif; for loop, its endloop; for endloop, its loop; for call
	// and callc, their label; 0 for the other instructions.
	Jump []int32
	// Loop: the innermost loop enclosing the instruction (the index of its
	// loop instruction; an endloop's is the loop around its own), or -1.
	Loop []int32
}

// Flow matches the program's if/else/endif and loop/endloop and checks
// that break and continue are inside a loop and that no construct is left
// open or nested deeper than MaxNesting. Subroutines follow the main
// program: each label starts one, at the top level, and every call names
// a label; no subroutine calls itself, directly or not, and calls nest
// at most MaxCallDepth deep. Decode runs it; an executor runs it again on
// the decoded program to follow the jumps.
func (p *Program) Flow() (Flow, error) {
	type open struct {
		pc    int
		op    Op
		else_ int
	}
	f := Flow{Jump: make([]int32, len(p.Code)), Loop: make([]int32, len(p.Code))}
	var stack []open
	loop := int32(-1)
	labels := map[uint32]int{}
	calls := map[int][]uint32{} // by the label of the code they are in (-1: main)
	fn := -1
	for pc := range p.Code {
		in := &p.Code[pc]
		f.Loop[pc] = loop
		switch in.Op {
		case OpLabel:
			if len(stack) != 0 {
				return f, bad("instruction %d: label l%d inside an if or loop", pc, in.Label)
			}
			if _, dup := labels[in.Label]; dup {
				return f, bad("instruction %d: label l%d twice", pc, in.Label)
			}
			labels[in.Label], fn = pc, int(in.Label)
		case OpCall, OpCallc:
			calls[fn] = append(calls[fn], in.Label)
		}
		switch in.Op {
		case OpIf, OpLoop:
			if len(stack) == MaxNesting {
				return f, bad("instruction %d: more than %d nested if and loop", pc, MaxNesting)
			}
			stack = append(stack, open{pc: pc, op: in.Op, else_: -1})
			if in.Op == OpLoop {
				loop = int32(pc)
			}
		case OpElse:
			if len(stack) == 0 || stack[len(stack)-1].op != OpIf || stack[len(stack)-1].else_ >= 0 {
				return f, bad("instruction %d: else without its if", pc)
			}
			top := &stack[len(stack)-1]
			top.else_ = pc
			f.Jump[top.pc] = int32(pc)
		case OpEndIf:
			if len(stack) == 0 || stack[len(stack)-1].op != OpIf {
				return f, bad("instruction %d: endif without its if", pc)
			}
			top := stack[len(stack)-1]
			if top.else_ >= 0 {
				f.Jump[top.else_] = int32(pc)
			} else {
				f.Jump[top.pc] = int32(pc)
			}
			stack = stack[:len(stack)-1]
		case OpEndLoop:
			if len(stack) == 0 || stack[len(stack)-1].op != OpLoop {
				return f, bad("instruction %d: endloop without its loop", pc)
			}
			top := stack[len(stack)-1]
			f.Jump[top.pc], f.Jump[pc] = int32(pc), int32(top.pc)
			stack = stack[:len(stack)-1]
			loop = -1
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].op == OpLoop {
					loop = int32(stack[i].pc)
					break
				}
			}
			f.Loop[pc] = loop
		case OpBreak, OpBreakc, OpContinue, OpContinuec:
			if loop < 0 {
				return f, bad("instruction %d: %s outside a loop", pc, in.Op)
			}
		}
	}
	if len(stack) != 0 {
		return f, bad("%s at instruction %d is never closed", stack[len(stack)-1].op, stack[len(stack)-1].pc)
	}
	for pc := range p.Code {
		if in := &p.Code[pc]; in.Op == OpCall || in.Op == OpCallc {
			at, ok := labels[in.Label]
			if !ok {
				return f, bad("instruction %d: %s l%d, which no label defines", pc, in.Op, in.Label)
			}
			f.Jump[pc] = int32(at)
		}
	}
	// No recursion, and calls nested at most MaxCallDepth deep: the
	// longest chain of calls from the main program, depth first.
	const (
		unseen = iota
		active
		done
	)
	state, depth := map[int]int{}, map[int]int{}
	var visit func(fn int) error
	visit = func(fn int) error {
		switch state[fn] {
		case active:
			return bad("subroutine l%d calls itself (recursion)", fn)
		case done:
			return nil
		}
		state[fn] = active
		d := 0
		for _, l := range calls[fn] {
			if err := visit(int(l)); err != nil {
				return err
			}
			d = max(d, depth[int(l)]+1)
		}
		state[fn], depth[fn] = done, d
		return nil
	}
	for _, fn := range append([]int{-1}, sortedLabels(labels)...) {
		if err := visit(fn); err != nil {
			return f, err
		}
		if depth[fn] > MaxCallDepth {
			return f, bad("calls nested %d deep, at most %d", depth[fn], MaxCallDepth)
		}
	}
	return f, nil
}

// sortedLabels returns the labels' numbers in order (determinism: map
// order never decides which error is reported).
func sortedLabels(labels map[uint32]int) []int {
	out := make([]int, 0, len(labels))
	for l := range labels {
		out = append(out, int(l))
	}
	slices.Sort(out)
	return out
}
