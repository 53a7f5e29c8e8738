package hlsl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"d3dsim/core/dxbc"
)

// SysVal is a signature element's system value (D3D_NAME).
type SysVal uint8

// The system values this compiler knows, numbered as D3D_NAME.
const (
	SysNone       SysVal = 0
	SysPosition   SysVal = 1
	SysVertexID   SysVal = 6
	SysInstanceID SysVal = 8
	SysFrontFace  SysVal = 9
	SysTarget     SysVal = 64
	SysCoverage   SysVal = 66 // a pixel shader's vCoverage and oMask (coverage.go)
)

func (s SysVal) String() string {
	switch s {
	case SysPosition:
		return "POS"
	case SysVertexID:
		return "VERTID"
	case SysInstanceID:
		return "INSTID"
	case SysFrontFace:
		return "FFACE"
	case SysTarget:
		return "TARGET"
	case SysCoverage:
		return "COVERAGE"
	case SysDepth, SysDepthGE, SysDepthLE, SysClipDist, SysCullDist, SysSampleIndex:
		return dxbc.SystemValue(s).String()
	}
	return "NONE"
}

// ComponentType is a signature element's D3D_REGISTER_COMPONENT_TYPE.
type ComponentType uint8

// Component types, numbered as D3D_REGISTER_COMPONENT_TYPE.
const (
	CompUint32  ComponentType = 1
	CompSint32  ComponentType = 2
	CompFloat32 ComponentType = 3
)

func (c ComponentType) String() string {
	return map[ComponentType]string{CompUint32: "uint", CompSint32: "int", CompFloat32: "float"}[c]
}

// SigElement is one row of an input or output signature (ISGN/OSGN).
// Elements share registers as fxc packs them (packSig in entry.go).
type SigElement struct {
	Semantic string
	Index    int
	Register int
	Mask     uint8 // components the element has
	// Used is the components the shader reads (inputs) or writes
	// (outputs). RDEF's ReadWriteMask is Used for an input and
	// Mask &^ Used (never written) for an output.
	Used     uint8
	SysVal   SysVal
	Type     ComponentType
	rowMajor bool // a row of a row_major matrix: fxc never lets it share a semantic with a vector
}

// CBuffer is a constant buffer as RDEF describes it.
type CBuffer struct {
	Name string
	Slot int // bind point (b#); -1 when the shader never reads it
	Size int // bytes, a multiple of 16
	Vars []CBVar
}

// CBVar is a constant-buffer variable with its packed offset.
type CBVar struct {
	Name     string
	Type     string // as HLSL spells it: float4x4, float4[2], struct Light
	T        *Type  // the full type, for RDEF's type descriptors
	Offset   int
	Size     int
	RowMajor bool
	Used     bool
}

// BindKind is what a binding binds (D3D_SHADER_INPUT_TYPE).
type BindKind uint8

// The binding kinds, numbered as D3D_SHADER_INPUT_TYPE.
const (
	BindCBuffer BindKind = 0
	BindTexture BindKind = 2
	BindSampler BindKind = 3
	BindUAV     BindKind = 4 // a typed unordered access view (D3D_SIT_UAV_RWTYPED)
)

func (k BindKind) String() string {
	return map[BindKind]string{BindCBuffer: "cbuffer", BindTexture: "texture", BindSampler: "sampler", BindUAV: "UAV"}[k]
}

// Binding is one entry of RDEF's bound-resource list; fxc lists samplers,
// then textures, then constant buffers, each by bind point.
type Binding struct {
	Name  string
	Kind  BindKind
	Slot  int
	Count int
	Comps int // textures: components of the element type (Texture2D<float2>: 2)
	Dim   TexDim
	Base  Base
	Cmp   bool // SamplerComparisonState
	// Buf: a structured or byte-address buffer (buffers.go), Stride its
	// element's size, Counter a RWStructuredBuffer's hidden counter.
	Buf     BufKind
	Stride  int
	Counter bool
}

// Result is a compiled shader: the lowered program and its reflection.
type Result struct {
	Program  *Program
	Inputs   []SigElement
	Outputs  []SigElement
	CBuffers []CBuffer
	Bindings []Binding
	Warnings []Diag
	// PatchConstants: a domain shader's patch-constant signature (PCSG).
	PatchConstants []SigElement
	// Bytecode is the shader as fxc writes it (a .cso): the DXBC container
	// that CreateVertexShader or CreatePixelShader takes.
	Bytecode []byte
	// Features are the optional device features the shader needs, its
	// SFI0 chunk (sfi0.go).
	Features dxbc.ShaderFeatures
}

// Compile compiles the entry point of an HLSL source for target (vs_4_0,
// vs_5_0, ps_4_0, ps_5_0). Errors come back as Errors, in fxc's format;
// warnings are in Result.Warnings. Its work is bounded by DefaultLimits.
func Compile(src []byte, file, entry, target string) (res *Result, err error) {
	return CompileWith(src, file, entry, target, Limits{})
}

// CompileWith is Compile within the given limits (zero fields are the
// defaults; see Limits for the ones that may be raised).
func CompileWith(src []byte, file, entry, target string, lim Limits) (res *Result, err error) {
	lim = lim.withDefaults()
	if file == "" {
		file = "shader.hlsl"
	}
	var stage Stage
	var major, minor int
	base, level9, l9msg := level9Target(target)
	if l9msg != "" {
		return nil, Errors{{File: file, Code: eNotImplemented, Msg: cutText(l9msg)}}
	}
	switch base {
	case "vs_4_0", "vs_4_1", "vs_5_0":
		stage = Vertex
	case "ps_4_0", "ps_4_1", "ps_5_0":
		stage = Pixel
	case "cs_4_0", "cs_4_1", "cs_5_0":
		stage = Compute
	case "ds_5_0":
		stage = Domain
	case "hs_5_0":
		stage = Hull
	case "gs_4_0", "gs_4_1", "gs_5_0":
		stage = Geometry
	default:
		return nil, Errors{{File: file, Code: eNotImplemented, Msg: cutText(fmt.Sprintf("unsupported target '%s' (want vs_4_0, vs_4_1, vs_5_0, ps_4_0, ps_4_1, ps_5_0, vs_4_0_level_9_1, vs_4_0_level_9_3, ps_4_0_level_9_1, ps_4_0_level_9_3, gs_4_0, gs_4_1, gs_5_0, cs_4_0, cs_4_1, cs_5_0, hs_5_0 or ds_5_0)", clean(target)))}}
	}
	major, minor = int(base[3]-'0'), int(base[5]-'0')
	if len(src) > maxSource {
		return nil, Errors{{File: file, Line: 1, Col: 1, Code: eSyntax, Msg: fmt.Sprintf("source larger than %d bytes", maxSource)}}
	}
	var diags []Diag
	lx := &lexer{file: file, diags: &diags, lim: lim}
	toks := lx.tokenize(src)
	if len(diags) > 0 {
		return nil, withMore(diags, file, lx.more)
	}
	f := parse(toks, file, &diags)
	if f == nil || len(diags) > 0 {
		return nil, Errors(diags)
	}
	if diags = resolveRegisters(f, file, target); len(diags) > 0 {
		return nil, Errors(diags)
	}
	g := &gen{file: file, stage: stage, major: major, minor: minor, funcs: map[string][]*funcDecl{}, entryName: entry,
		cbMax: map[int]int{}, cbDyn: map[int]bool{}, lim: lim, level9: level9}
	g.push() // globals
	g.dynNames = dynIndexed(f)
	g.matUses = matrixUses(f)
	g.declareGlobals(f)
	var fn *funcDecl
	for _, x := range f.funcs {
		if x.name == entry && x.body != nil {
			fn = x
			break
		}
	}
	if fn == nil && len(g.errs) == 0 {
		return nil, Errors{{File: file, Code: eEntryNotFound, Msg: cutText(fmt.Sprintf("'%s': entrypoint not found", clean(entry)))}}
	}
	if fn != nil {
		g.entryUniforms(fn)
	}
	var ins, outs []SigElement
	var group [3]int
	if fn != nil && stage == Compute {
		group = g.numThreads(fn)
	}
	if fn != nil && stage == Domain {
		g.domainAttrs(fn)
	}
	if fn != nil && stage == Geometry {
		g.gsAttrs(fn)
	}
	var hull *HullDecl
	var pcFn *funcDecl
	if fn != nil && stage == Hull {
		hull, pcFn = g.hullAttrs(fn)
	}
	if fn != nil && len(g.errs) == 0 {
		ins, outs = g.lowerEntry(fn)
		if stage == Geometry && len(g.errs) == 0 {
			g.gsCheck(fn)
		}
		if hull != nil && pcFn != nil && len(g.errs) == 0 {
			g.lowerHull(hull, pcFn)
		}
	}
	g.checkOverlaps()
	g.uavBase = uavBase(stage, outs)
	if hull != nil {
		// The fork phase's textures and samplers get their slots too.
		n := len(g.code)
		g.code = append(g.code, hull.PCCode...)
		g.placeResources()
		hull.PCCode, g.code = g.code[n:], g.code[:n]
	} else {
		g.placeResources()
	}
	if len(g.errs) > 0 {
		return nil, withMore(g.errs, file, g.more)
	}
	if g.level9 != "" {
		g.level9Unroll()
	}
	code, temps := optimize(loopEnds(dropUnreachable(g.code)), g.maxTemp)
	code, errs := g.unsetUses(code)
	if len(errs) > 0 {
		return nil, errs
	}
	if errs := divideByZero(code, file); len(errs) > 0 {
		return nil, errs
	}
	if hull != nil && len(g.xs) > 0 {
		return nil, Errors{{File: file, Line: fn.line, Col: fn.col, Code: eNotImplemented,
			Msg: "not supported by this compiler: a local array indexed by a variable in a hull shader (the driver takes no indexable temps in one; index a literal, or unroll the loop by hand)"}}
	}
	if hull != nil {
		hull.PCCode, hull.PCTemps = optimize(loopEnds(dropUnreachable(hull.PCCode)), g.maxTemp)
		if errs := divideByZero(hull.PCCode, file); len(errs) > 0 {
			return nil, errs
		}
	}
	// The constant buffers as the optimised code reads them.
	g.cbDyn = map[int]bool{}
	cbUse(code, g.cbMax, g.cbDyn)
	if hull != nil {
		cbUse(hull.PCCode, g.cbMax, g.cbDyn)
	}
	prog := &Program{Target: base, Stage: stage, Major: major, Minor: minor, Code: code, Temps: temps, Indexables: g.xs, ThreadGroup: group, TGSM: g.tgsm,
		EarlyDepth: fn != nil && stage == Pixel && major >= 5 && g.hasAttr(fn, "earlydepthstencil")}
	res = &Result{Program: prog, Warnings: g.warns}
	g.finish(res, ins, outs)
	if g.level9Check(prog, target, fn.pos, ins, outs); len(g.errs) > 0 {
		return nil, withMore(g.errs, file, g.more)
	}
	if stage == Compute && major < 5 {
		if g.cs4Check(prog, fn.pos); len(g.errs) > 0 {
			return nil, withMore(g.errs, file, g.more)
		}
	}
	if hull != nil {
		g.finishHull(res, prog, hull)
	}
	if stage == Geometry {
		g.finishGS(res, prog)
	}
	// A failure below is a compiler bug, reported as an error rather than
	// bad code: Compile returns only shaders the runtime accepts.
	internal := func(err error) error {
		return Errors{{File: file, Code: eNotImplemented, Msg: "internal compiler error: " + clean(err.Error())}}
	}
	if err := prog.Validate(); err != nil {
		return nil, internal(err)
	}
	res.Features = g.shaderFeatures(prog, hull, outs)
	if res.Bytecode, err = res.bytecode(); err != nil {
		return nil, internal(err)
	}
	if res.Bytecode, err = dxbc.WithShaderFeatures(res.Bytecode, res.Features); err != nil {
		return nil, internal(err)
	}
	if g.level9 != "" {
		// The Direct3D 9 shader feature level 9 hardware runs (aon9.go).
		l := g.level9Aon9(res, target, fn.pos)
		if len(g.errs) > 0 {
			return nil, withMore(g.errs, file, g.more)
		}
		if res.Bytecode, err = level9Container(res.Bytecode, l); err != nil {
			return nil, internal(err)
		}
	}
	if _, err := dxbc.Validate(res.Bytecode, stage.programType()); err != nil {
		return nil, internal(err)
	}
	return res, nil
}

// programType is the DXBC program type of a stage's bytecode.
func (s Stage) programType() dxbc.ProgramType {
	return map[Stage]dxbc.ProgramType{Vertex: dxbc.VertexShader, Pixel: dxbc.PixelShader, Compute: dxbc.ComputeShader,
		Domain: dxbc.DomainShader, Hull: dxbc.HullShader, Geometry: dxbc.GeometryShader}[s]
}

// declareGlobals registers structs, functions, constant buffers, loose
// uniforms ($Globals), statics, textures and samplers in source order.
func (g *gen) declareGlobals(f *file) {
	for i, x := range f.order {
		if fd, ok := x.(*funcDecl); ok {
			fd.order = i
		}
		switch d := x.(type) {
		case *structDecl:
			g.declareStruct(d)
		case *typedefDecl:
			g.declareTypedef(d)
		case *funcDecl:
			g.checkParams(d)
			if d.name == g.entryName {
				g.checkAttrs(d.attrs) // another function's attributes are ignored, as fxc ignores them
			}
			if d.body != nil {
				for _, o := range g.funcs[d.name] {
					if o.body != nil && sameSignature(g, o, d) {
						g.errorf(d.pos, eRedefinition, "'%s': function already has a body", d.name)
					}
				}
			}
			g.funcs[d.name] = append(g.funcs[d.name], d)
			if d.body != nil {
				g.funcOrder = append(g.funcOrder, d)
			}
		case *cbufferDecl:
			cb := &cbInfo{name: d.name, line: d.line}
			if d.register != "" {
				slot, ok := regSlot(d.register, 'b')
				if !ok || leadingDigits(d.register[1:]) != d.register[1:] {
					// b0manymanyletters: fxc reads a loose uniform's
					// c1abc as c1, not a cbuffer's register.
					g.errorf(d.pos, eSyntax, "syntax error: bad register '%s' for a cbuffer", d.register)
				}
				cb.slot, cb.explicit = slot, true
			}
			g.cbufs = append(g.cbufs, cb)
			// Manual packing: a packoffset, or a register other than c#
			// (which a cbuffer ignores); then every numeric variable needs
			// a packoffset.
			manual, unpacked := false, false
			for _, v := range d.vars {
				g.cbVarDecl(cb, v)
				manual = manual || v.packoff != "" || v.register != "" && v.register[0] != 'c'
				if v.packoff == "" && (v.register == "" || v.register[0] == 'c') {
					unpacked = true
				}
			}
			if manual && unpacked {
				g.errorf(d.pos, eSyntax, "'%s': packoffset is given to some of the buffer's variables and not to all", d.name)
			}
		case *varDecl:
			g.globalVar(d)
		}
	}
	for _, sb := range f.techniques {
		g.stateVars = append(g.stateVars, &varDecl{pos: sb.pos, states: sb})
	}
	// Lay out each buffer now that all its variables are known. A buffer
	// past D3D11's 4096 registers is an error at its line (the runtime's
	// validator would refuse the bytecode), found before anything is
	// built from its layout.
	for _, cb := range g.cbufs {
		end := layoutCB(cb)
		if cb.size > 16*MaxConstantRegisters {
			g.errorf(pos{cb.line, 1}, eNotImplemented, "constant buffer '%s' needs %d registers (%d bytes); a constant buffer holds at most %d (%d bytes, the limit in every shader model 4 and 5 profile)",
				cb.name, cb.size/16, end, MaxConstantRegisters, 16*MaxConstantRegisters)
		}
	}
}

// layoutCB places a buffer's variables: those with a packoffset (or, in
// $Globals, a register(cN)) where it says, the others in declaration
// order, each after the one declared before it, moved past any explicitly
// placed variable it would overlap (fxc: `float4 a; float4 b :
// register(c0);` puts a in c1).
func layoutCB(cb *cbInfo) (end int) {
	cur, afterStruct := 0, false
	for _, v := range cb.vars {
		if v.fixed >= 0 {
			v.off = v.fixed
		} else {
			off := place(cur, v.t, afterStruct)
			for moved := true; moved; {
				moved = false
				for _, w := range cb.vars {
					if w == v || w.fixed < 0 {
						continue
					}
					if off < w.fixed+sizeOf(w.t) && w.fixed < off+sizeOf(v.t) {
						off = place(w.fixed+sizeOf(w.t), v.t, w.t.Kind == KStruct)
						moved = true
					}
				}
			}
			v.off = off
		}
		cur, afterStruct = v.off+sizeOf(v.t), v.t.Kind == KStruct
	}
	for _, v := range cb.vars {
		end = max(end, v.off+sizeOf(v.t))
	}
	cb.size = roundUp16(end)
	return end
}

// clean escapes control characters of a caller-given name, so a message
// stays on one line.
func clean(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// regSlot reads register(t3): the kind letter, then the number (fxc
// ignores letters after the digits).
func regSlot(r string, kind byte) (int, bool) {
	if len(r) < 2 || r[0] != kind {
		return 0, false
	}
	n, err := strconv.Atoi(leadingDigits(r[1:]))
	return n, err == nil && n >= 0 && n < 128
}

// otherClass reports a register of another class than kind (s2 for a
// texture, b0, c1, u0 ...): a letter and a number.
func otherClass(r string, kind byte) bool {
	return len(r) >= 2 && r[0] != kind && strings.IndexByte("bcstu", r[0]) >= 0 && leadingDigits(r[1:]) == r[1:]
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// cbVarDecl packs one variable into a buffer and binds its name.
func (g *gen) cbVarDecl(cb *cbInfo, d *varDecl) {
	t := g.arrayType(g.resolveType(d.typ), d.arrayLen)
	if t == poison.t {
		return
	}
	if p, ok := g.nonLiteral(d.init); ok && cb != g.globals {
		g.errorf(p, eSyntax, "'%s': a constant's initial value must be a literal expression", d.name)
		return
	}
	if et, _ := objectElem(t); (et != nil || t.Kind == KStruct && hasObject(t)) && !hasNumeric(t) {
		if d.packoff != "" && d.packoff[0] != 'c' {
			g.errorf(d.pos, eSyntax, "syntax error: packoffset(%s): a texture or sampler takes register(), and ignores a packoffset(c#)", d.packoff)
			return
		}
		// A texture or sampler declared in a cbuffer is a global of its
		// own, as fxc makes it: the buffer's layout skips it.
		g.globalVar(d)
		if v := g.lookup(d.name); d.packoff != "" && d.register == "" && v != nil && v.res != nil && v.res.kind == KSampler {
			g.packedObjs = append(g.packedObjs, v.res) // refused if used (checkOverlaps)
		}
		return
	}
	if !t.numeric() && t.Kind != KStruct && t.Kind != KArray {
		g.errorf(d.pos, eNotImplemented, "'%s' of type '%s' cannot live in a constant buffer", d.name, t)
		return
	}
	var objs *value
	if hasObject(t) {
		if objs = g.objectStruct(d, t); objs == poison {
			return
		}
	}
	if g.unalignedBase(t) {
		// Whether fxc packs a base's members inline or as a struct of
		// its own shows only where the base ends inside a register.
		g.errorf(d.pos, eNotImplemented, "not supported by this compiler: '%s' in a constant buffer: a struct derived from one whose size is not whole registers", d.name)
		return
	}
	off := -1
	if d.register != "" && cb == g.globals && d.register[0] == 'c' {
		// register(cN) on a loose uniform: where packoffset(cN) puts it.
		// fxc reads the leading digits (c1manymanyletters is c1), and
		// register(c) alone is c0.
		d.packoff = "c" + leadingDigits(d.register[1:])
		if d.packoff == "c" {
			d.packoff = "c0"
		}
	}
	if d.packoff != "" {
		o, ok := parsePackoffset(d.packoff)
		if !ok {
			g.errorf(d.pos, eSyntax, "syntax error: bad packoffset '%s'", d.packoff)
		}
		if o%16 != 0 && (t.Kind == KArray || t.Kind == KMatrix || t.Kind == KStruct) {
			g.errorf(d.pos, eSyntax, "packoffset '%s': an array, matrix or struct starts a register", d.packoff)
		}
		if o%16+sizeOf(t) > 16 && (o%16 != 0 || !startsRegister(t)) && t.Kind != KArray && t.Kind != KMatrix && t.Kind != KStruct {
			g.errorf(d.pos, eSyntax, "packoffset '%s' makes '%s' straddle a register", d.packoff, d.name)
		}
		off = o
	}
	v := &cbVar{name: d.name, t: t, fixed: off}
	cb.vars = append(cb.vars, v)
	// The value is built at each use, which marks the variable and its
	// buffer used and gives the buffer its slot.
	g.declare(d.pos, d.name, &value{t: t, ro: true, glob: &cbRef{cb: cb, v: v, objs: objs}})
}

// cbRef ties a global name to its constant-buffer variable.
type cbRef struct {
	cb   *cbInfo
	v    *cbVar
	objs *value // a struct's objects (objstruct.go)
}

func parsePackoffset(s string) (int, bool) {
	reg, c, _ := strings.Cut(s, ".")
	if len(reg) < 2 || reg[0] != 'c' {
		return 0, false
	}
	n, err := strconv.Atoi(reg[1:])
	if err != nil || n < 0 || n >= 4096 {
		return 0, false
	}
	off := n * 16
	if c != "" {
		k := strings.IndexByte("xyzw", c[0])
		if k < 0 {
			k = strings.IndexByte("rgba", c[0]) // c0.b is c0.z
		}
		if k < 0 || len(c) != 1 {
			return 0, false
		}
		off += 4 * k
	}
	return off, true
}

func (g *gen) globalVar(d *varDecl) {
	if d.states != nil {
		g.stateVars = append(g.stateVars, d) // checked where the entry point starts
	}
	g.implicitSize(d)
	t := g.arrayType(g.resolveType(d.typ), d.arrayLen)
	if t == poison.t {
		return
	}
	if et, n := objectElem(t); et != nil && !d.static { // a static object is a variable (declLocal)
		g.checkObjectInit(d, t, et, n)
		r := &resource{name: d.name, kind: et.Kind, elem: et, count: n, line: d.line, comps: et.Cols}
		want := byte('t')
		switch {
		case et.Kind == KSampler:
			want = 's'
			g.samplers = append(g.samplers, r)
		case et.UAV:
			want = 'u'
			g.uavs = append(g.uavs, r)
		default:
			g.textures = append(g.textures, r)
		}
		if d.register != "" {
			slot, ok := regSlot(d.register, want)
			switch {
			case !ok && otherClass(d.register, want):
				// fxc ignores a register of another class: a
				// Texture2D's register(s0) binds nothing.
			case !ok:
				g.errorf(d.pos, eSyntax, "syntax error: bad register '%s' for '%s'", d.register, d.name)
			default:
				r.slot, r.explicit = slot, true
			}
		}
		g.declare(d.pos, d.name, &value{t: t, res: r, ro: true})
		return
	}
	switch t.Kind {
	case KVoid:
		g.errorf(d.pos, eSyntax, "syntax error: unexpected token 'void'")
		return
	}
	if effectObject(t) {
		// An effect's object: its initial value (compile ps_4_0 f(),
		// CompileShader(...)) is the effects framework's, never a shader's.
		g.checkEffectInit(d, t)
		g.declare(d.pos, d.name, &value{t: t, ro: true})
		return
	}
	if x, ok := d.init.(*identExpr); ok && x.name == "NULL" {
		g.errorf(x.pos, eTypeMismatch, "cannot implicitly convert from 'NULL' to '%s'", t)
		return
	}
	if d.packoff != "" && !d.static {
		g.errorf(d.pos, eSyntax, "syntax error: packoffset is only valid in a constant buffer")
		return
	}
	if d.groupshrd && !d.static {
		g.groupshared(d, t)
		return
	}
	if d.static {
		g.constAggregate(d, t) // (constaggr.go)
		// A static const of a constant scalar or vector is a value now,
		// so that a later declaration's array size can name it.
		if _, isList := d.init.(*initList); d.constQ && d.init != nil && !isList && t.numeric() {
			saved, nCode, nErr, nWarn, nMore := g.top, len(g.code), len(g.errs), len(g.warns), g.more
			v := g.expr(d.init)
			if v != poison {
				v = g.convert(d.pos, v, t, true)
			}
			if v != poison && allImm(v.c) {
				g.top = saved
				cv := *v
				cv.ro = true
				g.declare(d.pos, d.name, &cv)
				return
			}
			g.top, g.code, g.errs, g.warns, g.more = saved, g.code[:nCode], g.errs[:nErr], g.warns[:nWarn], nMore
		}
		// Statics are initialised at the top of the shader (see lowerEntry).
		g.statics = append(g.statics, d)
		return
	}
	if x, ok := d.init.(*stateExpr); ok {
		g.errorf(x.pos, eTypeMismatch, "cannot implicitly convert from 'sampler' to '%s'", t)
		return
	}
	if p, ok := g.nonLiteral(d.init); ok && !d.static {
		g.errorf(p, eSyntax, "'%s': a uniform's initial value must be a literal expression", d.name)
		return
	}
	if t.Kind == KStruct && hasObject(t) && !hasNumeric(t) {
		if v := g.objectStruct(d, t); v != poison { // no bytes of $Globals (objstruct.go)
			g.declare(d.pos, d.name, v)
		}
		return
	}
	if halfUniform(t) && !g.backCompat() {
		// fxc takes a half uniform only with /Gec (vkd3d's half.shader_test).
		g.errorf(d.pos, eTypeMismatch, "'%s': a uniform of type half: %s", d.name, backCompatHint)
		return
	}
	// A uniform's initialiser is otherwise only a default for the effects
	// framework; D3D11 ignores it, and so does this compiler.
	if g.globals == nil {
		g.globals = &cbInfo{name: "$Globals", line: d.line}
		g.cbufs = append([]*cbInfo{g.globals}, g.cbufs...)
	}
	g.cbVarDecl(g.globals, d)
}

// finish fills the reflection and the declarations.
func (g *gen) finish(res *Result, ins, outs []SigElement) {
	p := res.Program
	// Components read and written.
	for _, in := range p.Code {
		for i, s := range in.Src {
			if s.File != FileInput {
				continue
			}
			lanes := in.readLanes(i)
			for j := 0; j < 4; j++ {
				if lanes&(1<<j) == 0 {
					continue
				}
				for e := range ins {
					if ins[e].Register == s.Index {
						ins[e].Used |= 1 << s.Swz[j] & ins[e].Mask
					}
				}
			}
		}
		for _, d := range in.Dst {
			if d.File == FileOutput {
				for e := range outs {
					if outs[e].Register == d.Index {
						outs[e].Used |= d.Mask & outs[e].Mask
					}
				}
			}
		}
	}
	res.Inputs, res.Outputs = ins, outs
	for _, e := range ins {
		if e.Used == 0 {
			continue // fxc declares only the inputs a shader reads
		}
		interp := "linear"
		if e.Type != CompFloat32 {
			interp = "constant"
		}
		if it, ok := g.interp[e.Register]; ok {
			interp = it
		}
		p.Inputs = append(p.Inputs, IODecl{Reg: e.Register, Mask: e.Used, SysVal: e.SysVal, Interp: interp})
	}
	if p.Stage == Compute {
		// The thread identifiers are registers of their own, in no
		// signature; fxc declares them in register order.
		res.Inputs = nil
		sort.Slice(p.Inputs, func(i, j int) bool { return p.Inputs[i].Reg < p.Inputs[j].Reg })
	}
	if p.Stage == Domain {
		g.finishDomain(res, p)
	}
	for _, e := range outs {
		p.Outputs = append(p.Outputs, IODecl{Reg: e.Register, Mask: e.Mask, SysVal: e.SysVal})
	}
	// Constant buffers.
	for _, cb := range g.cbufs {
		c := CBuffer{Name: cb.name, Slot: -1, Size: cb.size}
		if cb.used || cb.explicit {
			c.Slot = cb.slot
		}
		for _, v := range cb.vars {
			c.Vars = append(c.Vars, CBVar{Name: v.name, Type: v.t.String(), T: v.t, Offset: v.off, Size: sizeOf(v.t), RowMajor: rowMajorType(v.t), Used: v.used})
		}
		res.CBuffers = append(res.CBuffers, c)
	}
	for _, s := range g.samplers {
		if s.used {
			res.Bindings = append(res.Bindings, Binding{Name: s.name, Kind: BindSampler, Slot: s.slot, Count: s.count, Cmp: s.elem.Cmp})
			for k := 0; k < s.count; k++ {
				p.Samplers = append(p.Samplers, SampDecl{Slot: s.slot + k, Cmp: s.elem.Cmp})
			}
		}
	}
	for _, t := range g.textures {
		if t.used {
			res.Bindings = append(res.Bindings, Binding{Name: t.name, Kind: BindTexture, Slot: t.slot, Count: t.count, Comps: t.comps,
				Dim: t.elem.Dim, Base: t.elem.Base, Buf: t.elem.Buf, Stride: bufStride(t.elem)})
			for k := 0; k < t.count; k++ {
				p.Textures = append(p.Textures, TexDecl{Slot: t.slot + k, Dim: t.elem.Dim, Base: t.elem.Base, Buf: t.elem.Buf, Stride: bufStride(t.elem), Samples: int(t.elem.Samples)})
			}
		}
	}
	for _, t := range g.uavs {
		if t.used {
			res.Bindings = append(res.Bindings, Binding{Name: t.name, Kind: BindUAV, Slot: t.slot, Count: t.count, Comps: t.comps,
				Dim: t.elem.Dim, Base: t.elem.Base, Buf: t.elem.Buf, Stride: bufStride(t.elem), Counter: t.counter})
			for k := 0; k < t.count; k++ {
				p.UAVs = append(p.UAVs, TexDecl{Slot: t.slot + k, Dim: t.elem.Dim, Base: t.elem.Base, Buf: t.elem.Buf, Stride: bufStride(t.elem), Counter: t.counter,
					ROV: t.elem.ROV})
			}
		}
	}
	for _, cb := range g.cbufs {
		if cb.used {
			res.Bindings = append(res.Bindings, Binding{Name: cb.name, Kind: BindCBuffer, Slot: cb.slot, Count: 1})
			p.CBSizes = append(p.CBSizes, CBDecl{Slot: cb.slot, Regs: max(g.cbMax[cb.slot], 1), Dynamic: g.cbDyn[cb.slot]})
		}
	}
	sort.SliceStable(res.Bindings, func(i, j int) bool {
		a, b := res.Bindings[i], res.Bindings[j]
		if a.Kind != b.Kind {
			return a.Kind > b.Kind // samplers, textures, cbuffers
		}
		return a.Slot < b.Slot
	})
	sort.Slice(p.Samplers, func(i, j int) bool { return p.Samplers[i].Slot < p.Samplers[j].Slot })
	sort.Slice(p.Textures, func(i, j int) bool { return p.Textures[i].Slot < p.Textures[j].Slot })
	sort.Slice(p.CBSizes, func(i, j int) bool { return p.CBSizes[i].Slot < p.CBSizes[j].Slot })
}

// dropUnreachable removes the instructions after an unconditional break,
// continue or ret up to the end of their block (the else, endif or endloop
// that closes it), which inlining leaves behind (a return inside a
// function's loop is a break followed by the rest of the function). They
// never run; vkd3d-shader 1.2 translates code after a jump into invalid
// SPIR-V.
func dropUnreachable(code []Instr) []Instr {
	out := code[:0]
	for i := 0; i < len(code); i++ {
		out = append(out, code[i])
		if op := code[i].Op; op != OpBreak && op != OpContinue && op != OpRet {
			continue
		}
		depth, j := 0, i+1
	skip:
		for ; j < len(code); j++ {
			switch code[j].Op {
			case OpIf, OpLoop, OpSwitch:
				depth++
			case OpElse, OpCase, OpDefault:
				if depth == 0 {
					break skip
				}
			case OpEndif, OpEndloop, OpEndswitch:
				if depth == 0 {
					break skip
				}
				depth--
			}
		}
		i = j - 1
	}
	return out
}

// loopEnds rewrites the unconditional jump that ends a loop's body: a
// continue there is dropped (endloop goes back to the top anyway) and a
// break becomes breakc_nz l(-1), which does the same. vkd3d-shader 1.2, an
// independent reader of the bytecode, translates an unconditional break
// or continue directly before endloop into invalid SPIR-V.
func loopEnds(code []Instr) []Instr {
	out := code[:0]
	for i, in := range code {
		if i+1 < len(code) && code[i+1].Op == OpEndloop {
			switch in.Op {
			case OpContinue:
				continue
			case OpBreak:
				in = Instr{Op: OpBreakc, Test: TestNZ, Src: []Operand{immU(0xffffffff)}, Line: in.Line}
			}
		}
		out = append(out, in)
	}
	return out
}

// declareStruct makes a struct type and declares its name in the current
// scope (a function's struct is local to it).
func (g *gen) declareStruct(d *structDecl) *Type {
	t := &Type{Kind: KStruct, Name: d.name}
	own := 0
	if d.base.text != "" {
		// struct c : b: b's members, then c's, which may shadow them
		// (a member's name reads the last of that name).
		v := g.lookup(d.base.text)
		if v == nil || v.tdef == nil || v.tdef.Kind != KStruct {
			g.errorf(pos{d.base.line, d.base.col}, eSyntax, "syntax error: '%s' is no struct to derive '%s' from", d.base.text, d.name)
		} else {
			t.Fields = append(t.Fields, v.tdef.Fields...)
			own = len(t.Fields)
			if g.baseSize == nil {
				g.baseSize = map[string]int{}
			}
			g.baseSize[d.name] = sizeOf(v.tdef)
		}
	}
	for _, fd := range d.fields {
		ft := g.arrayType(g.resolveType(fd.typ), fd.arrayLen)
		if ft.Kind == KVoid {
			g.errorf(fd.pos, eSyntax, "syntax error: unexpected token 'void'")
		}
		if et := arrayBase(ft); et.Kind == KEffect && isStringName(et.Name) {
			// A string member is refused; a shader or state object is
			// taken (the effects framework's, ignored here).
			g.errorf(fd.pos, eTypeMismatch, "'%s': a struct cannot hold a %s", fd.name, ft)
		}
		for _, o := range t.Fields[own:] {
			if o.Name == fd.name {
				g.errorf(fd.pos, eRedefinition, "redefinition of '%s'", fd.name)
			}
		}
		t.Fields = append(t.Fields, Field{Name: fd.name, Type: ft, Semantic: fd.semantic, Interp: fd.interp, Line: fd.line})
	}
	if v := g.scopes[len(g.scopes)-1][d.name]; v != nil && v.tdef == t {
		return t
	}
	g.declare(d.pos, d.name, &value{t: tVoid, tdef: t, ro: true})
	return t
}

// declareTypedef declares typedef names: the type as written, with its
// modifiers (row_major) and each name's array sizes.
func (g *gen) declareTypedef(d *typedefDecl) {
	if d.typ.def != nil {
		g.declareStruct(d.typ.def)
	}
	base := g.resolveType(d.typ)
	for _, n := range d.names {
		t := g.arrayType(base, n.arrayLen)
		if t == poison.t {
			continue
		}
		g.declare(n.pos, n.name, &value{t: tVoid, tdef: t, ro: true})
	}
}

// checkParams applies fxc's rules to a function's parameters: default
// values only at the end, never on out or inout parameters (shader model
// 5 and before); no uniform out parameters, no packoffset.
func (g *gen) checkParams(f *funcDecl) {
	seenDefault := false
	for _, p := range f.params {
		switch {
		case p.init != nil && (p.inout == "out" || p.inout == "inout"):
			g.errorf(p.pos, eSyntax, "syntax error: output parameter '%s' cannot have a default value", p.name)
		case p.init == nil && seenDefault:
			g.errorf(p.pos, eSyntax, "syntax error: parameter '%s' follows parameters with default values and has none", p.name)
		case p.uniform && (p.inout == "out" || p.inout == "inout"):
			g.errorf(p.pos, eSyntax, "syntax error: a uniform parameter cannot be out or inout")
		case p.packoff != "":
			g.errorf(p.pos, eSyntax, "syntax error: packoffset is only valid in a constant buffer")
		}
		seenDefault = seenDefault || p.init != nil
	}
}

// checkAttrs checks a function's attributes: numthreads' arguments must
// be expressions, and a compute shader's constant ones. fxc ignores the
// attributes it does not know, arguments and all ([one(i++)]).
func (g *gen) checkAttrs(as []attr) {
	g.push()
	defer g.pop()
	g.constStatics()
	for _, a := range as {
		if a.name != "numthreads" {
			continue
		}
		for _, x := range a.exprs {
			if x == nil {
				continue
			}
			saved, nCode := g.top, len(g.code)
			v := g.expr(x)
			g.top, g.code = saved, g.code[:nCode]
			if v != poison && (!v.t.numeric() || !allImm(v.c)) && g.stage == Compute {
				g.errorf(x.at(), eSyntax, "syntax error: the arguments of attribute '%s' must be constant", a.name)
			}
		}
	}
}

// checkOverlaps refuses, in a constant buffer the shader reads, two
// variables whose packoffset or register(cN) make them share bytes (fxc
// for shader models 4 and 5; shader model 6 aliases them).
func (g *gen) checkOverlaps() {
	for _, r := range g.packedObjs {
		for _, u := range g.resList {
			if u == r {
				g.errorf(pos{r.line, 1}, eSyntax, "'%s': a sampler the shader uses takes register(), not packoffset()", r.name)
				return
			}
		}
	}
	for _, cb := range g.cbufs {
		used := false
		for _, v := range cb.vars {
			used = used || v.used
		}
		if !used {
			continue
		}
		for i, v := range cb.vars {
			for _, w := range cb.vars[:i] {
				if v.fixed >= 0 && w.fixed >= 0 && v.fixed < w.fixed+sizeOf(w.t) && w.fixed < v.fixed+sizeOf(v.t) {
					g.errorf(pos{cb.line, 1}, eSyntax, "'%s' and '%s' overlap in constant buffer '%s'", w.name, v.name, cb.name)
					return
				}
			}
		}
	}
}

// entryUniforms puts the entry point's uniform parameters in a constant
// buffer of their own, $Params, as fxc does; a register(cN) on one is
// ignored (it places only $Globals' variables).
func (g *gen) entryUniforms(fn *funcDecl) {
	var cb *cbInfo
	for _, p := range fn.params {
		if g.entryObject(p) || !p.uniform {
			continue
		}
		if cb == nil {
			cb = &cbInfo{name: "$Params", line: fn.line}
			g.cbufs = append(g.cbufs, cb)
		}
		g.cbVarDecl(cb, p)
	}
	if cb != nil {
		layoutCB(cb)
	}
}

// hasNumeric reports whether t holds a numeric component.
func hasNumeric(t *Type) bool {
	switch t.Kind {
	case KArray:
		return hasNumeric(t.Elem)
	case KStruct:
		for _, f := range t.Fields {
			if hasNumeric(f.Type) {
				return true
			}
		}
		return false
	}
	return t.numeric()
}

// nonLiteral finds a name in a uniform's initial value (only a default
// for the effects framework, which fxc wants literal): where, and whether
// there is one.
func (g *gen) nonLiteral(e Expr) (pos, bool) {
	switch e := e.(type) {
	case *identExpr:
		// A static const with a constant value is literal enough.
		if v := g.lookup(e.name); v != nil && v.glob == nil && v.res == nil && v.t.numeric() && len(v.c) > 0 && allImm(v.c) {
			return pos{}, false // a static const valued already
		}
		for _, d := range g.statics { // declared, valued at the entry point
			if d.name == e.name && d.constQ {
				return pos{}, false
			}
		}
		return e.pos, true
	case *callExpr:
		if e.name == "CompileShader" && e.recv == nil {
			return pos{}, false // an effect's shader: fxc takes it and writes no default
		}
		return e.pos, true
	case *initList:
		for _, x := range e.elems {
			if p, ok := g.nonLiteral(x); ok {
				return p, true
			}
		}
	case *ctorExpr:
		for _, x := range e.args {
			if p, ok := g.nonLiteral(x); ok {
				return p, true
			}
		}
	case *unaryExpr:
		return g.nonLiteral(e.x)
	case *binaryExpr:
		if p, ok := g.nonLiteral(e.x); ok {
			return p, true
		}
		return g.nonLiteral(e.y)
	case *castExpr:
		return g.nonLiteral(e.x)
	}
	return pos{}, false
}

// divideByZero refuses, as fxc does, an integer division or remainder whose
// divisor is the constant 0 once constants are folded (x / y with y a
// local set to 0): the result is undefined on the hardware (udiv gives
// 0xFFFFFFFF).
func divideByZero(code []Instr, file string) Errors {
	for i := range code {
		in := &code[i]
		if in.Op != OpUdiv || in.Src[1].File != FileImm {
			continue
		}
		lanes := in.readLanes(1)
		for c := range 4 {
			if lanes>>c&1 != 0 && in.Src[1].Imm[c] == 0 {
				return Errors{{File: file, Line: in.Line, Col: 1, Code: eDivZero, Msg: "integer divide by zero"}}
			}
		}
	}
	return nil
}
