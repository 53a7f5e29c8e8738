package apitrace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Reading `apitrace dump` text, what people paste into bug reports and
// what apitrace's test suite keeps as reference output: one call a record,
// "NO @THREAD Name(arg = value, ...) = ret // fake", strings spanning
// lines, and apitrace-tests' reference forms (<name> binds an object,
// <> is a wildcard, <draw> labels a call, //! lines hold the command).
// The text loses types (a number, a name, 0x...); the importer reads each
// value by the argument it is. blob(N) has no bytes (the importer zero-
// fills it, with a notice); blob("FILE") names a file `apitrace dump
// --blobs` wrote.

// DumpError is malformed dump text: the line and column, and the call.
type DumpError struct {
	Line, Col int
	Call      int64
	Msg       string
}

func (e *DumpError) Error() string {
	if e.Call >= 0 {
		return fmt.Sprintf("dump: line %d:%d (call %d): %s", e.Line, e.Col, e.Call, e.Msg)
	}
	return fmt.Sprintf("dump: line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// DumpReader reads the calls of dump text, streaming.
type DumpReader struct {
	r      *bufio.Reader
	lim    Options
	line   int
	col    int
	peeked bool
	pc     byte
	perr   error
	next   uint64 // the number of a call printed without one
	sigs   map[string]*FuncSig
	cur    int64
	values int
	// backtrace: inside a call's "Backtrace:" frames
	backtrace bool
}

// NewDumpReader reads dump text from r.
func NewDumpReader(r io.Reader, opt Options) (*DumpReader, error) {
	return &DumpReader{r: bufio.NewReaderSize(r, 64<<10), lim: opt.withDefaults(), line: 1, sigs: map[string]*FuncSig{}, cur: -1}, nil
}

func (d *DumpReader) errf(format string, args ...any) error {
	return &DumpError{Line: d.line, Col: d.col, Call: d.cur, Msg: fmt.Sprintf(format, args...)}
}

func (d *DumpReader) peek() (byte, error) {
	if !d.peeked {
		d.pc, d.perr = d.r.ReadByte()
		d.peeked = true
	}
	return d.pc, d.perr
}

func (d *DumpReader) get() (byte, error) {
	c, err := d.peek()
	if err != nil {
		return 0, err
	}
	d.peeked = false
	if c == '\n' {
		d.line++
		d.col = 0
	} else {
		d.col++
	}
	return c, nil
}

// restOfLine reads to the end of the line (the newline consumed).
func (d *DumpReader) restOfLine() (string, error) {
	var b strings.Builder
	for {
		c, err := d.get()
		if err != nil {
			return b.String(), err
		}
		if c == '\n' {
			return b.String(), nil
		}
		if b.Len() < 1<<16 {
			b.WriteByte(c)
		}
	}
}

// Next returns the next call, io.EOF after the last.
func (d *DumpReader) Next() (*Call, error) {
	for {
		c, err := d.peek()
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		switch {
		case c == '\n' || c == '\r' || c == ' ' || c == '\t':
			d.get()
			continue
		case c == '/':
			// comments: properties, //!command lines of the references
			d.restOfLine()
			continue
		}
		if d.col == 0 {
			line, err := d.peekLine()
			if err != nil && err != io.EOF {
				return nil, err
			}
			if strings.TrimSpace(line) == "Backtrace:" {
				d.backtrace = true
			}
			if !dumpLine.MatchString(line) {
				if !d.backtrace {
					return nil, d.errf("%.60q does not start a call (NUMBER Name(ARG = VALUE, ...))", line)
				}
				// a backtrace's frames, skipped
				d.restOfLine()
				continue
			}
			d.backtrace = false
		}
		return d.call()
	}
}

// peekLine is the rest of the current line without consuming it (at most
// 4 KiB).
func (d *DumpReader) peekLine() (string, error) {
	var prefix []byte
	if d.peeked {
		if d.perr != nil {
			return "", d.perr
		}
		prefix = []byte{d.pc}
	}
	buf, err := d.r.Peek(4096)
	if err == io.EOF || err == bufio.ErrBufferFull {
		err = nil
	}
	s := string(prefix) + string(buf)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s, err
}

func (d *DumpReader) skipSpaces() {
	for {
		c, err := d.peek()
		if err != nil || (c != ' ' && c != '\t' && c != '\r') {
			return
		}
		d.get()
	}
}

func (d *DumpReader) expect(s string) error {
	for i := 0; i < len(s); i++ {
		c, err := d.get()
		if err != nil {
			return d.errf("the text ends where %q should be", s)
		}
		if c != s[i] {
			return d.errf("%q where %q should be", string(c), s)
		}
	}
	return nil
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (d *DumpReader) ident() string {
	var b strings.Builder
	for {
		c, err := d.peek()
		if err != nil || !(isIdent(c) || c == ':' || c == '.') {
			return b.String()
		}
		d.get()
		if b.Len() < 1024 {
			b.WriteByte(c)
		}
	}
}

// call reads one record.
func (d *DumpReader) call() (*Call, error) {
	c := &Call{Offset: int64(d.line)}
	d.values = 0
	ch, _ := d.peek()
	if ch >= '0' && ch <= '9' {
		n, err := d.number()
		if err != nil {
			return nil, err
		}
		if n.Kind != KUInt {
			return nil, d.errf("a call number must be a whole number")
		}
		c.No = n.Uint
		d.next = c.No + 1
		d.skipSpaces()
	} else {
		c.No = d.next
		d.next++
	}
	d.cur = int64(c.No)
	if ch, _ := d.peek(); ch == '@' {
		d.get()
		h := d.ident()
		t, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			return nil, d.errf("thread %q is not a hexadecimal number", h)
		}
		c.Thread = t
		d.skipSpaces()
	}
	if ch, _ := d.peek(); ch == '<' {
		// a reference's label (<draw>, <present>)
		for {
			x, err := d.get()
			if err != nil || x == '>' {
				break
			}
		}
		d.skipSpaces()
	}
	name := d.ident()
	if name == "" {
		return nil, d.errf("a call's name should start here")
	}
	if err := d.expect("("); err != nil {
		return nil, err
	}
	var argNames []string
	var args []Value
	var present []bool
	for {
		d.skipSpaces()
		ch, err := d.peek()
		if err != nil {
			return nil, d.errf("the text ends inside the arguments of %s", name)
		}
		if ch == ')' {
			d.get()
			break
		}
		if len(args) > 0 {
			if err := d.expect(","); err != nil {
				return nil, err
			}
			d.skipSpaces()
		}
		// name = value, or a value alone (--arg-names=no)
		argName := ""
		if ch, _ := d.peek(); isIdent(ch) && !(ch >= '0' && ch <= '9') {
			line, _ := d.peekLine()
			j := 0
			for j < len(line) && isIdent(line[j]) {
				j++
			}
			if strings.HasPrefix(line[j:], " = ") {
				argName = d.ident()
				if err := d.expect(" = "); err != nil {
					return nil, err
				}
			}
		}
		if argName == "" {
			argName = "arg" + strconv.Itoa(len(args))
		}
		if ch, _ := d.peek(); ch == '?' {
			d.get()
			argNames = append(argNames, argName)
			args = append(args, Value{})
			present = append(present, false)
			continue
		}
		v, err := d.value(0)
		if err != nil {
			return nil, err
		}
		argNames = append(argNames, argName)
		args = append(args, v)
		present = append(present, true)
		if len(args) > 4096 {
			return nil, d.errf("more than 4096 arguments")
		}
	}
	c.Sig = d.sig(name, argNames)
	c.Args, c.Present = args, present
	d.skipSpaces()
	if ch, _ := d.peek(); ch == '=' {
		d.get()
		d.skipSpaces()
		v, err := d.value(0)
		if err != nil {
			return nil, err
		}
		c.Ret = &v
		d.skipSpaces()
	}
	if ch, _ := d.peek(); ch == '/' {
		rest, _ := d.restOfLine()
		if strings.Contains(rest, "fake") {
			c.Flags |= FlagFake
		}
		if strings.Contains(rest, "incomplete") {
			c.Flags |= FlagIncomplete
		}
		return c, nil
	}
	rest, err := d.restOfLine()
	if strings.TrimSpace(rest) != "" {
		return nil, d.errf("%q after the call", strings.TrimSpace(rest))
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	return c, nil
}

func (d *DumpReader) sig(name string, args []string) *FuncSig {
	k := name + "(" + strings.Join(args, ",")
	if s := d.sigs[k]; s != nil {
		return s
	}
	s := &FuncSig{ID: uint64(len(d.sigs)), Name: name, Args: args}
	if len(d.sigs) < 1<<16 {
		d.sigs[k] = s
	}
	return s
}

// value reads one value.
func (d *DumpReader) value(depth int) (Value, error) {
	if depth > d.lim.MaxDepth {
		return Value{}, d.errf("values nested more than %d deep", d.lim.MaxDepth)
	}
	d.values++
	if d.values > d.lim.MaxValues {
		return Value{}, d.errf("more than %d values in one call", d.lim.MaxValues)
	}
	ch, err := d.peek()
	if err != nil {
		return Value{}, d.errf("the text ends where a value should be")
	}
	switch {
	case ch == '"':
		s, err := d.str()
		return Value{Kind: KString, Str: s}, err
	case ch == '&':
		d.get()
		v, err := d.value(depth + 1)
		return Value{Kind: KArray, Elems: []Value{v}}, err
	case ch == '{':
		return d.compound(depth)
	case ch == '<':
		d.get()
		var b strings.Builder
		for {
			c, err := d.get()
			if err != nil {
				return Value{}, d.errf("an unclosed <")
			}
			if c == '>' {
				break
			}
			if !isIdent(c) {
				return Value{}, d.errf("%q inside <...>", string(c))
			}
			b.WriteByte(c)
		}
		return Value{Kind: KBinding, Str: b.String()}, nil
	case ch == '-' || ch >= '0' && ch <= '9':
		v, err := d.number()
		if err != nil {
			return v, err
		}
		return d.moreFlags(v)
	case isIdent(ch):
		id := d.ident()
		switch id {
		case "NULL":
			return Value{Kind: KNull}, nil
		case "true", "false":
			return Value{Kind: KBool, Bool: id == "true"}, nil
		case "inf", "nan":
			return Value{Kind: KFloat, Float: map[string]float64{"inf": math.Inf(1), "nan": math.NaN()}[id]}, nil
		case "L":
			if c, _ := d.peek(); c == '"' {
				s, err := d.str()
				return Value{Kind: KWString, Str: s}, err
			}
		case "blob":
			return d.blob()
		case "uuid":
			if c, _ := d.peek(); c == '(' {
				var b strings.Builder
				b.WriteString("uuid")
				for {
					c, err := d.get()
					if err != nil {
						return Value{}, d.errf("an unclosed uuid(")
					}
					b.WriteByte(c)
					if c == ')' || b.Len() > 64 {
						break
					}
				}
				return Value{Kind: KName, Str: b.String()}, nil
			}
		}
		return d.moreFlags(Value{Kind: KName, Str: id})
	}
	return Value{}, d.errf("%q cannot start a value", string(ch))
}

// moreFlags reads the rest of a bitmask: NAME | NAME | 0x10.
func (d *DumpReader) moreFlags(first Value) (Value, error) {
	line, _ := d.peekLine()
	if !strings.HasPrefix(line, " | ") {
		return first, nil
	}
	v := Value{Kind: KBitmask}
	add := func(x Value) error {
		switch x.Kind {
		case KName:
			v.Names = append(v.Names, x.Str)
		case KPointer, KUInt:
			v.Uint |= x.Uint
		default:
			return d.errf("%s inside flags", x.Kind)
		}
		return nil
	}
	if err := add(first); err != nil {
		return v, err
	}
	for {
		line, _ := d.peekLine()
		if !strings.HasPrefix(line, " | ") {
			return v, nil
		}
		d.expect(" | ")
		var x Value
		var err error
		if c, _ := d.peek(); c >= '0' && c <= '9' {
			x, err = d.number()
		} else {
			x = Value{Kind: KName, Str: d.ident()}
		}
		if err != nil {
			return v, err
		}
		if err := add(x); err != nil {
			return v, err
		}
		if len(v.Names) > 1024 {
			return v, d.errf("more than 1024 flags")
		}
	}
}

// number reads an integer, a float, or 0x... (a pointer, or flags no name
// covers).
func (d *DumpReader) number() (Value, error) {
	var b strings.Builder
	for {
		c, err := d.peek()
		if err != nil || !(isIdent(c) || c == '.' || c == '-' || c == '+') {
			break
		}
		if (c == '-' || c == '+') && b.Len() > 0 {
			last := b.String()[b.Len()-1]
			if last != 'e' && last != 'E' {
				break
			}
		}
		d.get()
		b.WriteByte(c)
		if b.Len() > 64 {
			return Value{}, d.errf("a number longer than 64 characters")
		}
	}
	s := b.String()
	switch {
	case strings.HasPrefix(s, "0x"):
		n, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return Value{}, d.errf("%q is not a hexadecimal number", s)
		}
		return Value{Kind: KPointer, Uint: n}, nil
	case s == "-inf" || s == "-nan":
		f := math.Inf(-1)
		if s == "-nan" {
			f = math.NaN()
		}
		return Value{Kind: KFloat, Float: f}, nil
	case strings.ContainsAny(s, ".eE"):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Value{}, d.errf("%q is not a number", s)
		}
		return Value{Kind: KFloat, Float: f}, nil
	case strings.HasPrefix(s, "-"):
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Value{}, d.errf("%q is not a number", s)
		}
		return Value{Kind: KSInt, Int: n}, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return Value{}, d.errf("%q is not a number", s)
	}
	return Value{Kind: KUInt, Uint: n}, nil
}

// str reads a quoted string as apitrace prints it: \" and \\, octal
// escapes, newlines as they are.
func (d *DumpReader) str() (string, error) {
	d.get() // "
	var b strings.Builder
	for {
		c, err := d.get()
		if err != nil {
			return "", d.errf("the text ends inside a string")
		}
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			e, err := d.get()
			if err != nil {
				return "", d.errf("the text ends inside a string")
			}
			if e >= '0' && e <= '7' {
				n := uint32(e - '0')
				for range 2 {
					x, _ := d.peek()
					if x < '0' || x > '7' {
						break
					}
					d.get()
					n = n*8 + uint32(x-'0')
				}
				b.WriteByte(byte(n))
				continue
			}
			b.WriteByte(e)
		default:
			b.WriteByte(c)
		}
		if b.Len() > d.lim.MaxBytes {
			return "", d.errf("a string longer than %d MiB", d.lim.MaxBytes>>20)
		}
	}
}

// blob reads blob(N) or blob("FILE") (after "blob").
func (d *DumpReader) blob() (Value, error) {
	if err := d.expect("("); err != nil {
		return Value{}, err
	}
	v := Value{Kind: KBlob}
	if c, _ := d.peek(); c == '"' {
		s, err := d.str()
		if err != nil {
			return v, err
		}
		v.BlobFile = s
	} else {
		n, err := d.number()
		if err != nil {
			return v, err
		}
		if n.Kind != KUInt || n.Uint > uint64(d.lim.MaxBytes) {
			return v, d.errf("blob(%s): a size up to %d MiB", describe(&n), d.lim.MaxBytes>>20)
		}
		v.BlobSize, v.NoBytes = int(n.Uint), true
	}
	return v, d.expect(")")
}

// compound reads {...}: a struct (members named "Name = value") or an
// array.
func (d *DumpReader) compound(depth int) (Value, error) {
	d.get() // {
	var v Value
	first := true
	for {
		d.skipSpaces()
		c, err := d.peek()
		if err != nil {
			return v, d.errf("the text ends inside {")
		}
		if c == '}' {
			d.get()
			if first {
				v.Kind = KArray
			}
			return v, nil
		}
		if !first {
			if err := d.expect(","); err != nil {
				return v, err
			}
			d.skipSpaces()
		}
		name := ""
		if c, _ := d.peek(); isIdent(c) && !(c >= '0' && c <= '9') {
			line, _ := d.peekLine()
			j := 0
			for j < len(line) && isIdent(line[j]) {
				j++
			}
			if strings.HasPrefix(line[j:], " = ") {
				name = d.ident()
				d.expect(" = ")
			}
		}
		if first {
			v.Kind = KArray
			if name != "" {
				v.Kind = KStruct
			}
			first = false
		}
		if (name != "") != (v.Kind == KStruct) {
			return v, d.errf("a member without a name, or an element with one, in {...}")
		}
		e, err := d.value(depth + 1)
		if err != nil {
			return v, err
		}
		v.Elems = append(v.Elems, e)
		if name != "" {
			v.Names = append(v.Names, name)
		}
	}
}
