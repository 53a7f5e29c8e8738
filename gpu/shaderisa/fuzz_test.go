package shaderisa

import (
	"encoding/binary"
	"slices"
	"testing"
)

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// FuzzDecode: any words decode to a program or an error, never a panic; a
// decoded program encodes back to the same words, and its disassembly
// assembles. (gpu/shader's FuzzDecodeRun also runs what decodes.)
func FuzzDecode(f *testing.F) {
	f.Add(wordsToBytes(mustAsm(f, everything).Encode()))
	f.Add(wordsToBytes(mustAsm(f, "vs inputs=1 outputs=1 temps=1\nloop\nendloop\n").Encode()))
	f.Add(wordsToBytes(mustAsm(f, texturedColor).Encode()))
	f.Add(wordsToBytes(mustAsm(f, everythingSM5).Encode()))
	f.Fuzz(func(t *testing.T, data []byte) {
		w := make([]uint32, len(data)/4)
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
		// The words as they are, and as the code of a well-formed header
		// (so that mutations reach the instructions).
		fuzzProgram(t, w)
		if len(w) > 0 {
			hdr := []uint32{Magic, Version | (w[0]&1)<<16, 4 | 2<<8 | 6<<16, uint32(len(w) - 1)}
			fuzzProgram(t, append(hdr, w[1:]...))
		}
	})
}

// fuzzProgram decodes w and, when it is valid, round-trips it.
func fuzzProgram(t *testing.T, w []uint32) {
	p, err := Decode(w)
	if err != nil {
		return
	}
	if !slices.Equal(p.Encode(), w) {
		t.Fatalf("Encode(Decode(w)) != w")
	}
	if _, err := Assemble(p.String()); err != nil {
		t.Fatalf("the disassembly does not assemble: %v\n%s", err, p)
	}
}

// FuzzAssemble: any text assembles or gives an error, never a panic; what
// assembles prints back to text that assembles to the same words.
func FuzzAssemble(f *testing.F) {
	f.Add(everything)
	f.Add(everythingSM5)
	f.Add(vertexColor)
	f.Add("ps inputs=1 outputs=1 temps=1\nmov o0, cb0[r0.x + 1].y\n")
	f.Add("vs\nif_nz l(0x1, 1.0e3, -0.0, 7)\nendif")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Assemble(src)
		if err != nil {
			return
		}
		q, err := Assemble(p.String())
		if err != nil {
			t.Fatalf("reassembling: %v\n%s", err, p)
		}
		if !slices.Equal(p.Encode(), q.Encode()) {
			t.Fatalf("round trip differs:\n%s\n%s", p, q)
		}
	})
}
