package shaderisa

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The text form of a program, in the style of D3D's shader assembly:
//
//	ps inputs=2 outputs=1 temps=1
//	sample r0, v1.xyxx, t0, s0
//	mul_sat o0, r0, v0
//
// The first line is the stage and the register counts; then a pixel
// program's inputs that are not perspective-correct, one a line
// (interp v1 constant, interp v2 noperspective); then one
// instruction per line: the mnemonic (with _sat, and _z or _nz for the
// tests), the destination with its mask (r0.xy; none means all four), then
// the sources with their swizzle (.yxzw, or one letter for all four; none
// means xyzw) and modifiers (-r0, |r0|, -|r0|). Constants are cb#[n] or
// cb#[r#.c + n]; immediates l(a, b, c, d), each a float (with a point or an
// exponent), a decimal integer or 0x bits. ';' and '//' start comments.

// ErrSyntax is what every Assemble error wraps.
var ErrSyntax = errors.New("shader: syntax error")

var opByName = func() map[string]Op {
	m := map[string]Op{}
	for i := range ops {
		m[ops[i].name] = Op(i)
	}
	return m
}()

// String returns the program's text form; Assemble reads it back.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s inputs=%d outputs=%d temps=%d\n", p.Stage, p.Inputs, p.Outputs, p.Temps)
	for r, m := range p.Interp {
		if m != InterpPerspective {
			fmt.Fprintf(&b, "interp v%d %s\n", r, interpWord[m])
		}
	}
	for _, v := range p.ICB {
		fmt.Fprintf(&b, "icb %s, %s, %s, %s\n", immString(v[0]), immString(v[1]), immString(v[2]), immString(v[3]))
	}
	depth := 0
	for i := range p.Code {
		in := &p.Code[i]
		switch in.Op {
		case OpElse, OpEndIf, OpEndLoop:
			depth--
		}
		b.WriteString(strings.Repeat("  ", max(depth, 0)))
		b.WriteString(in.String())
		b.WriteByte('\n')
		switch in.Op {
		case OpIf, OpElse, OpLoop:
			depth++
		}
	}
	return b.String()
}

// Listing returns the program's text with each instruction's word offset
// and words in hex, for the page's ISA view.
func (p *Program) Listing() string {
	var b strings.Builder
	w := p.Encode()
	fmt.Fprintf(&b, "%04x: %08x %08x %08x %08x  %s inputs=%d outputs=%d temps=%d\n",
		0, w[0], w[1], w[2], w[3], p.Stage, p.Inputs, p.Outputs, p.Temps)
	off := HeaderWords
	if p.hasInterp() {
		fmt.Fprintf(&b, "%04x: %08x %08x  interpolation:", off, w[off], w[off+1])
		for r := range p.Inputs {
			fmt.Fprintf(&b, " v%d %s;", r, p.Interp[r])
		}
		b.WriteString("\n")
		off += 2
	}
	if len(p.ICB) > 0 {
		fmt.Fprintf(&b, "%04x: %08x  icb, %d elements\n", off, w[off], len(p.ICB))
		off++
		for i, v := range p.ICB {
			fmt.Fprintf(&b, "%04x: %08x %08x %08x %08x  icb[%d]\n", off, v[0], v[1], v[2], v[3], i)
			off += 4
		}
	}
	for i := range p.Code {
		n := int(w[off] >> 8 & 0xFF)
		hex := make([]string, n)
		for k := range n {
			hex[k] = fmt.Sprintf("%08x", w[off+k])
		}
		fmt.Fprintf(&b, "%04x: %s\n      %s\n", off, strings.Join(hex, " "), p.Code[i].String())
		off += n
	}
	return b.String()
}

// Disassemble decodes words and lists them.
func Disassemble(words []uint32) (string, error) {
	p, err := Decode(words)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

// String returns the instruction in the assembly's form.
func (in *Inst) String() string {
	var b strings.Builder
	b.WriteString(in.Op.String())
	switch in.Op {
	case OpCall, OpLabel:
		return fmt.Sprintf("%s l%d", in.Op, in.Label)
	}
	if int(in.Op) < len(ops) && ops[in.Op].test {
		if in.NZ {
			b.WriteString("_nz")
		} else {
			b.WriteString("_z")
		}
	}
	switch {
	case in.Op == OpEmit || in.Op == OpCut:
		if in.Channel != 0 {
			fmt.Fprintf(&b, "_s%d", in.Channel&3) // stream m# (emit_s1)
		}
	case in.Op.TakesChannel():
		b.WriteString("_" + compLetters[in.Channel&3:in.Channel&3+1])
	}
	if in.Offset != [3]int8{} {
		fmt.Fprintf(&b, "_aoffimmi(%d,%d,%d)", in.Offset[0], in.Offset[1], in.Offset[2])
	}
	if in.Sat {
		b.WriteString("_sat")
	}
	sep := " "
	if int(in.Op) < len(ops) && ops[in.Op].dst {
		b.WriteString(sep)
		b.WriteString(in.Dst.dstString())
		sep = ", "
	}
	for i := range in.Src {
		b.WriteString(sep)
		b.WriteString(in.Src[i].srcString())
		sep = ", "
	}
	if in.Op == OpCallc {
		fmt.Fprintf(&b, ", l%d", in.Label)
	}
	return b.String()
}

const compLetters = "xyzw"

// relString is a relative operand's register: r4[8][r1.x + 6] is
// register r1.x + 6 of the array of 8 from r4 (icb0[16][...] for the
// immediate constant buffer).
func (o *Operand) relString() string {
	return fmt.Sprintf("%s%d[%d][r%d.%c + %d]", fileName(o.File), o.Index, o.Len, o.RelReg, compLetters[o.RelComp&3], o.Elem)
}

func (o *Operand) dstString() string {
	s := fmt.Sprintf("%s%d", fileName(o.File), o.Index)
	if o.Rel {
		s = o.relString()
	}
	if o.Mask != 0xF {
		s += "."
		for c := range 4 {
			if o.Mask>>c&1 != 0 {
				s += compLetters[c : c+1]
			}
		}
	}
	return s
}

func (o *Operand) srcString() string {
	var s string
	switch o.File {
	case FileImm:
		v := make([]string, 4)
		for i, w := range o.Imm {
			v[i] = immString(w)
		}
		s = "l(" + strings.Join(v, ", ") + ")"
	case FileCB:
		if o.Rel {
			s = fmt.Sprintf("cb%d[r%d.%c + %d]", o.Index, o.RelReg, compLetters[o.RelComp&3], o.Elem)
		} else {
			s = fmt.Sprintf("cb%d[%d]", o.Index, o.Elem)
		}
	default:
		s = fmt.Sprintf("%s%d", fileName(o.File), o.Index)
		if o.Rel {
			s = o.relString()
		}
	}
	if o.File != FileSampler && o.Swizzle != Identity {
		s += "."
		z := o.Swizzle
		if z[0] == z[1] && z[1] == z[2] && z[2] == z[3] {
			s += compLetters[z[0] : z[0]+1]
		} else {
			for _, c := range z {
				s += compLetters[c : c+1]
			}
		}
	}
	if o.Abs {
		s = "|" + s + "|"
	}
	if o.Neg {
		s = "-" + s
	}
	return s
}

// immString prints an immediate so that it reads back to the same bits:
// small integers as integers, finite floats as floats, the rest in hex.
func immString(w uint32) string {
	switch {
	case w <= 0x007FFFFF:
		return strconv.FormatUint(uint64(w), 10)
	case int32(w) < 0 && int32(w) >= -0x007FFFFF:
		return strconv.FormatInt(int64(int32(w)), 10)
	}
	f := math.Float32frombits(w)
	if math.IsInf(float64(f), 0) || f != f {
		return fmt.Sprintf("0x%08x", w)
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// Assemble reads a program's text form and checks it as Decode would.
func Assemble(text string) (*Program, error) {
	p := &Program{}
	header := false
	for n, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, ";"); i >= 0 {
			line = line[:i]
		}
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var err error
		if !header {
			err = p.parseHeader(line)
			header = true
		} else if rest, ok := strings.CutPrefix(line, "interp "); ok && len(p.Code) == 0 && len(p.ICB) == 0 {
			err = p.parseInterp(rest)
		} else if rest, ok := strings.CutPrefix(line, "icb "); ok && len(p.Code) == 0 {
			err = p.parseICB(rest)
		} else if len(p.Code) >= MaxCode {
			err = fmt.Errorf("more than %d instructions", MaxCode)
		} else {
			var in Inst
			in, err = parseInst(line)
			p.Code = append(p.Code, in)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrSyntax, n+1, err)
		}
	}
	if !header {
		return nil, fmt.Errorf("%w: no header line (ps or vs, and the register counts)", ErrSyntax)
	}
	return p.Check()
}

// interpWord is an interpolation mode's word in the text form (the header's
// interp lines: interp v1 constant).
var interpWord = [numInterps]string{"linear", "noperspective", "constant", "centroid"}

// parseInterp reads an input's interpolation mode: "v1 constant".
func (p *Program) parseInterp(rest string) error {
	f := strings.Fields(rest)
	if len(f) != 2 || !strings.HasPrefix(f[0], "v") {
		return fmt.Errorf("interp %q: want interp v# linear|noperspective|constant|centroid", rest)
	}
	r, err := strconv.Atoi(f[0][1:])
	if err != nil || r < 0 || r >= MaxInputs {
		return fmt.Errorf("interp %q: an input v0..v%d", rest, MaxInputs-1)
	}
	for m, w := range interpWord {
		if w == f[1] {
			p.Interp[r] = Interp(m)
			return nil
		}
	}
	return fmt.Errorf("interp %q: the mode is linear, noperspective, constant or centroid", rest)
}

// parseICB reads one element of the immediate constant buffer: four
// values.
func (p *Program) parseICB(rest string) error {
	vals := strings.Split(rest, ",")
	if len(vals) != 4 {
		return fmt.Errorf("icb takes 4 values, not %d", len(vals))
	}
	if len(p.ICB) >= MaxICB {
		return fmt.Errorf("more than %d icb elements", MaxICB)
	}
	var v [4]uint32
	for i, s := range vals {
		w, err := parseImm(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		v[i] = w
	}
	p.ICB = append(p.ICB, v)
	return nil
}

func (p *Program) parseHeader(line string) error {
	f := strings.Fields(line)
	switch f[0] {
	case "vs":
		p.Stage = StageVertex
	case "ps":
		p.Stage = StagePixel
	case "cs":
		p.Stage = StageCompute
	case "gs":
		p.Stage = StageGeometry
	case "hs":
		p.Stage = StageHull
	case "ds":
		p.Stage = StageDomain
	default:
		return fmt.Errorf("the header starts with vs, ps, cs, gs, hs or ds, not %q", f[0])
	}
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 || n > 0xFFFF {
			return fmt.Errorf("header field %q: want name=count", kv)
		}
		switch k {
		case "inputs":
			p.Inputs = n
		case "outputs":
			p.Outputs = n
		case "temps":
			p.Temps = n
		default:
			return fmt.Errorf("header field %q: inputs, outputs or temps", k)
		}
	}
	return nil
}

func parseInst(line string) (Inst, error) {
	var in Inst
	mn, rest := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		mn, rest = line[:i], line[i+1:]
	}
	mn = strings.ToLower(mn)
	if s, ok := strings.CutSuffix(mn, "_sat"); ok {
		mn, in.Sat = s, true
	}
	if i := strings.Index(mn, "_aoffimmi("); i >= 0 && strings.HasSuffix(mn, ")") {
		parts := strings.Split(mn[i+len("_aoffimmi("):len(mn)-1], ",")
		if len(parts) != 3 {
			return in, fmt.Errorf("%s: want _aoffimmi(u,v,w)", mn)
		}
		for k, p := range parts {
			o, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || o < -8 || o > 7 {
				return in, fmt.Errorf("%s: texel offsets are -8..7", mn)
			}
			in.Offset[k] = int8(o)
		}
		mn = mn[:i]
	}
	if s, n, ok := strings.Cut(mn, "_s"); ok && (s == "emit" || s == "cut") && len(n) == 1 && n[0] >= '1' && n[0] <= '3' {
		in.Channel, mn = n[0]-'0', s // emit_s1: stream m1
	}
	if i := strings.LastIndexByte(mn, '_'); i > 0 && len(mn) == i+2 && strings.HasPrefix(mn, "gather4") {
		if c := compIndex(mn[i+1]); c < 4 {
			in.Channel, mn = c, mn[:i]
		}
	}
	op, ok := opByName[mn]
	if !ok {
		if s, cut := strings.CutSuffix(mn, "_nz"); cut {
			op, ok = opByName[s]
			in.NZ = true
		} else if s, cut := strings.CutSuffix(mn, "_z"); cut {
			op, ok = opByName[s]
		}
		if ok && !ops[op].test {
			ok = false
		}
	} else if ops[op].test {
		return in, fmt.Errorf("%s needs _z or _nz", mn)
	}
	if !ok {
		return in, fmt.Errorf("unknown instruction %q", mn)
	}
	in.Op = op
	info := &ops[op]
	args, err := splitArgs(rest)
	if err != nil {
		return in, err
	}
	if op == OpCall || op == OpCallc || op == OpLabel {
		// The label comes last: call l3, callc_nz r0.x, l3, label l3.
		if len(args) == 0 {
			return in, fmt.Errorf("%s needs a label", mn)
		}
		l := args[len(args)-1]
		n, err := strconv.ParseUint(strings.TrimPrefix(l, "l"), 10, 32)
		if err != nil || !strings.HasPrefix(l, "l") || n >= MaxLabels {
			return in, fmt.Errorf("bad label %q (l0..l%d)", l, MaxLabels-1)
		}
		in.Label = uint32(n)
		args = args[:len(args)-1]
	}
	want := len(info.srcs)
	if info.dst {
		want++
	}
	if len(args) != want {
		return in, fmt.Errorf("%s takes %d operands, not %d", op, want, len(args))
	}
	if info.dst {
		if in.Dst, err = parseDst(args[0]); err != nil {
			return in, err
		}
		args = args[1:]
	}
	for _, a := range args {
		o, err := parseSrc(a)
		if err != nil {
			return in, err
		}
		in.Src = append(in.Src, o)
	}
	return in, nil
}

// splitArgs splits operands at the commas outside parentheses.
func splitArgs(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", s[i])
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets in %q", s)
	}
	return append(out, strings.TrimSpace(s[start:])), nil
}

// regName splits "r12" into the file and the number.
func regName(s string) (File, uint32, error) {
	var f File
	var num string
	switch {
	case strings.HasPrefix(s, "cb"):
		f, num = FileCB, s[2:]
	case s == "":
		return 0, 0, fmt.Errorf("missing operand")
	default:
		switch s[0] {
		case 'r':
			f = FileTemp
		case 'v':
			f = FileInput
		case 'o':
			f = FileOutput
		case 't':
			f = FileTex
		case 's':
			f = FileSampler
		case 'u':
			f = FileUAV
		case 'g':
			f = FileTGSM
		default:
			return 0, 0, fmt.Errorf("unknown register %q", s)
		}
		num = s[1:]
	}
	n, err := strconv.ParseUint(num, 10, 32)
	if err != nil {
		return 0, 0, fmt.Errorf("bad register number in %q", s)
	}
	return f, uint32(n), nil
}

// relOperand matches a relative operand's register: r4[8][r1.x + 6].
var relOperand = regexp.MustCompile(`^(r|v|o|icb)(\d+)\[(\d+)\]\[r(\d+)\.([xyzw]) \+ (\d+)\]`)

// parseRel reads a relative operand's register and returns the rest (the
// mask or swizzle).
func parseRel(s string) (Operand, string, error) {
	m := relOperand.FindStringSubmatch(s)
	if m == nil {
		return Operand{}, "", fmt.Errorf("relative operand %q: want r4[8][r1.x + 6]", s)
	}
	num := func(t string) (uint32, error) {
		n, err := strconv.ParseUint(t, 10, 32)
		return uint32(n), err
	}
	o := Operand{Rel: true, RelComp: compIndex(m[5][0])}
	o.File = map[string]File{"r": FileTemp, "v": FileInput, "o": FileOutput, "icb": FileICB}[m[1]]
	var errs [4]error
	o.Index, errs[0] = num(m[2])
	o.Len, errs[1] = num(m[3])
	o.RelReg, errs[2] = num(m[4])
	o.Elem, errs[3] = num(m[6])
	for _, err := range errs {
		if err != nil {
			return o, "", fmt.Errorf("relative operand %q: a number out of range", s)
		}
	}
	return o, s[len(m[0]):], nil
}

func parseDst(s string) (Operand, error) {
	var o Operand
	name, comps, hasDot := strings.Cut(s, ".")
	if strings.Contains(s, "[") {
		var rest string
		var err error
		if o, rest, err = parseRel(s); err != nil {
			return o, err
		}
		comps, hasDot = strings.CutPrefix(rest, ".")
		if rest != "" && !hasDot {
			return o, fmt.Errorf("bad destination %q", s)
		}
	} else {
		f, n, err := regName(name)
		if err != nil {
			return Operand{}, err
		}
		o.File, o.Index = f, n
	}
	o.Mask = 0xF
	if hasDot {
		o.Mask = 0
		last := -1
		for i := 0; i < len(comps); i++ {
			c := int(compIndex(comps[i]))
			if c > 3 || c <= last {
				return o, fmt.Errorf("bad write mask %q (x, y, z, w in order)", comps)
			}
			o.Mask |= 1 << c
			last = c
		}
		if o.Mask == 0 {
			return o, fmt.Errorf("empty write mask in %q", s)
		}
	}
	return o, nil
}

func parseSrc(s string) (Operand, error) {
	o := Operand{Swizzle: Identity}
	if r, ok := strings.CutPrefix(s, "-"); ok {
		o.Neg, s = true, strings.TrimSpace(r)
	}
	if strings.HasPrefix(s, "|") {
		if len(s) < 2 || !strings.HasSuffix(s, "|") {
			return o, fmt.Errorf("unclosed |...| in %q", s)
		}
		o.Abs, s = true, strings.TrimSpace(s[1:len(s)-1])
	}
	// The swizzle: after the last ')' or ']'.
	body, swz := s, ""
	cut := strings.LastIndexAny(s, ")]")
	if i := strings.LastIndexByte(s, '.'); i > cut {
		body, swz = s[:i], s[i+1:]
	}
	switch {
	case strings.HasPrefix(body, "l("):
		if !strings.HasSuffix(body, ")") {
			return o, fmt.Errorf("unclosed l( in %q", s)
		}
		vals := strings.Split(body[2:len(body)-1], ",")
		if len(vals) != 4 {
			return o, fmt.Errorf("l() takes 4 values, not %d", len(vals))
		}
		o.File = FileImm
		for i, v := range vals {
			w, err := parseImm(strings.TrimSpace(v))
			if err != nil {
				return o, err
			}
			o.Imm[i] = w
		}
	case strings.HasPrefix(body, "cb"):
		name, idx, ok := strings.Cut(body, "[")
		if !ok || !strings.HasSuffix(idx, "]") {
			return o, fmt.Errorf("constant %q: want cb#[n]", s)
		}
		_, slot, err := regName(name)
		if err != nil {
			return o, err
		}
		o.File, o.Index = FileCB, slot
		idx = strings.TrimSpace(idx[:len(idx)-1])
		if reg, off, rel := strings.Cut(idx, "+"); rel {
			reg, off = strings.TrimSpace(reg), strings.TrimSpace(off)
			rn, rc, dot := strings.Cut(reg, ".")
			f, r, err := regName(rn)
			if err != nil || f != FileTemp || !dot || len(rc) != 1 || compIndex(rc[0]) > 3 {
				return o, fmt.Errorf("relative index %q: want r#.c + n", idx)
			}
			o.Rel, o.RelReg, o.RelComp = true, r, compIndex(rc[0])
			idx = off
		}
		e, err := strconv.ParseUint(idx, 10, 32)
		if err != nil {
			return o, fmt.Errorf("constant %q: bad element", s)
		}
		o.Elem = uint32(e)
	case strings.Contains(body, "["):
		r, rest, err := parseRel(body)
		if err != nil {
			return o, err
		}
		if rest != "" {
			return o, fmt.Errorf("bad operand %q", s)
		}
		r.Swizzle, r.Neg, r.Abs = o.Swizzle, o.Neg, o.Abs
		o = r
	default:
		f, n, err := regName(body)
		if err != nil {
			return o, err
		}
		o.File, o.Index = f, n
		if f == FileSampler {
			o.Swizzle = [4]uint8{}
		}
	}
	if swz != "" {
		if len(swz) > 4 {
			return o, fmt.Errorf("swizzle %q: at most four components", swz)
		}
		for i := range swz {
			if compIndex(swz[i]) > 3 {
				return o, fmt.Errorf("swizzle %q: x, y, z or w", swz)
			}
		}
		o.Swizzle = Swz(swz)
	}
	return o, nil
}

func parseImm(v string) (uint32, error) {
	switch {
	case strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X"):
		w, err := strconv.ParseUint(v[2:], 16, 32)
		if err != nil {
			return 0, fmt.Errorf("bad hex value %q", v)
		}
		return uint32(w), nil
	case strings.ContainsAny(v, ".eE"):
		f, err := strconv.ParseFloat(v, 32)
		if err != nil {
			return 0, fmt.Errorf("bad float %q", v)
		}
		return math.Float32bits(float32(f)), nil
	}
	i, err := strconv.ParseInt(v, 10, 64)
	if err != nil || i < math.MinInt32 || i > math.MaxUint32 {
		return 0, fmt.Errorf("bad integer %q", v)
	}
	return uint32(i), nil
}
