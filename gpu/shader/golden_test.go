package shader

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// goldenHash is the hash of batteryHash's results. The same test run
// under GOOS=js GOARCH=wasm (go_js_wasm_exec on the PATH, as the
// Makefile's test-wasm target does) checks that WebAssembly computes the
// same bits as the native build: float arithmetic, the transcendental
// routines, conversions, NaN canonicalisation, control flow.
const goldenHash = 0xb54203e489f9149c

// batteryHash runs every ALU op over the special values and a sweep of
// ordinary and random ones, plus the random programs of the reference test,
// and hashes every output bit.
func batteryHash(t *testing.T) uint64 {
	h := fnv.New64a()
	put := func(v uint32) { h.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}) }
	rng := rand.New(rand.NewPCG(7, 21))
	vals := append([]uint32{}, specials...)
	for i := range 2000 {
		vals = append(vals, fbits(float32(i-1000)/37), rng.Uint32(), fbits(float32(rng.NormFloat64()*1e4)))
	}
	for _, op := range batteryOps() {
		src := fmt.Sprintf("ps inputs=3 outputs=1 temps=1\n%s o0", op)
		for k := range op.Srcs() {
			src += fmt.Sprintf(", v%d", k)
		}
		m := NewMachine(mustAsm(t, src))
		for base := 0; base < len(vals); base += 4 * Lanes {
			for k := 0; k < 4*Lanes; k++ {
				c, l := k/Lanes, k%Lanes
				m.In(0)[c][l] = vals[(base+k)%len(vals)]
				m.In(1)[c][l] = vals[(base+k*7+3)%len(vals)]
				m.In(2)[c][l] = vals[(base+k*13+5)%len(vals)]
			}
			if _, err := m.Run(AllLanes); err != nil {
				t.Fatal(err)
			}
			for c := range 4 {
				for _, v := range m.Out(0)[c] {
					put(v)
				}
			}
		}
	}
	var names []string
	for _, op := range batteryOps() {
		names = append(names, op.String())
	}
	for range 100 {
		p := mustAsm(t, randomProgram(rng, names))
		m := NewMachine(p)
		for v := range p.Inputs {
			for c := range 4 {
				setLanes(m, v, c, func(int) uint32 { return vals[rng.IntN(len(vals))] })
			}
		}
		alive, err := m.Run(rng.Uint64())
		if err != nil {
			t.Fatal(err)
		}
		put(uint32(alive))
		put(uint32(alive >> 32))
		for o := range p.Outputs {
			for c := range 4 {
				for l, v := range m.Out(o)[c] {
					if alive>>l&1 != 0 {
						put(v)
					}
				}
			}
		}
	}
	return h.Sum64()
}

func TestGoldenHash(t *testing.T) {
	if got := batteryHash(t); got != goldenHash {
		t.Fatalf("battery hash %#016x, want %#016x: results changed (or differ between native and WebAssembly)", got, uint64(goldenHash))
	}
}
