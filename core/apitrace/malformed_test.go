package apitrace

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/golang/snappy"
)

// container wraps a decoded stream in the Snappy container, in chunks of
// at most size bytes.
func container(stream []byte, size int) []byte {
	out := []byte{'a', 't'}
	for len(stream) > 0 {
		k := min(size, len(stream))
		c := snappy.Encode(nil, stream[:k])
		out = binary.LittleEndian.AppendUint32(out, uint32(len(c)))
		out = append(out, c...)
		stream = stream[k:]
	}
	return out
}

// decoded is the stream of a Snappy trace.
func decoded(t testing.TB, data []byte) []byte {
	var out []byte
	data = data[2:]
	for len(data) > 0 {
		n := binary.LittleEndian.Uint32(data)
		b, err := snappy.Decode(nil, data[4:4+n])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
		data = data[4+n:]
	}
	return out
}

// sb builds a raw stream.
type sb []byte

func (s sb) u(v uint64) sb   { return binary.AppendUvarint(s, v) }
func (s sb) b(v ...byte) sb  { return append(s, v...) }
func (s sb) str(v string) sb { return append(s.u(uint64(len(v))), v...) }
func header() sb             { return sb{}.u(6).u(6).str("") }
func (s sb) enter(sig uint64, name string, args ...string) sb {
	s = s.b(0).u(0).u(sig).str(name).u(uint64(len(args)))
	for _, a := range args {
		s = s.str(a)
	}
	return s
}

func readErr(data []byte, o Options) (calls int, err error) {
	r, err := NewReader(bytes.NewReader(data), o)
	if err != nil {
		return 0, err
	}
	for {
		_, err := r.Next()
		if err == io.EOF {
			return calls, nil
		}
		if err != nil {
			return calls, err
		}
		calls++
	}
}

// TestMalformed: each malformed file gets a FormatError naming where it is
// (a byte of the decoded stream or of the file) and the call being read.
func TestMalformed(t *testing.T) {
	good := everyValue()
	stream := decoded(t, good)
	// the same trace with a good first call, then the bad bytes in call 1
	one := header().enter(0, "f", "a").b(1, 0, 4, 7, 0).b(1).u(0).b(0)
	deep := one.enter(1, "g", "a").b(1, 0)
	for range 100 {
		deep = deep.b(0x0b).u(1)
	}
	deep = deep.b(0)
	cases := []struct {
		name string
		data []byte
		want []string
	}{
		{"truncated chunk", good[:len(good)-10], []string{"file byte", "truncated chunk 3", "call 3"}},
		{"truncated chunk header", append(container(stream, 1<<20), 9, 0), []string{"file byte", "truncated chunk header"}},
		{"corrupt chunk", append([]byte{'a', 't', 3, 0, 0, 0}, 0xff, 0xff, 0xff), []string{"file byte 2", "not a Snappy block"}},
		{"chunk length", append([]byte{'a', 't'}, 0xff, 0xff, 0xff, 0x7f), []string{"file byte 2", "compressed length"}},
		{"bad signature id", container(append(one, sb{}.b(0).u(0).u(7).b(1, 0, 4, 1, 0)...), 64), []string{"call 1", "function signature 7", "not a function name", "byte 22"}},
		{"unknown tag", container(one.enter(1, "g", "a").b(1, 0, 0x2a, 0), 1<<20), []string{"call 1", "unknown value tag 0x2a", "byte 29"}},
		{"unknown event", container(one.b(7), 1<<20), []string{"unknown event 0x07", "byte 19"}},
		{"unknown detail", container(one.enter(1, "g").b(9), 1<<20), []string{"call 1", "unknown call detail 0x09 in g"}},
		{"argument past the signature", container(one.enter(1, "g", "a").b(1, 5, 0), 1<<20), []string{"call 1", "g has 1 arguments; argument number 5"}},
		{"lying blob length", container(one.enter(1, "g", "a").b(1, 0, 8).u(1000).b(1, 2, 3), 1<<20), []string{"call 1", "ends inside the event that starts at byte 19"}},
		{"huge string", container(one.enter(1, "g", "a").b(1, 0, 7).u(1<<40), 1<<20), []string{"call 1", "string of 1099511627776 bytes, past the limit"}},
		{"deep nesting", container(deep, 1<<20), []string{"call 1", "nested more than 64 deep"}},
		{"leave of no call", container(one.b(1).u(42).b(0), 1<<20), []string{"leave event for call 42, which is not open"}},
		{"overflowing integer", container(one.enter(1, "g", "a").b(1, 0, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), 1<<20), []string{"call 1", "overflows 64 bits"}},
		{"future version", container(sb{}.u(7), 64), []string{"unsupported trace format version 7"}},
		{"not a trace", []byte("hello"), []string{"file byte 0", "not a Snappy or gzip trace"}},
		{"zstd", []byte{0x28, 0xb5, 0x2f, 0xfd, 0}, []string{"zstd"}},
		{"empty", nil, []string{"not an apitrace trace"}},
		{"header cut", container(sb{}.u(6), 64), []string{"ends inside its header"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readErr(c.data, Options{})
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FormatError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestTolerantCut: read tolerantly, a stream cut inside an event ends as
// apitrace reads it: the calls before it, the open calls incomplete, and
// Cut naming the call and the byte.
func TestTolerantCut(t *testing.T) {
	// call 0 entered and never left, call 1 cut inside a blob
	stream := header().enter(0, "f", "a").b(1, 0, 4, 7, 0).b(0).u(0).u(0).b(1, 0, 8).u(100).b(1, 2)
	if _, err := readErr(container(stream, 64), Options{}); err == nil || !strings.Contains(err.Error(), "call 1") {
		t.Fatalf("strict: %v", err)
	}
	r, err := NewReader(bytes.NewReader(container(stream, 64)), Options{Tolerant: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var s strings.Builder
		DumpCall(&s, c, DumpOptions{})
		got = append(got, s.String())
	}
	if len(got) != 1 || got[0] != "0 f(a = 7) // incomplete\n" || !strings.Contains(r.Cut, "call 1") || !strings.Contains(r.Cut, "byte 16") {
		t.Fatalf("calls %q, cut %q", got, r.Cut)
	}
}

// TestGzipContainer reads the stream from a gzip container, as older
// apitrace wrote it, and one cut short (apitrace-tests' zlib-no-eof).
func TestGzipContainer(t *testing.T) {
	stream := decoded(t, everyValue())
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(stream)
	zw.Close()
	n, err := readErr(buf.Bytes(), Options{})
	if err != nil || n != 6 {
		t.Fatalf("gzip: %d calls, %v", n, err)
	}
	// cut the gzip stream: the reader stops where the data stops
	cut := buf.Bytes()[:buf.Len()/2]
	r, err := NewReader(bytes.NewReader(cut), Options{Tolerant: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Container != Gzip {
		t.Fatalf("container %s", r.Container)
	}
	for {
		if _, err := r.Next(); err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
	}
}

// TestOldVersions reads the version 4 and 5 stream (no semantic version,
// no properties) and the version 2 enum form (one name and value per
// signature) and thread detail.
func TestOldVersions(t *testing.T) {
	v4 := sb{}.u(4).b(0).u(3).u(0).str("f").u(1).str("a").b(1, 0, 4, 9, 0).b(1).u(0).b(0)
	r, err := NewReader(bytes.NewReader(container(v4, 64)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Next()
	if err != nil || c.Thread != 3 || c.Arg("a").Uint != 9 {
		t.Fatalf("v4: %+v %v", c, err)
	}
	v2 := sb{}.u(2).b(0).u(0).str("g").u(1).str("e").b(1, 0, 9).u(5).str("GL_ONE").b(4, 1).b(3, 2, 0).b(1).u(0).b(0)
	r, err = NewReader(bytes.NewReader(container(v2, 64)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err = r.Next()
	if err != nil {
		t.Fatal(err)
	}
	var s strings.Builder
	DumpCall(&s, c, DumpOptions{ThreadIDs: true})
	if s.String() != "0 @2 g(e = GL_ONE)\n" {
		t.Fatalf("v2: %q", s.String())
	}
}
