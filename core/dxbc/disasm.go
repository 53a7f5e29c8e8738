package dxbc

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Disassemble prints the program as fxc's /Fc listing prints its code: the
// profile, then one instruction per line, blocks indented by two spaces
// (WriteDisassembly, into a string).
func (p *Program) Disassemble() string {
	var b strings.Builder
	p.WriteDisassembly(&b) // a strings.Builder never fails
	return b.String()
}

// MaxIndent is the deepest nesting a listing indents: blocks nested deeper
// are printed at this depth, so a program of 60,000 nested ifs lists in
// linear space (indented per level it took 3.6 GB).
const MaxIndent = 32

// WriteDisassembly writes what Disassemble returns to w as it goes,
// instruction by instruction; it stops at w's first error.
func (p *Program) WriteDisassembly(w io.Writer) error {
	bw, ok := w.(io.StringWriter)
	if !ok {
		buf := bufio.NewWriter(w)
		defer buf.Flush()
		bw = buf
	}
	if _, err := bw.WriteString(p.Profile() + "\n"); err != nil {
		return err
	}
	const spaces = "                                                                " // 2*MaxIndent
	depth := 0
	for i := range p.Instructions {
		in := &p.Instructions[i]
		switch in.Op {
		case OpElse, OpEndif, OpEndloop, OpEndswitch:
			depth = max(depth-1, 0)
		}
		if _, err := bw.WriteString(spaces[:2*min(depth, MaxIndent)] + in.String() + "\n"); err != nil {
			return err
		}
		switch in.Op {
		case OpIf, OpElse, OpLoop, OpSwitch:
			depth++
		}
	}
	if f, ok := bw.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// String prints one instruction in fxc's syntax.
func (in *Instruction) String() string {
	info := opTable[in.Op]
	var b strings.Builder
	switch in.Op {
	case OpCustomData:
		return in.customDataString()
	case OpDclGlobalFlags:
		b.WriteString("dcl_globalFlags ")
		var names []string
		for i, n := range globalFlagNames {
			if in.Controls&(1<<i) != 0 {
				names = append(names, n)
			}
		}
		if rest := in.Controls &^ (1<<len(globalFlagNames) - 1); rest != 0 {
			names = append(names, fmt.Sprintf("%#x", rest<<11))
		}
		b.WriteString(strings.Join(names, " | "))
		return b.String()
	case OpDclTemps, OpDclMaxOutputVertexCount, OpDclGSInstanceCount, OpDclHSForkPhaseInstanceCount, OpDclHSJoinPhaseInstanceCount:
		return fmt.Sprintf("%s %d", info.name, in.Extra[0])
	case OpDclInputControlPointCount, OpDclOutputControlPointCount:
		return fmt.Sprintf("%s %d", info.name, in.Controls&0x3f)
	case OpDclTessDomain:
		return info.name + " " + enumName(in.Controls&3, "domain_undefined", "domain_isoline", "domain_tri", "domain_quad")
	case OpDclTessPartitioning:
		return info.name + " " + enumName(in.Controls&7, "partitioning_undefined", "partitioning_integer", "partitioning_pow2",
			"partitioning_fractional_odd", "partitioning_fractional_even")
	case OpDclTessOutputPrimitive:
		return info.name + " " + enumName(in.Controls&7, "output_undefined", "output_point", "output_line",
			"output_triangle_cw", "output_triangle_ccw")
	case OpDclInputPrimitive:
		p := in.Controls & 0x3f
		if p >= 8 && p <= 39 {
			return fmt.Sprintf("%s patch%d", info.name, p-7)
		}
		return info.name + " " + enumName(p, "undefined", "point", "line", "triangle", "4", "5", "lineadj", "triangleadj")
	case OpDclOutputTopology:
		return info.name + " " + enumName(in.Controls&0x3f, "undefined", "pointlist", "linelist", "linestrip", "trianglelist",
			"trianglestrip", "6", "7", "8", "9", "linelist_adj", "linestrip_adj", "trianglelist_adj", "trianglestrip_adj")
	case OpDclHSMaxTessFactor:
		return fmt.Sprintf("%s l(%s)", info.name, floatString(math.Float32frombits(in.Extra[0])))
	case OpDclThreadGroup:
		return fmt.Sprintf("%s %d, %d, %d", info.name, in.Extra[0], in.Extra[1], in.Extra[2])
	case OpDclUAVTyped:
		return fmt.Sprintf("dcl_uav_typed_%s%s %s %s", ResourceDimension(in.Controls&0x1f), uavFlags(in.Controls), returnTypes(in.Extra[0]), in.Operands[0].format(numUint))
	case OpDclUAVRaw:
		return fmt.Sprintf("%s%s %s", info.name, uavFlags(in.Controls), in.Operands[0].format(numUint))
	case OpDclUAVStructured:
		return fmt.Sprintf("%s%s %s, %d", info.name, uavFlags(in.Controls), in.Operands[0].format(numUint), in.Extra[0])
	case OpDclResourceRaw, OpDclStream:
		return fmt.Sprintf("%s %s", info.name, in.Operands[0].format(numUint))
	case OpDclResourceStructured, OpDclTGSMRaw:
		return fmt.Sprintf("%s %s, %d", info.name, in.Operands[0].format(numUint), in.Extra[0])
	case OpDclTGSMStructured:
		return fmt.Sprintf("%s %s, %d, %d", info.name, in.Operands[0].format(numUint), in.Extra[0], in.Extra[1])
	case OpDclFunctionBody:
		return fmt.Sprintf("%s fb%d", info.name, in.Extra[0])
	case OpDclFunctionTable:
		return fmt.Sprintf("%s ft%s = {%s}", info.name, literalAt(in.Extra, 0), literalList(in.Extra, 2, "fb"))
	case OpDclInterface:
		name := info.name
		if in.Controls&1 != 0 {
			name += "_dynamicindexed"
		}
		var arr, calls string = "?", "?"
		if len(in.Extra) > 2 {
			arr = fmt.Sprint(in.Extra[2] >> 16)
		}
		if len(in.Extra) > 1 {
			calls = fmt.Sprint(in.Extra[1])
		}
		return fmt.Sprintf("%s fp%s[%s][%s] = {%s}", name, literalAt(in.Extra, 0), arr, calls, literalList(in.Extra, 3, "ft"))
	case OpInterfaceCall:
		// fcall fp#[array index][call site]: the call site is the literal.
		return fmt.Sprintf("%s %s[%s]", info.name, in.Operands[0].format(numUint), literalAt(in.Extra, 0))
	case OpSync:
		name := info.name
		switch {
		case in.Controls&8 != 0:
			name += "_uglobal"
		case in.Controls&4 != 0:
			name += "_ugroup"
		}
		if in.Controls&2 != 0 {
			name += "_g"
		}
		if in.Controls&1 != 0 {
			name += "_t"
		}
		return name
	case OpDclIndexableTemp:
		return fmt.Sprintf("dcl_indexableTemp x%d[%d], %d", in.Extra[0], in.Extra[1], in.Extra[2])
	case OpDclConstantBuffer:
		op := in.Operands[0]
		pattern := "immediateIndexed"
		if in.Controls&1 != 0 {
			pattern = "dynamicIndexed"
		}
		if len(op.Indices) == 2 {
			return fmt.Sprintf("dcl_constantbuffer CB%s[%s], %s", indexString(op.Indices[0], numUint), indexString(op.Indices[1], numUint), pattern)
		}
		return fmt.Sprintf("dcl_constantbuffer %s, %s", op.format(numUint), pattern)
	case OpDclSampler:
		mode := [...]string{"mode_default", "mode_comparison", "mode_mono"}
		m := in.Controls & 0xf
		name := fmt.Sprintf("mode(%d)", m)
		if int(m) < len(mode) {
			name = mode[m]
		}
		return fmt.Sprintf("dcl_sampler %s, %s", in.Operands[0].format(numUint), name)
	case OpDclResource:
		dim := ResourceDimension(in.Controls & 0x1f)
		name := "dcl_resource_" + dim.String()
		if dim == DimTexture2DMS || dim == DimTexture2DMSArray {
			name += fmt.Sprintf("(%d)", in.Controls>>5&0x7f)
		}
		return fmt.Sprintf("%s %s %s", name, returnTypes(in.Extra[0]), in.Operands[0].format(numUint))
	case OpDclInputPS:
		return fmt.Sprintf("dcl_input_ps %s %s", Interpolation(in.Controls&0xf), in.Operands[0].format(numUint))
	case OpDclInputPSSIV, OpDclInputPSSGV:
		return fmt.Sprintf("%s %s %s, %s", info.name, Interpolation(in.Controls&0xf), in.Operands[0].format(numUint), nameToken(in.Extra[0]))
	case OpDclInputSGV, OpDclInputSIV, OpDclOutputSGV, OpDclOutputSIV:
		return fmt.Sprintf("%s %s, %s", info.name, in.Operands[0].format(numUint), nameToken(in.Extra[0]))
	case OpDclIndexRange:
		return fmt.Sprintf("dcl_indexrange %s %d", in.Operands[0].format(numUint), in.Extra[0])
	}
	b.WriteString(info.name)
	switch in.Op {
	case OpIf, OpBreakc, OpContinuec, OpRetc, OpCallc, OpDiscard:
		if in.Test() == TestNonZero {
			b.WriteString("_nz")
		} else {
			b.WriteString("_z")
		}
	case OpResinfo:
		switch in.Controls & 3 {
		case 1:
			b.WriteString("_rcpFloat")
		case 2:
			b.WriteString("_uint")
		}
	case OpSampleInfo:
		if in.Controls&1 != 0 {
			b.WriteString("_uint")
		}
	}
	for _, e := range in.Extended {
		switch e & 0x3f {
		case 1:
			off := func(shift uint) int { return int(int32(e<<(28-shift)) >> 28) }
			fmt.Fprintf(&b, "_aoffimmi(%d,%d,%d)", off(9), off(13), off(17))
		case 2:
			dim := ResourceDimension(e >> 6 & 0x1f)
			if dim == DimStructuredBuffer {
				fmt.Fprintf(&b, "_indexable(%s, stride=%d)", dim, e>>11&0xfff)
			} else {
				fmt.Fprintf(&b, "_indexable(%s)", dim)
			}
		case 3:
			b.WriteString(returnTypes(e >> 6))
		}
	}
	if in.Saturate() {
		b.WriteString("_sat")
	}
	atomic := in.Op >= OpAtomicAnd && in.Op <= OpImmAtomicUmin
	for i := range in.Operands {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		op := in.Operands[i]
		if atomic && (op.Type == RegUAV || op.Type == RegTGSM) {
			// An atomic's memory operand prints bare: u0, g0.
			op.Components = 0
		}
		b.WriteString(op.format(info.num))
	}
	return b.String()
}

// enumName is names[v], or v in decimal past the list.
func enumName(v uint32, names ...string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return strconv.FormatUint(uint64(v), 10)
}

// uavFlags is a UAV declaration's suffixes: _glc for globally coherent
// access, _opc for a structured buffer's order-preserving counter, _rov
// for a rasterizer-ordered view.
func uavFlags(controls uint32) string {
	var s string
	if controls&(1<<5) != 0 {
		s += "_glc"
	}
	if controls&(1<<12) != 0 {
		s += "_opc"
	}
	if controls&(1<<6) != 0 {
		s += "_rov"
	}
	return s
}

// literalAt prints w[i] in decimal, or "?" past the end.
func literalAt(w []uint32, i int) string {
	if i < len(w) {
		return strconv.FormatUint(uint64(w[i]), 10)
	}
	return "?"
}

// literalList prints w[from:] as prefixed register names: "fb0, fb1".
func literalList(w []uint32, from int, prefix string) string {
	var parts []string
	for i := from; i < len(w); i++ {
		parts = append(parts, prefix+strconv.FormatUint(uint64(w[i]), 10))
	}
	return strings.Join(parts, ", ")
}

func (in *Instruction) customDataString() string {
	if in.CustomClass == 3 {
		var b strings.Builder
		b.WriteString("dcl_immediateConstantBuffer {")
		for i := 0; i+4 <= len(in.Data); i += 4 {
			if i > 0 {
				b.WriteString(",\n" + strings.Repeat(" ", len("dcl_immediateConstantBuffer {")+1) + "{ ")
			} else {
				b.WriteString(" { ")
			}
			for j := 0; j < 4; j++ {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(immString(in.Data[i+j], numAny))
			}
			b.WriteString("}")
		}
		b.WriteString(" }")
		return b.String()
	}
	return fmt.Sprintf("customdata class %d, %d words", in.CustomClass, len(in.Data))
}

// returnTypes prints four 4-bit return types: "(float,float,float,float)".
func returnTypes(v uint32) string {
	var parts [4]string
	for i := range parts {
		parts[i] = ReturnType(v >> (4 * i) & 0xf).String()
	}
	return "(" + strings.Join(parts[:], ",") + ")"
}

func nameToken(v uint32) string {
	if int(v) < len(nameTokenNames) {
		return nameTokenNames[v]
	}
	return fmt.Sprintf("name(%d)", v)
}

const compNames = "xyzw"

// format prints an operand; num says how immediates print.
func (op *Operand) format(num numKind) string {
	var b strings.Builder
	switch op.Modifier {
	case ModNeg:
		b.WriteByte('-')
	case ModAbs:
		b.WriteByte('|')
	case ModAbsNeg:
		b.WriteString("-|")
	}
	switch op.Type {
	case RegImmediate32:
		b.WriteString("l(")
		sep := ", "
		if num == numAny {
			sep = ","
		}
		for i, v := range op.Imm {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(immString(v, num))
		}
		b.WriteByte(')')
	case RegImmediate64:
		b.WriteString("d(")
		for i := 0; i+1 < len(op.Imm); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			f := math.Float64frombits(uint64(op.Imm[i]) | uint64(op.Imm[i+1])<<32)
			b.WriteString(strconv.FormatFloat(f, 'f', 6, 64))
			b.WriteByte('l')
		}
		b.WriteByte(')')
	default:
		prefix, ok := regPrefix[op.Type]
		if !ok {
			prefix = fmt.Sprintf("reg%d_", op.Type)
		}
		b.WriteString(prefix)
		// The first index of most registers prints bare (r0, v1, cb0);
		// further ones, relative ones, and every index of the arrays of
		// control points and vertices (v[3][0], vicp[0][1]) in brackets.
		bare := op.Type != RegImmediateCB && op.Type != RegInputControlPoint && op.Type != RegOutputControlPoint &&
			op.Type != RegThisPointer && !((op.Type == RegInput || op.Type == RegOutput) && len(op.Indices) > 1)
		for d, idx := range op.Indices {
			if d == 0 && idx.Rel == nil && bare {
				b.WriteString(strconv.FormatUint(idx.Imm, 10))
				continue
			}
			b.WriteByte('[')
			b.WriteString(indexString(idx, numUint))
			b.WriteByte(']')
		}
		b.WriteString(op.componentString())
	}
	switch op.Modifier {
	case ModAbs, ModAbsNeg:
		b.WriteByte('|')
	}
	return b.String()
}

// componentString prints the mask, swizzle or selected component.
func (op *Operand) componentString() string {
	if op.Components != 4 {
		return ""
	}
	switch op.Mode {
	case SelectMask:
		if op.WriteMask == 0 {
			return ""
		}
		s := "."
		for i := 0; i < 4; i++ {
			if op.WriteMask&(1<<i) != 0 {
				s += compNames[i : i+1]
			}
		}
		return s
	case SelectSwizzle:
		s := "."
		for _, c := range op.Swiz {
			s += compNames[c : c+1]
		}
		return s
	default:
		return "." + compNames[op.Swiz[0]:op.Swiz[0]+1]
	}
}

func indexString(idx Index, num numKind) string {
	if idx.Rel == nil {
		return strconv.FormatUint(idx.Imm, 10)
	}
	// fxc writes the offset even when the index is the register alone.
	return fmt.Sprintf("%s + %d", idx.Rel.format(numUint), idx.Imm)
}

// immString prints one immediate as fxc does: floats with six decimals,
// integers in decimal, and for typeless moves whichever the bits look like
// (a zero, denormal or NaN pattern is an integer).
//
// Integers past ten thousand print in hex, as fxc writes them
// (l(0x00008000) but l(8192)).
func immString(v uint32, num numKind) string {
	switch num {
	case numInt:
		return intString(v)
	case numUint:
		// fxc prints the bit operations' literals signed too: l(-2).
		return intString(v)
	case numAny:
		if exp := v >> 23 & 0xff; (exp == 0 || exp == 0xff) && v != 0x80000000 {
			return intString(v)
		}
	}
	return floatString(math.Float32frombits(v))
}

func intString(v uint32) string {
	if i := int32(v); i >= -10000 && i <= 10000 {
		return strconv.FormatInt(int64(i), 10)
	}
	return fmt.Sprintf("0x%08x", v)
}

// floatString is C's %f for a float widened to double.
func floatString(f float32) string {
	switch {
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	case math.IsNaN(float64(f)):
		return "nan"
	}
	return strconv.FormatFloat(float64(f), 'f', 6, 64)
}
