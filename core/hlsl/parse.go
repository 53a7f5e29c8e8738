package hlsl

import (
	"fmt"
	"strconv"
	"strings"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

const maxDepth = 200 // nesting of expressions and statements

// parser is a recursive-descent parser over preprocessed tokens. It stops
// at the first syntax error, as fxc does.
type parser struct {
	toks    []token
	pragmas []pragma // pack_matrix pragmas, by the index of the token they precede
	p       int
	file    string
	diags   *[]Diag
	structs map[string]bool
	shadow  map[string]bool // type names declared as variables (declName)
	local   bool            // parsing a function's typedef (typenames.go)
	// varShadow: the struct and typedef names a parameter of the function
	// being read takes (function).
	varShadow map[string]bool
	depth     int
	failed    bool
}

type bailout struct{}

type pragma struct {
	at  int
	row bool
}

// latentAt is the matrix packing #pragma pack_matrix sets for the token at
// index i: latentNone before any pragma, then latentRow or latentColumn.
func (ps *parser) latentAt(i int) uint8 {
	l := latentNone
	for _, p := range ps.pragmas {
		if p.at > i {
			break
		}
		l = latentColumn
		if p.row {
			l = latentRow
		}
	}
	return l
}

// Latent matrix packings (what #pragma pack_matrix has set).
const (
	latentNone uint8 = iota
	latentRow
	latentColumn
)

func (ps *parser) peek() token {
	if ps.p < len(ps.toks) {
		return ps.toks[ps.p]
	}
	t := token{kind: tEOF}
	if n := len(ps.toks); n > 0 {
		t.line, t.col = ps.toks[n-1].line, ps.toks[n-1].col+len(ps.toks[n-1].text)
	} else {
		t.line, t.col = 1, 1
	}
	return t
}

func (ps *parser) peekN(n int) token {
	if ps.p+n < len(ps.toks) {
		return ps.toks[ps.p+n]
	}
	return token{kind: tEOF}
}

func (ps *parser) next() token {
	t := ps.peek()
	if ps.p < len(ps.toks) {
		ps.p++
	}
	return t
}

func (ps *parser) is(s string) bool {
	t := ps.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == s
}

func (ps *parser) accept(s string) bool {
	if ps.is(s) {
		ps.p++
		return true
	}
	return false
}

// fail records a syntax error at t and unwinds the parser.
func (ps *parser) fail(t token) {
	text := t.text
	if t.kind == tEOF {
		text = "<EOF>"
	}
	*ps.diags = append(*ps.diags, Diag{File: ps.file, Line: t.line, Col: t.col, Code: eSyntax, Msg: cutText("syntax error: unexpected token '" + text + "'")})
	panic(bailout{})
}

func (ps *parser) failMsg(t token, msg string) {
	*ps.diags = append(*ps.diags, Diag{File: ps.file, Line: t.line, Col: t.col, Code: eSyntax, Msg: cutText(msg)})
	panic(bailout{})
}

func (ps *parser) expect(s string) token {
	t := ps.peek()
	if !ps.is(s) {
		ps.fail(t)
	}
	ps.p++
	return t
}

func (ps *parser) ident() token {
	t := ps.peek()
	if t.kind != tIdent || keywords[t.text] || isTechnique(t.text) || t.text == "fxgroup" {
		ps.fail(t)
	}
	ps.p++
	return t
}

// declName reads a name being declared: not a keyword, and not the name
// of a built-in type (float, matrix, dword, double ...), which fxc refuses
// to redeclare.
func (ps *parser) declName() token {
	t := ps.peek()
	if t.kind == tIdent && (strings.EqualFold(t.text, "texture") || strings.EqualFold(t.text, "string") && t.text != "string" && t.text != "String") {
		// fxc takes the shader model 1-3 texture type's name, in any
		// case, as a name (DirectXTK's Texture2D Texture), and the
		// string type's other spellings (typedef float4 sTring): from
		// here on it names the variable or the typedef.
		ps.shadow[t.text] = true
		ps.p++
		return t
	}
	if ps.localTypeName(t) {
		ps.p++
		return t
	}
	if t.kind == tIdent && caseTypeAlias(t.text) != "" {
		ps.shadow[t.text] = true // float4x4 Matrix: a variable's name (typenames.go)
	}
	if t.kind == tIdent && (builtinType(t.text) != nil || t.text == "double" || t.text == "vector" || t.text == "matrix" ||
		strings.HasPrefix(t.text, "double") && builtinType("float"+t.text[6:]) != nil || t.text == "string" || t.text == "String" ||
		t.text == "unorm" || t.text == "snorm") {
		ps.failMsg(t, "syntax error: unexpected token '"+t.text+"': a built-in type cannot be redeclared")
	}
	return ps.ident()
}

func (ps *parser) enter() {
	ps.depth++
	if ps.depth > maxDepth {
		ps.failMsg(ps.peek(), "syntax error: nesting deeper than "+fmt.Sprint(maxDepth))
	}
}

var keywords = map[string]bool{
	"if": true, "else": true, "for": true, "while": true, "do": true, "return": true, "break": true,
	"continue": true, "discard": true, "struct": true, "cbuffer": true, "tbuffer": true, "true": true,
	"false": true, "static": true, "const": true, "uniform": true, "in": true, "out": true, "inout": true,
	"register": true, "packoffset": true, "row_major": true, "column_major": true, "switch": true, "case": true,
	"default": true, "typedef": true, "extern": true, "volatile": true, "inline": true, "shared": true,
	"groupshared": true, "nointerpolation": true, "noperspective": true, "linear": true, "centroid": true,
	"sample": false, "line": true, "point": true, "triangle": true, "unorm": true, "snorm": true,
}

var modifiers = map[string]bool{
	"static": true, "const": true, "uniform": true, "in": true, "out": true, "inout": true, "row_major": true,
	"column_major": true, "extern": true, "volatile": true, "inline": true, "shared": true, "groupshared": true,
	"nointerpolation": true, "noperspective": true, "linear": true, "centroid": true, "precise": true,
	"export": true, // a library's exported function (lib_* profiles): nothing to a shader's entry point
	// unorm and snorm: a float kept in [0, 1] or [-1, 1] (a typed view's
	// format says so); to a shader a float.
	"unorm": true, "snorm": true,
}

func (ps *parser) isTypeName(t token) bool {
	if t.kind != tIdent {
		return false
	}
	if ps.shadow[t.text] && !ps.structs[t.text] || ps.varShadow[t.text] {
		return false
	}
	if doubleTypeName(t.text) {
		// fxc lets "double" name a variable too: as unsupportedType's
		// names, it is a type only where isUnsupportedType says so.
		return false
	}
	return builtinType(t.text) != nil || ps.structs[t.text] || t.text == "struct" || caseTypeAlias(t.text) != ""
}

// isUnsupportedType reports whether t names a type this compiler lacks
// (double, uint64_t ...) where a type is expected: fxc lets "double" be a
// variable's name too, so only a declaration, a cast or a constructor is
// taken for the type.
func (ps *parser) isUnsupportedType(t token) bool {
	return t.kind == tIdent && (unsupportedType(t.text) != "" || doubleTypeName(t.text) && !ps.varShadow[t.text])
}

func parse(toks []token, fname string, diags *[]Diag) (f *file) {
	ps := &parser{file: fname, diags: diags, structs: map[string]bool{}, shadow: map[string]bool{}}
	// The pack_matrix pragmas come out of the stream, each kept with the
	// index of the token it precedes (filtered in place: no copy).
	ps.toks = toks[:0]
	for _, t := range toks {
		if t.kind == tPragma {
			ps.pragmas = append(ps.pragmas, pragma{at: len(ps.toks), row: t.text == "row_major"})
			continue
		}
		ps.toks = append(ps.toks, t)
	}
	f = &file{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			f = nil
		}
	}()
	for ps.peek().kind != tEOF {
		ps.topLevel(f)
	}
	return f
}

func (ps *parser) skipAttributes() { ps.attributes() }

// attr is an attribute: [unroll(4)] is {name: unroll, args: [4]}.
type attr struct {
	pos
	name  string
	args  []token // a lone token per argument (a number, a string), else its first
	exprs []Expr  // the arguments that are expressions (nil for strings)
}

// attributes reads [name] and [name(arg, ...)] lists: one attribute per
// brackets, each argument a string or an expression, no attribute twice.
func (ps *parser) attributes() []attr {
	var out []attr
	for ps.is("[") {
		ps.next()
		n := ps.peek()
		if n.kind != tIdent {
			ps.fail(n)
		}
		ps.next()
		a := attr{pos: pos{n.line, n.col}, name: n.text}
		for _, o := range out {
			if o.name == a.name {
				ps.failMsg(n, "syntax error: attribute '"+a.name+"' given twice")
			}
		}
		if ps.accept("(") {
			for {
				t := ps.peek()
				if t.kind == tString {
					ps.next()
					a.args = append(a.args, t)
					a.exprs = append(a.exprs, nil)
				} else {
					start := ps.p
					x := ps.assign()
					a.args = append(a.args, ps.toks[start])
					a.exprs = append(a.exprs, x)
				}
				if !ps.accept(",") {
					break
				}
			}
			ps.expect(")")
		}
		ps.expect("]")
		out = append(out, a)
	}
	return out
}

// unrollCount is N of [unroll(N)], 0 for none; it refuses [unroll] with
// [loop] or [fastopt], which contradict it.
func (ps *parser) unrollCount(as []attr) int {
	names := map[string]bool{}
	for _, a := range as {
		names[a.name] = true
	}
	if names["unroll"] && (names["loop"] || names["fastopt"]) {
		ps.failMsg(ps.peek(), "syntax error: [unroll] contradicts [loop] and [fastopt]")
	}
	if names["branch"] && names["flatten"] {
		ps.failMsg(ps.peek(), "syntax error: [branch] contradicts [flatten]")
	}
	for _, a := range as {
		if a.name == "unroll" && len(a.args) == 1 && a.args[0].kind == tInt && a.args[0].ival > 0 && a.args[0].ival < 1<<20 {
			return int(a.args[0].ival)
		}
	}
	return 0
}

// loopHint is what a loop's attributes ask of the optimiser: 1 [unroll]
// (with or without a count), -1 [loop] or [fastopt], 0 nothing.
func loopHint(as []attr) int8 {
	for _, a := range as {
		switch a.name {
		case "unroll":
			return 1
		case "loop", "fastopt":
			return -1
		}
	}
	return 0
}

func (ps *parser) topLevel(f *file) {
	attrs := ps.attributes()
	t := ps.peek()
	switch {
	case ps.accept(";"):
		return
	case t.text == "typedef":
		d := ps.typedef()
		ps.expect(";")
		f.order = append(f.order, d)
		return
	case t.text == "cbuffer":
		c := ps.cbuffer()
		f.cbuffers = append(f.cbuffers, c)
		f.order = append(f.order, c)
		return
	case t.text == "single" && !ps.structs["single"] && ps.peekN(1).text == "cbuffer":
		ps.next() // the effects framework's single cbuffer: a plain one here
		ps.topLevel(f)
		return
	case t.text == "tbuffer":
		ps.failMsg(t, "syntax error: '"+t.text+"' is not supported by this compiler")
	case isTechnique(t.text) || t.text == "fxgroup":
		f.techniques = append(f.techniques, ps.technique()...)
		return
	}
	mods := ps.modifiers()
	typ := ps.typeSpec(mods)
	if typ.def != nil {
		f.structs = append(f.structs, typ.def)
		f.order = append(f.order, typ.def)
		if ps.is(";") && strings.HasPrefix(typ.def.name, "<unnamed") {
			ps.failMsg(ps.peek(), "syntax error: an unnamed struct declares nothing")
		}
		if ps.accept(";") {
			return
		}
	}
	name := ps.declName()
	if ps.is("(") {
		if mods.uniform || mods.inout != "" || mods.static && mods.uniform {
			ps.failMsg(t, "syntax error: a function's return type takes no uniform, in or out modifier")
		}
		fn := ps.function(typ, name)
		fn.attrs = attrs
		f.funcs = append(f.funcs, fn)
		f.order = append(f.order, fn)
		return
	}
	switch {
	case len(attrs) > 0:
		// Shader model 6 takes attributes on variables; fxc does not.
		ps.failMsg(t, "syntax error: attribute '"+attrs[0].name+"' on a variable: attributes are for functions and statements")
	case mods.inout != "":
		ps.failMsg(t, "syntax error: a global variable cannot be '"+mods.inout+"'")
	case mods.static && mods.uniform:
		ps.failMsg(t, "syntax error: a variable cannot be both static and uniform")
	}
	for {
		v := ps.varRest(typ, name, mods, true)
		v.groupshrd = mods.groupshared // not a uniform: the thread group's shared memory (buffers.go)
		f.globals = append(f.globals, v)
		f.order = append(f.order, v)
		if !ps.accept(",") {
			break
		}
		name = ps.declName()
	}
	ps.expect(";")
}

type mods struct {
	static, constQ, uniform, rowMajor, colMajor bool
	groupshared                                 bool
	inout, interp                               string
	first                                       pos // where the modifiers start
}

func (ps *parser) modifiers() mods {
	var m mods
	seen := map[string]bool{}
	for {
		t := ps.peek()
		if t.kind != tIdent || !modifiers[t.text] {
			return m
		}
		if n := ps.peekN(1); t.text == "precise" && !(n.kind == tIdent && (modifiers[n.text] || ps.isTypeName(n) || n.text == "vector" || n.text == "matrix")) {
			return m // precise is a name where no type follows it: `float4 precise;`
		}
		if seen[t.text] && t.text != "precise" {
			ps.failMsg(t, "syntax error: modifier '"+t.text+"' given twice")
		}
		seen[t.text] = true
		if m.first.line == 0 {
			m.first = pos{t.line, t.col}
		}
		ps.p++
		if t.text == "unorm" || t.text == "snorm" {
			if n := ps.peek(); builtinType(n.text) == nil || builtinType(n.text).Base != Float || !builtinType(n.text).numeric() {
				ps.failMsg(n, "syntax error: "+t.text+" is a modifier of float types")
			}
		}
		switch t.text {
		case "groupshared":
			m.groupshared = true
		case "static":
			m.static = true
		case "const":
			m.constQ = true
		case "uniform":
			m.uniform = true
		case "row_major":
			m.rowMajor = true
		case "column_major":
			m.colMajor = true
		case "in", "out", "inout":
			if m.inout == "in" && t.text == "out" || m.inout == "out" && t.text == "in" {
				m.inout = "inout"
			} else {
				m.inout = t.text
			}
		case "nointerpolation", "noperspective", "linear", "centroid":
			if m.interp != "" && (m.interp == "nointerpolation" || t.text == "nointerpolation") {
				ps.failMsg(t, "syntax error: nointerpolation combined with another interpolation modifier")
			}
			m.interp = t.text
		}
	}
}

func (ps *parser) typeSpec(m mods) *typeSpec {
	if t := ps.peek(); t.text == "struct" && (ps.peekN(1).text == "{" || ps.peekN(2).text == "{" || ps.peekN(2).text == ":" && ps.peekN(4).text == "{") {
		// struct S { ... } (or an unnamed struct { ... }) written in place.
		d := ps.structDecl()
		return &typeSpec{pos: d.pos, name: d.name, rowMajor: m.rowMajor, colMajor: m.colMajor, latent: ps.latentAt(ps.p - 1), def: d}
	}
	named := ps.accept("struct") // "struct S x;" names an already declared struct
	unsigned := false
	if ps.is("unsigned") && ps.isTypeName(ps.peekN(1)) {
		ps.next()
		unsigned = true
	}
	t := ps.peek()
	if why := unsupportedType(t.text); why != "" && t.kind == tIdent {
		msg := "not supported by this compiler: '" + t.text + "' (" + why + ")"
		if why == "64-bit integers" {
			// fxc has none (they are shader model 6's): its error.
			msg = "unrecognized identifier '" + t.text + "' (64-bit integers are shader model 6's: fxc and shader models 4 and 5 have none)"
		}
		*ps.diags = append(*ps.diags, Diag{File: ps.file, Line: t.line, Col: t.col, Code: eNotImplemented, Msg: cutText(msg)})
		panic(bailout{})
	}
	if !ps.isTypeName(t) && !(t.kind == tIdent && (t.text == "vector" || t.text == "matrix" || doubleTypeName(t.text))) {
		if t.kind == tIdent && !keywords[t.text] {
			*ps.diags = append(*ps.diags, Diag{File: ps.file, Line: t.line, Col: t.col, Code: eUndeclared, Msg: cutText("undeclared identifier '" + t.text + "'")})
			panic(bailout{})
		}
		ps.fail(t)
	}
	ps.p++
	ts := &typeSpec{pos: pos{t.line, t.col}, name: t.text, rowMajor: m.rowMajor, colMajor: m.colMajor, unsigned: unsigned, latent: ps.latentAt(ps.p - 1)}
	if a := caseTypeAlias(t.text); a != "" && !ps.structs[t.text] {
		if ps.is("<") || named {
			ps.fail(ps.peek()) // Matrix<float, 2, 2>: only matrix takes the arguments
		}
		ts.name = map[string]string{"dword": "uint", "matrix": "float4x4", "vector": "float4"}[a] // never a typedef of the lower-case name
	}
	if ps.is("<") {
		ps.next()
		for !ps.is(">") {
			if n := ps.peekN(1); ts.argType != "" && !(ps.peek().kind == tInt && (n.text == "," || n.text == ">")) {
				// A count written as a constant expression
				// (Texture2DMS<float4, size - 1>): no comparison, whose
				// '>' would close the list.
				ts.argExprs = append(ts.argExprs, make([]Expr, len(ts.args)-len(ts.argExprs))...)
				ts.argExprs = append(ts.argExprs, ps.binary(binPrec[">"]))
				ts.args = append(ts.args, 0)
				if !ps.accept(",") {
					break
				}
				continue
			}
			a := ps.next()
			switch a.kind {
			case tIdent:
				if (a.text == "struct" || a.text == "unorm" || a.text == "snorm") && ps.peek().kind == tIdent {
					a = ps.next() // RWStructuredBuffer<struct s>, RWTexture2D<unorm float>
				}
				ts.argType = a.text
				if a.text == "unsigned" && strings.HasPrefix(ps.peek().text, "int") {
					ts.argType = "u" + ps.next().text
				}
			case tInt:
				ts.args = append(ts.args, int(a.ival))
			default:
				ps.fail(a)
			}
			if !ps.accept(",") {
				break
			}
		}
		ps.expect(">")
	}
	return ts
}

func (ps *parser) structDecl() *structDecl {
	t := ps.expect("struct")
	name := token{text: fmt.Sprintf("<unnamed %d:%d>", t.line, t.col)}
	if !ps.is("{") {
		name = ps.ident()
	}
	s := &structDecl{pos: pos{t.line, t.col}, name: name.text}
	if ps.accept(":") {
		s.base = ps.ident() // struct b : a: a's members first (one base)
	}
	ps.structs[name.text] = true
	ps.expect("{")
	for !ps.accept("}") {
		m := ps.modifiers()
		typ := ps.typeSpec(m)
		for {
			n := ps.ident()
			v := ps.varRest(typ, n, m, false)
			if v.packoff != "" {
				// fxc: packoffset places a constant buffer's own
				// variables, not a struct's members.
				ps.failMsg(n, "syntax error: packoffset is for the variables of a constant buffer, not struct member '"+n.text+"'")
			}
			s.fields = append(s.fields, v)
			if !ps.accept(",") {
				break
			}
		}
		ps.expect(";")
	}
	return s
}

// typedef parses `typedef [modifiers] TYPE NAME[dims] {, NAME[dims]};`.
func (ps *parser) typedef() *typedefDecl {
	t := ps.expect("typedef")
	m := ps.modifiers()
	d := &typedefDecl{pos: pos{t.line, t.col}, typ: ps.typeSpec(m)}
	for {
		n := ps.declName()
		v := &varDecl{pos: pos{n.line, n.col}, typ: d.typ, name: n.text}
		for ps.accept("[") {
			if t := ps.peek(); ps.accept("]") {
				v.arrayLen = append(v.arrayLen, &implicitDim{pos{t.line, t.col}})
				continue
			}
			v.arrayLen = append(v.arrayLen, ps.expr())
			ps.expect("]")
		}
		d.names = append(d.names, v)
		ps.structs[n.text] = true
		if !ps.accept(",") {
			break
		}
	}
	return d
}

func (ps *parser) cbuffer() *cbufferDecl {
	t := ps.expect("cbuffer")
	name := ps.ident()
	c := &cbufferDecl{pos: pos{t.line, t.col}, name: name.text}
	if ps.accept(":") {
		c.regs = ps.addRegister(c.regs)
		for ps.accept(":") {
			c.regs = ps.addRegister(c.regs)
		}
	}
	ps.annotations() // cbuffer cb : register(b1) < int i = 1; >
	ps.expect("{")
	for !ps.accept("}") {
		m := ps.modifiers()
		typ := ps.typeSpec(m)
		for {
			n := ps.ident()
			if caseTypeAlias(n.text) != "" {
				ps.shadow[n.text] = true // a variable named Matrix (typenames.go)
			}
			v := ps.varRest(typ, n, m, true) // a default value, for the effects framework
			c.vars = append(c.vars, v)
			if !ps.accept(",") {
				break
			}
		}
		ps.expect(";")
	}
	ps.accept(";")
	return c
}

// register parses "register(t0)", "register(ps, t0)", "register(ps_5_0,
// t[0])" or "register(ps[2], c1)" after the colon. A profile is written
// in lower case; a reservation with a bind point in brackets after its
// profile is parsed and then ignored, as fxc ignores it.
func (ps *parser) register() regSpec {
	t := ps.expect("register")
	ps.expect("(")
	r := ps.ident()
	spec := regSpec{pos: pos{t.line, t.col}}
	isProfile := len(r.text) >= 2 && (r.text[1] < '0' || r.text[1] > '9') // ps, ps_5_0; c, c0, t1 are registers
	if ps.is(",") || ps.is("[") && isProfile {
		spec.profile = r.text
		if ps.accept("[") {
			ps.expr()
			ps.expect("]")
			spec.ignored = true
		}
		ps.expect(",")
		r = ps.ident()
	}
	spec.reg = strings.ToLower(r.text)
	if ps.accept("[") {
		// c2[1] is c3, t[1] is t1: the offset is a constant expression
		// (floats truncated, bools 0 or 1).
		x := ps.expr()
		off, ok := constFold(x)
		if !ok {
			ps.failMsg(ps.toks[ps.p-1], "syntax error: a register's offset is a constant expression")
		}
		letter, digits := spec.reg[:1], leadingDigits(spec.reg[1:])
		base, _ := strconv.ParseInt(digits, 10, 32)
		spec.reg = letter + strconv.FormatInt(max(0, min(base+int64(off), 1<<20)), 10)
		ps.expect("]")
	}
	ps.expect(")")
	return spec
}

// addRegister parses a register annotation and adds it to the list
// unless fxc ignores it.
func (ps *parser) addRegister(regs []regSpec) []regSpec {
	if r := ps.register(); !r.ignored {
		regs = append(regs, r)
	}
	return regs
}

// varRest parses what follows a declared name: array sizes, semantics,
// register and packoffset annotations, an initialiser.
func (ps *parser) varRest(typ *typeSpec, name token, m mods, allowInit bool) *varDecl {
	v := &varDecl{pos: pos{name.line, name.col}, typ: typ, name: name.text, static: m.static, constQ: m.constQ,
		uniform: m.uniform, inout: m.inout, interp: m.interp}
	for ps.accept("[") {
		if t := ps.peek(); ps.accept("]") {
			v.arrayLen = append(v.arrayLen, &implicitDim{pos{t.line, t.col}}) // float a[] = {...}: the initialiser sizes it
			continue
		}
		v.arrayLen = append(v.arrayLen, ps.expr())
		ps.expect("]")
	}
	for ps.accept(":") {
		switch {
		case ps.is("register"):
			v.regs = ps.addRegister(v.regs)
		case ps.is("packoffset"):
			ps.next()
			ps.expect("(")
			r := ps.ident()
			v.packoff = strings.ToLower(r.text)
			if ps.accept(".") {
				c := ps.ident()
				v.packoff += "." + strings.ToLower(c.text)
			}
			ps.expect(")")
		default:
			s := ps.ident()
			v.semantic = s.text
		}
	}
	if ps.is("{") {
		// A state block of the effects framework: parsed and checked as fxc
		// checks it, then ignored (D3D11 sets state through the API).
		v.states = ps.stateBlock()
		return v
	}
	if ps.accept("=") {
		if !allowInit {
			ps.fail(ps.toks[ps.p-1])
		}
		if ps.is("{") {
			v.init = ps.initList()
		} else {
			v.init = ps.assign()
		}
	}
	return v
}

// stateBlock parses `{ name[index] = value; ... }` or, for a variable of
// several components, a list of such blocks `{ {...}, {...} }` (no comma
// after the last). An index is a non-negative integer literal; a value is
// an expression or a braced list that may hold strings.
func (ps *parser) stateBlock() *stateBlock {
	ps.enter()
	defer func() { ps.depth-- }()
	t := ps.expect("{")
	sb := &stateBlock{pos: pos{t.line, t.col}}
	if ps.is("{") {
		sb.list = true
		for {
			sb.blocks = append(sb.blocks, ps.stateEntries())
			if !ps.accept(",") {
				break
			}
		}
		ps.expect("}")
		return sb
	}
	ps.p--
	sb.blocks = append(sb.blocks, ps.stateEntries())
	return sb
}

func (ps *parser) stateEntries() []stateEntry {
	ps.expect("{")
	var es []stateEntry
	for !ps.accept("}") {
		n := ps.ident()
		e := stateEntry{pos: pos{n.line, n.col}, name: n.text, index: -1}
		if ps.accept("[") {
			i := ps.next()
			if i.kind != tInt {
				ps.fail(i)
			}
			e.index = int(min(i.ival, 1<<20))
			ps.expect("]")
		}
		if e.index < 0 && ps.is("(") {
			// SetPixelShader(...), SetDepthStencilState(...) in a pass.
			e.values, e.call = ps.args(), true
			ps.expect(";")
			es = append(es, e)
			continue
		}
		ps.expect("=")
		if ps.is("{") {
			e.values = ps.stateValues(e.values)
		} else {
			e.values = append(e.values, ps.expr())
		}
		ps.expect(";")
		es = append(es, e)
	}
	return es
}

// stateValues parses a braced list of a state's values, keeping the
// expressions (strings are skipped).
func (ps *parser) stateValues(out []Expr) []Expr {
	ps.enter()
	defer func() { ps.depth-- }()
	ps.expect("{")
	for !ps.accept("}") {
		switch {
		case ps.is("{"):
			out = ps.stateValues(out)
		case ps.peek().kind == tString:
			ps.next()
		default:
			out = append(out, ps.assign())
		}
		if !ps.accept(",") {
			ps.expect("}")
			break
		}
	}
	return out
}

// isTechnique reports the keywords that start a technique: "technique" in
// any case, technique10 and technique11 as written.
func isTechnique(s string) bool {
	return strings.EqualFold(s, "technique") || s == "technique10" || s == "technique11"
}

// technique parses an effect's technique (`technique11 name <annotations>
// { pass name { states } ... }`) or group of them (`fxgroup name {
// technique10 ... }`), and returns the passes' state blocks: a shader
// profile checks them and ignores the rest, as fxc does.
func (ps *parser) technique() []*stateBlock {
	ps.enter()
	defer func() { ps.depth-- }()
	t := ps.next()
	group := t.text == "fxgroup"
	if group || !ps.is("{") && !ps.is("<") {
		ps.ident()
	}
	ps.annotations()
	ps.expect("{")
	var out []*stateBlock
	for !ps.accept("}") {
		if group {
			if n := ps.peek(); n.text != "technique10" && n.text != "technique11" {
				ps.fail(n)
			}
			out = append(out, ps.technique()...)
			continue
		}
		p := ps.peek()
		if p.text != "pass" {
			ps.fail(p)
		}
		ps.next()
		if !ps.is("{") && !ps.is("<") {
			ps.ident()
		}
		ps.annotations()
		out = append(out, &stateBlock{pos: pos{p.line, p.col}, blocks: [][]stateEntry{ps.stateEntries()}})
	}
	ps.accept(";")
	return out
}

// annotations skips `<type name = value; ...>` after an effect's name.
func (ps *parser) annotations() {
	if !ps.accept("<") {
		return
	}
	for !ps.accept(">") {
		if ps.peek().kind == tEOF {
			ps.fail(ps.peek())
		}
		ps.next()
	}
}

func (ps *parser) initList() Expr {
	ps.enter()
	defer func() { ps.depth-- }()
	t := ps.expect("{")
	l := &initList{pos: pos{t.line, t.col}}
	for !ps.accept("}") {
		if ps.is("{") {
			l.elems = append(l.elems, ps.initList())
		} else {
			l.elems = append(l.elems, ps.assign())
		}
		if !ps.accept(",") {
			ps.expect("}")
			break
		}
	}
	return l
}

// primQualifier takes a geometry shader's input primitive qualifier
// (triangle VSOut v[3]) before a parameter's type.
func (ps *parser) primQualifier() string {
	if t := ps.peek(); t.kind == tIdent && gsPrims[t.text] != [2]int{} && ps.peekN(1).kind == tIdent {
		ps.next()
		return t.text
	}
	return ""
}

func (ps *parser) function(ret *typeSpec, name token) *funcDecl {
	fn := &funcDecl{pos: pos{name.line, name.col}, ret: ret, name: name.text}
	saved := ps.varShadow
	defer func() { ps.varShadow = saved }() // a parameter's name shadows a type in its function only
	ps.expect("(")
	if ps.is("void") && ps.peekN(1).text == ")" {
		ps.next()
	}
	for !ps.accept(")") {
		prim := ps.primQualifier()
		m := ps.modifiers()
		if prim == "" {
			prim = ps.primQualifier()
		}
		typ := ps.typeSpec(m)
		n := ps.ident()
		if ps.structs[n.text] || caseTypeAlias(n.text) != "" {
			// out vertex vertex: in the body the name is the
			// parameter, as fxc reads it.
			ps.shadowVar(n.text)
		}
		fn.params = append(fn.params, ps.varRest(typ, n, m, true))
		fn.params[len(fn.params)-1].prim = prim
		if !ps.accept(",") {
			ps.expect(")")
			break
		}
	}
	for ps.accept(":") {
		fn.semantic = ps.ident().text // fxc: the last of several semantics counts
	}
	if ps.accept(";") {
		return fn // a prototype
	}
	fn.body = ps.block()
	return fn
}

func (ps *parser) block() *blockStmt {
	t := ps.expect("{")
	b := &blockStmt{pos: pos{t.line, t.col}}
	for !ps.accept("}") {
		if ps.peek().kind == tEOF {
			ps.fail(ps.peek())
		}
		b.list = append(b.list, ps.stmt())
	}
	return b
}

func (ps *parser) stmt() Stmt {
	ps.enter()
	defer func() { ps.depth-- }()
	attrs := ps.attributes()
	unroll, hint := ps.unrollCount(attrs), loopHint(attrs)
	t := ps.peek()
	p := pos{t.line, t.col}
	switch {
	case ps.is("{"):
		return ps.block()
	case ps.accept(";"):
		return &emptyStmt{p}
	case ps.accept("if"):
		ps.expect("(")
		s := &ifStmt{pos: p, cond: ps.expr()}
		ps.expect(")")
		s.then = ps.stmt()
		if ps.accept("else") {
			s.els_ = ps.stmt()
		}
		return s
	case ps.accept("for"):
		ps.expect("(")
		s := &forStmt{pos: p}
		if !ps.accept(";") {
			s.init = ps.simpleStmt()
			ps.expect(";")
		}
		if !ps.is(";") {
			s.cond = ps.expr()
		}
		ps.expect(";")
		if !ps.is(")") {
			s.post = ps.expr()
		}
		ps.expect(")")
		s.body = ps.stmt()
		s.unroll, s.hint, s.unrollAll = unroll, hint, bareUnroll(attrs)
		return s
	case ps.accept("while"):
		ps.expect("(")
		s := &whileStmt{pos: p, cond: ps.expr(), unroll: unroll, hint: hint}
		ps.expect(")")
		s.body = ps.stmt()
		return s
	case ps.accept("do"):
		s := &whileStmt{pos: p, do: true, unroll: unroll, hint: hint}
		s.body = ps.stmt()
		ps.expect("while")
		ps.expect("(")
		s.cond = ps.expr()
		ps.expect(")")
		ps.expect(";")
		return s
	case ps.accept("return"):
		s := &returnStmt{pos: p}
		if !ps.is(";") {
			s.x = ps.expr()
		}
		ps.expect(";")
		return s
	case ps.is("break") || ps.is("continue") || ps.is("discard"):
		ps.next()
		ps.expect(";")
		return &jumpStmt{pos: p, kind: t.text}
	case ps.accept("switch"):
		ps.expect("(")
		s := &switchStmt{pos: p, sel: ps.expr()}
		ps.expect(")")
		ps.expect("{")
		var g *caseGroup
		for !ps.accept("}") {
			l := ps.peek()
			switch {
			case ps.accept("case"):
				x := ps.ternary()
				ps.expect(":")
				if g == nil || len(g.body) > 0 {
					g = &caseGroup{}
					s.groups = append(s.groups, g)
				}
				g.labels = append(g.labels, caseLabel{pos: pos{l.line, l.col}, x: x})
			case ps.accept("default"):
				ps.expect(":")
				if g == nil || len(g.body) > 0 {
					g = &caseGroup{}
					s.groups = append(s.groups, g)
				}
				g.labels = append(g.labels, caseLabel{pos: pos{l.line, l.col}})
			default:
				if g == nil {
					ps.fail(l)
				}
				g.body = append(g.body, ps.stmt())
			}
		}
		return s
	}
	s := ps.simpleStmt()
	ps.expect(";")
	return s
}

// simpleStmt is a declaration or an expression (for-loop init included).
func (ps *parser) simpleStmt() Stmt {
	t := ps.peek()
	p := pos{t.line, t.col}
	if t.text == "typedef" {
		ps.local = true // a function's typedef may name a built-in type (typenames.go)
		defer func() { ps.local = false }()
		return &typeStmt{pos: p, decl: ps.typedef()}
	}
	if (t.kind == tIdent && modifiers[t.text]) || ps.isTypeName(t) && ps.peekN(1).kind == tIdent || ps.isTypeName(t) && ps.peekN(1).text == "<" ||
		t.text == "struct" || ps.isUnsupportedType(t) && ps.peekN(1).kind == tIdent || t.text == "unsigned" && ps.isTypeName(ps.peekN(1)) {
		m := ps.modifiers()
		if m.uniform || m.inout != "" {
			ps.failMsg(t, "syntax error: a local variable cannot be uniform, in or out")
		}
		typ := ps.typeSpec(m)
		if typ.def != nil && ps.is(";") {
			return &typeStmt{pos: p, decl: typ.def}
		}
		d := &declStmt{pos: p, def: typ.def}
		for {
			n := ps.ident()
			if builtinType(n.text) != nil || caseTypeAlias(n.text) != "" || ps.isUnsupportedType(n) {
				ps.shadowVar(n.text) // float4 float: a name in the function from here on (typenames.go)
			}
			d.vars = append(d.vars, ps.varRest(typ, n, m, true))
			if !ps.accept(",") {
				break
			}
		}
		return d
	}
	return &exprStmt{pos: p, x: ps.expr()}
}

func (ps *parser) expr() Expr {
	x := ps.assign()
	for ps.is(",") {
		t := ps.next()
		y := ps.assign()
		x = &binaryExpr{pos: pos{t.line, t.col}, op: ",", x: x, y: y}
	}
	return x
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

func (ps *parser) assign() Expr {
	ps.enter()
	defer func() { ps.depth-- }()
	x := ps.ternary()
	if t := ps.peek(); t.kind == tPunct && assignOps[t.text] {
		ps.next()
		return &assignExpr{pos: pos{t.line, t.col}, op: t.text, l: x, r: ps.assign()}
	}
	return x
}

func (ps *parser) ternary() Expr {
	c := ps.binary(0)
	if t := ps.peek(); ps.accept("?") {
		a := ps.assign()
		ps.expect(":")
		b := ps.assign()
		return &condExpr{pos: pos{t.line, t.col}, c: c, a: a, b: b}
	}
	return c
}

var binPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (ps *parser) binary(minPrec int) Expr {
	ps.enter()
	defer func() { ps.depth-- }()
	x := ps.unary()
	for {
		t := ps.peek()
		p, ok := binPrec[t.text]
		if t.kind != tPunct || !ok || p <= minPrec {
			return x
		}
		ps.next()
		y := ps.binary(p)
		x = &binaryExpr{pos: pos{t.line, t.col}, op: t.text, x: x, y: y}
	}
}

func (ps *parser) unary() Expr {
	ps.enter()
	defer func() { ps.depth-- }()
	t := ps.peek()
	p := pos{t.line, t.col}
	if t.kind == tPunct {
		switch t.text {
		case "-", "+", "!", "~", "++", "--":
			ps.next()
			return &unaryExpr{pos: p, op: t.text, x: ps.unary()}
		case "(":
			// A cast: '(' type ')' unary.
			if n := ps.peekN(1); ps.isTypeName(n) || n.kind == tIdent && modifiers[n.text] || ps.isUnsupportedType(n) && ps.peekN(2).text == ")" {
				save := ps.p
				ps.next()
				m := ps.modifiers()
				typ := ps.typeSpec(m)
				var dims []Expr
				for ps.accept("[") {
					dims = append(dims, ps.expr())
					ps.expect("]")
				}
				if ps.accept(")") {
					return &castExpr{pos: p, typ: typ, dims: dims, x: ps.unary()}
				}
				ps.p = save
			}
		}
	}
	return ps.postfix(ps.primary())
}

func (ps *parser) postfix(x Expr) Expr {
	for {
		t := ps.peek()
		p := pos{t.line, t.col}
		switch {
		case ps.accept("."):
			n := ps.peek()
			if n.kind != tIdent {
				ps.fail(n)
			}
			ps.next()
			if ps.is("(") {
				x = &callExpr{pos: pos{n.line, n.col}, recv: x, name: n.text, args: ps.args()}
			} else {
				x = &memberExpr{pos: pos{n.line, n.col}, x: x, name: n.text}
			}
		case ps.accept("["):
			i := ps.expr()
			ps.expect("]")
			x = &indexExpr{pos: p, x: x, i: i}
		case ps.is("++") || ps.is("--"):
			ps.next()
			x = &unaryExpr{pos: p, op: t.text, x: x, postfix: true}
		default:
			return x
		}
	}
}

func (ps *parser) args() []Expr {
	ps.expect("(")
	var a []Expr
	for !ps.accept(")") {
		a = append(a, ps.assign())
		if !ps.accept(",") {
			ps.expect(")")
			break
		}
	}
	return a
}

func (ps *parser) primary() Expr {
	t := ps.peek()
	p := pos{t.line, t.col}
	switch t.kind {
	case tInt:
		ps.next()
		u := strings.ContainsAny(t.text, "uU")
		return &intLit{pos: p, v: t.ival, uns: u, text: t.text}
	case tString:
		ps.next()
		text := t.text
		for ps.peek().kind == tString { // "foo" "bar" is "foobar"
			text += ps.next().text
		}
		return &stringLit{pos: p, s: text}
	case tFloat:
		ps.next()
		return &floatLit{pos: p, v: t.fval, typed: strings.ContainsAny(t.text[len(t.text)-1:], "fFhHlL"), dbl: strings.ContainsAny(t.text, "lL")}
	case tIdent:
		switch t.text {
		case "true", "false":
			ps.next()
			return &boolLit{pos: p, v: t.text == "true"}
		case "compile":
			if n := ps.peekN(1); n.kind == tIdent && ps.peekN(2).kind == tIdent {
				ps.next()
				ps.next()
				return &compileExpr{pos: p, profile: n.text, call: ps.postfix(ps.primary())}
			}
		case "sampler_state":
			if ps.peekN(1).text == "{" {
				ps.next()
				return &stateExpr{pos: p, sb: ps.stateBlock()}
			}
		}
		// A struct's name where no constructor follows is a variable
		// of that name (out vertex vertex; vertex.pos = p), as fxc reads it.
		asVar := ps.structs[t.text] && builtinType(t.text) == nil && ps.peekN(1).text != "(" && ps.peekN(1).kind != tIdent
		if (ps.isTypeName(t) || t.text == "vector" || t.text == "matrix" || ps.isUnsupportedType(t) && ps.peekN(1).text == "(") && !asVar {
			typ := ps.typeSpec(mods{})
			if !ps.is("(") {
				ps.fail(ps.peek())
			}
			return &ctorExpr{pos: p, typ: typ, args: ps.args()}
		}
		if keywords[t.text] {
			ps.fail(t)
		}
		ps.next()
		if ps.is("(") {
			return &callExpr{pos: p, name: t.text, args: ps.args()}
		}
		return &identExpr{pos: p, name: t.text}
	case tPunct:
		if t.text == "(" {
			ps.next()
			x := ps.expr()
			ps.expect(")")
			return x
		}
	}
	ps.fail(t)
	return nil
}

// constFold evaluates a literal arithmetic expression (numbers, bools,
// + - * / and negation) as fxc does a register offset.
func constFold(e Expr) (float64, bool) {
	switch e := e.(type) {
	case *intLit:
		return float64(e.v), true
	case *floatLit:
		return e.v, true
	case *boolLit:
		if e.v {
			return 1, true
		}
		return 0, true
	case *unaryExpr:
		x, ok := constFold(e.x)
		switch {
		case !ok:
		case e.op == "-":
			return -x, true
		case e.op == "+":
			return x, true
		}
	case *binaryExpr:
		x, ok1 := constFold(e.x)
		y, ok2 := constFold(e.y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.op {
		case "+":
			return x + y, true
		case "-":
			return x - y, true
		case "*":
			return x * y, true
		case "/":
			if y != 0 {
				return x / y, true
			}
		}
	}
	return 0, false
}
