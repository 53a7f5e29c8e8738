package shader

import (
	"encoding/binary"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// fuzzSeeds are more programs' text for the fuzz targets' seeds.
var fuzzSeeds []string

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// FuzzDecodeRun: any words that decode run (bounded by a small step
// limit) without a panic. (Decoding and the round trip are
// gpu/shaderisa's FuzzDecode.)
func FuzzDecodeRun(f *testing.F) {
	f.Add(wordsToBytes(mustAsm(f, everything).Encode()))
	f.Add(wordsToBytes(mustAsm(f, "vs inputs=1 outputs=1 temps=1\nloop\nendloop\n").Encode()))
	f.Add(wordsToBytes(mustAsm(f, texturedColor).Encode()))
	for _, src := range fuzzSeeds {
		f.Add(wordsToBytes(mustAsm(f, src).Encode()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w := make([]uint32, len(data)/4)
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
		// The words as they are, and as the code of a well-formed header
		// (so that mutations reach the instructions).
		runWords(w)
		if len(w) > 0 {
			hdr := []uint32{Magic, Version | (w[0]&1)<<16, 4 | 2<<8 | 6<<16, uint32(len(w) - 1)}
			runWords(append(hdr, w[1:]...))
		}
	})
}

// runWords decodes w and, when it is valid, runs it.
func runWords(w []uint32) {
	p, err := Decode(w)
	if err != nil {
		return
	}
	m := NewMachine(p)
	m.StepLimit = 2000
	m.Bind(fakeCB{{0, 1}: {1, 2, 3, 4}}, &fakeTex{})
	m.Run(AllLanes)
	m.Run(0x5555)
}

func init() {
	// The relative, subroutine and SM5 programs seed the fuzzers too.
	for _, p := range relAndCallPrograms {
		fuzzSeeds = append(fuzzSeeds, p.src)
	}
}
