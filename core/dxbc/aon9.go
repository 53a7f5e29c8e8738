package dxbc

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The Aon9 chunk ("Level9 shader bytecode" in fxc's listing): what fxc
// writes beside the shader model 4 program of a _level_9_x profile, the
// same shader in Direct3D 9 bytecode (vs_2_0/ps_2_0 for 9_1, vs_2_x/ps_2_x
// for 9_3), which feature level 9 hardware runs ("Specifying Compiler
// Targets"). Its layout, as fxc's blobs hold it (every offset from the
// start of the chunk's data, every table after the header and before the
// code):
//
//	u32 the chunk's size again
//	u32 the Direct3D 9 version token (0xFFFF0200 ps_2_0, 0xFFFE0200 vs_2_0)
//	u32 the Direct3D 9 code's size in bytes, u32 its offset
//	u16 count, u16 offset of each table: the constant-buffer mappings
//	    (12 bytes each), the loop-register mappings, one more table fxc
//	    leaves empty, the sampler mappings (4 bytes each) and the
//	    runtime-constant mappings (4 bytes each)
//
// A table's bytes are the span up to the next table fxc writes (samplers,
// constant buffers, loop registers, the unnamed one, runtime constants,
// then the code), which is how the two tables whose entries this package
// does not name are kept byte for byte.

// Level9CBMap maps registers of a constant buffer to Direct3D 9 constant
// registers ("Constant buffer to DX9 shader constant mappings").
type Level9CBMap struct {
	Buffer, Start, Count, Target uint16
	// Conv is the data conversion of the four components (0 FLT: the
	// runtime copies the bits).
	Conv uint32
}

// Level9SamplerMap binds a Direct3D 9 sampler to the Direct3D 11 sampler
// and texture a sample instruction reads.
type Level9SamplerMap struct {
	Target, Sampler, Resource, Type uint8
}

// Level9Runtime is a constant register the runtime fills: kind 0 is the
// vertex shader's position offset (Direct3D 9's half-pixel rule made
// Direct3D 10's, added to oPos.xy times w).
type Level9Runtime struct {
	Kind, Target uint16
}

// Level9 is a decoded Aon9 chunk.
type Level9 struct {
	Version  uint32
	CBMaps   []Level9CBMap
	Loops    []byte // the loop-register table, kept as read
	Unnamed  []byte // the table fxc leaves empty, kept as read
	Samplers []Level9SamplerMap
	Runtime  []Level9Runtime
	Code     []uint32 // the Direct3D 9 token stream, version token to end token
	// loops and unnamed are the two tables' counts as read.
	loops, unnamed uint16
}

const level9Header = 36

// ParseLevel9 decodes an Aon9 chunk's data, checking each table and the
// code against the data's bounds.
func ParseLevel9(data []byte) (*Level9, error) {
	if len(data) < level9Header {
		return nil, fmt.Errorf("Aon9: %d bytes is shorter than the %d-byte header", len(data), level9Header)
	}
	u32 := func(o int) uint32 { return binary.LittleEndian.Uint32(data[o:]) }
	u16 := func(o int) int { return int(binary.LittleEndian.Uint16(data[o:])) }
	l := &Level9{Version: u32(4)}
	size, off := int(u32(8)), int(u32(12))
	if off < level9Header || size < 8 || size%4 != 0 || off > len(data) || size > len(data)-off {
		return nil, fmt.Errorf("Aon9: the Direct3D 9 code (%d bytes at %d) is outside the chunk's %d bytes", size, off, len(data))
	}
	type table struct{ count, at int }
	var t [5]table // constant buffers, loops, unnamed, samplers, runtime
	for i := range t {
		t[i] = table{u16(16 + 4*i), u16(18 + 4*i)}
		if t[i].at < level9Header && t[i].count > 0 || t[i].at > off {
			return nil, fmt.Errorf("Aon9: table %d at %d is outside the header's %d..%d", i, t[i].at, level9Header, off)
		}
	}
	span := func(at, n, entry int, name string) ([]byte, error) {
		if at+n*entry > off {
			return nil, fmt.Errorf("Aon9: %d %s mappings at %d run past the code at %d", n, name, at, off)
		}
		return data[at : at+n*entry], nil
	}
	b, err := span(t[0].at, t[0].count, 12, "constant-buffer")
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(b); i += 12 {
		le := binary.LittleEndian
		l.CBMaps = append(l.CBMaps, Level9CBMap{Buffer: le.Uint16(b[i:]), Start: le.Uint16(b[i+2:]), Count: le.Uint16(b[i+4:]),
			Target: le.Uint16(b[i+6:]), Conv: le.Uint32(b[i+8:])})
	}
	if b, err = span(t[3].at, t[3].count, 4, "sampler"); err != nil {
		return nil, err
	}
	for i := 0; i < len(b); i += 4 {
		l.Samplers = append(l.Samplers, Level9SamplerMap{b[i], b[i+1], b[i+2], b[i+3]})
	}
	if b, err = span(t[4].at, t[4].count, 4, "runtime-constant"); err != nil {
		return nil, err
	}
	for i := 0; i < len(b); i += 4 {
		l.Runtime = append(l.Runtime, Level9Runtime{binary.LittleEndian.Uint16(b[i:]), binary.LittleEndian.Uint16(b[i+2:])})
	}
	// The two unnamed tables: their span up to the next table.
	for i, dst := range []*[]byte{&l.Loops, &l.Unnamed} {
		at := t[1+i].at
		if t[1+i].count == 0 {
			continue
		}
		end := off
		for _, o := range t {
			if o.at > at && o.at < end {
				end = o.at
			}
		}
		*dst = data[at:end]
	}
	l.loops, l.unnamed = uint16(t[1].count), uint16(t[2].count)
	for i := 0; i < size; i += 4 {
		l.Code = append(l.Code, u32(off+i))
	}
	if l.Code[0] != l.Version {
		return nil, fmt.Errorf("Aon9: the header's version %#x is not the code's %#x", l.Version, l.Code[0])
	}
	return l, nil
}

// Bytes encodes the chunk's data as fxc lays it out (the unnamed tables
// are written empty unless they were read).
func (l *Level9) Bytes() []byte {
	var tables []byte
	le := binary.LittleEndian
	at := [5]int{}
	at[3] = level9Header
	for _, s := range l.Samplers {
		tables = append(tables, s.Target, s.Sampler, s.Resource, s.Type)
	}
	at[0] = level9Header + len(tables)
	for _, m := range l.CBMaps {
		tables = le.AppendUint16(tables, m.Buffer)
		tables = le.AppendUint16(tables, m.Start)
		tables = le.AppendUint16(tables, m.Count)
		tables = le.AppendUint16(tables, m.Target)
		tables = le.AppendUint32(tables, m.Conv)
	}
	at[1] = level9Header + len(tables)
	tables = append(tables, l.Loops...)
	at[2] = level9Header + len(tables)
	tables = append(tables, l.Unnamed...)
	at[4] = level9Header + len(tables)
	for _, r := range l.Runtime {
		tables = le.AppendUint16(tables, r.Kind)
		tables = le.AppendUint16(tables, r.Target)
	}
	off := level9Header + len(tables)
	total := off + 4*len(l.Code)
	out := make([]byte, 0, total)
	out = le.AppendUint32(out, uint32(total))
	out = le.AppendUint32(out, l.Version)
	out = le.AppendUint32(out, uint32(4*len(l.Code)))
	out = le.AppendUint32(out, uint32(off))
	counts := [5]int{len(l.CBMaps), int(l.loops), int(l.unnamed), len(l.Samplers), len(l.Runtime)}
	for i := range counts {
		out = le.AppendUint16(out, uint16(counts[i]))
		out = le.AppendUint16(out, uint16(at[i]))
	}
	out = append(out, tables...)
	for _, w := range l.Code {
		out = le.AppendUint32(out, w)
	}
	return out
}

// level9Runtime names the runtime constants fxc's listing describes.
var level9Runtime = map[uint16]string{0: "Vertex Shader position offset"}

// level9Conv names a component's data conversion as fxc's listing does.
var level9Conv = map[uint8]string{0: "FLT"}

// Listing prints the chunk as fxc's /Fc listing does, between the
// signatures and the shader model 4 program: the constant-buffer, sampler
// and runtime-constant mappings, then "Level9 shader bytecode:" and the
// Direct3D 9 disassembly with its instruction-slot count.
func (l *Level9) Listing() (string, error) {
	var b strings.Builder
	line := func(format string, args ...any) {
		b.WriteString(strings.TrimRight(fmt.Sprintf(format, args...), " "))
		b.WriteByte('\n')
	}
	if len(l.CBMaps) > 0 {
		line("//")
		line("// Constant buffer to DX9 shader constant mappings:")
		line("//")
		line("// Target Reg Buffer  Start Reg # of Regs        Data Conversion")
		line("// ---------- ------- --------- --------- ----------------------")
		for _, m := range l.CBMaps {
			var conv [4]string
			for i := range conv {
				c := uint8(m.Conv >> (8 * i))
				if conv[i] = level9Conv[c]; conv[i] == "" {
					conv[i] = strconv.Itoa(int(c))
				}
			}
			line("// %-10s %-7s %9d %9d  (%4s,%4s,%4s,%4s)", fmt.Sprintf("c%d", m.Target), fmt.Sprintf("cb%d", m.Buffer), m.Start, m.Count, conv[0], conv[1], conv[2], conv[3])
		}
		line("//")
	}
	if len(l.Samplers) > 0 {
		line("//")
		line("// Sampler/Resource to DX9 shader sampler mappings:")
		line("//")
		line("// Target Sampler Source Sampler  Source Resource")
		line("// -------------- --------------- ----------------")
		for _, s := range l.Samplers {
			line("// %-14s %-15s %s", fmt.Sprintf("s%d", s.Target), fmt.Sprintf("s%d", s.Sampler), fmt.Sprintf("t%d", s.Resource))
		}
		line("//")
	}
	if len(l.Runtime) > 0 {
		line("//")
		line("// Runtime generated constant mappings:")
		line("//")
		line("// Target Reg                               Constant Description")
		line("// ---------- --------------------------------------------------")
		for _, r := range l.Runtime {
			d := level9Runtime[r.Kind]
			if d == "" {
				d = fmt.Sprintf("runtime constant %d", r.Kind)
			}
			line("// %-10s %50s", fmt.Sprintf("c%d", r.Target), d)
		}
		line("//")
	}
	code, err := DisassembleD3D9(l.Code)
	if err != nil {
		return "", err
	}
	line("//")
	line("// Level9 shader bytecode:")
	line("//")
	b.WriteString(code)
	return b.String(), nil
}

// Direct3D 9 register types (D3DSPR_*), as the token's bits 28..30 and
// 11..12 hold them.
const (
	D3D9Temp     = 0
	D3D9Input    = 1
	D3D9Const    = 2
	D3D9Texture  = 3 // ps t#; vs a0
	D3D9RastOut  = 4 // oPos
	D3D9AttrOut  = 5 // oD#
	D3D9TexCrd   = 6 // oT#
	D3D9ConstInt = 7
	D3D9ColorOut = 8
	D3D9DepthOut = 9
	D3D9Sampler  = 10
	D3D9Bool     = 14
	D3D9Loop     = 15
	D3D9Misc     = 17
	D3D9Label    = 18
	D3D9Pred     = 19
)

// Direct3D 9 opcodes (D3DSIO_*) this package names.
const (
	D3D9Nop     = 0
	D3D9Mov     = 1
	D3D9Add     = 2
	D3D9Sub     = 3
	D3D9Mad     = 4
	D3D9Mul     = 5
	D3D9Rcp     = 6
	D3D9Rsq     = 7
	D3D9Dp3     = 8
	D3D9Dp4     = 9
	D3D9Min     = 10
	D3D9Max     = 11
	D3D9Slt     = 12
	D3D9Sge     = 13
	D3D9Exp     = 14
	D3D9Log     = 15
	D3D9Lrp     = 18
	D3D9Frc     = 19
	D3D9Dcl     = 31
	D3D9Abs     = 35
	D3D9Texkill = 65
	D3D9Texld   = 66
	D3D9Def     = 81
	D3D9Cmp     = 88
	D3D9Dp2add  = 90
	D3D9Dsx     = 91
	D3D9Dsy     = 92
	D3D9Comment = 0xfffe
	D3D9End     = 0xffff
)

// d3d9Ops names the instructions: name, whether the first parameter is a
// destination, the slots it takes in a shader model 2 program (the
// instruction tables of "ps_2_0 Instructions" and "vs_2_0 Instructions"),
// whether it is a texture instruction.
var d3d9Ops = map[uint32]struct {
	name  string
	dst   bool
	slots int
	tex   bool
}{
	D3D9Nop: {"nop", false, 1, false}, D3D9Mov: {"mov", true, 1, false}, D3D9Add: {"add", true, 1, false}, D3D9Sub: {"sub", true, 1, false},
	D3D9Mad: {"mad", true, 1, false}, D3D9Mul: {"mul", true, 1, false}, D3D9Rcp: {"rcp", true, 1, false}, D3D9Rsq: {"rsq", true, 1, false},
	D3D9Dp3: {"dp3", true, 1, false}, D3D9Dp4: {"dp4", true, 1, false}, D3D9Min: {"min", true, 1, false}, D3D9Max: {"max", true, 1, false},
	D3D9Slt: {"slt", true, 1, false}, D3D9Sge: {"sge", true, 1, false}, D3D9Exp: {"exp", true, 1, false}, D3D9Log: {"log", true, 1, false},
	16: {"lit", true, 3, false}, 17: {"dst", true, 1, false}, D3D9Lrp: {"lrp", true, 2, false}, D3D9Frc: {"frc", true, 1, false},
	20: {"m4x4", true, 4, false}, 21: {"m4x3", true, 3, false}, 22: {"m3x4", true, 4, false}, 23: {"m3x3", true, 3, false}, 24: {"m3x2", true, 2, false},
	32: {"pow", true, 3, false}, 33: {"crs", true, 2, false}, 34: {"sgn", true, 3, false}, D3D9Abs: {"abs", true, 1, false}, 36: {"nrm", true, 3, false},
	37: {"sincos", true, 8, false}, 46: {"mova", true, 1, false}, D3D9Texkill: {"texkill", true, 1, true}, D3D9Texld: {"texld", true, 1, true},
	78: {"expp", true, 1, false}, 79: {"logp", true, 1, false}, D3D9Cmp: {"cmp", true, 1, false}, D3D9Dp2add: {"dp2add", true, 2, false},
	D3D9Dsx: {"dsx", true, 2, false}, D3D9Dsy: {"dsy", true, 2, false}, 93: {"texldd", true, 3, true}, 95: {"texldl", true, 2, true},
	27: {"loop", false, 3, false}, 29: {"endloop", false, 2, false}, 38: {"rep", false, 3, false}, 39: {"endrep", false, 2, false},
	40: {"if", false, 3, false}, 41: {"if", false, 3, false}, 42: {"else", false, 1, false}, 43: {"endif", false, 1, false},
	44: {"break", false, 1, false}, 45: {"break", false, 3, false}, 28: {"ret", false, 1, false},
}

// D3D9OpSlots is the instruction slots a Direct3D 9 instruction takes and
// whether it is a texture instruction (false, false: not one this package
// knows).
func D3D9OpSlots(op uint32) (slots int, tex, ok bool) {
	o, ok := d3d9Ops[op]
	return o.slots, o.tex, ok
}

// D3D9Slots counts a Direct3D 9 program's instruction slots as fxc's
// listing does: all of them, and the texture instructions among them.
func D3D9Slots(code []uint32) (total, tex int, err error) {
	err = walkD3D9(code, func(op uint32, _ uint32, _ []uint32) error {
		if o, ok := d3d9Ops[op]; ok {
			total += o.slots
			if o.tex {
				tex += o.slots
			}
		}
		return nil
	})
	return total, tex, err
}

// walkD3D9 calls f with each instruction of a Direct3D 9 token stream
// after the version token: its opcode, its token and its parameters,
// up to the end token, which must be the last word.
func walkD3D9(code []uint32, f func(op, tok uint32, params []uint32) error) error {
	if len(code) < 2 {
		return fmt.Errorf("d3d9: %d words is no program (a version token and an end token)", len(code))
	}
	for i := 1; i < len(code); {
		tok := code[i]
		op := tok & 0xffff
		if op == D3D9End {
			if i != len(code)-1 {
				return fmt.Errorf("d3d9: the end token at word %d is not the last of %d", i, len(code))
			}
			return nil
		}
		n := int(tok >> 24 & 0xf)
		if op == D3D9Comment {
			n = int(tok >> 16 & 0x7fff)
		}
		if i+1+n > len(code) {
			return fmt.Errorf("d3d9: the instruction at word %d (opcode %d) needs %d words, %d are left", i, op, n, len(code)-i-1)
		}
		if op != D3D9Comment {
			if err := f(op, tok, code[i+1:i+1+n]); err != nil {
				return err
			}
		}
		i += 1 + n
	}
	return fmt.Errorf("d3d9: no end token")
}

// d3d9RegType is a parameter token's register type.
func d3d9RegType(p uint32) uint32 { return p>>28&7 | p>>8&0x18 }

// d3d9RegPrefix names the numbered register types.
var d3d9RegPrefix = map[uint32]string{D3D9Temp: "r", D3D9Input: "v", D3D9Const: "c", D3D9AttrOut: "oD", D3D9TexCrd: "oT",
	D3D9ConstInt: "i", D3D9ColorOut: "oC", D3D9Sampler: "s", D3D9Bool: "b", D3D9Pred: "p"}

// d3d9RegName prints a register as the Direct3D 9 disassembler does.
func d3d9RegName(p uint32, ps bool) string {
	n := p & 0x7ff
	t := d3d9RegType(p)
	switch t {
	case D3D9Texture:
		if ps {
			return fmt.Sprintf("t%d", n)
		}
		return fmt.Sprintf("a%d", n)
	case D3D9RastOut:
		return [3]string{"oPos", "oFog", "oPts"}[min(n, 2)]
	case D3D9DepthOut:
		return "oDepth"
	case D3D9Loop:
		return "aL"
	case D3D9Misc:
		return [2]string{"vPos", "vFace"}[min(n, 1)]
	}
	if pre, ok := d3d9RegPrefix[t]; ok {
		return fmt.Sprintf("%s%d", pre, n)
	}
	return fmt.Sprintf("reg%d_%d", t, n)
}

// d3d9Mask prints a destination's write mask (nothing for all four).
func d3d9Mask(p uint32) string {
	m := p >> 16 & 0xf
	if m == 0xf {
		return ""
	}
	s := "."
	for i := 0; i < 4; i++ {
		if m&(1<<i) != 0 {
			s += string("xyzw"[i])
		}
	}
	return s
}

// d3d9Swizzle prints a source's swizzle as the disassembler does: nothing
// for .xyzw, one letter for a replicate, else the letters up to the last
// that differs from the one after it.
func d3d9Swizzle(p uint32) string {
	s := p >> 16 & 0xff
	if s == 0xe4 {
		return ""
	}
	var c [4]byte
	for i := range c {
		c[i] = "xyzw"[s>>(2*i)&3]
	}
	n := 4
	for n > 1 && c[n-1] == c[n-2] {
		n--
	}
	return "." + string(c[:n])
}

// d3d9Src prints a source parameter with its modifier.
func d3d9Src(p uint32, ps bool) string {
	r := d3d9RegName(p, ps) + d3d9Swizzle(p)
	switch p >> 24 & 0xf {
	case 1:
		return "-" + r
	case 11:
		return r + "_abs"
	case 12:
		return "-" + r + "_abs"
	case 13:
		return "!" + r
	}
	return r
}

// d3d9Usage names a dcl's usage (D3DDECLUSAGE_*).
var d3d9Usage = []string{"position", "blendweight", "blendindices", "normal", "psize", "texcoord", "tangent", "binormal",
	"tessfactor", "positiont", "color", "fog", "depth", "sample"}

// DisassembleD3D9 prints a Direct3D 9 token stream as fxc's listing does:
// each instruction on its own line, indented four spaces, then a blank
// line and the instruction-slot count (with the texture and arithmetic
// slots of a pixel shader that has texture instructions).
func DisassembleD3D9(code []uint32) (string, error) {
	if len(code) == 0 {
		return "", fmt.Errorf("d3d9: no version token")
	}
	ver := code[0]
	var kind string
	switch ver >> 16 {
	case 0xffff:
		kind = "ps"
	case 0xfffe:
		kind = "vs"
	default:
		return "", fmt.Errorf("d3d9: version token %#x is neither a pixel nor a vertex shader's", ver)
	}
	ps := kind == "ps"
	minor := strconv.Itoa(int(ver & 0xff))
	if ver&0xff == 1 {
		minor = "x"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "    %s_%d_%s\n", kind, ver>>8&0xff, minor)
	err := walkD3D9(code, func(op, tok uint32, prm []uint32) error {
		b.WriteString("    ")
		switch op {
		case D3D9Dcl:
			if len(prm) != 2 {
				return fmt.Errorf("d3d9: dcl has %d parameters, want 2", len(prm))
			}
			u, r := prm[0], prm[1]
			switch {
			case d3d9RegType(r) == D3D9Sampler:
				b.WriteString(map[uint32]string{0: "dcl", 1: "dcl_1d", 2: "dcl_2d", 3: "dcl_cube", 4: "dcl_volume"}[u>>27&0xf])
			case ps && ver < 0xffff0300:
				b.WriteString("dcl")
			default:
				usage, idx := int(u&0x1f), u>>16&0xf
				name := fmt.Sprintf("usage%d", usage)
				if usage < len(d3d9Usage) {
					name = d3d9Usage[usage]
				}
				b.WriteString("dcl_" + name)
				if idx > 0 {
					b.WriteString(strconv.Itoa(int(idx)))
				}
			}
			fmt.Fprintf(&b, " %s%s\n", d3d9RegName(r, ps), d3d9Mask(r))
			return nil
		case D3D9Def:
			if len(prm) != 5 {
				return fmt.Errorf("d3d9: def has %d parameters, want 5", len(prm))
			}
			fmt.Fprintf(&b, "def %s", d3d9RegName(prm[0], ps))
			for _, w := range prm[1:] {
				b.WriteString(", " + strconv.FormatFloat(float64(math.Float32frombits(w)), 'g', -1, 32))
			}
			b.WriteByte('\n')
			return nil
		}
		o, ok := d3d9Ops[op]
		if !ok {
			return fmt.Errorf("d3d9: opcode %d is not one this disassembler knows", op)
		}
		b.WriteString(o.name)
		if op == 41 || op == 45 {
			b.WriteString([8]string{"", "_gt", "_eq", "_ge", "_lt", "_ne", "_le", ""}[tok>>16&7])
		}
		for i := 0; i < len(prm); i++ {
			p := prm[i]
			if i == 0 && o.dst {
				if p>>20&1 != 0 {
					b.WriteString("_sat")
				}
				if p>>20&2 != 0 {
					b.WriteString("_pp")
				}
				fmt.Fprintf(&b, " %s%s", d3d9RegName(p, ps), d3d9Mask(p))
				continue
			}
			if i > 0 {
				b.WriteByte(',')
			}
			src := d3d9Src(p, ps)
			if p&(1<<13) != 0 && i+1 < len(prm) {
				// Relative addressing: c26[a0.x], the address's token next.
				i++
				a := prm[i]
				reg := d3d9RegName(p, ps)
				src = strings.Replace(src, reg, fmt.Sprintf("%s[%s.%c]", reg, d3d9RegName(a, ps), "xyzw"[a>>16&3]), 1)
			}
			b.WriteString(" " + src)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		return "", err
	}
	total, tex, _ := D3D9Slots(code)
	b.WriteString("\n")
	if ps && tex > 0 {
		fmt.Fprintf(&b, "// approximately %d instruction slots used (%d texture, %d arithmetic)\n", total, tex, total-tex)
	} else {
		fmt.Fprintf(&b, "// approximately %d instruction slot%s used\n", total, map[bool]string{true: "", false: "s"}[total == 1])
	}
	return b.String(), nil
}
