package hlsl

import "strings"

// gen type-checks and lowers one entry point in a single walk: functions
// are inlined at their calls, so every expression is checked where it runs.
type gen struct {
	file    string
	errs    []Diag
	warns   []Diag
	code    []Instr
	top     int
	maxTemp int
	tooBig  bool
	line    int
	stage   Stage
	major   int
	minor   int

	scopes     []map[string]*value
	funcs      map[string][]*funcDecl
	inline     []*funcDecl
	scopesSave [][]map[string]*value
	fn         *fnCtx

	cbufs     []*cbInfo
	globals   *cbInfo // $Globals
	textures  []*resource
	uavs      []*resource // typed unordered access views (compute.go)
	uavBase   int         // their first slot: past a pixel shader's render targets
	samplers  []*resource
	tgsm      []TGSMDecl      // groupshared memory, g# (buffers.go)
	boolIns   map[*value]bool // bool inputs of user semantics (boolinput.go)
	entryName string          // the entry point's name: the function whose attributes count
	baseSize  map[string]int  // a derived struct's base's size in a constant buffer, by the struct's name
	cbMax     map[int]int     // slot -> registers read
	cbDyn     map[int]bool    // slot -> indexed by a register
	loopDep   int
	internals map[string]*funcDecl    // expanded intrinsics, parsed once (intrinsics2.go)
	fixLine   int                     // while an expanded intrinsic is inlined: the line of its call
	funcOrder []*funcDecl             // the functions with a body, in source order
	fnStatics map[*varDecl]*value     // functions' static locals: one variable for all calls
	xs        []int                   // the x# arrays: registers each
	dynNames  map[string]bool         // names indexed by a non-constant somewhere: their arrays live in x#
	matUses   map[string]*matrixUse   // what the file does with each name a matrix local may have (matlayout.go)
	callMemo  map[*funcDecl]*callInfo // what every inlining of a function shares (call.go)
	brk       []byte                  // the loops ('l'), switches ('s') and inlined functions' one-trip loops ('f') we are in
	statics   []*varDecl
	interp    map[int]string // pixel input register -> interpolation mode

	cdepth  int           // conditions, loops and switches around the code lowered now
	dom     *domainGen    // a domain shader's patch inputs (domain.go)
	gs      *gsGen        // a geometry shader's streams (gs.go)
	sigPend []*pendingSig // signature elements waiting for their registers (placeSig)
	resList []*resource   // the textures and samplers used, in the order of first use
	// combined maps a sampler that tex2D and its siblings read to the
	// texture made for it, combinedList those textures by first use
	// (legacy.go).
	combined     map[*resource]*resource
	combinedList []*resource

	packedObjs []*resource         // textures and samplers of a cbuffer given only a packoffset
	paramObjs  map[*varDecl]*value // the objects of the entry point's struct parameters (objstruct.go)
	unset      []unsetUse          // objects read before they are given one, refused if the code stays (objstruct.go)
	constAggr  map[string]*value   // global static const arrays and structs, valued (constaggr.go)
	stateVars  []*varDecl          // globals with a state block (states.go)
	stateMode  int                 // checking a state block's values: an unknown name is a const int

	level9 string // "9_1" or "9_3": a _level_9_x profile's level (level9.go)
	// lazyArray: a local array's type is resolved with the bound of one
	// that is only made where it is used (declLocal).
	lazyArray bool

	lim   Limits
	more  int // errors past MaxDiagnostics, only counted
	nodes int // expression and statement nodes lowered (Limits.Nodes)
}

// fnCtx is the function being lowered: where its return value goes.
type fnCtx struct {
	decl      *funcDecl
	ret       *Type
	retDst    *value // inlined functions: the result temps
	entry     bool
	useLoop   bool // returns break out of a one-trip loop
	loopDepth int
	outs      []*value // entry: the out parameters
	returned  bool
	retFlag   *Operand // set by a return nested in a loop or switch of an inlined function
}

// cbInfo is a constant buffer and its variables' layout.
type cbInfo struct {
	name     string
	slot     int
	explicit bool
	used     bool
	vars     []*cbVar
	size     int
	line     int
}

type cbVar struct {
	name  string
	t     *Type
	off   int // placed by layoutCB
	fixed int // packoffset or register(cN); -1 when none
	used  bool
}

func (g *gen) errorf(p pos, code int, format string, args ...any) {
	if g.tooBig {
		return // what follows a limit's error is its consequence
	}
	if len(g.errs) >= maxErrors {
		g.more++
		return
	}
	g.errs = append(g.errs, Diag{File: g.file, Line: p.line, Col: p.col, Code: code, Msg: cutText(sprintf(format, args...))})
}

// lowered counts a node lowered against Limits.Nodes: functions are
// inlined at every call, so a chain of functions each calling the next
// twice lowers 2^N bodies while emitting nothing. False once the budget is
// spent (an error at the line reached, and lowering stops).
func (g *gen) lowered(p pos) bool {
	g.nodes++
	if w := g.lim.work; w != nil {
		w.Nodes++
	}
	if g.nodes <= g.lim.Nodes {
		return true
	}
	if !g.tooBig {
		g.errorf(p, eNotImplemented, "shader too complex: more than %d expression and statement nodes lowered, each inlined call counted again, the limit (%s)", g.lim.Nodes, limitName("Nodes"))
		g.tooBig = true
	}
	return false
}

func (g *gen) warnf(p pos, code int, format string, args ...any) {
	for _, w := range g.warns {
		if w.Line == p.line && w.Col == p.col && w.Code == code {
			return
		}
	}
	if len(g.warns) < maxErrors {
		g.warns = append(g.warns, Diag{File: g.file, Line: p.line, Col: p.col, Warning: true, Code: code, Msg: cutText(sprintf(format, args...))})
	}
}

func (g *gen) push() { g.scopes = append(g.scopes, map[string]*value{}) }
func (g *gen) pop()  { g.scopes = g.scopes[:len(g.scopes)-1] }

func (g *gen) declare(p pos, name string, v *value) {
	s := g.scopes[len(g.scopes)-1]
	if s[name] != nil {
		g.errorf(p, eRedefinition, "redefinition of '%s'", name)
	}
	s[name] = v
}

func (g *gen) lookup(name string) *value {
	for i := len(g.scopes) - 1; i >= 0; i-- {
		if v := g.scopes[i][name]; v != nil {
			return v
		}
	}
	return nil
}

// resolveType turns a written type into a Type; a matrix gets the packing
// its modifiers, or else the pack_matrix pragma in effect, give it.
func (g *gen) resolveType(ts *typeSpec) *Type {
	t := g.resolveType1(ts)
	if t == poison.t || ts == nil {
		return t
	}
	if ts.unsigned {
		// `unsigned int2` is uint2; unsigned of another type is an error.
		if !t.numeric() || t.Base != Int || t.Min {
			g.errorf(ts.pos, eSyntax, "syntax error: 'unsigned' applies only to int types, not '%s'", t)
			return poison.t
		}
		t = t.withBase(Uint)
	}
	if ts.rowMajor && ts.colMajor {
		g.errorf(ts.pos, eSyntax, "syntax error: row_major and column_major both given")
		return poison.t
	}
	explicit := ts.rowMajor || ts.colMajor
	if t.Kind != KMatrix {
		if explicit {
			g.errorf(ts.pos, eSyntax, "syntax error: row_major and column_major apply only to matrices")
			return poison.t
		}
		return t
	}
	c := *t
	switch {
	case explicit:
		if t.MajorSet && t.RowMajor != ts.rowMajor {
			g.errorf(ts.pos, eSyntax, "syntax error: the matrix packing contradicts the one of its type")
			return poison.t
		}
		c.RowMajor, c.MajorSet = ts.rowMajor, true
	case t.MajorSet:
		return t
	case ts.latent != latentNone:
		c.RowMajor, c.MajorSet = ts.latent == latentRow, true
	default:
		c.RowMajor, c.MajorSet = false, false
	}
	return &c
}

func (g *gen) resolveType1(ts *typeSpec) *Type {
	if ts == nil {
		return poison.t
	}
	switch ts.name {
	case "vector", "matrix":
		if want := map[string]int{"vector": 1, "matrix": 2}[ts.name]; ts.argType != "" && len(ts.args) != want {
			// vector<float> and matrix<float, 4>: fxc wants the sizes
			// (or no arguments at all: float4, float4x4).
			g.errorf(ts.pos, eSyntax, "syntax error: %s<%s> needs %d size arguments", ts.name, ts.argType, want)
			return poison.t
		}
	}
	switch ts.name {
	case "vector":
		if len(ts.args) == 1 {
			b := builtinType(ts.argType)
			if b == nil || b.Kind != KScalar || ts.args[0] < 1 || ts.args[0] > 4 {
				g.errorf(ts.pos, eSyntax, "syntax error: bad vector type")
				return poison.t
			}
			return vecT(b.Base, ts.args[0])
		}
	case "matrix":
		if len(ts.args) == 2 {
			b := builtinType(ts.argType)
			if b == nil || b.Kind != KScalar || ts.args[0] < 1 || ts.args[0] > 4 || ts.args[1] < 1 || ts.args[1] > 4 {
				g.errorf(ts.pos, eSyntax, "syntax error: bad matrix type")
				return poison.t
			}
			return matT(b.Base, ts.args[0], ts.args[1])
		}
	}
	if ts.def != nil && g.lookup(ts.name) == nil {
		g.declareStruct(ts.def)
	}
	if v := g.lookup(ts.name); v != nil && v.tdef != nil {
		if ts.argType != "" {
			g.errorf(ts.pos, eSyntax, "syntax error: '%s' is a typedef: it takes no element type", ts.name)
			return poison.t
		}
		return v.tdef
	}
	if t := builtinType(ts.name); t != nil {
		if t.Patch != 0 {
			return g.patchType(ts)
		}
		if t.Stream != 0 {
			return g.streamType(ts)
		}
		if t.Kind == KTexture && ts.argType != "" && strings.EqualFold(ts.name, "texture") {
			g.errorf(ts.pos, eSyntax, "syntax error: the shader model 1-3 texture type takes no element type")
			return poison.t
		}
		if t.Buf != BufNone {
			if ts.argType == "" && t.Buf == BufStructured {
				g.errorf(ts.pos, eSyntax, "syntax error: %s takes an element type (%s<float4>)", t, t)
				return poison.t
			}
			if ts.argType == "" {
				return t
			}
			b := builtinType(ts.argType)
			if v := g.lookup(ts.argType); v != nil && v.tdef != nil {
				b = v.tdef
			}
			return g.bufElemType(ts.pos, t, b)
		}
		if t.Kind == KTexture && ts.argType != "" {
			b := builtinType(ts.argType)
			if v := g.lookup(ts.argType); v != nil && v.tdef != nil {
				b = v.tdef
			}
			if et := texElemOther(t, b, ts.argType); et != nil {
				return et
			}
			if b == nil || b.Base == Bool || b.Base == Double || (b.Kind != KScalar && b.Kind != KVector) {
				g.errorf(ts.pos, eSyntax, "syntax error: the element type of %s must be a scalar or vector of float, int or uint", t.Dim)
				return poison.t
			}
			n, ok := g.texSamples(ts, t.Dim) // (msaa.go)
			if !ok {
				return poison.t
			}
			return &Type{Kind: KTexture, Dim: t.Dim, Base: b.Base, Cols: b.Cols, UAV: t.UAV, Samples: uint8(n), ROV: t.ROV}
		}
		return t
	}
	g.errorf(ts.pos, eUndeclared, "undeclared identifier '%s'", ts.name)
	return poison.t
}

// arrayType applies declared array sizes, which must be constant.
func (g *gen) arrayType(t *Type, dims []Expr) *Type {
	for i := len(dims) - 1; i >= 0; i-- {
		if _, ok := dims[i].(*implicitDim); ok {
			g.errorf(dims[i].at(), eSyntax, "syntax error: an array without a size is declared only with an initializer, and only its first dimension")
			return poison.t
		}
		v := g.expr(dims[i])
		if v == poison {
			return poison.t
		}
		if v.t.numeric() && !allImm(v.c) && readOnly(dims[i]) {
			v = g.constValue(v) // a static const array's element, set at the entry point (constaggr.go)
		}
		if !v.t.numeric() || v.t.comps() != 1 || !allImm(v.c) {
			g.errorf(dims[i].at(), eNotImplemented, "array dimensions must be literal scalar expressions")
			return poison.t
		}
		n := immInt(v.c[0], v.t.Base)
		if v.t.Base == Bool && n != 0 {
			n = 1 // float d[true]: a bool is 0 or 1 (its register holds all ones)
		}
		limit := int64(MaxArrayElements)
		if g.lazyArray {
			limit = maxLazyElements
		}
		if n < 1 || int64(n) > limit {
			g.errorf(dims[i].at(), eNotImplemented, "array dimension %d out of range [1, %d]", n, limit)
			return poison.t
		}
		t = &Type{Kind: KArray, Elem: t, Len: int(n)}
		// The product of the dimensions, checked before anything is
		// made of the type: every element takes a register at least.
		if e := elementsOf(t); int64(e) > limit {
			why := "the registers a constant buffer or the temps hold"
			if g.lazyArray {
				why = "the elements a local array may declare"
			}
			g.errorf(dims[i].at(), eNotImplemented, "array of %d elements (%s): more than %d, %s (every dimension multiplied)", e, dimsOf(t), limit, why)
			return poison.t
		}
	}
	return t
}

// newNamedVar allocates a local: in an x# array when its name is indexed
// by a non-constant somewhere and its type holds an array, else in temps.
func (g *gen) newNamedVar(name string, t *Type) *value {
	if g.dynNames[name] && hasArray(t) {
		regs := roundUp16(sizeOf(t)) / 16
		if regs > 0 && regs <= maxIndexable {
			g.xs = append(g.xs, regs)
			return g.memValue(FileIndexable, len(g.xs)-1, 0, t, nil)
		}
	}
	if g.columnLocal(name, t) {
		return g.matrixColumns(t)
	}
	return g.newVar(t)
}

// maxIndexable bounds one x# array (registers): fxc's limit on indexable
// temps is 4096 in all.
const maxIndexable = 4096

func hasArray(t *Type) bool {
	switch t.Kind {
	case KArray:
		return true
	case KStruct:
		for _, f := range t.Fields {
			if hasArray(f.Type) {
				return true
			}
		}
	}
	return false
}

// newVar allocates temps for a local of type t. The registers it needs
// are counted first: a variable past SM4/SM5's 4096 temps is an error at
// its line before any of it is allocated.
func (g *gen) newVar(t *Type) *value {
	if t.Kind == KArray || t.Kind == KStruct {
		if n := regsOf(t, map[*Type]int{}); g.top+n > MaxTemps {
			g.errorf(pos{g.line, 1}, eNotImplemented, "a variable of type '%s' needs %d temp registers, %d with those in use: more than %d, the limit of every shader model 4 and 5 profile", t, n, g.top+n, MaxTemps)
			g.tooBig = true
			return poison
		}
	}
	return g.makeVar(t)
}

func (g *gen) makeVar(t *Type) *value {
	switch t.Kind {
	case KTexture, KSampler:
		return &value{t: t, objAt: g.cdepth}
	case KScalar, KVector:
		if t.Base == Double {
			return g.dmakeVar(t)
		}
		return &value{t: t, c: regComps(FileTemp, g.alloc(), t.Cols)}
	case KMatrix:
		v := &value{t: t}
		for r := 0; r < t.Rows; r++ {
			v.c = append(v.c, regComps(FileTemp, g.alloc(), t.Cols)...)
		}
		return v
	case KStruct:
		v := &value{t: t}
		for _, f := range t.Fields {
			v.fields = append(v.fields, g.makeVar(f.Type))
		}
		return v
	case KArray:
		v := &value{t: t}
		for i := 0; i < t.Len; i++ {
			v.elems = append(v.elems, g.makeVar(t.Elem))
		}
		return v
	}
	return poison
}

// store assigns src (already of dst's type) into dst.
func (g *gen) store(p pos, dst, src *value, sat bool) {
	if dst == poison || src == poison {
		return
	}
	if dst.ro {
		g.errorf(p, eConst, "l-value specifies const object")
		return
	}
	if dst.uav != nil {
		g.storeUAV(p, dst, src)
		return
	}
	if dst.wb != nil && !dst.t.numeric() {
		g.storeWB(p, dst.wb, src, sat)
		return
	}
	if isObject(dst.t) {
		g.storeObject(p, dst, src)
		return
	}
	switch dst.t.Kind {
	case KStruct:
		for i := range dst.fields {
			g.store(p, dst.fields[i], src.fields[i], sat)
		}
	case KArray:
		if dst.cb != nil && dst.cb.file == FileCB {
			g.errorf(p, eConst, "l-value specifies const object")
			return
		}
		for i := 0; i < dst.t.Len; i++ {
			g.store(p, g.element(p, dst, i), g.element(p, src, i), sat)
		}
	default:
		if dst.t.Base == Double {
			g.dassign(p, dst, src)
			return
		}
		if dst.wb != nil {
			g.storeWB(p, dst.wb, src, sat)
			return
		}
		for _, d := range dst.c {
			if d.File != FileTemp && d.File != FileOutput && d.File != FileIndexable {
				g.errorf(p, eConst, "l-value specifies const object")
				return
			}
		}
		g.assign(dst.c, src.c, sat)
	}
}

// element returns element i of an array value.
func (g *gen) element(p pos, a *value, i int) *value {
	if a.res != nil && a.t.Kind == KArray {
		return objElement(a, i)
	}
	if a.cb != nil {
		stride := roundUp16(sizeOf(a.t.Elem))
		return g.memValue(a.cb.file, a.cb.slot, a.cb.off+i*stride, a.t.Elem, a.cb.rel)
	}
	if i < len(a.elems) {
		return a.elems[i]
	}
	return poison
}

// cbValue reads a constant-buffer variable of type t at byte offset off.
func (g *gen) cbValue(slot, off int, t *Type, rel *Operand) *value {
	return g.memValue(FileCB, slot, off, t, rel)
}

// memValue is a value of type t at byte offset off of a constant buffer
// (read-only) or of an x# array (writable), laid out by the packing rules.
func (g *gen) memValue(file File, slot, off int, t *Type, rel *Operand) *value {
	reg := off / 16
	c0 := (off % 16) / 4
	mk := func(r, c int) Operand {
		o := Operand{File: file, Index: slot, Elem: r, Rel: rel}
		o.Swz[0] = uint8(c)
		return o
	}
	v := &value{t: t, ro: file == FileCB}
	last := reg
	switch t.Kind {
	case KScalar, KVector:
		if t.Base == Double {
			v.c, last = dmemComps(t, off, mk)
			break
		}
		for i := 0; i < t.Cols; i++ {
			v.c = append(v.c, mk(reg, c0+i))
		}
	case KMatrix:
		for r := 0; r < t.Rows; r++ {
			for c := 0; c < t.Cols; c++ {
				if t.RowMajor {
					v.c = append(v.c, mk(reg+r, c))
				} else {
					v.c = append(v.c, mk(reg+c, r))
				}
			}
		}
		last = reg + (sizeOf(t)-1)/16
	case KStruct:
		for i, fo := range structLayout(t) {
			v.fields = append(v.fields, g.memValue(file, slot, off+fo, t.Fields[i].Type, rel))
		}
		last = reg + (sizeOf(t)-1)/16
	case KArray:
		v.cb = &cbArray{file: file, slot: slot, off: off, t: t, rel: rel}
		last = reg + (sizeOf(t)-1)/16
	}
	if file != FileCB {
		return v
	}
	if rel == nil && last+1 > g.cbMax[slot] {
		g.cbMax[slot] = last + 1
	}
	if t.Base == Bool && t.numeric() {
		// A bool in a constant buffer is any 32-bit value, true when not
		// zero; in registers true is all bits set.
		v.c = g.op(OpIne, len(v.c), v.c, []Operand{immU(0)})
	}
	return v
}

// useCB gives a constant buffer its slot at first use.
func (g *gen) useCB(c *cbInfo) {
	if c.used {
		return
	}
	c.used = true
	if c.explicit {
		return
	}
	for s := 0; ; s++ {
		free := true
		for _, o := range g.cbufs {
			if o != c && (o.explicit || o.used) && o.slot == s {
				free = false
				break
			}
		}
		if free {
			c.slot = s
			return
		}
	}
}

// parseSemantic splits TEXCOORD3 into TEXCOORD and 3.
func parseSemantic(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			break
		}
	}
	if i == 0 {
		return s, 0
	}
	return s[:i], n
}

func isSV(name, sv string) bool { return strings.EqualFold(name, sv) }

// implicitSize sizes `T a[] = init`: the first dimension is as many
// elements as the initialiser's components fill, which must fill each
// element exactly. The dimension becomes a literal in d.
func (g *gen) implicitSize(d *varDecl) {
	if len(d.arrayLen) == 0 || d.init == nil {
		return
	}
	if _, ok := d.arrayLen[0].(*implicitDim); !ok {
		return
	}
	elem := g.arrayType(g.resolveType(d.typ), d.arrayLen[1:])
	if elem == poison.t {
		return
	}
	per := flatComps(elem)
	saved, nCode := g.top, len(g.code)
	total, ok := 0, true
	var count func(e Expr)
	count = func(e Expr) {
		if l, isList := e.(*initList); isList {
			for _, x := range l.elems {
				count(x)
			}
			return
		}
		v := g.expr(e)
		if v == poison {
			ok = false
			return
		}
		total += flatComps(v.t)
	}
	count(d.init)
	g.top, g.code = saved, g.code[:nCode]
	if !ok {
		return
	}
	if per == 0 || total == 0 || total%per != 0 {
		g.errorf(d.pos, eTypeMismatch, "'%s': an initializer of %d components cannot size an array of elements of %d", d.name, total, per)
		return
	}
	d.arrayLen = append([]Expr{&intLit{pos: d.pos, v: uint64(total / per), text: "n"}}, d.arrayLen[1:]...)
}
