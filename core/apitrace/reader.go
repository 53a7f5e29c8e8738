package apitrace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf8"
)

// TraceVersion is the newest version of the format this package reads and
// the one it writes (apitrace's TRACE_VERSION).
const TraceVersion = 6

// Options are the reader's limits, which bound what one trace may make it
// hold (a trace is untrusted input: docs/security.md), and its tolerance.
// The zero value means the defaults and a strict reader.
type Options struct {
	MaxBytes  int   // one string, blob or wide string (default 64 MiB)
	MaxDepth  int   // values nested in arrays, structs and reprs (default 64)
	MaxOpen   int   // calls entered and not yet left (default 65,536)
	MaxSigs   int64 // bytes of signatures held: names of calls, args, enums, flags, structs, frames (default 64 MiB)
	MaxValues int   // values in one call (default 4,194,304)
	MaxFrames int   // frames of one backtrace (default 4,096)

	// Tolerant reads a stream that ends inside an event as apitrace does
	// (a tracer stopped mid-write): the event is dropped, the calls still
	// open come out incomplete and Reader.Cut says where. A strict reader
	// returns a FormatError naming the event instead.
	Tolerant bool
}

func (l Options) withDefaults() Options {
	if l.MaxBytes <= 0 {
		l.MaxBytes = 64 << 20
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 64
	}
	if l.MaxOpen <= 0 {
		l.MaxOpen = 1 << 16
	}
	if l.MaxSigs <= 0 {
		l.MaxSigs = 64 << 20
	}
	if l.MaxValues <= 0 {
		l.MaxValues = 4 << 20
	}
	if l.MaxFrames <= 0 {
		l.MaxFrames = 4096
	}
	return l
}

// Property is one name/value pair of a version 6 header (process.name).
type Property struct{ Name, Value string }

// Reader reads the calls of a binary trace, streaming: it holds the
// signatures seen so far, the calls entered and not yet left, and one
// decoded chunk.
type Reader struct {
	Version         uint64
	SemanticVersion uint64
	Properties      []Property
	Container       Container

	// Cut says where the stream ended inside an event (a tracer stopped
	// mid-write): the calls still open come out marked incomplete, as
	// apitrace reads them. Empty for a stream that ends between events.
	Cut string

	s        *stream
	lim      Options
	funcs    map[uint64]*FuncSig
	structs  map[uint64]*StructSig
	enums    map[uint64]*EnumSig
	bitmasks map[uint64]*BitmaskSig
	frames   map[uint64]*Frame
	sigBytes int64
	open     []*Call
	nextNo   uint64
	cur      int64 // the call being read, for errors
	values   int   // values read in the current event
	ended    bool
	eventAt  int64
}

// errCut is the decoded stream ending inside an event.
var errCut = errors.New("the stream ends inside an event")

// NewReader reads the container's magic and the trace's header.
func NewReader(r io.Reader, lim Options) (*Reader, error) {
	s, err := openStream(r)
	if err != nil {
		return nil, err
	}
	t := &Reader{s: s, lim: lim.withDefaults(), Container: s.container, cur: -1,
		funcs: map[uint64]*FuncSig{}, structs: map[uint64]*StructSig{}, enums: map[uint64]*EnumSig{},
		bitmasks: map[uint64]*BitmaskSig{}, frames: map[uint64]*Frame{}}
	s.call = func() int64 { return t.cur }
	v, err := t.uint()
	if err != nil {
		return nil, t.headerErr(err)
	}
	t.Version = v
	if v > TraceVersion {
		return nil, t.errf("unsupported trace format version %d (this reader knows versions 0 to %d, as apitrace 11 does)", v, TraceVersion)
	}
	t.SemanticVersion = v
	if v >= 6 {
		if t.SemanticVersion, err = t.uint(); err != nil {
			return nil, t.headerErr(err)
		}
		if t.SemanticVersion > v {
			return nil, t.errf("semantic version %d is above the format version %d", t.SemanticVersion, v)
		}
		for {
			name, err := t.str()
			if err != nil {
				return nil, t.headerErr(err)
			}
			if name == "" {
				break
			}
			val, err := t.str()
			if err != nil {
				return nil, t.headerErr(err)
			}
			if len(t.Properties) >= 4096 {
				return nil, t.errf("more than 4096 header properties")
			}
			if err := t.chargeSig(len(name) + len(val)); err != nil {
				return nil, err
			}
			t.Properties = append(t.Properties, Property{name, val})
		}
	}
	return t, nil
}

func (t *Reader) headerErr(err error) error {
	if err == errCut || err == errEOF {
		return t.errf("the trace ends inside its header")
	}
	return err
}

func (t *Reader) errf(format string, args ...any) error {
	return &FormatError{Offset: t.s.offset(), FileOffset: -1, Call: t.cur, Msg: fmt.Sprintf(format, args...)}
}

// Next returns the next call, in the order apitrace's parser returns them:
// when it is left (so a call another thread left first comes first), then,
// at the end of the stream, the calls never left, marked FlagIncomplete.
// It returns io.EOF after the last call.
func (t *Reader) Next() (*Call, error) {
	for {
		if t.ended {
			if len(t.open) > 0 {
				c := t.open[0]
				t.open = t.open[1:]
				c.Flags |= FlagIncomplete
				return c, nil
			}
			return nil, io.EOF
		}
		c, err := t.event()
		if err == errEOF {
			t.ended = true
			continue
		}
		if err == errCut {
			msg := fmt.Sprintf("the stream ends inside the event that starts at byte %d: a trace cut short (a tracer stopped mid-write) or a length past the end of the data", t.eventAt)
			if !t.lim.Tolerant {
				return nil, t.errf("%s", msg)
			}
			t.Cut = fmt.Sprintf("call %d: %s", t.cur, msg)
			t.ended = true
			continue
		}
		if err != nil {
			return nil, err
		}
		if c != nil {
			return c, nil
		}
	}
}

// event reads one event; a leave returns its call.
func (t *Reader) event() (*Call, error) {
	t.eventAt = t.s.offset()
	b, err := t.s.ReadByte()
	if err != nil {
		return nil, err // errEOF: a clean end between events
	}
	t.values = 0
	switch b {
	case 0x00: // enter
		t.cur = int64(t.nextNo)
		c := &Call{No: t.nextNo, Offset: t.eventAt}
		t.nextNo++
		if t.Version >= 4 {
			if c.Thread, err = t.uint(); err != nil {
				return nil, cut(err)
			}
		}
		if c.Sig, err = t.funcSig(); err != nil {
			return nil, cut(err)
		}
		if err := t.details(c); err != nil {
			return nil, cut(err)
		}
		if len(t.open) >= t.lim.MaxOpen {
			return nil, t.errf("more than %d calls entered and not left", t.lim.MaxOpen)
		}
		t.open = append(t.open, c)
		return nil, nil
	case 0x01: // leave
		no, err := t.uint()
		if err != nil {
			return nil, cut(err)
		}
		t.cur = int64(no)
		var c *Call
		for i, o := range t.open {
			if o.No == no {
				c = o
				t.open = append(t.open[:i], t.open[i+1:]...)
				break
			}
		}
		if c == nil {
			return nil, t.errf("leave event for call %d, which is not open (calls entered so far: %d)", no, t.nextNo)
		}
		if err := t.details(c); err != nil {
			return nil, cut(err)
		}
		return c, nil
	}
	return nil, &FormatError{Offset: t.eventAt, FileOffset: -1, Call: t.cur, Msg: fmt.Sprintf("unknown event %#02x (an enter is 0x00, a leave 0x01)", b)}
}

// cut turns the end of the stream inside an event into errCut.
func cut(err error) error {
	if err == errEOF {
		return errCut
	}
	return err
}

func (t *Reader) details(c *Call) error {
	for {
		at := t.s.offset()
		b, err := t.s.ReadByte()
		if err != nil {
			return err
		}
		switch b {
		case 0x00:
			return nil
		case 0x01:
			n, err := t.uint()
			if err != nil {
				return err
			}
			if c.Sig != nil && n >= uint64(len(c.Sig.Args)) {
				return t.errf("%s has %d arguments; argument number %d is past them", c.Sig.Name, len(c.Sig.Args), n)
			}
			v, err := t.value(0)
			if err != nil {
				return err
			}
			c.setArg(int(n), v)
		case 0x02:
			v, err := t.value(0)
			if err != nil {
				return err
			}
			c.Ret = &v
		case 0x03: // thread number, before version 4
			n, err := t.uint()
			if err != nil {
				return err
			}
			c.Thread = n
		case 0x04:
			n, err := t.uint()
			if err != nil {
				return err
			}
			if n > uint64(t.lim.MaxFrames) {
				return t.errf("a backtrace of %d frames, past the limit of %d", n, t.lim.MaxFrames)
			}
			c.Backtrace = make([]*Frame, 0, n)
			for range n {
				f, err := t.frame()
				if err != nil {
					return err
				}
				c.Backtrace = append(c.Backtrace, f)
			}
		case 0x05:
			f, err := t.uint()
			if err != nil {
				return err
			}
			if f&1 != 0 {
				c.Flags |= FlagFake
			}
		default:
			return &FormatError{Offset: at, FileOffset: -1, Call: t.cur,
				Msg: fmt.Sprintf("unknown call detail %#02x in %s (0x00 end, 0x01 argument, 0x02 return, 0x03 thread, 0x04 backtrace, 0x05 flags)", b, c.Name())}
		}
	}
}

func (t *Reader) chargeSig(n int) error {
	t.sigBytes += int64(n) + 16
	if t.sigBytes > t.lim.MaxSigs {
		return t.errf("signatures take more than %d MiB, the limit", t.lim.MaxSigs>>20)
	}
	return nil
}

func (t *Reader) funcSig() (*FuncSig, error) {
	id, err := t.uint()
	if err != nil {
		return nil, err
	}
	if s := t.funcs[id]; s != nil {
		return s, nil
	}
	s := &FuncSig{ID: id}
	at := t.s.offset()
	if s.Name, err = t.str(); err != nil {
		return nil, err
	}
	if !isName(s.Name) {
		return nil, &FormatError{Offset: at, FileOffset: -1, Call: t.cur,
			Msg: fmt.Sprintf("function signature %d is used for the first time here, so its definition must follow, but %.40q is not a function name (a signature id never defined, or a corrupt stream)", id, s.Name)}
	}
	n, err := t.count("arguments of " + s.Name)
	if err != nil {
		return nil, err
	}
	for range n {
		a, err := t.str()
		if err != nil {
			return nil, err
		}
		if err := t.chargeSig(len(a)); err != nil {
			return nil, err
		}
		s.Args = append(s.Args, a)
	}
	if err := t.chargeSig(len(s.Name)); err != nil {
		return nil, err
	}
	t.funcs[id] = s
	return s, nil
}

// count reads a count of names in a signature, each at least a byte.
func (t *Reader) count(what string) (int, error) {
	n, err := t.uint()
	if err != nil {
		return 0, err
	}
	if n > uint64(t.lim.MaxSigs) {
		return 0, t.errf("%d %s: more than the signature limit", n, what)
	}
	return int(n), nil
}

func (t *Reader) structSig() (*StructSig, error) {
	id, err := t.uint()
	if err != nil {
		return nil, err
	}
	if s := t.structs[id]; s != nil {
		return s, nil
	}
	s := &StructSig{ID: id}
	at := t.s.offset()
	if s.Name, err = t.str(); err != nil {
		return nil, err
	}
	if s.Name != "" && !isName(s.Name) {
		return nil, &FormatError{Offset: at, FileOffset: -1, Call: t.cur,
			Msg: fmt.Sprintf("struct signature %d is used for the first time here, so its definition must follow, but %.40q is not a struct name (a signature id never defined, or a corrupt stream)", id, s.Name)}
	}
	n, err := t.count("members of struct " + s.Name)
	if err != nil {
		return nil, err
	}
	for range n {
		m, err := t.str()
		if err != nil {
			return nil, err
		}
		if err := t.chargeSig(len(m)); err != nil {
			return nil, err
		}
		s.Members = append(s.Members, m)
	}
	if err := t.chargeSig(len(s.Name)); err != nil {
		return nil, err
	}
	t.structs[id] = s
	return s, nil
}

func (t *Reader) enumSig() (*EnumSig, error) {
	id, err := t.uint()
	if err != nil {
		return nil, err
	}
	if s := t.enums[id]; s != nil {
		if t.Version < 3 {
			return s, nil
		}
		return s, nil
	}
	s := &EnumSig{ID: id}
	n := 1 // before version 3 a signature held one name and value
	if t.Version >= 3 {
		if n, err = t.count("enum values"); err != nil {
			return nil, err
		}
	}
	for range n {
		name, err := t.str()
		if err != nil {
			return nil, err
		}
		v, err := t.sint()
		if err != nil {
			return nil, err
		}
		if err := t.chargeSig(len(name)); err != nil {
			return nil, err
		}
		s.Values = append(s.Values, EnumValue{name, v})
	}
	t.enums[id] = s
	return s, nil
}

func (t *Reader) bitmaskSig() (*BitmaskSig, error) {
	id, err := t.uint()
	if err != nil {
		return nil, err
	}
	if s := t.bitmasks[id]; s != nil {
		return s, nil
	}
	s := &BitmaskSig{ID: id}
	n, err := t.count("bitmask flags")
	if err != nil {
		return nil, err
	}
	for range n {
		name, err := t.str()
		if err != nil {
			return nil, err
		}
		v, err := t.uint()
		if err != nil {
			return nil, err
		}
		if err := t.chargeSig(len(name)); err != nil {
			return nil, err
		}
		s.Flags = append(s.Flags, BitmaskFlag{name, v})
	}
	t.bitmasks[id] = s
	return s, nil
}

func (t *Reader) frame() (*Frame, error) {
	id, err := t.uint()
	if err != nil {
		return nil, err
	}
	if f := t.frames[id]; f != nil {
		return f, nil
	}
	f := &Frame{ID: id}
	for {
		b, err := t.s.ReadByte()
		if err != nil {
			return nil, err
		}
		switch b {
		case 0x00:
			if err := t.chargeSig(len(f.Module) + len(f.Function) + len(f.File) + 16); err != nil {
				return nil, err
			}
			t.frames[id] = f
			return f, nil
		case 0x01:
			f.Module, err = t.str()
		case 0x02:
			f.Function, err = t.str()
		case 0x03:
			f.File, err = t.str()
		case 0x04:
			f.Line, err = t.uint()
			f.HasLine = true
		case 0x05:
			f.Offset, err = t.uint()
			f.HasOff = true
		default:
			return nil, t.errf("unknown backtrace frame detail %#02x (0x00 end, 0x01 module, 0x02 function, 0x03 file, 0x04 line, 0x05 offset)", b)
		}
		if err != nil {
			return nil, err
		}
	}
}

// value reads one tagged value.
func (t *Reader) value(depth int) (Value, error) {
	if depth > t.lim.MaxDepth {
		return Value{}, t.errf("values nested more than %d deep", t.lim.MaxDepth)
	}
	t.values++
	if t.values > t.lim.MaxValues {
		return Value{}, t.errf("more than %d values in one call", t.lim.MaxValues)
	}
	at := t.s.offset()
	tag, err := t.s.ReadByte()
	if err != nil {
		return Value{}, err
	}
	switch tag {
	case 0x00:
		return Value{Kind: KNull}, nil
	case 0x01, 0x02:
		return Value{Kind: KBool, Bool: tag == 0x02}, nil
	case 0x03:
		n, err := t.uint()
		return Value{Kind: KSInt, Int: -int64(n)}, err
	case 0x04:
		n, err := t.uint()
		return Value{Kind: KUInt, Uint: n}, err
	case 0x05:
		b, err := t.s.read(nil, 4)
		if err != nil {
			return Value{}, err
		}
		bits := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
		return Value{Kind: KFloat, Float: float64(math.Float32frombits(bits))}, nil
	case 0x06:
		b, err := t.s.read(nil, 8)
		if err != nil {
			return Value{}, err
		}
		var bits uint64
		for i := 7; i >= 0; i-- {
			bits = bits<<8 | uint64(b[i])
		}
		return Value{Kind: KDouble, Float: math.Float64frombits(bits)}, nil
	case 0x07:
		s, err := t.str()
		return Value{Kind: KString, Str: s}, err
	case 0x08:
		n, err := t.size("blob")
		if err != nil {
			return Value{}, err
		}
		b, err := t.s.read(make([]byte, 0, min(n, 1<<20)), n)
		return Value{Kind: KBlob, Bytes: b}, err
	case 0x09:
		sig, err := t.enumSig()
		if err != nil {
			return Value{}, err
		}
		if t.Version < 3 {
			return Value{Kind: KEnum, EnumSig: sig, Int: sig.Values[0].Value}, nil
		}
		v, err := t.sint()
		return Value{Kind: KEnum, EnumSig: sig, Int: v}, err
	case 0x0a:
		sig, err := t.bitmaskSig()
		if err != nil {
			return Value{}, err
		}
		v, err := t.uint()
		return Value{Kind: KBitmask, BitmaskSig: sig, Uint: v}, err
	case 0x0b:
		n, err := t.uint()
		if err != nil {
			return Value{}, err
		}
		if n > uint64(t.lim.MaxValues) {
			return Value{}, t.errf("an array of %d values, past the limit of %d values in one call", n, t.lim.MaxValues)
		}
		v := Value{Kind: KArray, Elems: make([]Value, 0, min(n, 1024))}
		for range n {
			e, err := t.value(depth + 1)
			if err != nil {
				return Value{}, err
			}
			v.Elems = append(v.Elems, e)
		}
		return v, nil
	case 0x0c:
		sig, err := t.structSig()
		if err != nil {
			return Value{}, err
		}
		v := Value{Kind: KStruct, StructSig: sig, Elems: make([]Value, 0, len(sig.Members))}
		for range sig.Members {
			e, err := t.value(depth + 1)
			if err != nil {
				return Value{}, err
			}
			v.Elems = append(v.Elems, e)
		}
		return v, nil
	case 0x0d:
		n, err := t.uint()
		return Value{Kind: KPointer, Uint: n}, err
	case 0x0e:
		h, err := t.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		m, err := t.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: KRepr, Elems: []Value{h, m}}, nil
	case 0x0f:
		n, err := t.size("wide string")
		if err != nil {
			return Value{}, err
		}
		buf := make([]byte, 0, min(n, 1<<16))
		for range n {
			c, err := t.uint()
			if err != nil {
				return Value{}, err
			}
			if c > utf8.MaxRune {
				c = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, rune(c))
		}
		return Value{Kind: KWString, Str: string(buf)}, nil
	}
	return Value{}, &FormatError{Offset: at, FileOffset: -1, Call: t.cur, Msg: fmt.Sprintf("unknown value tag %#02x", tag)}
}

// size reads the length of a string, blob or wide string.
func (t *Reader) size(what string) (int, error) {
	n, err := t.uint()
	if err != nil {
		return 0, err
	}
	if n > uint64(t.lim.MaxBytes) {
		return 0, t.errf("a %s of %d bytes, past the limit of %d MiB", what, n, t.lim.MaxBytes>>20)
	}
	return int(n), nil
}

func (t *Reader) str() (string, error) {
	n, err := t.size("string")
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", nil
	}
	b, err := t.s.read(make([]byte, 0, min(n, 1<<20)), n)
	return string(b), err
}

// sint reads a signed integer as apitrace stores enum values: a value tag
// (0x03 negative, 0x04 non-negative) and the magnitude.
func (t *Reader) sint() (int64, error) {
	tag, err := t.s.ReadByte()
	if err != nil {
		return 0, err
	}
	n, err := t.uint()
	switch tag {
	case 0x03:
		return -int64(n), err
	case 0x04:
		return int64(n), err
	}
	return 0, t.errf("unexpected tag %#02x for a signed integer (0x03 or 0x04)", tag)
}

// uint reads a variable-length unsigned integer (7 bits a byte, least
// significant first: Go's Uvarint).
func (t *Reader) uint() (uint64, error) {
	var v uint64
	for i := 0; ; i++ {
		b, err := t.s.ReadByte()
		if err != nil {
			return 0, err
		}
		if i == 9 && b > 1 {
			return 0, t.errf("a variable-length integer overflows 64 bits")
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, nil
		}
	}
}

// isName says whether s can be a function or struct name: printable ASCII
// without spaces, at most 1 KiB (C++ names: letters, digits, _, ::, ~, <>).
func isName(s string) bool {
	if s == "" || len(s) > 1024 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
