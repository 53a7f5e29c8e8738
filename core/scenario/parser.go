package scenario

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"d3dsim/core/machine"
)

// The parser turns a scenario's text into a Script (ast.go). It checks syntax
// only: whether a method, an argument name or an enum value exists is the
// checker's business. It stops at the first error and reports it as an *Error
// whose line and column (1-based, columns in bytes) point at the offending
// token.
//
// Grammar (docs/scenario.md, "Syntax"; see lexer.go for tokens and the '#' rule):
//
//	script    = { line } .
//	line      = [ statement ] newline .
//	statement = option | thread | signal | wait | repeat | until | inject | expect | call .
//	option    = "option" word "=" (word | number) .       // only before the first other statement
//	thread    = "thread" name "{" newline { line } "}" .    // '}' alone on its line
//	repeat    = "repeat" count "{" newline { line } "}" .   // 1 <= count <= MaxRepeat
//	until     = "until" cond "max" count "{" newline line { line } "}" . // 1 <= count <= MaxRepeat
//	cond      = "hr" ("==" | "!=") word | data .
//	data      = "data" word cmp ( int | word ) .      // word: TRUE, FALSE or another query
//	cmp       = "==" | "!=" | "<" | "<=" | ">" | ">=" .
//	signal    = "signal" word .      wait = "wait" word .
//	inject    = "inject" word { name "=" value } .
//	expect    = "expect" ( "hr" "==" word | "pixel" word int int "==" colour
//	          | "hash" word "==" hex | "calls" word { word } | "violations" "==" int
//	          | "violation" word | "live" "==" int | data ) .
//	call      = [ name { "," name } "=" ] ( name "." name | name ) { arg } .
//	arg       = name "=" value | value .
//	value     = number | colour | word | word "|" word { "|" word }
//	          | ("f32" | "u16" | "u32") "[" { number [ "," ] | newline } "]"
//	          | ("mesh" | "builtin") ":" word .
//
// A keyword is a keyword only as the first word of a statement and when it is
// not followed by '=' or ',' (so `wait = dev.CreateQuery Query=EVENT` binds an
// object named wait).

// Limits that keep any input cheap to parse.
const (
	MaxSource = 1 << 20 // bytes of scenario text
	MaxRepeat = 1e9     // repeat count, until's max
	MaxData   = 1 << 53 // a number compared with a query's data (exact as a float64)
	maxDepth  = 64      // nesting of blocks
	maxCount  = 1e9     // expect violations/live
	maxCoord  = 1 << 24 // expect pixel X, Y
)

// Parse parses a scenario. file names it in errors (it may be empty). The
// error, if any, is an *Error.
func Parse(file string, src []byte) (*Script, error) {
	if len(src) > MaxSource {
		return nil, &Error{File: file, Line: 1, Col: 1,
			Msg: fmt.Sprintf("scenario too large (%d bytes; the limit is 1 MiB)", len(src))}
	}
	p := &parser{file: file, src: string(src)}
	p.lx = newLexer(p.src)
	s, err := p.script()
	if err != nil {
		return nil, err
	}
	return s, nil
}

type parser struct {
	file     string
	src      string
	lx       *lexer
	ahead    []token // lookahead, at most two tokens
	seenStmt bool    // a statement other than option was parsed
	depth    int     // open blocks
}

func (p *parser) peekN(i int) token {
	for len(p.ahead) <= i {
		p.ahead = append(p.ahead, p.lx.next())
	}
	return p.ahead[i]
}

func (p *parser) peek() token { return p.peekN(0) }

func (p *parser) next() token {
	t := p.peek()
	p.ahead = p.ahead[1:]
	return t
}

// errAt reports an error at t. A lexical error wins over the parser's
// complaint: it is what is wrong at that place.
func (p *parser) errAt(t token, format string, args ...any) *Error {
	msg := t.text
	if t.kind != tError {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{File: p.file, Line: t.pos.Line, Col: t.pos.Col, Msg: msg}
}

// span is the source text from a to b inclusive, shortened for messages.
func (p *parser) span(a, b token) string {
	s := p.src[a.off:b.end]
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// isKeyword reports whether t, the first token of a statement, is keyword kw.
func (p *parser) isKeyword(t token, kw string) bool {
	if t.kind != tIdent || t.text != kw {
		return false
	}
	k := p.peekN(1).kind
	return k != tAssign && k != tComma
}

func endsStmt(k tokKind) bool { return k == tNewline || k == tEOF || k == tRBrace }

// endStmt consumes the end of a statement: a newline or the end of the file.
// after names the statement for the message.
func (p *parser) endStmt(first, last token) *Error {
	t := p.peek()
	switch t.kind {
	case tNewline:
		p.next()
		return nil
	case tEOF:
		return nil
	case tRBrace:
		return p.errAt(t, "'}' must be alone on its line")
	}
	return p.errAt(t, "expected end of line after '%s', found %s", p.span(first, last), describe(t))
}

func (p *parser) script() (*Script, *Error) {
	s := &Script{Name: p.file}
	for {
		t := p.peek()
		switch t.kind {
		case tEOF:
			return s, nil
		case tNewline:
			p.next()
			continue
		case tRBrace:
			return nil, p.errAt(t, "unexpected '}' (no block is open)")
		}
		if p.isKeyword(t, "hlsl") || p.isKeyword(t, "fxc") {
			src, err := p.source()
			if err != nil {
				return nil, err
			}
			if s.Sources == nil {
				s.Sources = map[string]*Source{}
			}
			if old := s.Sources[src.Name]; old != nil {
				return nil, &Error{File: p.file, Line: src.Pos.Line, Col: src.Pos.Col, Msg: fmt.Sprintf("source block %s is already defined at line %d", src.Name, old.Pos.Line)}
			}
			s.Sources[src.Name] = src
			continue
		}
		if p.isKeyword(t, "option") && !p.seenStmt {
			o, err := p.option()
			if err != nil {
				return nil, err
			}
			s.Options = append(s.Options, o)
			continue
		}
		st, err := p.stmt()
		if err != nil {
			return nil, err
		}
		s.Stmts = append(s.Stmts, st)
	}
}

// block parses the lines after '{' (open) up to and including the matching
// '}'.
func (p *parser) block(open token) ([]Stmt, *Error) {
	if t := p.next(); t.kind != tNewline {
		if t.kind == tEOF {
			return nil, p.errAt(t, "unclosed '{' (opened at %d:%d)", open.pos.Line, open.pos.Col)
		}
		return nil, p.errAt(t, "expected end of line after '{', found %s (statements in a block go on their own lines)", describe(t))
	}
	p.depth++
	if p.depth > maxDepth {
		return nil, p.errAt(open, "blocks nested too deeply (more than %d)", maxDepth)
	}
	var body []Stmt
	for {
		t := p.peek()
		switch t.kind {
		case tNewline:
			p.next()
			continue
		case tEOF:
			return nil, p.errAt(t, "unclosed '{' (opened at %d:%d)", open.pos.Line, open.pos.Col)
		case tRBrace:
			p.next()
			if after := p.peek(); after.kind != tNewline && after.kind != tEOF {
				return nil, p.errAt(after, "'}' must be alone on its line, found %s after it", describe(after))
			}
			p.depth--
			return body, nil
		}
		st, err := p.stmt()
		if err != nil {
			return nil, err
		}
		body = append(body, st)
	}
}

// stmt parses one statement other than a leading option, with its end of line.
func (p *parser) stmt() (Stmt, *Error) {
	t := p.peek()
	p.seenStmt = true
	switch {
	case t.kind == tLBrace:
		return nil, p.errAt(t, "unexpected '{' (a block follows 'thread NAME', 'repeat N' or 'until COND max N' on the same line)")
	case t.kind != tIdent:
		return nil, p.errAt(t, "expected a statement, found %s", describe(t))
	case p.isKeyword(t, "option"):
		return nil, p.errAt(t, "option after the first statement")
	case p.isKeyword(t, "hlsl"), p.isKeyword(t, "fxc"):
		return nil, p.errAt(t, "%s blocks go at the top level, not inside a block", t.text)
	case p.isKeyword(t, "thread"):
		return p.thread()
	case p.isKeyword(t, "repeat"):
		return p.repeat()
	case p.isKeyword(t, "until"):
		return p.until()
	case p.isKeyword(t, "signal"), p.isKeyword(t, "wait"):
		return p.signalWait()
	case p.isKeyword(t, "inject"):
		return p.inject()
	case p.isKeyword(t, "expect"):
		return p.expect()
	}
	return p.call()
}

// Limits of source blocks and bytecode values (docs/security.md: every
// input is bounded).
const (
	MaxShaderSource = 256 << 10 // bytes of one hlsl or fxc block
	MaxBytecode     = 256 << 10 // bytes of bytecode in one value
)

// source parses `hlsl NAME {` or `fxc NAME {`, its body (read raw by the
// lexer) and the closing '}' alone at the end of its line.
func (p *parser) source() (*Source, *Error) {
	kw := p.next()
	name := p.next()
	if name.kind != tIdent {
		return nil, p.errAt(name, "expected a name after '%s', found %s", kw.text, describe(name))
	}
	open := p.next()
	if open.kind != tLBrace {
		return nil, p.errAt(open, "expected '{' after '%s %s', found %s", kw.text, name.text, describe(open))
	}
	if len(p.ahead) != 0 { // cannot happen: nothing was peeked past '{'
		return nil, p.errAt(open, "internal: lookahead past '{'")
	}
	body, line, close := p.lx.rawBlock(open)
	if close.kind == tError {
		return nil, p.errAt(close, "")
	}
	if len(body) > MaxShaderSource {
		return nil, p.errAt(open, "%s block %s holds %d bytes; the limit is %d", kw.text, name.text, len(body), MaxShaderSource)
	}
	if after := p.peek(); after.kind != tNewline && after.kind != tEOF {
		return nil, p.errAt(after, "'}' must end its line, found %s after it", describe(after))
	}
	p.seenStmt = true
	return &Source{Pos: kw.pos, Kind: kw.text, Name: name.text, Text: body, Line: line}, nil
}

func (p *parser) option() (Option, *Error) {
	kw := p.next()
	key := p.next()
	if key.kind != tIdent {
		return Option{}, p.errAt(key, "expected KEY=VALUE after 'option', found %s", describe(key))
	}
	eq := p.next()
	if eq.kind != tAssign {
		return Option{}, p.errAt(eq, "expected '=' after 'option %s', found %s", key.text, describe(eq))
	}
	val := p.next()
	if val.kind != tIdent && val.kind != tNumber {
		return Option{}, p.errAt(val, "expected a value after 'option %s=', found %s", key.text, describe(val))
	}
	if err := p.endStmt(kw, val); err != nil {
		return Option{}, err
	}
	return Option{Pos: kw.pos, Key: key.text, Value: val.text}, nil
}

func (p *parser) thread() (Stmt, *Error) {
	kw := p.next()
	name := p.next()
	if name.kind != tIdent || !isName(name.text) {
		return nil, p.errAt(name, "expected a thread name after 'thread', found %s", describe(name))
	}
	open := p.next()
	if open.kind != tLBrace {
		return nil, p.errAt(open, "expected '{' on the same line as 'thread %s', found %s", name.text, describe(open))
	}
	body, err := p.block(open)
	if err != nil {
		return nil, err
	}
	return &Thread{Pos: kw.pos, Name: name.text, Body: body}, nil
}

func (p *parser) repeat() (Stmt, *Error) {
	kw := p.next()
	n := p.next()
	if n.kind != tNumber {
		return nil, p.errAt(n, "expected a count after 'repeat', found %s", describe(n))
	}
	count, err := p.integer(n, "repeat count", 1, MaxRepeat)
	if err != nil {
		return nil, err
	}
	open := p.next()
	if open.kind != tLBrace {
		return nil, p.errAt(open, "expected '{' on the same line as 'repeat %s', found %s", n.text, describe(open))
	}
	body, err := p.block(open)
	if err != nil {
		return nil, err
	}
	return &Repeat{Pos: kw.pos, Count: count, Body: body}, nil
}

func (p *parser) until() (Stmt, *Error) {
	kw := p.next()
	cond, first, last, err := p.cond(kw)
	if err != nil {
		return nil, err
	}
	m := p.next()
	if m.kind != tIdent || m.text != "max" {
		return nil, p.errAt(m, "expected 'max N' after '%s' (an until loop is bounded: until COND max N {), found %s", p.span(kw, last), describe(m))
	}
	n := p.next()
	if n.kind != tNumber {
		return nil, p.errAt(n, "expected a count after '%s', found %s", p.span(kw, m), describe(n))
	}
	count, err := p.integer(n, "until max", 1, MaxRepeat)
	if err != nil {
		return nil, err
	}
	open := p.next()
	if open.kind != tLBrace {
		return nil, p.errAt(open, "expected '{' on the same line as '%s', found %s", p.span(kw, n), describe(open))
	}
	body, err := p.block(open)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return nil, p.errAt(kw, "an until block needs a statement (the call it polls): the condition is tested after each run of the block")
	}
	cond.Text = p.src[first.off:last.end]
	return &Until{Pos: kw.pos, Cond: cond, Max: count, Body: body}, nil
}

// cond parses an until's condition: `hr == NAME`, `hr != NAME` or `data
// QUERY OP VALUE`. kw is the statement's first token; it returns the
// condition's first and last tokens.
func (p *parser) cond(kw token) (Cond, token, token, *Error) {
	t := p.next()
	c := Cond{Pos: t.pos}
	switch {
	case t.kind == tIdent && t.text == "hr":
		op := p.next()
		if op.kind != tEq && op.kind != tNe {
			return c, t, op, p.errAt(op, "expected '==' or '!=' after '%s', found %s", p.span(kw, t), describe(op))
		}
		c.Op = OpEq
		if op.kind == tNe {
			c.Op = OpNe
		}
		name := p.next()
		if name.kind != tIdent {
			return c, t, name, p.errAt(name, "expected an HRESULT name (S_OK, S_FALSE, DXGI_ERROR_WAS_STILL_DRAWING, ...) after '%s', found %s", p.span(kw, op), describe(name))
		}
		c.HR = name.text
		return c, t, name, nil
	case t.kind == tIdent && t.text == "data":
		d, last, err := p.dataCmp(kw, t)
		c.Data = d
		return c, t, last, err
	}
	return c, t, t, p.errAt(t, "expected a condition after '%s' (hr == NAME, hr != NAME or data QUERY OP VALUE), found %s", kw.text, describe(t))
}

// cmpOps are the comparison tokens.
var cmpOps = map[tokKind]CmpOp{tEq: OpEq, tNe: OpNe, tLt: OpLt, tLe: OpLe, tGt: OpGt, tGe: OpGe}

// dataCmp parses `QUERY OP VALUE` after the word "data" (data); kw is the
// statement's first token. It returns the last token.
func (p *parser) dataCmp(kw, data token) (*DataCmp, token, *Error) {
	q := p.next()
	if q.kind != tIdent {
		return nil, q, p.errAt(q, "expected a query name after '%s', found %s", p.span(kw, data), describe(q))
	}
	opTok := p.next()
	op, ok := cmpOps[opTok.kind]
	if !ok {
		return nil, opTok, p.errAt(opTok, "expected a comparison (== != < <= > >=) after '%s', found %s", p.span(kw, q), describe(opTok))
	}
	d := &DataCmp{Op: op}
	var dot bool
	d.Query, d.Field, dot = strings.Cut(q.text, ".")
	if dot && (d.Query == "" || d.Field == "") {
		return nil, q, p.errAt(q, "%s: expected QUERY.FIELD (st.PSInvocations), a query's name and a member of its data", q.text)
	}
	v := p.next()
	switch {
	case v.kind == tNumber:
		n, err := p.integer(v, "data value", 0, MaxData)
		if err != nil {
			return nil, v, err
		}
		d.Value = uint64(n)
	case v.kind == tIdent && v.text == "TRUE":
		d.Value = 1
	case v.kind == tIdent && v.text == "FALSE":
	case v.kind == tIdent:
		var dot bool
		d.Ref, d.RefField, dot = strings.Cut(v.text, ".")
		if dot && (d.Ref == "" || d.RefField == "") {
			return nil, v, p.errAt(v, "%s: expected QUERY.FIELD (st.PSInvocations), a query's name and a member of its data", v.text)
		}
	default:
		return nil, v, p.errAt(v, "expected a number, TRUE, FALSE or a query after '%s', found %s", p.span(kw, opTok), describe(v))
	}
	d.Text = p.src[q.off:v.end]
	return d, v, nil
}

func (p *parser) signalWait() (Stmt, *Error) {
	kw := p.next()
	ev := p.next()
	if ev.kind != tIdent {
		return nil, p.errAt(ev, "expected an event name after '%s', found %s", kw.text, describe(ev))
	}
	if err := p.endStmt(kw, ev); err != nil {
		return nil, err
	}
	if kw.text == "signal" {
		return &Signal{Pos: kw.pos, Event: ev.text}, nil
	}
	return &Wait{Pos: kw.pos, Event: ev.text}, nil
}

func (p *parser) inject() (Stmt, *Error) {
	kw := p.next()
	fault := p.next()
	if fault.kind != tIdent {
		return nil, p.errAt(fault, "expected a fault after 'inject' (%s, %s, ...), found %s", machine.FaultOutOfMemory, machine.FaultGPUHang, describe(fault))
	}
	in := &Inject{Pos: kw.pos, Fault: machine.Fault(fault.text)}
	last := fault
	for !endsStmt(p.peek().kind) {
		t := p.peek()
		if t.kind != tIdent || p.peekN(1).kind != tAssign {
			return nil, p.errAt(t, "expected Key=Value after 'inject %s', found %s", fault.text, describe(t))
		}
		a, end, err := p.arg()
		if err != nil {
			return nil, err
		}
		in.Args = append(in.Args, a)
		last = end
	}
	if err := p.endStmt(kw, last); err != nil {
		return nil, err
	}
	return in, nil
}

const expectForms = "hr, pixel, probe, hash, calls, violations, violation, live, data, support, got"

func (p *parser) expect() (Stmt, *Error) {
	kw := p.next()
	form := p.next()
	if form.kind != tIdent {
		return nil, p.errAt(form, "expected what to expect after 'expect' (want %s), found %s", expectForms, describe(form))
	}
	e := &Expect{Pos: kw.pos}
	last := form
	// eq consumes '=='; the message quotes the statement so far.
	eq := func() *Error {
		t := p.next()
		if t.kind != tEq {
			return p.errAt(t, "expected '==' after '%s', found %s", p.span(kw, last), describe(t))
		}
		last = t
		return nil
	}
	word := func(what string) (token, *Error) {
		t := p.next()
		if t.kind != tIdent {
			return t, p.errAt(t, "expected %s after '%s', found %s", what, p.span(kw, last), describe(t))
		}
		last = t
		return t, nil
	}
	count := func(what string) (int, *Error) {
		t := p.next()
		if t.kind != tNumber {
			return 0, p.errAt(t, "expected a count after '%s', found %s", p.span(kw, last), describe(t))
		}
		last = t
		return p.integer(t, what, 0, maxCount)
	}
	var err *Error
	switch form.text {
	case "hr":
		e.Kind = ExpectHR
		if err = eq(); err == nil {
			var t token
			t, err = word("an HRESULT name (S_OK, E_OUTOFMEMORY, ...)")
			e.Name = t.text
		}
	case "pixel":
		e.Kind = ExpectPixel
		var t token
		if t, err = word("a resource name"); err != nil {
			break
		}
		e.Name = t.text
		for _, c := range []*int{&e.X, &e.Y} {
			t := p.next()
			if t.kind != tNumber {
				return nil, p.errAt(t, "expected a coordinate after '%s', found %s", p.span(kw, last), describe(t))
			}
			last = t
			if *c, err = p.integer(t, "pixel coordinate", 0, maxCoord); err != nil {
				return nil, err
			}
		}
		if a := p.peek(); a.kind == tIdent && a.text == "as" {
			p.next()
			f := p.next()
			if f.kind != tIdent {
				return nil, p.errAt(f, "expected a format after 'as', found %s", describe(f))
			}
			e.As, last = f.text, f
		}
		if err = eq(); err != nil {
			break
		}
		t = p.peek()
		if t.kind == tIdent && (t.text == "f32" || t.text == "u32" || t.text == "i32") {
			v, lt, err := p.value()
			if err != nil {
				return nil, err
			}
			if n := len(v.F32) + len(v.U32); n == 0 || n > 4 {
				return nil, p.errAt(lt, "a texel is 1 to 4 channels, not %d", n)
			}
			last = lt
			e.Texel = &v
			if w := p.peek(); w.kind == tIdent && w.text == "within" {
				p.next()
				n := p.next()
				if n.kind != tNumber || v.Kind != VF32 {
					return nil, p.errAt(n, "expected a tolerance after 'within' (of an f32 texel), found %s", describe(n))
				}
				f, msg := parseNumber(n.text)
				if msg != "" || f < 0 || f > 1e30 {
					return nil, p.errAt(n, "bad tolerance %s", quote(n.text))
				}
				e.Within, last = f, n
			}
			break
		}
		t = p.next()
		if t.kind != tColor {
			t, what := colourHint(t)
			return nil, p.errAt(t, "expected a colour #RRGGBBAA or a texel f32[...], u32[...] or i32[...] after '%s', found %s", p.span(kw, last), what)
		}
		last = t
		e.Color = parseColor(t.text)
	case "probe":
		e.Kind = ExpectProbe
		last, err = p.probe(e, kw, form)
	case "hash":
		e.Kind = ExpectHash
		var t token
		if t, err = word("a resource name"); err != nil {
			break
		}
		e.Name = t.text
		if err = eq(); err != nil {
			break
		}
		t = p.next()
		if t.kind != tIdent && t.kind != tNumber {
			return nil, p.errAt(t, "expected a hex hash after '%s', found %s", p.span(kw, last), describe(t))
		}
		last = t
		if len(t.text) > 64 || strings.TrimLeft(t.text, "0123456789abcdefABCDEF") != "" {
			return nil, p.errAt(t, "bad hash %s (want 1 to 64 hex digits)", quote(t.text))
		}
		e.Hex = strings.ToLower(t.text)
	case "calls":
		e.Kind = ExpectCalls
		for !endsStmt(p.peek().kind) {
			t, err := word("an event name")
			if err != nil {
				return nil, err
			}
			e.Names = append(e.Names, t.text)
		}
		if len(e.Names) == 0 {
			t := p.peek()
			return nil, p.errAt(t, "expected at least one event name after 'expect calls', found %s", describe(t))
		}
	case "violations":
		e.Kind = ExpectViolations
		if err = eq(); err == nil {
			e.N, err = count("violation count")
		}
	case "violation":
		e.Kind = ExpectViolation
		var t token
		t, err = word("a rule id")
		e.Name = t.text
	case "live":
		e.Kind = ExpectLive
		if err = eq(); err == nil {
			e.N, err = count("live count")
		}
	case "data":
		e.Kind = ExpectData
		e.Data, last, err = p.dataCmp(kw, form)
		if e.Data != nil {
			e.Name = e.Data.Query
		}
	case "support":
		e.Kind = ExpectSupport
		var t token
		if t, err = word("'has' or 'lacks'"); err != nil {
			break
		}
		if t.text != "has" && t.text != "lacks" {
			return nil, p.errAt(t, "expected 'has' or 'lacks' after 'expect support', found %s", describe(t))
		}
		e.Name = t.text
		v, lt, verr := p.value()
		if verr != nil {
			return nil, verr
		}
		switch v.Kind {
		case VIdent:
			e.Flags = []string{v.Ident}
			if e.Flags[0] == "" {
				e.Flags[0] = v.Text
			}
		case VFlags:
			e.Flags = v.Flags
		default:
			return nil, p.errAt(lt, "expected D3D11_FORMAT_SUPPORT names (RENDER_TARGET|BLENDABLE) after 'expect support %s'", e.Name)
		}
		last = lt
	case "got":
		e.Kind = ExpectGot
		if err = eq(); err != nil {
			break
		}
		for !endsStmt(p.peek().kind) {
			t := p.next()
			if t.kind != tIdent && t.kind != tNumber && t.kind != tString {
				return nil, p.errAt(t, "expected object names, NULL, enum names, numbers or strings after 'expect got ==', found %s", describe(t))
			}
			e.Names, last = append(e.Names, t.text), t
		}
		if len(e.Names) == 0 {
			t := p.peek()
			return nil, p.errAt(t, "expected what the getter returned after 'expect got ==', found %s", describe(t))
		}
	default:
		return nil, p.errAt(form, "unknown expect form %s (want %s)", quote(form.text), expectForms)
	}
	if err != nil {
		return nil, err
	}
	if err := p.endStmt(kw, last); err != nil {
		return nil, err
	}
	return e, nil
}

func (p *parser) call() (Stmt, *Error) {
	first := p.peek()
	c := &Call{Pos: first.pos}
	if k := p.peekN(1).kind; k == tComma || k == tAssign {
		for {
			t := p.next()
			if t.kind != tIdent {
				return nil, p.errAt(t, "expected a name to bind, found %s", describe(t))
			}
			if !isName(t.text) {
				return nil, p.errAt(t, "cannot bind %s: names bound with '=' are identifiers (letters, digits and '_')", quote(t.text))
			}
			c.Results = append(c.Results, t.text)
			sep := p.next()
			if sep.kind == tAssign {
				break
			}
			if sep.kind != tComma {
				return nil, p.errAt(sep, "expected ',' or '=' after %s, found %s", quote(t.text), describe(sep))
			}
		}
	}
	callee := p.next()
	if callee.kind != tIdent {
		return nil, p.errAt(callee, "expected a call (TARGET.Method or a function) after '=', found %s", describe(callee))
	}
	c.Method, c.MethodPos = callee.text, callee.pos
	if i := strings.IndexByte(callee.text, '.'); i >= 0 {
		c.Target, c.TargetPos = callee.text[:i], callee.pos
		c.Method = callee.text[i+1:]
		c.MethodPos = Pos{Line: callee.pos.Line, Col: callee.pos.Col + i + 1}
		if !isName(c.Target) {
			return nil, p.errAt(callee, "bad call target %s (an object name is letters, digits and '_')", quote(c.Target))
		}
		if c.Method == "" {
			return nil, p.errAt(callee, "expected a method name after %s", quote(callee.text))
		}
	}
	if !isName(c.Method) {
		return nil, p.errAt(callee, "bad call %s (want TARGET.Method or a function name)", quote(callee.text))
	}
	last := callee
	for !endsStmt(p.peek().kind) {
		a, end, err := p.arg()
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
		last = end
	}
	if err := p.endStmt(first, last); err != nil {
		return nil, err
	}
	return c, nil
}

// arg parses a positional value or Key=Value; it returns the last token.
func (p *parser) arg() (Arg, token, *Error) {
	t := p.peek()
	if t.kind == tIdent && p.peekN(1).kind == tAssign {
		key := p.next()
		p.next()
		if !isName(key.text) {
			return Arg{}, key, p.errAt(key, "bad argument name %s (want letters, digits and '_')", quote(key.text))
		}
		if v := p.peek(); endsStmt(v.kind) {
			v, what := colourHint(v)
			return Arg{}, key, p.errAt(v, "expected a value after '%s=', found %s", key.text, what)
		}
		v, last, err := p.value()
		return Arg{Pos: key.pos, Key: key.text, Value: v}, last, err
	}
	v, last, err := p.value()
	return Arg{Pos: v.Pos, Value: v}, last, err
}

// value parses one value; it returns the last token.
func (p *parser) value() (Value, token, *Error) {
	t := p.next()
	v := Value{Pos: t.pos, Text: t.text}
	switch t.kind {
	case tNumber:
		n, msg := parseNumber(t.text)
		if msg != "" {
			return v, t, p.errAt(t, "%s", msg)
		}
		v.Kind, v.Num = VNumber, n
		return v, t, nil
	case tColor:
		v.Kind, v.Color = VColor, parseColor(t.text)
		return v, t, nil
	case tString:
		v.Kind = VString
		return v, t, nil
	case tLBrack:
		return v, t, p.errAt(t, "a list needs a type: f32[...], u16[...] or u32[...]")
	case tIdent:
	default:
		return v, t, p.errAt(t, "expected a value, found %s", describe(t))
	}
	switch p.peek().kind {
	case tLBrack:
		return p.list(t)
	case tColon:
		switch t.text {
		case "mesh":
			v.Kind = VMesh
		case "builtin":
			v.Kind = VBuiltin
		case "hlsl":
			v.Kind = VHLSL
		case "fxc":
			v.Kind = VFxc
		case "bytes":
			return p.hexBytes(t)
		default:
			return v, t, p.errAt(t, "unknown value prefix %s (want mesh:, builtin:, hlsl:, fxc: or bytes:)", quote(t.text+":"))
		}
		p.next()
		name := p.next()
		if name.kind != tIdent {
			return v, name, p.errAt(name, "expected a name after '%s:', found %s", t.text, describe(name))
		}
		v.Ident, v.Text = name.text, p.src[t.off:name.end]
		return v, name, nil
	case tPipe:
		v.Kind, v.Flags = VFlags, []string{t.text}
		last := t
		for p.peek().kind == tPipe {
			p.next()
			f := p.next()
			if f.kind != tIdent {
				return v, f, p.errAt(f, "expected a flag name after '|', found %s", describe(f))
			}
			v.Flags = append(v.Flags, f.text)
			last = f
		}
		v.Text = p.src[t.off:last.end]
		return v, last, nil
	}
	v.Kind, v.Ident = VIdent, t.text
	return v, t, nil
}

// hexBytes parses bytes:HEX (t is the word bytes, ':' is next): an even
// number of hexadecimal digits, the bytecode.
func (p *parser) hexBytes(t token) (Value, token, *Error) {
	v := Value{Pos: t.pos, Kind: VBytes}
	p.next()
	h := p.next()
	if h.kind != tNumber && h.kind != tIdent {
		return v, h, p.errAt(h, "expected hexadecimal digits after 'bytes:', found %s", describe(h))
	}
	if len(h.text) > 2*MaxBytecode {
		return v, h, p.errAt(h, "bytes: of %d digits; the limit is %d bytes", len(h.text), MaxBytecode)
	}
	if len(h.text)%2 != 0 {
		return v, h, p.errAt(h, "bytes: needs an even number of hexadecimal digits, found %d", len(h.text))
	}
	b, err := hex.DecodeString(h.text)
	if err != nil {
		return v, h, p.errAt(h, "bytes: %s is not hexadecimal (%v)", quote(shorten(h.text)), err)
	}
	v.Bytes, v.Text = b, "bytes:"+shorten(h.text)
	return v, h, nil
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// list parses f32[...], u16[...] or u32[...]; typ is the type word and the
// next token is '['. Lists may span lines; commas between numbers are
// optional.
func (p *parser) list(typ token) (Value, token, *Error) {
	v := Value{Pos: typ.pos}
	switch typ.text {
	case "elem":
		return p.elemList(typ)
	case "f32":
		v.Kind = VF32
	case "u16":
		v.Kind = VU16
	case "u32":
		v.Kind = VU32
	case "u8":
		v.Kind = VU8
	case "i8":
		v.Kind = VI8
	case "i16":
		v.Kind = VI16
	case "i32":
		v.Kind = VI32
	default:
		return v, typ, p.errAt(typ, "unknown list type %s (want f32, u8, u16, u32, i8, i16, i32 or elem)", quote(typ.text))
	}
	p.next() // '['
	afterNum := false
	lineStart := false // t is the first token of its line
	for {
		t := p.next()
		switch t.kind {
		case tRBrack:
			v.Text = p.src[typ.off:t.end]
			if v.Kind == VF32 && v.F32 == nil {
				v.F32 = []float32{}
			} else if v.Kind != VF32 && v.U32 == nil {
				v.U32 = []uint32{}
			}
			return v, t, nil
		case tNewline:
			lineStart = true
			continue
		case tComma:
			lineStart = false
			if !afterNum {
				return v, t, p.errAt(t, "unexpected ',' in %s list", typ.text)
			}
			afterNum = false
			continue
		case tIdent, tNumber:
			if inf, ok := f32Special(t.text); ok && v.Kind == VF32 {
				v.F32 = append(v.F32, inf)
				afterNum, lineStart = true, false
				continue
			}
			if t.kind == tIdent {
				break
			}
			n, msg := parseNumber(t.text)
			if msg != "" {
				return v, t, p.errAt(t, "%s", msg)
			}
			switch v.Kind {
			case VF32:
				if math.Abs(n) > math.MaxFloat32 {
					return v, t, p.errAt(t, "f32 value %s out of range", t.text)
				}
				v.F32 = append(v.F32, float32(n))
			default:
				lo, hi := listRange(v.Kind)
				if n != math.Trunc(n) {
					return v, t, p.errAt(t, "%s value %s is not an integer", typ.text, t.text)
				}
				if n < lo || n > hi {
					return v, t, p.errAt(t, "%s value %s out of range", typ.text, t.text)
				}
				v.U32 = append(v.U32, uint32(int64(n)))
			}
			afterNum, lineStart = true, false
			continue
		}
		// A word or a brace opening a line is most likely the next
		// statement: the list was never closed.
		if t.kind == tEOF || lineStart && t.kind != tError {
			return v, t, p.errAt(t, "unterminated list %s[ (opened at %d:%d)", typ.text, typ.pos.Line, typ.pos.Col)
		}
		return v, t, p.errAt(t, "expected a number in %s list, found %s", typ.text, describe(t))
	}
}

// listRange is the range of an integer list's values.
func listRange(k ValueKind) (lo, hi float64) {
	switch k {
	case VU8:
		return 0, math.MaxUint8
	case VU16:
		return 0, math.MaxUint16
	case VI8:
		return math.MinInt8, math.MaxInt8
	case VI16:
		return math.MinInt16, math.MaxInt16
	case VI32:
		return math.MinInt32, math.MaxInt32
	}
	return 0, math.MaxUint32
}

// elemList parses elem[NAME INDEX FORMAT [SLOT [OFFSET [CLASS [STEP]]]]],
// one D3D11_INPUT_ELEMENT_DESC on one line, its fields words or numbers
// (commas optional): the checker gives them meaning.
func (p *parser) elemList(typ token) (Value, token, *Error) {
	v := Value{Pos: typ.pos, Kind: VElem}
	p.next() // '['
	for {
		t := p.next()
		switch t.kind {
		case tRBrack:
			v.Text = p.src[typ.off:t.end]
			return v, t, nil
		case tComma:
			continue
		case tIdent:
			v.Elem = append(v.Elem, Value{Pos: t.pos, Kind: VIdent, Ident: t.text, Text: t.text})
		case tNumber:
			n, msg := parseNumber(t.text)
			if msg != "" {
				return v, t, p.errAt(t, "%s", msg)
			}
			v.Elem = append(v.Elem, Value{Pos: t.pos, Kind: VNumber, Num: n, Text: t.text})
		case tNewline, tEOF:
			return v, t, p.errAt(t, "unterminated elem[ (opened at %d:%d): an element is written on one line", typ.pos.Line, typ.pos.Col)
		default:
			return v, t, p.errAt(t, "expected a word or a number in elem[...], found %s", describe(t))
		}
		if len(v.Elem) > 7 {
			return v, t, p.errAt(t, "elem[...] has at most 7 fields (SemanticName SemanticIndex Format InputSlot AlignedByteOffset InputSlotClass InstanceDataStepRate)")
		}
	}
}

// colourHint helps where a colour was expected but the line ended: if the
// line ended with a comment that looks like a botched colour (#f00), it
// returns a token at that comment and a description saying what a colour is.
func colourHint(t token) (token, string) {
	if (t.kind == tNewline || t.kind == tEOF) && len(t.cmt) > 1 && isHex(t.cmt[1]) {
		at := token{kind: t.kind, pos: t.cmtPos}
		return at, "comment " + quote(t.cmt) + " (a colour is '#' then 6 or 8 hex digits, then a space or the end of the line)"
	}
	return t, describe(t)
}

// integer decodes number token t as an integer in [min, max]; what names it.
func (p *parser) integer(t token, what string, min, max float64) (int, *Error) {
	n, msg := parseNumber(t.text)
	if msg != "" {
		return 0, p.errAt(t, "%s", msg)
	}
	if n != math.Trunc(n) {
		return 0, p.errAt(t, "%s %s is not an integer", what, t.text)
	}
	if n < min {
		return 0, p.errAt(t, "%s %s must be at least %d", what, t.text, int64(min))
	}
	if n > max {
		return 0, p.errAt(t, "%s %s is too large (max %d)", what, t.text, int64(max))
	}
	return int(n), nil
}

// sizeSuffixes are the multipliers a number may end with.
var sizeSuffixes = []struct {
	s string
	m float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
}

// parseNumber decodes a number token: an optional sign, then a hex integer
// (0x1F) or a decimal integer or float (12, 0.5, .5, -1e3), then an optional
// size suffix K, KiB, M, MiB, G or GiB (powers of 1024). It returns a message
// if the token is not such a number.
func parseNumber(text string) (float64, string) {
	bad := "bad number " + quote(text)
	s := text
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	mul := 1.0
	for _, suf := range sizeSuffixes {
		if strings.HasSuffix(s, suf.s) {
			s, mul = s[:len(s)-len(suf.s)], suf.m
			break
		}
	}
	var n float64
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return 0, "number " + quote(text) + " out of range"
			}
			return 0, bad
		}
		n = float64(u)
	} else {
		if s == "" || strings.TrimLeft(s, "0123456789.eE+-") != "" || !isDigit(s[0]) && s[0] != '.' {
			return 0, bad
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return 0, "number " + quote(text) + " out of range"
			}
			return 0, bad
		}
		n = f
	}
	n *= mul
	if math.IsInf(n, 0) || math.IsNaN(n) {
		return 0, "number " + quote(text) + " out of range"
	}
	if neg {
		n = -n
	}
	return n, ""
}

// parseColor decodes a tColor token, #RRGGBB (alpha ff) or #RRGGBBAA.
func parseColor(text string) [4]uint8 {
	c := [4]uint8{0, 0, 0, 0xff}
	for i := 0; i < (len(text)-1)/2 && i < 4; i++ {
		c[i] = hexVal(text[1+2*i])<<4 | hexVal(text[2+2*i])
	}
	return c
}

func hexVal(c byte) uint8 {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// maxProbeWords bounds the list of a buffer's probe.
const maxProbeWords = 1 << 16

// probe parses what follows `expect probe`: RES X Y [RIGHT BOTTOM] ==
// LIST [ulps=N]. The list says how the texels are read: f32 as floats
// (within N units in the last place), u32 and i32 as integers (exactly).
func (p *parser) probe(e *Expect, kw, form token) (token, *Error) {
	last := form
	t := p.next()
	if t.kind != tIdent {
		return t, p.errAt(t, "expected a resource name after '%s', found %s", p.span(kw, last), describe(t))
	}
	e.Name, last = t.text, t
	var c []int
	for p.peek().kind == tNumber {
		t := p.next()
		last = t
		n, err := p.integer(t, "probe coordinate", 0, maxCoord)
		if err != nil {
			return t, err
		}
		c = append(c, n)
	}
	pr := &Probe{}
	switch len(c) {
	case 2:
		e.X, e.Y, pr.Right, pr.Bottom = c[0], c[1], c[0]+1, c[1]+1
	case 4:
		e.X, e.Y, pr.Right, pr.Bottom = c[0], c[1], c[2], c[3]
		if pr.Right <= e.X || pr.Bottom <= e.Y {
			return last, p.errAt(last, "empty probe rectangle (%d, %d)..(%d, %d): right and bottom are excluded", e.X, e.Y, pr.Right, pr.Bottom)
		}
	default:
		t := p.peek()
		return t, p.errAt(t, "expected X Y or LEFT TOP RIGHT BOTTOM after '%s', found %s", p.span(kw, last), describe(t))
	}
	if t := p.next(); t.kind != tEq {
		return t, p.errAt(t, "expected '==' after '%s', found %s", p.span(kw, last), describe(t))
	}
	typ := p.next()
	if typ.kind != tIdent || p.peek().kind != tLBrack || typ.text != "f32" && typ.text != "u32" && typ.text != "i32" {
		return typ, p.errAt(typ, "expected f32[...], u32[...] or i32[...] after '%s ==', found %s", p.span(kw, last), describe(typ))
	}
	v, end, err := p.list(typ)
	if err != nil {
		return end, err
	}
	last = end
	pr.Kind = v.Kind
	if v.Kind == VF32 {
		for _, f := range v.F32 {
			pr.Values = append(pr.Values, math.Float32bits(f))
		}
	} else {
		pr.Values = v.U32
	}
	if n := len(pr.Values); n < 1 || n > maxProbeWords {
		return end, p.errAt(end, "a probe compares 1 to 4 channels of a texel, or up to %d words of a buffer, found %d", maxProbeWords, n)
	}
	if t := p.peek(); t.kind == tIdent && t.text == "ulps" && p.peekN(1).kind == tAssign {
		p.next()
		p.next()
		n := p.next()
		if n.kind != tNumber {
			return n, p.errAt(n, "expected a count after 'ulps=', found %s", describe(n))
		}
		last = n
		u, err := p.integer(n, "ulps", 0, 1<<30)
		if err != nil {
			return n, err
		}
		if v.Kind != VF32 {
			return n, p.errAt(n, "ulps= goes with an f32[...] probe: integers compare exactly")
		}
		pr.Ulps = u
	}
	e.Probe = pr
	return last, nil
}

// f32Special reads the words an f32 list takes for the values no number
// writes: inf, -inf, +inf and nan.
func f32Special(s string) (float32, bool) {
	switch s {
	case "inf", "+inf":
		return float32(math.Inf(1)), true
	case "-inf":
		return float32(math.Inf(-1)), true
	case "nan":
		return float32(math.NaN()), true
	}
	return 0, false
}
