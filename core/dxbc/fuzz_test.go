package dxbc

import (
	"encoding/binary"
	"math/rand"
	"runtime"
	"testing"
)

func seedFixtures(f *testing.F) [][]byte {
	var out [][]byte
	for _, fx := range loadFixtures(f) {
		out = append(out, fx.bytes)
	}
	for _, b := range []*Builder{nuklearPS(), sdlVS(), sm5Kitchen()} {
		in, o := kitchenSignatures()
		blob, err := b.Build(in, o, nil)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, blob)
	}
	return out
}

// FuzzParse feeds any bytes through everything the runtime and the
// disassembler do with a blob: no panic, and errors instead.
func FuzzParse(f *testing.F) {
	for _, b := range seedFixtures(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// A container found inside the bytes parses (Embedded's
		// promise), wherever it is.
		if e := Embedded(append([]byte("wrapper"), b...)); e != nil {
			if _, err := Parse(e); err != nil {
				t.Fatalf("Embedded gave a container that does not parse: %v", err)
			}
		}
		c, err := ParseNoChecksum(b)
		if err != nil {
			return
		}
		_, _ = Listing(c)
		if rf, err := c.Reflection(); err == nil && rf != nil {
			_, _ = ParseRDEF(rf.Bytes())
		}
		for _, input := range []bool{true, false} {
			if s, err := c.Signature(input); err == nil {
				if _, err := ParseSignature("ISGN", s.Bytes()); err != nil {
					t.Errorf("a signature that parsed does not re-parse: %v", err)
				}
			}
		}
		// With the checksum made right, the runtime's validation runs too.
		fixed := append([]byte{}, b...)
		sum := Checksum(fixed)
		copy(fixed[4:20], sum[:])
		_, _ = Validate(fixed, PixelShader)
		_, _ = Validate(fixed, VertexShader)
		if vs, err := c.Signature(false); err == nil {
			if ps, err := c.Signature(true); err == nil {
				_ = Link(vs, ps)
			}
		}
	})
}

// FuzzDecodeProgram checks the token decoder alone: no panic, and a
// program that decodes re-encodes to one that decodes to the same listing.
func FuzzDecodeProgram(f *testing.F) {
	for _, b := range seedFixtures(f) {
		c, err := Parse(b)
		if err != nil {
			f.Fatal(err)
		}
		p, err := c.Program()
		if err != nil {
			f.Fatal(err)
		}
		code, _ := p.Bytes()
		f.Add(code)
	}
	for _, sp := range stagePrograms {
		code, err := sp.p.Bytes()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(code)
	}
	f.Fuzz(func(t *testing.T, code []byte) {
		if len(code) >= 8 {
			// Keep the length token honest often enough to get past it.
			binary.LittleEndian.PutUint32(code[4:], uint32(len(code)/4))
		}
		p, err := ParseProgram(code)
		if err != nil {
			return
		}
		text := p.Disassemble()
		w, err := p.Words()
		if err != nil {
			return // e.g. an instruction that no longer fits 127 words
		}
		again, err := DecodeProgram(w)
		if err != nil {
			t.Fatalf("re-encoded program does not decode: %v", err)
		}
		if got := again.Disassemble(); got != text {
			t.Fatalf("re-encoded program disassembles differently:\n%s\nwant\n%s", got, text)
		}
	})
}

// FuzzParseFxcHeader: any text gives bytes or an error, never a panic.
func FuzzParseFxcHeader(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		if len(fx.listing) < 16<<10 { // large seeds slow the mutator down
			f.Add(fx.listing)
		}
	}
	f.Add("#if 0\n// listing { 1 }\n#endif\nconst BYTE a[] = { 0x44, /* x */ 88,\n 66 // c\n};")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseFxcHeader(text)
		if err == nil && (len(b) == 0 || len(b) > MaxSize) {
			t.Fatalf("%d bytes without an error", len(b))
		}
	})
}

// TestMutatedFixtures is a deterministic stand-in for the fuzzers in every
// test run: fixtures with words overwritten go through parsing, listing and
// validation without a panic and within a memory bound.
func TestMutatedFixtures(t *testing.T) {
	var seeds [][]byte
	for _, fx := range loadFixtures(t) {
		seeds = append(seeds, fx.bytes)
	}
	r := rand.New(rand.NewSource(1))
	const limit = 64 << 20
	for i := 0; i < 3000; i++ {
		b := append([]byte{}, seeds[r.Intn(len(seeds))]...)
		for k := 0; k < 1+r.Intn(4); k++ {
			off := r.Intn(len(b)/4) * 4
			switch r.Intn(3) {
			case 0:
				b[off+r.Intn(4)] = byte(r.Intn(256))
			case 1:
				binary.LittleEndian.PutUint32(b[off:], uint32(r.Intn(1<<16)))
			default:
				binary.LittleEndian.PutUint32(b[off:], r.Uint32())
			}
		}
		sum := Checksum(b)
		copy(b[4:20], sum[:])
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if c, err := Parse(b); err == nil {
			_, _ = Listing(c)
			if rf, err := c.Reflection(); err == nil && rf != nil {
				_, _ = ParseRDEF(rf.Bytes())
			}
		}
		_, _ = Validate(b, PixelShader)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > limit {
			t.Fatalf("mutation %d: %d bytes allocated for a %d-byte blob", i, n, len(b))
		}
	}
}
