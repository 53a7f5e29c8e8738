package hlsl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// A small text form of the IR for the optimiser's tests: one instruction
// a line, as the listing writes them, every source with four lanes and
// the lanes an instruction does not read written _ (`r1.xy__`,
// `l(1.0, 2.0, _, _)`), so that a pass's output compares exactly.
//
//	mul_sat r1.xy, -|r0.xy__|, cb0[2].zw__
//	if_nz r1.x___
//	sample r2.xyzw, v0.xy__, t0.xyzw, s0

// irAsm parses the text form.
func irAsm(t *testing.T, text string) ([]Instr, int) {
	t.Helper()
	byName := map[string]Op{}
	for o := Op(0); o < numOps; o++ {
		byName[o.String()] = o
	}
	var code []Instr
	temps := 0
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		var in Instr
		for {
			switch {
			case strings.HasSuffix(name, "_sat"):
				in.Sat, name = true, strings.TrimSuffix(name, "_sat")
				continue
			case strings.HasSuffix(name, "_nz"):
				name = strings.TrimSuffix(name, "_nz")
				continue
			case strings.HasSuffix(name, "_z"):
				in.Test, name = TestZ, strings.TrimSuffix(name, "_z")
				continue
			}
			break
		}
		op, ok := byName[name]
		if !ok {
			t.Fatalf("irAsm: no op %q", name)
		}
		in.Op = op
		var args []string
		if rest = strings.TrimSpace(rest); rest != "" {
			// Commas inside l(...) do not split.
			depth, start := 0, 0
			for i, c := range rest {
				switch c {
				case '(', '[':
					depth++
				case ')', ']':
					depth--
				case ',':
					if depth == 0 {
						args = append(args, strings.TrimSpace(rest[start:i]))
						start = i + 1
					}
				}
			}
			args = append(args, strings.TrimSpace(rest[start:]))
		}
		nDst := 1
		switch op {
		case OpIf, OpBreakc, OpDiscard, OpSwitch, OpCase:
			nDst = 0
		case OpSincos:
			nDst = 2
		}
		if len(args) == 0 {
			nDst = 0
		}
		for k, a := range args {
			o := irOperand(t, a, k < nDst)
			if o.File == FileTemp {
				temps = max(temps, o.Index+1)
			}
			if k < nDst {
				in.Dst = append(in.Dst, o)
			} else {
				in.Src = append(in.Src, o)
			}
		}
		code = append(code, in)
	}
	return code, temps
}

func irOperand(t *testing.T, a string, dst bool) Operand {
	t.Helper()
	var o Operand
	if strings.HasPrefix(a, "-") {
		o.Neg, a = true, a[1:]
	}
	if strings.HasPrefix(a, "|") {
		o.Abs, a = true, strings.Trim(a, "|")
	}
	if strings.HasPrefix(a, "l(") {
		o.File = FileImm
		vals := strings.Split(strings.TrimSuffix(a[2:], ")"), ",")
		for i := 0; i < 4; i++ {
			v := strings.TrimSpace(vals[min(i, len(vals)-1)])
			if v == "_" {
				continue
			}
			if strings.ContainsAny(v, ".e") || v == "inf" || v == "-inf" {
				f, err := strconv.ParseFloat(v, 32)
				if err != nil {
					t.Fatalf("irAsm: %q: %v", a, err)
				}
				o.Imm[i], o.Float = math.Float32bits(float32(f)), true
			} else {
				n, err := strconv.ParseInt(v, 0, 64)
				if err != nil {
					t.Fatalf("irAsm: %q: %v", a, err)
				}
				o.Imm[i] = uint32(n)
			}
		}
		return o
	}
	reg, swz, _ := strings.Cut(a, ".")
	switch {
	case reg == "null":
		o.File = FileNull
		return o
	case strings.HasPrefix(reg, "cb"):
		o.File = FileCB
		idx, elem, _ := strings.Cut(reg[2:], "[")
		o.Index, _ = strconv.Atoi(idx)
		o.Elem, _ = strconv.Atoi(strings.TrimSuffix(elem, "]"))
	case reg[0] == 'r':
		o.File = FileTemp
	case reg[0] == 'v':
		o.File = FileInput
	case reg[0] == 'o':
		o.File = FileOutput
	case reg[0] == 't':
		o.File = FileTex
	case reg[0] == 's':
		o.File = FileSamp
	default:
		t.Fatalf("irAsm: operand %q", a)
	}
	if o.File != FileCB {
		o.Index, _ = strconv.Atoi(reg[1:])
	}
	if dst {
		for _, c := range swz {
			o.Mask |= 1 << strings.IndexRune("xyzw", c)
		}
		return o
	}
	for i := 0; i < 4; i++ {
		o.Swz[i] = uint8(i)
		if i < len(swz) && swz[i] != '_' {
			o.Swz[i] = uint8(strings.IndexByte("xyzw", swz[i]))
		}
	}
	return o
}

// irText prints code in the text form.
func irText(code []Instr) string {
	var b strings.Builder
	for i := range code {
		x := &code[i]
		name := x.Op.String()
		switch x.Op {
		case OpIf, OpBreakc, OpDiscard:
			if x.Test == TestZ {
				name += "_z"
			} else {
				name += "_nz"
			}
		}
		if x.Sat {
			name += "_sat"
		}
		var parts []string
		for _, d := range x.Dst {
			parts = append(parts, d.dstString())
		}
		for k, s := range x.Src {
			parts = append(parts, irSrcText(s, x.readLanes(k)))
		}
		b.WriteString(name)
		if len(parts) > 0 {
			b.WriteString(" " + strings.Join(parts, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func irSrcText(o Operand, lanes uint8) string {
	var s string
	switch o.File {
	case FileImm:
		var v []string
		for i := 0; i < 4; i++ {
			switch {
			case lanes&(1<<i) == 0:
				v = append(v, "_")
			case o.Float:
				f := strconv.FormatFloat(float64(math.Float32frombits(o.Imm[i])), 'g', -1, 32)
				if !strings.ContainsAny(f, ".eIN") {
					f += ".0"
				}
				v = append(v, f)
			default:
				v = append(v, strconv.FormatInt(int64(int32(o.Imm[i])), 10))
			}
		}
		return "l(" + strings.Join(v, ", ") + ")"
	case FileTex:
		return fmt.Sprintf("t%d.%s", o.Index, swzString(o.Swz, 4))
	case FileSamp:
		return fmt.Sprintf("s%d", o.Index)
	case FileTemp:
		s = fmt.Sprintf("r%d", o.Index)
	case FileInput:
		s = fmt.Sprintf("v%d", o.Index)
	case FileCB:
		s = fmt.Sprintf("cb%d[%d]", o.Index, o.Elem)
	default:
		s = o.srcString(4)
	}
	sw := []byte(swzString(o.Swz, 4))
	for i := range sw {
		if lanes&(1<<i) == 0 {
			sw[i] = '_'
		}
	}
	s += "." + string(sw)
	if o.Abs {
		s = "|" + s + "|"
	}
	if o.Neg {
		s = "-" + s
	}
	return s
}

// TestIrAsmRoundTrip: the text form reads back as it prints.
func TestIrAsmRoundTrip(t *testing.T) {
	src := `mul_sat r1.xy, -|r0.xy__|, cb0[2].zw__
add r2.zw, r1.__xy, l(_, _, 1.5, -2.0)
if_z r2.z___
sample r3.xyzw, v0.xy__, t0.zxyw, s0
endif
iadd o0.x, r3.x___, l(7, _, _, _)
ret
`
	code, temps := irAsm(t, src)
	if temps != 4 {
		t.Errorf("temps %d, want 4", temps)
	}
	if got := irText(code); got != src {
		t.Errorf("got\n%s\nwant\n%s", got, src)
	}
}
