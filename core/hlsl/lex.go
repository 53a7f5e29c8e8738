package hlsl

import (
	"slices"
	"strconv"
	"strings"
)

// tokKind is a lexical class.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tPunct
	tString
	tPragma // #pragma pack_matrix(row_major|column_major): text is the packing
)

type token struct {
	kind tokKind
	text string
	line int
	col  int
	ival uint64
	fval float64
}

// Limits that keep hostile input bounded in time and memory (the
// budgets that may be raised are in Limits, limits.go).
const (
	maxSource     = 1 << 20        // bytes of source
	maxMacroDepth = 32             // nested macro expansions
	maxErrors     = MaxDiagnostics // errors collected before giving up
)

var puncts = []string{
	"<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=", "<=", ">=",
	"&&", "||", "<<", ">>", "::", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":",
	";", ",", ".", "(", ")", "[", "]", "{", "}", "#",
}

// lexer turns source text into tokens and runs the preprocessor.
type lexer struct {
	file   string
	diags  *[]Diag
	macros map[string]*macro
	lim    Limits
	more   int  // errors past MaxDiagnostics, only counted
	budget int  // tokens macro expansion may still make (Limits.Tokens)
	over   bool // the budget ran out: expand no further
}

type macro struct {
	params []string // nil for an object-like macro
	fn     bool
	body   []token
}

func (lx *lexer) errorf(line, col, code int, format string, args ...any) {
	if len(*lx.diags) >= MaxDiagnostics {
		lx.more++
		return
	}
	*lx.diags = append(*lx.diags, Diag{File: lx.file, Line: line, Col: col, Code: code, Msg: cutText(sprintf(format, args...))})
}

// stripComments replaces comments by spaces, keeping newlines so that
// positions stay where the author sees them.
func stripComments(src []byte) []byte {
	out := make([]byte, len(src))
	copy(out, src)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"' && out[i] != '\n'; i++ {
				if out[i] == '\\' && i+1 < len(out) && out[i+1] != '\n' {
					i++ // an escape: \" does not end the string
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					i++
					break
				}
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
		}
	}
	return out
}

type srcLine struct {
	text string
	line int
}

// logicalLines joins lines ending in a backslash, keeping the first line's
// number. The joined line is built once, in time linear in its length (a
// 256 KiB run of continuations used to take seconds, each join copying the
// line so far).
func logicalLines(src []byte) []srcLine {
	raw := strings.Split(string(src), "\n")
	var out []srcLine
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		start := i
		s := strings.TrimRight(raw[i], "\r")
		if !strings.HasSuffix(s, "\\") || i+1 >= len(raw) {
			out = append(out, srcLine{s, start + 1})
			continue
		}
		b.Reset()
		for strings.HasSuffix(s, "\\") && i+1 < len(raw) {
			b.WriteString(s[:len(s)-1])
			b.WriteByte(' ')
			i++
			s = strings.TrimRight(raw[i], "\r")
		}
		b.WriteString(s)
		out = append(out, srcLine{b.String(), start + 1})
	}
	return out
}

// lexLine splits one line into tokens.
func (lx *lexer) lexLine(s string, line int, out []token) []token {
	for i := 0; i < len(s); {
		c := s[i]
		col := i + 1
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			out = append(out, token{kind: tIdent, text: s[i:j], line: line, col: col})
			i = j
		case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			j, tok := lx.lexNumber(s, i, line)
			out = append(out, tok)
			i = j
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' && j+1 < len(s) {
					j++ // an escape: \" does not end the string
				}
				j++
			}
			out = append(out, token{kind: tString, text: s[i+1 : min(j, len(s))], line: line, col: col})
			i = j + 1
		default:
			matched := false
			for _, p := range puncts {
				if strings.HasPrefix(s[i:], p) {
					out = append(out, token{kind: tPunct, text: p, line: line, col: col})
					i += len(p)
					matched = true
					break
				}
			}
			if !matched {
				lx.errorf(line, col, eSyntax, "syntax error: unexpected token '%s'", printable(c))
				i++
			}
		}
	}
	return out
}

func printable(c byte) string {
	if c < 32 || c > 126 {
		return sprintf("\\x%02x", c)
	}
	return string(c)
}

func (lx *lexer) lexNumber(s string, i, line int) (int, token) {
	col := i + 1
	j := i
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") {
		j += 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		v, err := strconv.ParseUint(s[i+2:j], 16, 64)
		if err != nil || v > 0xffffffff {
			lx.errorf(line, col, eSyntax, "syntax error: integer literal '%s' out of range", s[i:j])
		}
		for j < len(s) && (s[j] == 'u' || s[j] == 'U' || s[j] == 'l' || s[j] == 'L') {
			j++
		}
		return j, token{kind: tInt, text: s[i:j], line: line, col: col, ival: v}
	}
	isFloat := false
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '.' && !(j+1 < len(s) && isIdentStart(s[j+1]) && s[j+1] != 'e' && s[j+1] != 'E' && s[j+1] != 'f' && s[j+1] != 'h') {
		isFloat = true
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			isFloat = true
			for j = k; j < len(s) && isDigit(s[j]); j++ {
			}
		}
	}
	text := s[i:j]
	if j < len(s) && (s[j] == 'f' || s[j] == 'F' || s[j] == 'h' || s[j] == 'H') {
		isFloat = true
		j++
	} else if isFloat && j < len(s) && (s[j] == 'l' || s[j] == 'L') {
		// A double: 1.5l, 1.5L, 1.5lf, 1.5LF.
		j++
		if j < len(s) && (s[j] == 'f' || s[j] == 'F') {
			j++
		}
	} else if !isFloat {
		// Integer suffixes: u, l, and both in either order (3lu).
		for j < len(s) && (s[j] == 'u' || s[j] == 'U' || s[j] == 'l' || s[j] == 'L') {
			j++
		}
	}
	if isFloat {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil && v == 0 {
			lx.errorf(line, col, eSyntax, "syntax error: bad floating-point literal '%s'", text)
		}
		return j, token{kind: tFloat, text: s[i:j], line: line, col: col, fval: v}
	}
	base := 10
	if len(text) > 1 && text[0] == '0' {
		base = 8
	}
	v, err := strconv.ParseUint(text, base, 64)
	if err != nil || v > 0xffffffff {
		lx.errorf(line, col, eSyntax, "syntax error: integer literal '%s' out of range", text)
		v = 0
	}
	return j, token{kind: tInt, text: s[i:j], line: line, col: col, ival: v}
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isHex(c byte) bool        { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// tokenize preprocesses and lexes a whole source: directives #define (with
// or without parameters), #undef, #if/#ifdef/#ifndef/#elif/#else/#endif and
// #pragma (ignored); #include is refused, having no file system.
func (lx *lexer) tokenize(src []byte) []token {
	lx.macros = map[string]*macro{}
	lx.budget = lx.lim.Tokens
	type cond struct{ active, taken, parentActive bool }
	var stack []cond
	active := true
	var toks []token
	for _, ln := range logicalLines(stripComments(src)) {
		trimmed := strings.TrimLeft(ln.text, " \t")
		if strings.HasPrefix(trimmed, "#") {
			line := lx.lexLine(trimmed[1:], ln.line, nil)
			name := ""
			if len(line) > 0 && line[0].kind == tIdent {
				name = line[0].text
				line = line[1:]
			}
			switch name {
			case "if", "ifdef", "ifndef":
				v := false
				if active {
					switch name {
					case "if":
						v = lx.evalIf(line, ln.line)
					case "ifdef":
						v = len(line) > 0 && lx.macros[line[0].text] != nil
					default:
						v = len(line) > 0 && lx.macros[line[0].text] == nil
					}
				}
				stack = append(stack, cond{active: active && v, taken: v, parentActive: active})
				active = active && v
			case "elif", "else":
				if len(stack) == 0 {
					lx.errorf(ln.line, 1, eSyntax, "syntax error: #%s without #if", name)
					continue
				}
				top := &stack[len(stack)-1]
				v := !top.taken
				if name == "elif" && v && top.parentActive {
					v = lx.evalIf(line, ln.line)
				}
				top.active = top.parentActive && v
				top.taken = top.taken || v
				active = top.active
			case "endif":
				if len(stack) == 0 {
					lx.errorf(ln.line, 1, eSyntax, "syntax error: #endif without #if")
					continue
				}
				active = stack[len(stack)-1].parentActive
				stack = stack[:len(stack)-1]
			case "define":
				if active {
					lx.define(trimmed, line, ln.line)
				}
			case "undef":
				if active && len(line) > 0 {
					delete(lx.macros, line[0].text)
				}
			case "pragma":
				// pack_matrix sets the packing of the matrices declared after
				// it: the parser reads it where it stands.
				if active && len(line) >= 4 && line[0].text == "pack_matrix" && line[1].text == "(" && line[3].text == ")" &&
					(line[2].text == "row_major" || line[2].text == "column_major") {
					toks = append(toks, token{kind: tPragma, text: line[2].text, line: ln.line, col: 1})
				}
			case "line", "":
			case "include":
				if active {
					lx.errorf(ln.line, 1, eSyntax, "not supported by this compiler: #include (d3dsim compiles one source file)")
				}
			case "error":
				if active {
					lx.errorf(ln.line, 1, eSyntax, "#error%s", strings.TrimPrefix(strings.TrimLeft(trimmed[1:], " \t"), "error"))
				}
			default:
				if active {
					lx.errorf(ln.line, 1, eSyntax, "syntax error: unknown preprocessor directive '#%s'", name)
				}
			}
			continue
		}
		if active {
			// A line has at most a token a byte; growing the slice to
			// twice its length when it runs short allocates twice the
			// final size in all, where append's 1.25x steps for large
			// slices allocate five times it.
			if cap(toks)-len(toks) < len(ln.text) {
				toks = slices.Grow(toks, max(len(toks), len(ln.text)))
			}
			toks = lx.lexLine(ln.text, ln.line, toks)
			if len(toks) > lx.lim.Tokens {
				lx.errorf(ln.line, 1, eSyntax, "source too large: more than %d tokens, the limit (%s)", lx.lim.Tokens, limitName("Tokens"))
				return nil
			}
		}
	}
	if len(stack) > 0 {
		lx.errorf(len(logicalLines(src)), 1, eSyntax, "syntax error: unexpected end of file in #if")
	}
	lx.budget -= len(toks)
	out := lx.expand(make([]token, 0, len(toks)), toks, nil, 0, &lx.budget)
	if w := lx.lim.work; w != nil {
		w.Tokens += lx.lim.Tokens - lx.budget
	}
	return out
}

func (lx *lexer) define(text string, line []token, n int) {
	if len(line) == 0 || line[0].kind != tIdent {
		lx.errorf(n, 1, eSyntax, "syntax error: #define needs a name")
		return
	}
	name := line[0].text
	m := &macro{}
	rest := line[1:]
	// A function-like macro has '(' right after the name, with no space.
	if len(rest) > 0 && rest[0].text == "(" && rest[0].col == line[0].col+len(name) {
		m.fn = true
		i := 1
		for ; i < len(rest) && rest[i].text != ")"; i++ {
			if rest[i].kind == tIdent {
				m.params = append(m.params, rest[i].text)
			}
		}
		if i >= len(rest) {
			lx.errorf(n, 1, eSyntax, "syntax error: missing ')' in macro parameter list")
			return
		}
		rest = rest[i+1:]
	}
	m.body = rest
	lx.macros[name] = m
}

// expand appends toks to out with macro uses replaced; hide holds the
// macros being expanded, so a macro never expands inside itself. Every level
// appends to the one out, so a deep expansion is not copied up level by level.
func (lx *lexer) expand(out, toks []token, hide []string, depth int, budget *int) []token {
	if lx.over {
		return out
	}
	if depth > maxMacroDepth {
		if len(toks) > 0 {
			lx.errorf(toks[0].line, toks[0].col, eSyntax, "macro expansion nested too deeply")
		}
		return out
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		m := lx.macros[t.text]
		if t.kind != tIdent || m == nil || contains(hide, t.text) {
			out = append(out, t)
			continue
		}
		body := m.body
		if m.fn {
			if i+1 >= len(toks) || toks[i+1].text != "(" {
				out = append(out, t)
				continue
			}
			var args [][]token
			var cur []token
			level := 0
			j := i + 2
			for ; j < len(toks); j++ {
				s := toks[j].text
				if toks[j].kind == tPunct && (s == "(" || s == "[" || s == "{") {
					level++
				} else if toks[j].kind == tPunct && (s == ")" || s == "]" || s == "}") {
					if level == 0 && s == ")" {
						break
					}
					level--
				} else if s == "," && level == 0 && toks[j].kind == tPunct {
					args = append(args, cur)
					cur = nil
					continue
				}
				cur = append(cur, toks[j])
			}
			if j >= len(toks) {
				lx.errorf(t.line, t.col, eSyntax, "syntax error: unterminated macro call '%s'", cutName(t.text))
				return out
			}
			if len(cur) > 0 || len(args) > 0 {
				args = append(args, cur)
			}
			if len(args) != len(m.params) {
				lx.errorf(t.line, t.col, eSyntax, "macro '%s' takes %d arguments, %d given", cutName(t.text), len(m.params), len(args))
				i = j
				continue
			}
			// Each argument is expanded once, and the body's size is
			// known before it is built: a body naming a long argument
			// many times is refused before it is copied.
			exp := make([][]token, len(args))
			done := make([]bool, len(args))
			n := 0
			for _, b := range body {
				k := -1
				if b.kind == tIdent {
					k = index(m.params, b.text)
				}
				if k < 0 {
					n++
					continue
				}
				if !done[k] {
					exp[k], done[k] = lx.expand(nil, args[k], hide, depth+1, budget), true
					if lx.over {
						return out
					}
				}
				n += len(exp[k])
				if n > *budget {
					break
				}
			}
			if n > *budget {
				lx.overBudget(t)
				return out
			}
			sub := make([]token, 0, n)
			for _, b := range body {
				if k := index(m.params, b.text); k >= 0 && b.kind == tIdent {
					sub = append(sub, exp[k]...)
				} else {
					sub = append(sub, b)
				}
			}
			body = sub
			i = j
		}
		*budget -= len(body)
		if *budget < 0 {
			lx.overBudget(t)
			return out
		}
		placed := make([]token, len(body))
		for k, b := range body {
			b.line, b.col = t.line, t.col
			placed[k] = b
		}
		out = lx.expand(out, placed, append(hide[:len(hide):len(hide)], t.text), depth+1, budget)
	}
	return out
}

// overBudget reports that macro expansion passed Limits.Tokens, at the
// use that passed it, and stops all further expansion.
func (lx *lexer) overBudget(t token) {
	lx.over = true
	lx.errorf(t.line, t.col, eSyntax, "macro expansion too large: more than %d tokens after expansion, the limit (%s)", lx.lim.Tokens, limitName("Tokens"))
}

func contains(s []string, x string) bool { return index(s, x) >= 0 }

func index(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// evalIf evaluates a #if expression: integers, defined(X), macros, the C
// operators; an unknown name is 0, as in C.
func (lx *lexer) evalIf(line []token, n int) bool {
	var toks []token
	for i := 0; i < len(line); i++ {
		if line[i].text == "defined" {
			j := i + 1
			paren := j < len(line) && line[j].text == "("
			if paren {
				j++
			}
			v := uint64(0)
			if j < len(line) && lx.macros[line[j].text] != nil {
				v = 1
			}
			if paren {
				j++
			}
			toks = append(toks, token{kind: tInt, ival: v, text: "1", line: n})
			i = j
			continue
		}
		toks = append(toks, line[i])
	}
	// The expansion counts against the whole source's budget: a long
	// macro tested on every line of a large source is as much work as
	// one expanded on every line.
	toks = lx.expand(nil, toks, nil, 0, &lx.budget)
	if lx.over {
		return false
	}
	e := &ifEval{toks: toks}
	v := e.expr(0)
	if e.bad || e.pos != len(e.toks) {
		lx.errorf(n, 1, eSyntax, "syntax error: bad #if expression")
		return false
	}
	return v != 0
}

type ifEval struct {
	toks  []token
	pos   int
	bad   bool
	depth int
}

var ifPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (e *ifEval) expr(minPrec int) int64 {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > 64 {
		e.bad = true
		return 0
	}
	x := e.unary()
	for e.pos < len(e.toks) {
		op := e.toks[e.pos].text
		p, ok := ifPrec[op]
		if !ok || e.toks[e.pos].kind != tPunct || p <= minPrec {
			break
		}
		e.pos++
		y := e.expr(p)
		x = ifBinary(op, x, y, &e.bad)
	}
	return x
}

func ifBinary(op string, x, y int64, bad *bool) int64 {
	b := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "||":
		return b(x != 0 || y != 0)
	case "&&":
		return b(x != 0 && y != 0)
	case "|":
		return x | y
	case "^":
		return x ^ y
	case "&":
		return x & y
	case "==":
		return b(x == y)
	case "!=":
		return b(x != y)
	case "<":
		return b(x < y)
	case ">":
		return b(x > y)
	case "<=":
		return b(x <= y)
	case ">=":
		return b(x >= y)
	case "<<":
		return x << (uint64(y) & 63)
	case ">>":
		return x >> (uint64(y) & 63)
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	case "/", "%":
		if y == 0 {
			*bad = true
			return 0
		}
		if op == "/" {
			return x / y
		}
		return x % y
	}
	return 0
}

func (e *ifEval) unary() int64 {
	e.depth++
	defer func() { e.depth-- }()
	if e.pos >= len(e.toks) || e.depth > 64 {
		e.bad = true
		return 0
	}
	t := e.toks[e.pos]
	e.pos++
	switch {
	case t.kind == tInt:
		return int64(t.ival)
	case t.kind == tIdent:
		return 0
	case t.text == "!":
		if e.unary() == 0 {
			return 1
		}
		return 0
	case t.text == "-":
		return -e.unary()
	case t.text == "~":
		return ^e.unary()
	case t.text == "(":
		v := e.expr(0)
		if e.pos >= len(e.toks) || e.toks[e.pos].text != ")" {
			e.bad = true
			return 0
		}
		e.pos++
		return v
	}
	e.bad = true
	return 0
}
