package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Lexical rules of a scenario (docs/scenario.md, "Syntax"):
//
//   - The source is UTF-8 text, read line by line: a newline ends a statement
//     (except inside a list, see the parser); a '\r' not followed by a
//     newline is a newline too (old Mac line endings). Spaces, tabs and the
//     '\r' of "\r\n" separate tokens; a byte-order mark at the very start is
//     skipped.
//   - A word is [A-Za-z_][A-Za-z0-9_.-]*: object names, methods
//     (dev.CreateBuffer is one word, the parser splits it at the '.'), enum
//     values, option keys (driver.freethreaded), fault names (gpu.hang), rule
//     ids (CL-OOM).
//   - A number starts with a digit, or with '-', '+' or '.' followed by a digit
//     (or '-'/'+' then '.' then a digit), and runs over [A-Za-z0-9_.+-]; the
//     parser decodes it (0x10, -1e3, 0.5, 256MiB), so "3abc" is one bad number
//     rather than a number and a word.
//   - Punctuation: = == , | { } [ ] : and the comparisons != < <= > >=
//     (until and expect data).
//   - '#' is either a colour or a comment, by this rule: a '#' is a colour when
//     (1) it is not the first token of its line, (2) the byte before it is a
//     space, a tab or '=', and (3) exactly 6 or 8 hex digits follow it, then a
//     space, a tab, '\r', a newline or the end of the file. Every other '#'
//     starts a comment that runs to the end of the line, including one in the
//     middle of a word (vb#note is vb and a comment). So a line that starts
//     with '#' is always a comment, `# red` after a statement is a comment, and
//     `expect pixel bb 1 1 == #ff0000ff` ends with a colour. Write comments with
//     a space after the '#' and they can never be taken for a colour.
//   - Anything else outside a comment (a non-ASCII letter, a control
//     character, invalid UTF-8) is an error. Comments may hold any bytes.

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tNewline         // '\n'
	tIdent           // a word
	tNumber          // a number, undecoded
	tColor           // #RRGGBB or #RRGGBBAA
	tAssign          // =
	tEq              // ==
	tComma           // ,
	tPipe            // |
	tLBrace          // {
	tRBrace          // }
	tLBrack          // [
	tRBrack          // ]
	tColon           // :
	tNe              // !=
	tLt              // <
	tLe              // <=
	tGt              // >
	tGe              // >=
	tString          // "text": its text is the decoded string, not the source
	tError           // a lexical error; text is the message
)

// token is one lexeme. text is the source text, except for tError where it is
// the message; off and end are byte offsets into the source.
type token struct {
	kind     tokKind
	text     string
	off, end int
	pos      Pos

	// For tNewline and tEOF: the comment that preceded it on its line, if
	// any (cmt is empty if none). Error messages use it when a colour was
	// expected and a '#' was read as a comment.
	cmt    string
	cmtPos Pos
}

// lexer turns the source into tokens. It is sticky at the end: after tEOF or
// tError it returns the same token forever, so no parser loop can run past
// the end of the input.
type lexer struct {
	src       string
	off       int
	line      int
	lineStart int  // offset of the first byte of the current line
	midLine   bool // a token other than a newline was produced on this line
	cmt       string
	cmtPos    Pos
	last      *token
}

func newLexer(src string) *lexer {
	lx := &lexer{src: src, line: 1}
	if strings.HasPrefix(src, "\uFEFF") {
		lx.off = 3
		lx.lineStart = 3
	}
	return lx
}

func (lx *lexer) pos(off int) Pos {
	return Pos{Line: lx.line, Col: off - lx.lineStart + 1}
}

func (lx *lexer) tok(kind tokKind, off, end int) token {
	lx.off = end
	if kind != tNewline {
		lx.midLine = true
	}
	return token{kind: kind, text: lx.src[off:end], off: off, end: end, pos: lx.pos(off)}
}

func (lx *lexer) fail(off int, format string, args ...any) token {
	t := token{kind: tError, text: fmt.Sprintf(format, args...), off: off, end: off, pos: lx.pos(off)}
	lx.last = &t
	return t
}

// MaxString is the longest quoted string (a marker's text, a debug
// name), decoded: the trace keeps it whole in each event that carries it.
const MaxString = 1024

// str reads a quoted string: one line, `\"` and `\\` the only escapes, any
// UTF-8 but control characters. Its token's text is the decoded string.
func (lx *lexer) str(off int) token {
	src := lx.src
	var b strings.Builder
	for i := off + 1; i < len(src); {
		c := src[i]
		switch {
		case c == '"':
			t := lx.tok(tString, off, i+1)
			t.text = b.String()
			return t
		case c == '\\':
			if i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\\') {
				b.WriteByte(src[i+1])
				i += 2
				continue
			}
			return lx.fail(i, "unknown escape in a string (the only escapes are \\\" and \\\\)")
		case c == '\n' || c == '\r':
			return lx.fail(off, "unclosed string: a string ends with '\"' on the line it starts")
		case c < 0x20 || c == 0x7f:
			return lx.fail(i, "control character 0x%02x in a string", c)
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return lx.fail(i, "invalid UTF-8 in a string")
		}
		b.WriteString(src[i : i+n])
		i += n
		if b.Len() > MaxString {
			return lx.fail(off, "a string longer than %d bytes", MaxString)
		}
	}
	return lx.fail(off, "unclosed string: a string ends with '\"' on the line it starts")
}

// MaxWord is the longest word (an object, event or thread name, a method,
// an enum value) a scenario may use: the trace keeps 256 bytes of a name
// (trace.MaxName).
const MaxWord = 256

func (lx *lexer) next() token {
	if lx.last != nil {
		return *lx.last
	}
	src := lx.src
	for lx.off < len(src) {
		off := lx.off
		c := src[off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' && off+1 < len(src) && src[off+1] == '\n':
			lx.off++
			continue
		case c == '\n' || c == '\r':
			// A '\r' not followed by '\n' ends a line too: a file with old
			// Mac line endings would otherwise be one comment or one line.
			t := lx.tok(tNewline, off, off+1)
			t.cmt, t.cmtPos, lx.cmt = lx.cmt, lx.cmtPos, ""
			lx.line++
			lx.lineStart = off + 1
			lx.midLine = false
			return t
		case c == '#':
			if n := lx.colorLen(off); n > 0 {
				return lx.tok(tColor, off, off+n)
			}
			end := len(src)
			if i := strings.IndexAny(src[off:], "\r\n"); i >= 0 {
				end = off + i
			}
			lx.cmt, lx.cmtPos = strings.TrimRight(src[off:end], "\r"), lx.pos(off)
			lx.off = end
			continue
		case isLetter(c):
			end := off + 1
			for end < len(src) && isWordByte(src[end]) {
				end++
			}
			if end-off > MaxWord {
				// Every layer copies a name into its messages and events:
				// a 100 KB object name in a loop of failing calls cost
				// hundreds of KB per call.
				return lx.fail(off, "a word of %d bytes: names, methods and values are at most %d bytes", end-off, MaxWord)
			}
			return lx.tok(tIdent, off, end)
		case isDigit(c) || startsNumber(src[off:]):
			end := off + 1
			for end < len(src) && isNumberByte(src[end]) {
				end++
			}
			return lx.tok(tNumber, off, end)
		}
		switch c {
		case '=':
			if off+1 < len(src) && src[off+1] == '=' {
				return lx.tok(tEq, off, off+2)
			}
			return lx.tok(tAssign, off, off+1)
		case ',':
			return lx.tok(tComma, off, off+1)
		case '|':
			return lx.tok(tPipe, off, off+1)
		case '{':
			return lx.tok(tLBrace, off, off+1)
		case '}':
			return lx.tok(tRBrace, off, off+1)
		case '[':
			return lx.tok(tLBrack, off, off+1)
		case ']':
			return lx.tok(tRBrack, off, off+1)
		case ':':
			return lx.tok(tColon, off, off+1)
		case '"':
			return lx.str(off)
		case '!':
			if off+1 < len(src) && src[off+1] == '=' {
				return lx.tok(tNe, off, off+2)
			}
		case '<', '>':
			kind := tLt
			if c == '>' {
				kind = tGt
			}
			if off+1 < len(src) && src[off+1] == '=' {
				return lx.tok(kind+1, off, off+2) // tLe, tGe
			}
			return lx.tok(kind, off, off+1)
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(src[off:])
			if r == utf8.RuneError && size <= 1 {
				return lx.fail(off, "invalid UTF-8 encoding")
			}
			return lx.fail(off, "unexpected character %U %q (names are ASCII; put text in a '#' comment)", r, r)
		}
		if c < ' ' || c == 0x7f {
			return lx.fail(off, "unexpected control character %U", rune(c))
		}
		return lx.fail(off, "unexpected character %q", rune(c))
	}
	t := token{kind: tEOF, off: len(src), end: len(src), pos: lx.pos(len(src)), cmt: lx.cmt, cmtPos: lx.cmtPos}
	lx.last = &t
	return t
}

// colorLen returns the length of the colour token starting with the '#' at
// off (7 or 9), or 0 if that '#' starts a comment (see the rule above).
func (lx *lexer) colorLen(off int) int {
	src := lx.src
	if !lx.midLine || off == 0 {
		return 0
	}
	if b := src[off-1]; b != ' ' && b != '\t' && b != '=' {
		return 0
	}
	n := 0
	for off+1+n < len(src) && isHex(src[off+1+n]) {
		n++
	}
	if n != 6 && n != 8 {
		return 0
	}
	if end := off + 1 + n; end < len(src) {
		if b := src[end]; b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return 0
		}
	}
	return 1 + n
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isWordByte(c byte) bool   { return isLetter(c) || isDigit(c) || c == '.' || c == '-' }
func isNumberByte(c byte) bool { return isWordByte(c) || c == '+' }

// startsNumber reports whether s starts a number that does not start with a
// digit: -1, +2, .5, -.5.
func startsNumber(s string) bool {
	if strings.HasPrefix(s, "-inf") || strings.HasPrefix(s, "+inf") {
		return true // an f32 list's infinities
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
	}
	return i > 0 && i < len(s) && isDigit(s[i])
}

// isName reports whether s is a plain identifier, [A-Za-z_][A-Za-z0-9_]*: the
// names bound by '=', thread names, argument keys, call targets and methods.
func isName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tNewline:
		return "end of line"
	case tString:
		return "the string " + quote(t.text)
	}
	return quote(t.text)
}

// quote quotes s for a message, shortened if long.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q...", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}

// rawBlock reads the body of a source block (`hlsl NAME {`, `fxc NAME {`)
// after its '{': the rest of the '{' line must be blank or a comment, then
// the body runs, as text the scenario language does not lex, up to the '}'
// that balances the opening one. Braces inside the body count in pairs,
// except those in C comments (// and /* */) and string literals, as a C
// or HLSL compiler sees them. It returns the body, the line of its first
// byte, and the closing '}' as a token (its line must end after it: the
// parser checks); an error is a tError token.
func (lx *lexer) rawBlock(open token) (body string, line int, close token) {
	src := lx.src
	off := lx.off
	for off < len(src) && (src[off] == ' ' || src[off] == '\t' || src[off] == '\r' && off+1 < len(src) && src[off+1] == '\n') {
		off++
	}
	if off < len(src) && src[off] == '#' {
		for off < len(src) && src[off] != '\n' && src[off] != '\r' {
			off++
		}
		if off < len(src) && src[off] == '\r' && off+1 < len(src) && src[off+1] == '\n' {
			off++
		}
	}
	if off >= len(src) {
		return "", 0, lx.fail(off, "unclosed '{' (opened at %d:%d)", open.pos.Line, open.pos.Col)
	}
	if src[off] != '\n' && src[off] != '\r' {
		return "", 0, lx.fail(off, "expected end of line after '{' (the block's text starts on the next line)")
	}
	off++
	lx.line++
	lx.lineStart = off
	start, line := off, lx.line
	depth := 1
	for off < len(src) {
		c := src[off]
		switch {
		case c == '\n' || c == '\r' && (off+1 >= len(src) || src[off+1] != '\n'):
			lx.line++
			lx.lineStart = off + 1
		case c == '/' && off+1 < len(src) && src[off+1] == '/':
			for off+1 < len(src) && src[off+1] != '\n' && src[off+1] != '\r' {
				off++
			}
		case c == '/' && off+1 < len(src) && src[off+1] == '*':
			off += 2
			for off < len(src) && !(src[off] == '*' && off+1 < len(src) && src[off+1] == '/') {
				if src[off] == '\n' || src[off] == '\r' && (off+1 >= len(src) || src[off+1] != '\n') {
					lx.line++
					lx.lineStart = off + 1
				}
				off++
			}
			off++ // the '/' (or past the end: unclosed, and so is the block)
		case c == '"':
			for off+1 < len(src) && src[off+1] != '"' && src[off+1] != '\n' && src[off+1] != '\r' {
				if src[off+1] == '\\' && off+2 < len(src) && src[off+2] != '\n' && src[off+2] != '\r' {
					off++
				}
				off++
			}
			if off+1 < len(src) && src[off+1] == '"' {
				off++
			}
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				lx.off = off
				return src[start:off], line, lx.tok(tRBrace, off, off+1)
			}
		}
		off++
	}
	if off > len(src) {
		off = len(src)
	}
	return "", 0, lx.fail(off, "unclosed '{' (opened at %d:%d): a source block ends at the '}' that balances it", open.pos.Line, open.pos.Col)
}
