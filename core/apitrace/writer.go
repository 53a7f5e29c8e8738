package apitrace

import (
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/golang/snappy"
)

// Writer writes a version 6 trace with the Snappy container, as apitrace's
// tracers do: the stream in chunks of at most 1 MiB, each signature
// defined inline at its first use and named by its id after that.
type Writer struct {
	w        io.Writer
	buf      []byte
	comp     []byte
	seen     [5]map[uint64]bool // functions, structs, enums, bitmasks, frames
	next     uint64             // the next call number
	open     map[uint64]bool
	err      error
	closed   bool
	Written  int64 // bytes written to w
	Streamed int64 // bytes of stream (before compression)
}

const (
	sigFunc = iota
	sigStruct
	sigEnum
	sigBitmask
	sigFrame
)

// NewWriter starts a trace: the container's magic, the version, the
// semantic version and the properties (process.name, as Debian's apitrace
// writes).
func NewWriter(w io.Writer, props []Property) *Writer {
	t := &Writer{w: w, open: map[uint64]bool{}}
	for i := range t.seen {
		t.seen[i] = map[uint64]bool{}
	}
	t.out([]byte{'a', 't'})
	t.uint(TraceVersion)
	t.uint(TraceVersion)
	for _, p := range props {
		t.str(p.Name)
		t.str(p.Value)
	}
	t.str("")
	return t
}

func (t *Writer) out(b []byte) {
	if t.err != nil {
		return
	}
	n, err := t.w.Write(b)
	t.Written += int64(n)
	t.err = err
}

// flush compresses the pending stream as one chunk.
func (t *Writer) flush() {
	if len(t.buf) == 0 {
		return
	}
	t.comp = snappy.Encode(t.comp[:cap(t.comp)], t.buf)
	var hdr [4]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(len(t.comp)))
	t.out(hdr[:])
	t.out(t.comp)
	t.buf = t.buf[:0]
}

func (t *Writer) byte1(b byte) {
	t.buf = append(t.buf, b)
	t.Streamed++
	if len(t.buf) >= chunkSize {
		t.flush()
	}
}

func (t *Writer) bytes(b []byte) {
	for len(b) > 0 {
		k := min(len(b), chunkSize-len(t.buf))
		t.buf = append(t.buf, b[:k]...)
		t.Streamed += int64(k)
		b = b[k:]
		if len(t.buf) >= chunkSize {
			t.flush()
		}
	}
}

func (t *Writer) uint(v uint64) {
	var b [binary.MaxVarintLen64]byte
	t.bytes(b[:binary.PutUvarint(b[:], v)])
}

func (t *Writer) str(s string) {
	t.uint(uint64(len(s)))
	t.bytes([]byte(s))
}

func (t *Writer) sint(v int64) {
	if v < 0 {
		t.byte1(0x03)
		t.uint(uint64(-v))
	} else {
		t.byte1(0x04)
		t.uint(uint64(v))
	}
}

// first says whether the signature id of that kind is used for the first
// time (its definition follows).
func (t *Writer) first(kind int, id uint64) bool {
	t.uint(id)
	if t.seen[kind][id] {
		return false
	}
	t.seen[kind][id] = true
	return true
}

// Arg is an argument by its number in the function's signature.
type Arg struct {
	N int
	V Value
}

// Enter writes a call's enter event: its thread, its signature, the
// arguments known on entry and the FAKE flag. It returns the call's number.
func (t *Writer) Enter(thread uint64, sig *FuncSig, args []Arg, flags CallFlags, backtrace []*Frame) uint64 {
	no := t.next
	t.next++
	t.open[no] = true
	t.byte1(0x00)
	t.uint(thread)
	if t.first(sigFunc, sig.ID) {
		t.str(sig.Name)
		t.uint(uint64(len(sig.Args)))
		for _, a := range sig.Args {
			t.str(a)
		}
	}
	for _, a := range args {
		t.byte1(0x01)
		t.uint(uint64(a.N))
		t.value(&a.V)
	}
	if backtrace != nil {
		t.byte1(0x04)
		t.uint(uint64(len(backtrace)))
		for _, f := range backtrace {
			t.frame(f)
		}
	}
	if flags&FlagFake != 0 {
		t.byte1(0x05)
		t.uint(1)
	}
	t.byte1(0x00)
	return no
}

// Leave writes call no's leave event: the output arguments and the return
// value (nil for a void function).
func (t *Writer) Leave(no uint64, args []Arg, ret *Value) {
	if !t.open[no] {
		if t.err == nil {
			t.err = errors.New("apitrace: Leave of a call that is not open")
		}
		return
	}
	delete(t.open, no)
	t.byte1(0x01)
	t.uint(no)
	for _, a := range args {
		t.byte1(0x01)
		t.uint(uint64(a.N))
		t.value(&a.V)
	}
	if ret != nil {
		t.byte1(0x02)
		t.value(ret)
	}
	t.byte1(0x00)
}

func (t *Writer) frame(f *Frame) {
	if !t.first(sigFrame, f.ID) {
		return
	}
	if f.Module != "" {
		t.byte1(0x01)
		t.str(f.Module)
	}
	if f.Function != "" {
		t.byte1(0x02)
		t.str(f.Function)
	}
	if f.File != "" {
		t.byte1(0x03)
		t.str(f.File)
	}
	if f.HasLine {
		t.byte1(0x04)
		t.uint(f.Line)
	}
	if f.HasOff {
		t.byte1(0x05)
		t.uint(f.Offset)
	}
	t.byte1(0x00)
}

// value writes one tagged value.
func (t *Writer) value(v *Value) {
	switch v.Kind {
	case KNull:
		t.byte1(0x00)
	case KBool:
		if v.Bool {
			t.byte1(0x02)
		} else {
			t.byte1(0x01)
		}
	case KSInt:
		t.sint(v.Int)
	case KUInt:
		t.byte1(0x04)
		t.uint(v.Uint)
	case KFloat:
		t.byte1(0x05)
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(float32(v.Float)))
		t.bytes(b[:])
	case KDouble:
		t.byte1(0x06)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v.Float))
		t.bytes(b[:])
	case KString:
		t.byte1(0x07)
		t.str(v.Str)
	case KBlob:
		t.byte1(0x08)
		t.uint(uint64(len(v.Bytes)))
		t.bytes(v.Bytes)
	case KEnum:
		t.byte1(0x09)
		if t.first(sigEnum, v.EnumSig.ID) {
			t.uint(uint64(len(v.EnumSig.Values)))
			for _, e := range v.EnumSig.Values {
				t.str(e.Name)
				t.sint(e.Value)
			}
		}
		t.sint(v.Int)
	case KBitmask:
		t.byte1(0x0a)
		if t.first(sigBitmask, v.BitmaskSig.ID) {
			t.uint(uint64(len(v.BitmaskSig.Flags)))
			for _, f := range v.BitmaskSig.Flags {
				t.str(f.Name)
				t.uint(f.Value)
			}
		}
		t.uint(v.Uint)
	case KArray:
		t.byte1(0x0b)
		t.uint(uint64(len(v.Elems)))
		for i := range v.Elems {
			t.value(&v.Elems[i])
		}
	case KStruct:
		t.byte1(0x0c)
		s := v.StructSig
		if t.first(sigStruct, s.ID) {
			t.str(s.Name)
			t.uint(uint64(len(s.Members)))
			for _, m := range s.Members {
				t.str(m)
			}
		}
		for i := range s.Members {
			if i < len(v.Elems) {
				t.value(&v.Elems[i])
			} else {
				t.byte1(0x00)
			}
		}
	case KPointer:
		t.byte1(0x0d)
		t.uint(v.Uint)
	case KRepr:
		t.byte1(0x0e)
		t.value(&v.Elems[0])
		t.value(&v.Elems[1])
	case KWString:
		t.byte1(0x0f)
		rs := []rune(v.Str)
		t.uint(uint64(len(rs)))
		for _, r := range rs {
			t.uint(uint64(r))
		}
	default:
		// Dump-only kinds have no binary form.
		t.byte1(0x00)
	}
}

// Close ends the calls still open (they read as incomplete), writes the
// last chunk and returns the first error writing met.
func (t *Writer) Close() error {
	if t.closed {
		return t.err
	}
	t.closed = true
	t.flush()
	return t.err
}

// Calls is the number of calls entered so far.
func (t *Writer) Calls() uint64 { return t.next }
