package dxbc

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Assemble is the inverse of the disassembler: it turns the text
// D3DDisassemble prints (the listing fxc's /Fc writes, `d3dsim dxbc`'s
// output, a shader in `apitrace dump`) back into a container. The header's
// comment tables give the input and output signatures and, when the text
// names a compiler (not the disassembler's banner, which stripped bytecode
// gets), the reflection chunk: constant buffers with their variables,
// resource bindings, the creator. The code gives the token stream. What the
// text does not say is filled in as d3dsim's HLSL compiler writes it
// (compile flags 0x100, one sample a texture, no statistics chunk), so
// bytecode that compiler made assembles back byte for byte; other bytecode
// assembles to a program with the same tokens, signatures and bindings
// wherever the text keeps every bit (a float literal printed with six
// decimals may not).
func Assemble(text string) ([]byte, error) {
	a := &assembler{}
	if err := a.run(text); err != nil {
		return nil, err
	}
	var rdef *Reflection
	if a.creator != "" && a.creator != DisassemblerBanner {
		rdef = a.reflection()
	}
	build := BuildShader
	if a.prog.Type == GeometryShader {
		build = BuildShaderGeometry // OSG5 at shader model 5, with the rows' streams (osg5.go)
	}
	b, err := build(a.prog, a.sig[0], a.sig[1], rdef)
	if err != nil || a.slots == 0 {
		return b, err
	}
	// The footer's instruction count is the first word of fxc's STAT
	// chunk (29 words for shader model 4, 37 for 5); the text says
	// nothing of the rest.
	c, err := Parse(b)
	if err != nil {
		return nil, err
	}
	stat := make([]byte, 116)
	if a.prog.Major >= 5 {
		stat = make([]byte, 148)
	}
	binary.LittleEndian.PutUint32(stat, a.slots)
	c.Chunks = append(c.Chunks, Chunk{FourCC: "STAT", Data: stat})
	return c.Build()
}

// AsmError is text that does not assemble: the line and what is wrong.
type AsmError struct {
	Line int
	Msg  string
}

func (e *AsmError) Error() string { return fmt.Sprintf("dxbc: assembling line %d: %s", e.Line, e.Msg) }

// maxAsmText bounds the text assembled (a shader's listing is far smaller).
const maxAsmText = 4 << 20

type asmCBuffer struct {
	name string
	vars []Variable
}

type assembler struct {
	line     int
	creator  string
	cbuffers []asmCBuffer
	bindings []Binding
	sig      [2]*Signature
	prog     *Program
	slots    uint32 // the footer's "Approximately N instruction slots used"
}

func (a *assembler) errf(format string, args ...any) error {
	return &AsmError{Line: a.line, Msg: fmt.Sprintf(format, args...)}
}

// level9Section reports a comment line that starts the listing's
// Direct3D 9 sections (Level9.Listing).
func level9Section(l string) bool {
	return strings.HasSuffix(l, " shader bytecode:") || strings.HasPrefix(l, "// Constant buffer to DX9 ") ||
		strings.HasPrefix(l, "// Sampler/Resource to DX9 ") || strings.HasPrefix(l, "// Runtime generated constant mappings:")
}

var profileLine = regexp.MustCompile(`^(vs|ps|gs|hs|ds|cs)_([45])_([01])$`)

func (a *assembler) run(text string) error {
	if len(text) > maxAsmText {
		return &AsmError{Line: 1, Msg: fmt.Sprintf("%d bytes of text, more than a shader's listing (%d MiB)", len(text), maxAsmText>>20)}
	}
	text = strings.ReplaceAll(text, "\r", "")
	text = strings.TrimRight(text, "\x00")
	lines := strings.Split(text, "\n")
	// The header: comment lines before the profile.
	i := 0
	var header []string
	var headerAt []int
	level9 := false
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if profileLine.MatchString(l) {
			break
		}
		if l == "" || strings.HasPrefix(l, "#") || level9 {
			continue
		}
		if level9Section(l) {
			// A _level_9_x profile's Direct3D 9 shader (the Aon9 chunk)
			// and fxc's XNA ones, which come after the signatures: this
			// assembler writes the shader model 4 program only.
			level9 = true
			continue
		}
		if !strings.HasPrefix(l, "//") {
			a.line = i + 1
			return a.errf("%q before the profile line (vs_4_0, ps_5_0 ...)", l)
		}
		header = append(header, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
		headerAt = append(headerAt, i+1)
	}
	if i == len(lines) {
		return &AsmError{Line: len(lines), Msg: "no profile line (vs_4_0, ps_5_0 ...): not a shader's disassembly"}
	}
	if err := a.header(header, headerAt); err != nil {
		return err
	}
	a.line = i + 1
	m := profileLine.FindStringSubmatch(strings.TrimSpace(lines[i]))
	types := map[string]ProgramType{"vs": VertexShader, "ps": PixelShader, "gs": GeometryShader, "hs": HullShader, "ds": DomainShader, "cs": ComputeShader}
	a.prog = &Program{Type: types[m[1]], Major: m[2][0] - '0', Minor: m[3][0] - '0'}
	for i++; i < len(lines); i++ {
		a.line = i + 1
		l := strings.TrimSpace(lines[i])
		if n, ok := strings.CutPrefix(l, "// Approximately "); ok {
			if k, _ := fmt.Sscanf(n, "%d instruction slots used", &a.slots); k != 1 {
				a.slots = 0
			}
			continue
		}
		if l == "" || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "#") {
			continue
		}
		// the immediate constant buffer spans lines: up to its last brace
		if strings.HasPrefix(l, "dcl_immediateConstantBuffer") {
			for strings.Count(l, "{") > strings.Count(l, "}") && i+1 < len(lines) {
				i++
				l += " " + strings.TrimSpace(lines[i])
			}
		}
		in, err := a.instruction(l)
		if err != nil {
			return err
		}
		if len(a.prog.Instructions) >= MaxInstructions {
			return a.errf("more than %d instructions", MaxInstructions)
		}
		a.prog.Instructions = append(a.prog.Instructions, in)
	}
	if a.sig[0] == nil {
		a.sig[0] = &Signature{}
	}
	if a.sig[1] == nil {
		a.sig[1] = &Signature{}
	}
	return nil
}

var (
	varLine  = regexp.MustCompile(`^\s*(.+?) (\w+)(\[(\d+)\])?;\s*// Offset:\s*(\d+) Size:\s*(\d+)( \[unused\])?$`)
	bindLine = regexp.MustCompile(`^(\S+)\s+(cbuffer|tbuffer|texture|sampler_c|sampler)\s+(\S+)\s+(\S+)\s+(cb|t|s)(\d+)\s+(\d+)$`)
	sigLine  = regexp.MustCompile(`^(\S+)\s+(\d+)   (.{4}) +(\d+) +(\S+) +(\S+)(?:   (.{0,4}))?$`)
	// sigLineNA is a row of an output with no register (oDepth, oMask).
	sigLineNA = regexp.MustCompile(`^(\S+)\s+(\d+)\s+N/A\s+(oDepth|oDepthGE|oDepthLE|oMask)\s+(\S+)\s+(\S+)\s+(YES|NO)$`)
)

// header reads the comment tables.
func (a *assembler) header(lines []string, at []int) error {
	section := ""
	for k, l := range lines {
		a.line = at[k]
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "Generated by "):
			a.creator = strings.TrimPrefix(t, "Generated by ")
			continue
		case t == "Buffer Definitions:":
			section = "cbuffers"
			continue
		case t == "Resource Bindings:":
			section = "bindings"
			continue
		case t == "Input signature:":
			section, a.sig[0] = "in", &Signature{}
			continue
		case t == "Output signature:":
			section, a.sig[1] = "out", &Signature{}
			continue
		case t == "" || strings.HasPrefix(t, "Name ") || strings.HasPrefix(t, "---") || t == "{" || t == "}":
			continue
		}
		switch section {
		case "cbuffers":
			if n, ok := strings.CutPrefix(t, "cbuffer "); ok {
				a.cbuffers = append(a.cbuffers, asmCBuffer{name: n})
				continue
			}
			m := varLine.FindStringSubmatch(l)
			if m == nil || len(a.cbuffers) == 0 {
				return a.errf("%q is not a constant buffer's variable (TYPE NAME; // Offset: N Size: N)", t)
			}
			typ, err := a.varType(m[1], m[4])
			if err != nil {
				return err
			}
			off, _ := strconv.ParseUint(m[5], 10, 32)
			size, _ := strconv.ParseUint(m[6], 10, 32)
			v := Variable{Name: m[2], Offset: uint32(off), Size: uint32(size), Type: typ}
			if m[7] == "" {
				v.Flags = VariableUsed
			}
			cb := &a.cbuffers[len(a.cbuffers)-1]
			cb.vars = append(cb.vars, v)
		case "bindings":
			m := bindLine.FindStringSubmatch(t)
			if m == nil {
				return a.errf("%q is not a resource binding (Name Type Format Dim Bind Count)", t)
			}
			if err := a.binding(m); err != nil {
				return err
			}
		case "in", "out":
			if t == "no Input" || t == "no Output" {
				continue // an empty signature, as D3DDisassemble prints it (a compute shader's)
			}
			m := sigLine.FindStringSubmatch(t)
			if n := sigLineNA.FindStringSubmatch(t); n != nil {
				m = []string{n[0], n[1], n[2], "x   ", "4294967295", n[4], n[5], map[bool]string{true: "x"}[n[6] == "YES"]}
			}
			if m == nil {
				return a.errf("%q is not a signature row (Name Index Mask Register SysValue Format Used)", t)
			}
			if err := a.element(m, section == "out"); err != nil {
				return err
			}
		}
	}
	return nil
}

var baseTypes = map[string]VariableType{"bool": TypeBool, "int": TypeInt, "float": TypeFloat, "uint": TypeUint, "double": TypeDouble}

var typeText = regexp.MustCompile(`^(row_major )?(bool|int|uint|float)([1-4])?(?:x([1-4]))?$`)

// varType reads the type column of a variable (what typeName printed).
func (a *assembler) varType(s, elems string) (*Type, error) {
	m := typeText.FindStringSubmatch(s)
	if m == nil {
		return nil, a.errf("type %q: the assembler reads scalars, vectors and matrices of bool, int, uint and float", s)
	}
	t := &Type{Base: baseTypes[m[2]], Rows: 1, Columns: 1}
	switch {
	case m[4] != "":
		t.Rows, t.Columns = uint16(m[3][0]-'0'), uint16(m[4][0]-'0')
		t.Class = ClassMatrixColumns
		if m[1] != "" {
			t.Class = ClassMatrixRows
		}
	case m[3] != "":
		t.Class, t.Columns = ClassVector, uint16(m[3][0]-'0')
	default:
		t.Class = ClassScalar
	}
	if elems != "" {
		n, _ := strconv.ParseUint(elems, 10, 16)
		t.Elements = uint16(n)
	}
	t.Name = strings.TrimPrefix(s, "row_major ") // shader model 5 keeps it (reflection drops it for 4)
	return t, nil
}

var (
	inputTypes  = map[string]InputType{"cbuffer": InputCBuffer, "tbuffer": InputTBuffer, "texture": InputTexture, "sampler": InputSampler}
	returnTypeN = map[string]uint32{"unorm": 1, "snorm": 2, "sint": 3, "uint": 4, "float": 5, "mixed": 6, "double": 7}
	srvDims     = map[string]uint32{"NA": 0, "buf": 1, "1d": 2, "1darray": 3, "2d": 4, "2darray": 5, "2dMS": 6, "2dMSarray": 7, "3d": 8, "cube": 9, "cubearray": 10}
)

func (a *assembler) binding(m []string) error {
	slot, _ := strconv.ParseUint(m[6], 10, 32)
	count, _ := strconv.ParseUint(m[7], 10, 32)
	b := Binding{Name: m[1], Type: inputTypes[strings.TrimSuffix(m[2], "_c")], BindPoint: uint32(slot), BindCount: uint32(count)}
	if m[2] == "sampler_c" {
		b.Flags = SIFComparisonSampler
	}
	if b.Type == InputTexture || b.Type == InputTBuffer {
		f := strings.TrimRight(m[3], "1234")
		rt, ok := returnTypeN[f]
		if !ok {
			return a.errf("texture format %q", m[3])
		}
		b.ReturnType = rt
		n := 1
		if len(f) < len(m[3]) {
			n = int(m[3][len(f)] - '0')
		}
		b.Flags = uint32(n-1) << 2
		dim, ok := srvDims[m[4]]
		if !ok {
			return a.errf("texture dimension %q", m[4])
		}
		b.Dimension, b.Samples = dim, 0xffffffff
	}
	a.bindings = append(a.bindings, b)
	return nil
}

var (
	componentTypes = map[string]ComponentType{"uint": ComponentUint32, "int": ComponentSint32, "float": ComponentFloat32, "unknown": ComponentUnknown}
	svByListing    = func() map[string]SystemValue {
		m := map[string]SystemValue{}
		for k, v := range svListing {
			m[v] = k
		}
		return m
	}()
)

func maskOf(col string) uint8 {
	var m uint8
	for i := 0; i < len(col) && i < 4; i++ {
		if col[i] == compNames[i] {
			m |= 1 << i
		}
	}
	return m
}

func (a *assembler) element(m []string, output bool) error {
	idx, _ := strconv.ParseUint(m[2], 10, 32)
	reg, _ := strconv.ParseUint(m[4], 10, 32)
	sv, ok := svByListing[m[5]]
	if !ok {
		return a.errf("system value %q", m[5])
	}
	if sv == SVTarget || sv == SVDepth || sv == SVCoverage || sv == SVDepthGreaterEqual || sv == SVDepthLessEqual {
		sv = SVUndefined // stored as 0, listed from the semantic
	}
	ct, ok := componentTypes[m[6]]
	if !ok {
		return a.errf("component type %q", m[6])
	}
	e := Element{Name: m[1], Index: uint32(idx), SystemValue: sv, ComponentType: ct, Register: uint32(reg), Mask: maskOf(m[3])}
	if st, name, ok := streamPrefix(m[1]); ok && output {
		e.Stream, e.Name = st, name // a gs_5_0 stream's element (osg5.go)
	}
	used := maskOf(m[7])
	if output {
		// fxc's never-written mask covers xyzw, not only the element's
		// components (TEXCOORD0 in o2.xy: zw), and so does d3dsim's compiler.
		e.ReadWrite = 0xf &^ used
	} else {
		e.ReadWrite = used
	}
	s := a.sig[0]
	if output {
		s = a.sig[1]
	}
	if len(s.Elements) >= MaxSignatureElements {
		return a.errf("more than %d signature elements", MaxSignatureElements)
	}
	s.Elements = append(s.Elements, e)
	return nil
}

// reflection builds RDEF as d3dsim's compiler lays it out.
func (a *assembler) reflection() *Reflection {
	p := a.prog
	rf := &Reflection{Major: p.Major, Minor: p.Minor, ProgramType: p.Type.RDEFType(), Flags: 0x100, Creator: a.creator}
	for _, cb := range a.cbuffers {
		c := ConstantBuffer{Name: cb.name}
		end := uint32(0)
		for _, v := range cb.vars {
			if p.Major < 5 {
				v.Type = stripNames(v.Type)
			}
			c.Variables = append(c.Variables, v)
			end = max(end, v.Offset+v.Size)
		}
		c.Size = (end + 15) &^ 15
		rf.ConstantBuffers = append(rf.ConstantBuffers, c)
	}
	rf.Bindings = a.bindings
	return rf
}

func stripNames(t *Type) *Type {
	if t == nil {
		return nil
	}
	c := *t
	c.Name = ""
	return &c
}

// splitOperands splits at the commas outside brackets and parentheses.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// opNames lists the instructions (not declarations) by name, longest first.
var opNames = func() []string {
	var n []string
	for op, info := range opTable {
		if op != OpCustomData && !strings.HasPrefix(info.name, "dcl_") {
			n = append(n, info.name)
		}
	}
	sort.Slice(n, func(i, j int) bool {
		if len(n[i]) != len(n[j]) {
			return len(n[i]) > len(n[j])
		}
		return n[i] < n[j]
	})
	return n
}()

var opByName = func() map[string]Opcode {
	m := map[string]Opcode{}
	for op, info := range opTable {
		m[info.name] = op
	}
	return m
}()

var interpByName = func() map[string]Interpolation {
	m := map[string]Interpolation{}
	for i, n := range interpNames {
		m[n] = Interpolation(i)
	}
	return m
}()

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// instruction reads one line of code.
func (a *assembler) instruction(l string) (Instruction, error) {
	word, rest, _ := strings.Cut(l, " ")
	rest = strings.TrimSpace(rest)
	switch {
	case word == "dcl_globalFlags":
		in := Instruction{Op: OpDclGlobalFlags}
		for _, f := range strings.Split(rest, "|") {
			f = strings.TrimSpace(f)
			if i := indexOf(globalFlagNames, f); i >= 0 {
				in.Controls |= 1 << i
			} else if v, err := strconv.ParseUint(f, 0, 32); err == nil {
				in.Controls |= uint32(v) >> 11
			} else {
				return in, a.errf("global flag %q", f)
			}
		}
		return in, nil
	case word == "dcl_inputprimitive" || word == "dcl_outputtopology":
		// A geometry shader's (the disassembler's names, fxc's: lineadj
		// and triangleadj, also spelt line_adj and triangle_adj; a hull
		// shader's patchN input primitive too).
		names := []string{"undefined", "point", "line", "triangle", "4", "5", "lineadj", "triangleadj"}
		rest := strings.NewReplacer("line_adj", "lineadj", "triangle_adj", "triangleadj").Replace(rest)
		if word == "dcl_outputtopology" {
			names = []string{"undefined", "pointlist", "linelist", "linestrip", "trianglelist", "trianglestrip"}
		}
		v := indexOf(names, rest)
		if n, err := strconv.ParseUint(strings.TrimPrefix(rest, "patch"), 10, 6); v < 0 && err == nil && word == "dcl_inputprimitive" && strings.HasPrefix(rest, "patch") && n >= 1 && n <= 32 {
			v = int(n) + 7
		}
		if v < 0 {
			return Instruction{}, a.errf("%s %q", word, rest)
		}
		return Instruction{Op: opByName[word], Controls: uint32(v)}, nil
	case word == "dcl_input_control_point_count" || word == "dcl_output_control_point_count":
		// A hull or domain shader's (the count in the opcode token).
		n, err := strconv.ParseUint(rest, 10, 6)
		if err != nil || n > 32 {
			return Instruction{}, a.errf("%s %q: a count of 0..32", word, rest)
		}
		return Instruction{Op: opByName[word], Controls: uint32(n)}, nil
	case word == "dcl_tessellator_domain" || word == "dcl_tessellator_partitioning" || word == "dcl_tessellator_output_primitive":
		names := map[string][]string{
			"dcl_tessellator_domain":           {"domain_undefined", "domain_isoline", "domain_tri", "domain_quad"},
			"dcl_tessellator_partitioning":     {"partitioning_undefined", "partitioning_integer", "partitioning_pow2", "partitioning_fractional_odd", "partitioning_fractional_even"},
			"dcl_tessellator_output_primitive": {"output_undefined", "output_point", "output_line", "output_triangle_cw", "output_triangle_ccw"},
		}[word]
		v := indexOf(names, rest)
		if v < 0 {
			return Instruction{}, a.errf("%s %q: one of %s", word, rest, strings.Join(names, ", "))
		}
		return Instruction{Op: opByName[word], Controls: uint32(v)}, nil
	case word == "dcl_hs_max_tessfactor":
		v, err := a.immediate(strings.TrimSuffix(strings.TrimPrefix(rest, "l("), ")"))
		if err != nil || !strings.HasPrefix(rest, "l(") {
			return Instruction{}, a.errf("dcl_hs_max_tessfactor %q: l(FLOAT)", rest)
		}
		return Instruction{Op: OpDclHSMaxTessFactor, Extra: []uint32{v}}, nil
	case word == "dcl_hs_fork_phase_instance_count" || word == "dcl_hs_join_phase_instance_count":
		n, err := strconv.ParseUint(rest, 10, 32)
		if err != nil {
			return Instruction{}, a.errf("%s %q: a count", word, rest)
		}
		return Instruction{Op: opByName[word], Extra: []uint32{uint32(n)}}, nil
	case word == "dcl_stream":
		op, err := a.operand(rest, true)
		return Instruction{Op: OpDclStream, Operands: []Operand{op}}, err
	case word == "dcl_temps" || word == "dcl_maxout" || word == "dcl_gsinstances":
		n, err := strconv.ParseUint(rest, 10, 32)
		if err != nil {
			return Instruction{}, a.errf("%s %q: a count", word, rest)
		}
		return Instruction{Op: opByName[word], Extra: []uint32{uint32(n)}}, nil
	case word == "dcl_indexableTemp":
		var r, n, c uint32
		if k, _ := fmt.Sscanf(rest, "x%d[%d], %d", &r, &n, &c); k != 3 {
			return Instruction{}, a.errf("dcl_indexableTemp %q: xR[COUNT], COMPONENTS", rest)
		}
		return Instruction{Op: OpDclIndexableTemp, Extra: []uint32{r, n, c}}, nil
	case word == "dcl_constantbuffer":
		ops := splitOperands(rest)
		if len(ops) != 2 {
			return Instruction{}, a.errf("dcl_constantbuffer %q: CBn[SIZE], immediateIndexed|dynamicIndexed", rest)
		}
		in := Instruction{Op: OpDclConstantBuffer}
		switch ops[1] {
		case "dynamicIndexed":
			in.Controls = 1
		case "immediateIndexed":
		default:
			return in, a.errf("dcl_constantbuffer access pattern %q", ops[1])
		}
		var slot, size uint64
		if k, _ := fmt.Sscanf(ops[0], "CB%d[%d]", &slot, &size); k != 2 {
			op, err := a.operand(ops[0], true)
			if err != nil {
				return in, err
			}
			in.Operands = []Operand{op}
			return in, nil
		}
		in.Operands = []Operand{{Type: RegConstantBuffer, Components: 4, Mode: SelectSwizzle, Swiz: [4]uint8{0, 1, 2, 3},
			Indices: []Index{{Imm: slot}, {Imm: size}}}}
		return in, nil
	case word == "dcl_sampler":
		ops := splitOperands(rest)
		if len(ops) != 2 {
			return Instruction{}, a.errf("dcl_sampler %q: sN, mode_default", rest)
		}
		mode := indexOf([]string{"mode_default", "mode_comparison", "mode_mono"}, ops[1])
		if mode < 0 {
			return Instruction{}, a.errf("sampler mode %q", ops[1])
		}
		op, err := a.operand(ops[0], true)
		return Instruction{Op: OpDclSampler, Controls: uint32(mode), Operands: []Operand{op}}, err
	case word == "dcl_thread_group":
		var x, y, z uint32
		if k, _ := fmt.Sscanf(rest, "%d, %d, %d", &x, &y, &z); k != 3 {
			return Instruction{}, a.errf("dcl_thread_group %q: X, Y, Z", rest)
		}
		return Instruction{Op: OpDclThreadGroup, Extra: []uint32{x, y, z}}, nil
	case word == "dcl_resource_raw" || word == "dcl_resource_structured" || word == "dcl_tgsm_raw" || word == "dcl_tgsm_structured" ||
		strings.HasPrefix(word, "dcl_uav_raw") || strings.HasPrefix(word, "dcl_uav_structured"):
		return a.computeDecl(word, rest)
	case strings.HasPrefix(word, "dcl_uav_typed_"):
		dimText, flags := strings.TrimPrefix(word, "dcl_uav_typed_"), uint32(0)
		dimText, flags = uavFlagSuffixes(dimText)
		dim := indexOf(dimNames, dimText)
		if dim < 0 {
			return Instruction{}, a.errf("UAV dimension %q", dimText)
		}
		types, opText, ok := strings.Cut(rest, " ")
		if !ok {
			return Instruction{}, a.errf("dcl_uav_typed %q: (TYPES) uN", rest)
		}
		rt, err := a.returnTypes(types)
		if err != nil {
			return Instruction{}, err
		}
		op, err := a.operand(strings.TrimSpace(opText), true)
		return Instruction{Op: OpDclUAVTyped, Controls: uint32(dim) | flags, Operands: []Operand{op}, Extra: []uint32{rt}}, err
	case strings.HasPrefix(word, "dcl_resource_"):
		dimText := strings.TrimPrefix(word, "dcl_resource_")
		var samples uint32
		if i := strings.IndexByte(dimText, '('); i >= 0 {
			n, err := strconv.ParseUint(strings.TrimSuffix(dimText[i+1:], ")"), 10, 7)
			if err != nil {
				return Instruction{}, a.errf("resource %q", dimText)
			}
			samples, dimText = uint32(n), dimText[:i]
		}
		dim := indexOf(dimNames, dimText)
		if dim < 0 {
			return Instruction{}, a.errf("resource dimension %q", dimText)
		}
		types, opText, ok := strings.Cut(rest, " ")
		if !ok {
			return Instruction{}, a.errf("dcl_resource %q: (TYPES) tN", rest)
		}
		rt, err := a.returnTypes(types)
		if err != nil {
			return Instruction{}, err
		}
		op, err := a.operand(strings.TrimSpace(opText), true)
		return Instruction{Op: OpDclResource, Controls: uint32(dim) | samples<<5, Operands: []Operand{op}, Extra: []uint32{rt}}, err
	case word == "dcl_input_ps" || word == "dcl_input_ps_siv" || word == "dcl_input_ps_sgv":
		in := Instruction{Op: opByName[word]}
		ops := splitOperands(rest)
		fields := strings.Fields(ops[0])
		if len(fields) < 2 {
			return in, a.errf("%s %q: MODE vN.MASK", word, rest)
		}
		mode, ok := interpByName[strings.Join(fields[:len(fields)-1], " ")]
		if !ok {
			return in, a.errf("interpolation mode %q", strings.Join(fields[:len(fields)-1], " "))
		}
		in.Controls = uint32(mode)
		op, err := a.operand(fields[len(fields)-1], true)
		if err != nil {
			return in, err
		}
		in.Operands = []Operand{op}
		if word != "dcl_input_ps" {
			if len(ops) != 2 {
				return in, a.errf("%s needs a system value name", word)
			}
			n, err := a.nameToken(ops[1])
			if err != nil {
				return in, err
			}
			in.Extra = []uint32{n}
		}
		return in, nil
	case word == "dcl_input_sgv" || word == "dcl_input_siv" || word == "dcl_output_sgv" || word == "dcl_output_siv":
		ops := splitOperands(rest)
		if len(ops) != 2 {
			return Instruction{}, a.errf("%s %q: REGISTER, NAME", word, rest)
		}
		op, err := a.operand(ops[0], true)
		if err != nil {
			return Instruction{}, err
		}
		n, err := a.nameToken(ops[1])
		return Instruction{Op: opByName[word], Operands: []Operand{op}, Extra: []uint32{n}}, err
	case word == "dcl_indexrange":
		f := strings.Fields(rest)
		if len(f) != 2 {
			return Instruction{}, a.errf("dcl_indexrange %q: REGISTER COUNT", rest)
		}
		op, err := a.operand(f[0], true)
		if err != nil {
			return Instruction{}, err
		}
		n, err := strconv.ParseUint(f[1], 10, 32)
		if err != nil {
			return Instruction{}, a.errf("dcl_indexrange count %q", f[1])
		}
		return Instruction{Op: OpDclIndexRange, Operands: []Operand{op}, Extra: []uint32{uint32(n)}}, nil
	case word == "dcl_input" || word == "dcl_output":
		op, err := a.operand(rest, true)
		return Instruction{Op: opByName[word], Operands: []Operand{op}}, err
	case word == "dcl_immediateConstantBuffer":
		body := strings.Map(func(r rune) rune {
			if r == '{' || r == '}' {
				return ','
			}
			return r
		}, rest)
		in := Instruction{Op: OpCustomData, CustomClass: 3}
		for _, v := range strings.Split(body, ",") {
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			w, err := a.immediate(v)
			if err != nil {
				return in, err
			}
			in.Data = append(in.Data, w)
		}
		if len(in.Data)%4 != 0 {
			return in, a.errf("dcl_immediateConstantBuffer holds %d values, not rows of four", len(in.Data))
		}
		return in, nil
	case word == "customdata":
		return Instruction{}, a.errf("customdata: the listing does not give its words")
	case strings.HasPrefix(word, "dcl_"):
		return Instruction{}, a.errf("declaration %s: not one the assembler knows", word)
	}
	return a.operation(word, rest)
}

// uavFlagSuffixes splits a UAV declaration's _glc, _opc and _rov suffixes
// (globally coherent, the hidden counter, rasterizer ordered) from its
// name.
func uavFlagSuffixes(w string) (string, uint32) {
	var flags uint32
	for {
		switch {
		case strings.HasSuffix(w, "_opc"):
			w, flags = strings.TrimSuffix(w, "_opc"), flags|1<<12
		case strings.HasSuffix(w, "_glc"):
			w, flags = strings.TrimSuffix(w, "_glc"), flags|1<<5
		case strings.HasSuffix(w, "_rov"):
			w, flags = strings.TrimSuffix(w, "_rov"), flags|1<<6
		default:
			return w, flags
		}
	}
}

// computeDecl assembles the raw and structured declarations of shader
// resources, UAVs and groupshared memory: REGISTER[, STRIDE[, COUNT]].
func (a *assembler) computeDecl(word, rest string) (Instruction, error) {
	name, flags := uavFlagSuffixes(word)
	in := Instruction{Op: opByName[name], Controls: flags}
	ops := splitOperands(rest)
	want := 1 + opTable[in.Op].extra
	if len(ops) != want {
		return in, a.errf("%s %q: a register and %d numbers", name, rest, want-1)
	}
	op, err := a.operand(ops[0], true)
	if err != nil {
		return in, err
	}
	in.Operands = []Operand{op}
	for _, f := range ops[1:] {
		n, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			return in, a.errf("%s: %q is not a number", name, f)
		}
		in.Extra = append(in.Extra, uint32(n))
	}
	return in, nil
}

func (a *assembler) returnTypes(s string) (uint32, error) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return 0, a.errf("return types %q: four of them", s)
	}
	var v uint32
	for i, p := range parts {
		r := indexOf(returnNames, strings.TrimSpace(p))
		if r <= 0 {
			return 0, a.errf("return type %q", p)
		}
		v |= uint32(r) << (4 * i)
	}
	return v, nil
}

func (a *assembler) nameToken(s string) (uint32, error) {
	if i := indexOf(nameTokenNames, strings.TrimSpace(s)); i >= 0 {
		return uint32(i), nil
	}
	var n uint32
	if k, _ := fmt.Sscanf(s, "name(%d)", &n); k == 1 {
		return n, nil
	}
	return 0, a.errf("system value name %q", s)
}

// operation reads an instruction: its mnemonic (the name, then _z/_nz,
// _rcpFloat/_uint, _aoffimmi(...), _indexable(...), (types), _sat) and
// its operands.
func (a *assembler) operation(word, rest string) (Instruction, error) {
	var in Instruction
	name := ""
	for _, n := range opNames {
		if strings.HasPrefix(word, n) {
			tail := word[len(n):]
			if tail == "" || tail[0] == '_' || tail[0] == '(' {
				name = n
				break
			}
		}
	}
	if name == "" {
		return in, a.errf("unknown instruction %q", word)
	}
	in.Op = opByName[name]
	info := opTable[in.Op]
	tail := word[len(name):]
	for tail != "" {
		switch {
		case strings.HasPrefix(tail, "_nz"):
			in.Controls |= ControlTestNZ
			tail = tail[3:]
		case strings.HasPrefix(tail, "_z"):
			tail = tail[2:]
		case strings.HasPrefix(tail, "_rcpFloat"):
			in.Controls |= 1
			tail = tail[9:]
		case strings.HasPrefix(tail, "_uint"):
			in.Controls |= 2
			tail = tail[5:]
		case strings.HasPrefix(tail, "_sat"):
			in.Controls |= ControlSaturate
			tail = tail[4:]
		case in.Op == OpSync && (strings.HasPrefix(tail, "_uglobal") || strings.HasPrefix(tail, "_ugroup") ||
			strings.HasPrefix(tail, "_g") || strings.HasPrefix(tail, "_t")):
			// sync's flags: device memory, group memory, the threads.
			for _, f := range []struct {
				s string
				c uint32
			}{{"_uglobal", 8}, {"_ugroup", 4}, {"_g", 2}, {"_t", 1}} {
				if strings.HasPrefix(tail, f.s) {
					in.Controls |= f.c
					tail = tail[len(f.s):]
					break
				}
			}
		case strings.HasPrefix(tail, "_aoffimmi("):
			end := strings.IndexByte(tail, ')')
			var u, v, w int32
			if end < 0 {
				return in, a.errf("%q: an unclosed _aoffimmi(", word)
			}
			if k, _ := fmt.Sscanf(tail[:end+1], "_aoffimmi(%d,%d,%d)", &u, &v, &w); k != 3 {
				return in, a.errf("%q: _aoffimmi(U,V,W)", word)
			}
			in.Extended = append(in.Extended, 1|uint32(u&15)<<9|uint32(v&15)<<13|uint32(w&15)<<17)
			tail = tail[end+1:]
		case strings.HasPrefix(tail, "_indexable("):
			end := strings.IndexByte(tail, ')')
			if end < 0 {
				return in, a.errf("%q: an unclosed _indexable(", word)
			}
			dim := indexOf(dimNames, tail[len("_indexable("):end])
			if dim < 0 {
				return in, a.errf("%q: resource dimension %q", word, tail[len("_indexable("):end])
			}
			in.Extended = append(in.Extended, 2|uint32(dim)<<6)
			tail = tail[end+1:]
		case strings.HasPrefix(tail, "("):
			end := strings.IndexByte(tail, ')')
			if end < 0 {
				return in, a.errf("%q: an unclosed (", word)
			}
			rt, err := a.returnTypes(tail[:end+1])
			if err != nil {
				return in, err
			}
			in.Extended = append(in.Extended, 3|rt<<6)
			tail = tail[end+1:]
		default:
			return in, a.errf("%q: %q after %s", word, tail, name)
		}
	}
	ops := splitOperands(rest)
	if len(ops) != info.dst+info.src {
		return in, a.errf("%s takes %d operands, the line has %d", name, info.dst+info.src, len(ops))
	}
	for i, s := range ops {
		op, err := a.operand(s, i < info.dst)
		if err != nil {
			return in, err
		}
		in.Operands = append(in.Operands, op)
	}
	return in, nil
}

// prefixes of register names, longest first.
var regNames = func() []struct {
	p string
	t RegisterType
} {
	var out []struct {
		p string
		t RegisterType
	}
	for t, p := range regPrefix {
		if t == RegImmediate32 || t == RegImmediate64 || t == RegLabel {
			continue
		}
		out = append(out, struct {
			p string
			t RegisterType
		}{p, t})
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].p) != len(out[j].p) {
			return len(out[i].p) > len(out[j].p)
		}
		return out[i].p < out[j].p
	})
	return out
}()

// oneComponent are the registers with a single component.
var oneComponent = map[RegisterType]bool{RegOutputDepth: true, RegOutputDepthGE: true, RegOutputDepthLE: true,
	RegInputPrimitiveID: true, RegInputCoverageMask: true, RegOutputCoverageMask: true}

// noComponent are the registers with none.
var noComponent = map[RegisterType]bool{RegSampler: true, RegNull: true, RegRasterizer: true, RegLabel: true, RegStream: true}

// operand reads one operand. dst: a destination or a declaration's
// register, whose components are a mask.
func (a *assembler) operand(s string, dst bool) (Operand, error) {
	var op Operand
	s = strings.TrimSpace(s)
	switch {
	case len(s) >= 3 && strings.HasPrefix(s, "-|") && strings.HasSuffix(s, "|"):
		op.Modifier, s = ModAbsNeg, s[2:len(s)-1]
	case len(s) >= 2 && strings.HasPrefix(s, "|") && strings.HasSuffix(s, "|"):
		op.Modifier, s = ModAbs, s[1:len(s)-1]
	case strings.HasPrefix(s, "-"):
		op.Modifier, s = ModNeg, s[1:]
	}
	if strings.HasPrefix(s, "l(") && strings.HasSuffix(s, ")") {
		vals := splitOperands(s[2 : len(s)-1])
		if len(vals) != 1 && len(vals) != 4 {
			return op, a.errf("literal %q: one or four values", s)
		}
		op.Type = RegImmediate32
		for _, v := range vals {
			w, err := a.immediate(v)
			if err != nil {
				return op, err
			}
			op.Imm = append(op.Imm, w)
		}
		op.Components = uint8(len(vals))
		if len(vals) == 4 {
			op.Mode, op.Swiz = SelectSwizzle, [4]uint8{0, 1, 2, 3}
		}
		return op, nil
	}
	if strings.HasPrefix(s, "d(") && strings.HasSuffix(s, ")") {
		vals := splitOperands(s[2 : len(s)-1])
		op.Type = RegImmediate64
		for _, v := range vals {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return op, a.errf("double %q", v)
			}
			b := math.Float64bits(f)
			op.Imm = append(op.Imm, uint32(b), uint32(b>>32))
		}
		op.Components = uint8(len(vals))
		if len(vals) == 2 {
			op.Components = 4
			op.Mode, op.Swiz = SelectSwizzle, [4]uint8{0, 1, 2, 3}
		}
		return op, nil
	}
	found := false
	for _, r := range regNames {
		if strings.HasPrefix(s, r.p) {
			rest := s[len(r.p):]
			if rest == "" || rest[0] == '[' || rest[0] == '.' || rest[0] >= '0' && rest[0] <= '9' {
				op.Type, s, found = r.t, rest, true
				break
			}
		}
	}
	if !found {
		if strings.HasPrefix(s, "l") && len(s) > 1 && s[1] >= '0' && s[1] <= '9' {
			op.Type, s = RegLabel, s[1:]
		} else {
			return op, a.errf("operand %q: not a register or a literal", s)
		}
	}
	// the first index bare, then bracketed ones
	if len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, _ := strconv.ParseUint(s[:j], 10, 32)
		op.Indices = append(op.Indices, Index{Imm: n})
		s = s[j:]
	}
	for strings.HasPrefix(s, "[") {
		depth, end := 0, -1
		for j := 0; j < len(s); j++ {
			if s[j] == '[' {
				depth++
			} else if s[j] == ']' {
				depth--
				if depth == 0 {
					end = j
					break
				}
			}
		}
		if end < 0 {
			return op, a.errf("an unclosed [ in %q", s)
		}
		idx, err := a.index(s[1:end])
		if err != nil {
			return op, err
		}
		if len(op.Indices) >= 3 {
			return op, a.errf("more than 3 indices")
		}
		op.Indices = append(op.Indices, idx)
		s = s[end+1:]
	}
	switch {
	case strings.HasPrefix(s, "."):
		comps := s[1:]
		if len(comps) == 0 || len(comps) > 4 {
			return op, a.errf("components %q", s)
		}
		op.Components = 4
		var c []uint8
		for i := 0; i < len(comps); i++ {
			k := strings.IndexByte(compNames, comps[i])
			if k < 0 {
				return op, a.errf("component %q", comps[i:i+1])
			}
			c = append(c, uint8(k))
		}
		switch {
		case dst:
			op.Mode = SelectMask
			for _, k := range c {
				op.WriteMask |= 1 << k
			}
		case len(c) == 4:
			op.Mode = SelectSwizzle
			copy(op.Swiz[:], c)
		case len(c) == 1:
			op.Mode, op.Swiz[0] = SelectOne, c[0]
		default:
			return op, a.errf("a source selects one component or swizzles four: %q", s)
		}
	case s == "":
		switch {
		case oneComponent[op.Type]:
			op.Components = 1
		case noComponent[op.Type] || op.Type == RegResource && dst:
		default:
			op.Components = 4 // a mask of nothing
		}
	default:
		return op, a.errf("%q after the register", s)
	}
	return op, nil
}

// index reads what is inside [...]: N, a register, or a register + N.
func (a *assembler) index(s string) (Index, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return Index{Imm: n}, nil
	}
	regText, immText, plus := strings.Cut(s, " + ")
	rel, err := a.operand(regText, false)
	if err != nil {
		return Index{}, err
	}
	if !plus {
		return Index{Repr: IndexRelative, Rel: &rel}, nil
	}
	n, err := strconv.ParseUint(strings.TrimSpace(immText), 10, 32)
	if err != nil {
		return Index{}, a.errf("index offset %q", immText)
	}
	return Index{Repr: IndexImm32Relative, Imm: n, Rel: &rel}, nil
}

// immediate reads one literal value as its 32 bits: a float when it has a
// point (or is inf, nan), else an integer.
func (a *assembler) immediate(v string) (uint32, error) {
	v = strings.TrimSpace(v)
	switch v {
	case "inf":
		return math.Float32bits(float32(math.Inf(1))), nil
	case "-inf":
		return math.Float32bits(float32(math.Inf(-1))), nil
	case "nan":
		return 0x7fc00000, nil
	}
	if strings.ContainsAny(v, ".eE") {
		f, err := strconv.ParseFloat(v, 32)
		if err != nil {
			return 0, a.errf("literal %q", v)
		}
		return math.Float32bits(float32(f)), nil
	}
	if strings.HasPrefix(v, "-") {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return 0, a.errf("literal %q", v)
		}
		return uint32(int32(n)), nil
	}
	n, err := strconv.ParseUint(v, 0, 32)
	if err != nil {
		return 0, a.errf("literal %q", v)
	}
	return uint32(n), nil
}
