package dxbc

import (
	"encoding/binary"
	"fmt"
)

// reader reads little-endian words from a chunk, remembering the first
// out-of-bounds read as an error naming the chunk and what was read.
type reader struct {
	chunk string
	b     []byte
	err   error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("dxbc: %s: "+format, append([]any{r.chunk}, args...)...)
	}
}

// u32 reads the word at off.
func (r *reader) u32(off uint32, what string) uint32 {
	if uint64(off)+4 > uint64(len(r.b)) {
		r.fail("%s at offset %d is past the end of the %d-byte chunk", what, off, len(r.b))
		return 0
	}
	return binary.LittleEndian.Uint32(r.b[off:])
}

func (r *reader) u16(off uint32, what string) uint16 {
	if uint64(off)+2 > uint64(len(r.b)) {
		r.fail("%s at offset %d is past the end of the %d-byte chunk", what, off, len(r.b))
		return 0
	}
	return binary.LittleEndian.Uint16(r.b[off:])
}

func (r *reader) u8(off uint32, what string) uint8 {
	if uint64(off) >= uint64(len(r.b)) {
		r.fail("%s at offset %d is past the end of the %d-byte chunk", what, off, len(r.b))
		return 0
	}
	return r.b[off]
}

// str reads the NUL-terminated string at off.
func (r *reader) str(off uint32, what string) string {
	if uint64(off) >= uint64(len(r.b)) {
		r.fail("%s string at offset %d is past the end of the %d-byte chunk", what, off, len(r.b))
		return ""
	}
	for i := off; int(i) < len(r.b); i++ {
		if r.b[i] == 0 {
			return string(r.b[off:i])
		}
	}
	r.fail("%s string at offset %d has no terminating NUL", what, off)
	return ""
}

// table checks that count records of size bytes fit from off.
func (r *reader) table(off, count, size uint32, what string) bool {
	if uint64(off)+uint64(count)*uint64(size) > uint64(len(r.b)) {
		r.fail("%d %s of %d bytes at offset %d do not fit the %d-byte chunk", count, what, size, off, len(r.b))
		return false
	}
	return true
}

// writer builds a chunk: fixed records first, strings pooled after them.
type writer struct {
	b       []byte
	strings map[string]uint32
}

func (w *writer) put32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) put16(v uint16) { w.b = binary.LittleEndian.AppendUint16(w.b, v) }
func (w *writer) set32(off int, v uint32) {
	binary.LittleEndian.PutUint32(w.b[off:], v)
}

// str appends s once (NUL-terminated) and returns its offset.
func (w *writer) str(s string) uint32 {
	if w.strings == nil {
		w.strings = map[string]uint32{}
	}
	if off, ok := w.strings[s]; ok {
		return off
	}
	off := uint32(len(w.b))
	w.b = append(append(w.b, s...), 0)
	w.strings[s] = off
	return off
}

// align pads with 0xAB, as fxc does, to a multiple of four bytes.
func (w *writer) align() {
	for len(w.b)%4 != 0 {
		w.b = append(w.b, 0xab)
	}
}
