package dxbc

import (
	"bytes"
	"strings"
	"testing"
)

// TestLevel9Fixtures: the Aon9 chunks of fxc's level 9 blobs (SDL's and
// Nuklear's renderers) decode, encode back to the same bytes, and list as
// fxc's /Fc listing shows them: the mapping tables and the Direct3D 9
// disassembly, line for line, with fxc's instruction-slot count.
func TestLevel9Fixtures(t *testing.T) {
	n := 0
	for _, f := range loadFixtures(t) {
		c, err := Parse(f.bytes)
		if err != nil {
			t.Fatal(err)
		}
		ch := c.Chunk("Aon9")
		if ch == nil {
			continue
		}
		n++
		t.Run(f.name, func(t *testing.T) {
			l, err := ParseLevel9(ch.Data)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Bytes(); !bytes.Equal(got, ch.Data) {
				t.Errorf("re-encoded chunk differs:\n got % x\nwant % x", got, ch.Data)
			}
			got, err := l.Listing()
			if err != nil {
				t.Fatal(err)
			}
			var theirs strings.Builder
			for _, line := range strings.Split(f.listing, "\n") {
				theirs.WriteString(strings.TrimRight(line, " \r") + "\n")
			}
			if !strings.Contains(theirs.String(), got) {
				t.Errorf("the Aon9 listing is not fxc's:\n%s\nfxc's:\n%s", got, theirs.String())
			}
		})
	}
	if n < 5 {
		t.Errorf("%d fixtures with an Aon9 chunk, want 5", n)
	}
}

// TestLevel9Refusals: a truncated or inconsistent chunk is an error naming
// what is wrong, never a panic.
func TestLevel9Refusals(t *testing.T) {
	good := (&Level9{Version: 0xffff0200, Samplers: []Level9SamplerMap{{}}, Code: []uint32{0xffff0200, 0xffff}}).Bytes()
	if _, err := ParseLevel9(good); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"short", func(b []byte) []byte { return b[:20] }, "shorter than"},
		{"code past the end", func(b []byte) []byte { b[8] = 200; return b }, "outside the chunk"},
		{"table past the code", func(b []byte) []byte { b[28] = 9; return b }, "run past the code"},
		{"version", func(b []byte) []byte { b[4] = 1; return b }, "not the code's"},
		{"no end token", func(b []byte) []byte { b[len(b)-4], b[len(b)-3] = 1, 0; return b }, "no end token"},
		{"unknown opcode", func(b []byte) []byte {
			b[len(b)-4] = 0x70
			b[len(b)-3] = 0
			b[len(b)-1] = 0
			return append(b, 0xff, 0xff, 0, 0)
		}, "opcode 112"},
	} {
		b := c.edit(bytes.Clone(good))
		l, err := ParseLevel9(b)
		if err == nil {
			_, err = l.Listing()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzLevel9: any bytes decode to a chunk or an error, and a decoded
// chunk lists or fails without a panic.
func FuzzLevel9(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		if c, err := Parse(fx.bytes); err == nil && c.Chunk("Aon9") != nil {
			f.Add(c.Chunk("Aon9").Data)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := ParseLevel9(b)
		if err != nil {
			return
		}
		_, _ = l.Listing()
		if _, err := ParseLevel9(l.Bytes()); err != nil {
			t.Fatalf("re-encoded chunk does not decode: %v", err)
		}
	})
}
