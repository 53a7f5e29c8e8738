package apitrace

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/golang/snappy"
)

// The container: apitrace compresses the event stream in chunks ("Trace
// binary format specification", FORMAT.markdown in apitrace's sources).
// Snappy, the default: 'a' 't', then chunks of a uint32 little-endian
// compressed length and a raw Snappy block (not the Snappy framing format).
// The stream is continuous: an event may straddle two chunks. Older traces
// are one gzip stream. apitrace also reads zstd and Brotli, which `apitrace
// repack` turns back into Snappy.

const (
	// chunkSize is how much stream the writer compresses per chunk, as
	// apitrace's SNAPPY_CHUNK_SIZE.
	chunkSize = 1 << 20
	// maxChunk bounds a chunk's decoded size when reading: apitrace writes
	// 1 MiB chunks; a length past this is a corrupt or hostile file.
	maxChunk = 16 << 20
)

// Container names the compression of a trace file.
type Container string

const (
	Snappy Container = "Snappy"
	Gzip   Container = "gzip"
)

// FormatError is a malformed trace: what is wrong, where in the decoded
// stream (or, for the container, in the file), and in which call.
type FormatError struct {
	Offset     int64  // byte offset in the decoded stream; -1 when FileOffset says where
	FileOffset int64  // byte offset in the file, for container errors; -1 otherwise
	Call       int64  // the number of the call being read, -1 before the first
	Msg        string // what is wrong
}

func (e *FormatError) Error() string {
	where := ""
	if e.FileOffset >= 0 {
		where = fmt.Sprintf("file byte %d", e.FileOffset)
	} else {
		where = fmt.Sprintf("byte %d of the decoded stream", e.Offset)
	}
	if e.Call >= 0 {
		where += fmt.Sprintf(", call %d", e.Call)
	}
	return "trace: " + where + ": " + e.Msg
}

// stream is a trace file's decoded byte stream, read chunk by chunk: at
// most one decoded chunk is held.
type stream struct {
	src       *bufio.Reader
	container Container
	gz        *bufio.Reader // the gzip stream, decompressed
	buf       []byte        // the decoded chunk (snappy)
	comp      []byte        // the compressed chunk (reused)
	pos       int
	base      int64 // decoded offset of buf[0]
	fileOff   int64 // file offset of the next chunk header (snappy)
	chunks    int
	call      func() int64 // the call being read, for errors
	eof       bool
	gzOff     int64
}

// errEOF is the end of the decoded stream.
var errEOF = io.EOF

// openStream detects the container from the first bytes.
func openStream(r io.Reader) (*stream, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	s := &stream{src: br, call: func() int64 { return -1 }}
	magic, err := br.Peek(2)
	if len(magic) < 2 {
		if err == nil || err == io.EOF {
			return nil, &FormatError{Offset: -1, FileOffset: 0, Call: -1, Msg: fmt.Sprintf("not an apitrace trace: the file has %d bytes", len(magic))}
		}
		return nil, err
	}
	switch {
	case magic[0] == 'a' && magic[1] == 't':
		s.container = Snappy
		br.Discard(2)
		s.fileOff = 2
	case magic[0] == 0x1f && magic[1] == 0x8b:
		s.container = Gzip
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &FormatError{Offset: -1, FileOffset: 0, Call: -1, Msg: "gzip container: " + err.Error()}
		}
		gz.Multistream(false)
		s.gz = bufio.NewReaderSize(gz, 64<<10)
	default:
		if m, _ := br.Peek(4); len(m) == 4 && binary.LittleEndian.Uint32(m) == 0xFD2FB528 {
			return nil, &FormatError{Offset: -1, FileOffset: 0, Call: -1, Msg: "a zstd-compressed trace: not read here; `apitrace repack` writes it with Snappy"}
		}
		return nil, &FormatError{Offset: -1, FileOffset: 0, Call: -1,
			Msg: fmt.Sprintf("not a Snappy or gzip trace (it starts %#02x %#02x; apitrace's Snappy traces start \"at\"); a Brotli trace (no magic) must be repacked with `apitrace repack`", magic[0], magic[1])}
	}
	return s, nil
}

func (s *stream) offset() int64 {
	if s.container == Gzip {
		return s.gzOff
	}
	return s.base + int64(s.pos)
}

func (s *stream) containerErr(fileOff int64, format string, args ...any) error {
	return &FormatError{Offset: -1, FileOffset: fileOff, Call: s.call(), Msg: fmt.Sprintf(format, args...)}
}

// fill decodes the next snappy chunk; errEOF at a clean end of file.
func (s *stream) fill() error {
	if s.eof {
		return errEOF
	}
	for {
		var hdr [4]byte
		n, err := io.ReadFull(s.src, hdr[:])
		if n == 0 && (err == io.EOF) {
			s.eof = true
			return errEOF
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return s.containerErr(s.fileOff, "truncated chunk header: %d of 4 bytes", n)
			}
			return err
		}
		clen := int64(binary.LittleEndian.Uint32(hdr[:]))
		at := s.fileOff
		s.fileOff += 4
		if clen == 0 {
			continue
		}
		if clen > int64(snappy.MaxEncodedLen(maxChunk)) {
			return s.containerErr(at, "chunk %d: compressed length %d is past the %d bytes a %d MiB chunk can take (a corrupt length)", s.chunks, clen, snappy.MaxEncodedLen(maxChunk), maxChunk>>20)
		}
		if cap(s.comp) < int(clen) {
			s.comp = make([]byte, clen)
		}
		s.comp = s.comp[:clen]
		n, err = io.ReadFull(s.src, s.comp)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
				return s.containerErr(at, "truncated chunk %d: its header says %d compressed bytes, the file has %d", s.chunks, clen, n)
			}
			return err
		}
		s.fileOff += clen
		dlen, err := snappy.DecodedLen(s.comp)
		if err != nil {
			return s.containerErr(at, "chunk %d: not a Snappy block: %v", s.chunks, err)
		}
		if dlen > maxChunk {
			return s.containerErr(at, "chunk %d decodes to %d bytes, past the %d MiB limit", s.chunks, dlen, maxChunk>>20)
		}
		s.base += int64(len(s.buf))
		if cap(s.buf) < dlen {
			s.buf = make([]byte, dlen)
		}
		out, err := snappy.Decode(s.buf[:cap(s.buf)], s.comp)
		if err != nil {
			return s.containerErr(at, "chunk %d: corrupt Snappy block: %v", s.chunks, err)
		}
		s.buf, s.pos = out, 0
		s.chunks++
		if len(out) > 0 {
			return nil
		}
	}
}

// ReadByte reads one byte of the decoded stream.
func (s *stream) ReadByte() (byte, error) {
	if s.container == Gzip {
		b, err := s.gzByte()
		return b, err
	}
	for s.pos >= len(s.buf) {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	b := s.buf[s.pos]
	s.pos++
	return b, nil
}

func (s *stream) gzByte() (byte, error) {
	if s.eof {
		return 0, errEOF
	}
	b, err := s.gz.ReadByte()
	if err == nil {
		s.gzOff++
		return b, nil
	}
	// A gzip stream cut short (apitrace-tests' zlib-no-eof.trace: a
	// tracer killed before it closed the file) ends the stream, as
	// apitrace reads it.
	s.eof = true
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, errEOF
	}
	return 0, &FormatError{Offset: s.gzOff, FileOffset: -1, Call: s.call(), Msg: "gzip container: " + err.Error()}
}

// read appends n bytes of the stream to dst.
func (s *stream) read(dst []byte, n int) ([]byte, error) {
	for n > 0 {
		if s.container == Gzip {
			if s.eof {
				return dst, errEOF
			}
			k := min(n, 64<<10)
			at := len(dst)
			dst = append(dst, make([]byte, k)...)
			got, err := io.ReadFull(s.gz, dst[at:])
			s.gzOff += int64(got)
			dst = dst[:at+got]
			n -= got
			if err != nil {
				s.eof = true
				if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
					return dst, errEOF
				}
				return dst, &FormatError{Offset: s.gzOff, FileOffset: -1, Call: s.call(), Msg: "gzip container: " + err.Error()}
			}
			continue
		}
		if s.pos >= len(s.buf) {
			if err := s.fill(); err != nil {
				return dst, err
			}
		}
		k := min(n, len(s.buf)-s.pos)
		dst = append(dst, s.buf[s.pos:s.pos+k]...)
		s.pos += k
		n -= k
	}
	return dst, nil
}
