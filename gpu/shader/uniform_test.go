package shader

import (
	"math/rand/v2"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// TestUniformAgainstReference: random programs (counted loops, ifs on
// inputs and on temps, per-lane breaks, discards, every ALU op) run over
// whole blocks, whose inputs are the same in every lane or not, one
// machine for several blocks in a row, give the per-lane reference's
// outputs: the uniform path (uniform.go) computes what the kernels do and
// forgets what a later write changes.
func TestUniformAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 11))
	randomPrograms(t, rng, 300, func(p *Program, m *Machine) {
		for block := range 3 {
			same := block != 1 // the middle block's inputs go per lane
			for v := range p.Inputs {
				for c := range 4 {
					x := uint32(rng.IntN(8))
					setLanes(m, v, c, func(int) uint32 {
						if !same {
							x = uint32(rng.IntN(8))
						}
						return x
					})
				}
			}
			checkAgainstRef(t, p, m, AllLanes)
		}
	})
}

// TestUniformCounter: the bench's loop (a counted loop of eight rounds)
// keeps its counter uniform through the rounds over a whole block, and
// not over a partial one; a counter an if changes in some lanes only is
// forgotten, and the lanes' own values are used.
func TestUniformCounter(t *testing.T) {
	p, err := Assemble(`ps inputs=1 outputs=1 temps=3
mov r2.x, l(0, 0, 0, 0).x
loop
  ilt r1.x, r2.x, l(8, 8, 8, 8).x
  breakc_z r1.x
  iadd r2.x, r2.x, l(1, 1, 1, 1).x
endloop
mov r0.x, r2.x
lt r1.y, v0.x, l(0.5, 0.5, 0.5, 0.5).x
if_nz r1.y
  iadd r2.x, r2.x, l(5, 5, 5, 5).x
endif
ilt r1.z, r2.x, l(9, 9, 9, 9).x
if_nz r1.z
  iadd r2.x, r2.x, l(100, 100, 100, 100).x
endif
mov o0.x, r0.x
mov o0.y, r2.x
mov o0.zw, l(0, 0, 0, 0)
ret`)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(p)
	setLanes(m, 0, 0, func(l int) uint32 { return uint32(l&1) * 0x3F800000 })
	checkAgainstRef(t, p, m, AllLanes)
	if ctr := m.regIndex(FileTemp, 2); m.uni[ctr]&1 != 0 {
		t.Errorf("r2.x is marked uniform after an if wrote some lanes of it")
	}
	if o := m.regIndex(FileTemp, 0); m.uni[o]&1 == 0 {
		t.Errorf("r0.x, the counter after the loop, is not marked uniform: the uniform path did not run")
	}
	for l := range Lanes {
		var want uint32
		if l&1 == 1 {
			want = 8 + 100 // v0.x = 1: no +5, then +100
		} else {
			want = 8 + 5 // +5, then 13 >= 9: no +100
		}
		if got := m.Out(0)[1][l]; got != want || m.Out(0)[0][l] != 8 {
			t.Fatalf("lane %d: o0.xy = %d, %d, want 8, %d", l, m.Out(0)[0][l], got, want)
		}
	}
	checkAgainstRef(t, p, m, 0x00FF00FF00FF00FF)
	if o := m.regIndex(FileTemp, 0); m.uni[o]&1 != 0 {
		t.Errorf("r0.x marked uniform in a partial block")
	}
}
