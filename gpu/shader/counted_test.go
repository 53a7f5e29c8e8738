package shader

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// randomCounted returns a program with a counted loop as the HLSL
// compiler writes it (counted.go): a random start and end, a random body
// of ALU ops (every op of the battery, modifiers, saturate, immediates and
// cb elements) that may read the counter and the test register; now and
// then a body the round-by-round way must refuse (a discard, an if, a
// write of the counter, a relative operand), a counter set in some lanes
// only, or a second loop after the first.
func randomCounted(rng *rand.Rand, names []string) string {
	var b strings.Builder
	b.WriteString("ps inputs=2 outputs=2 temps=6\nmov r0, v0\nmov r1, v1\nmov r2, l(0, 0, 0, 0)\nmov r3, l(0, 0, 0, 0)\n")
	reg := func() string {
		return randomReg(rng, func() string {
			if rng.IntN(2) == 0 {
				return fmt.Sprintf("cb0[%d].%c", rng.IntN(2), "xyzw"[rng.IntN(4)])
			}
			return fmt.Sprintf("r4.%c", "xyzw"[rng.IntN(4)]) // the counter's register, the test's
		})
	}
	alu := func() { randomALU(&b, rng, names, func() string { return randomMod(rng, reg()) }) }
	for range rng.IntN(4) {
		alu()
	}
	// The counter r4.c, the test r4.t (or r5.t).
	c, t := rng.IntN(4), rng.IntN(4)
	test := "r5"
	if t != c && rng.IntN(2) == 0 {
		test = "r4"
	}
	cc, tc := "xyzw"[c], "xyzw"[t]
	loops := 1 + rng.IntN(2)
	for range loops {
		start, end := rng.IntN(12)-4, rng.IntN(14)-4
		fmt.Fprintf(&b, "mov r4.%c, l(%d, %d, %d, %d)\n", cc, start, start, start, start)
		if rng.IntN(8) == 0 {
			// The counter set in some lanes only: not known uniform.
			fmt.Fprintf(&b, "if_nz v0.x\nmov r4.%c, l(%d, %d, %d, %d)\nendif\n", cc, start+1, start+1, start+1, start+1)
		}
		fmt.Fprintf(&b, "loop\nilt %s.%c, r4.%c, l(%d, %d, %d, %d)\nbreakc_z %s.%c\n", test, tc, cc, end, end, end, end, test, tc)
		for range rng.IntN(7) {
			switch rng.IntN(40) {
			case 0:
				b.WriteString("discard_nz v1.y\n")
			case 1:
				b.WriteString("if_nz v0.y\nadd r0.x, r0.x, l(1.0, 1.0, 1.0, 1.0)\nendif\n")
			case 2:
				fmt.Fprintf(&b, "iadd r4.%c, r4.%c, l(1, 1, 1, 1)\n", cc, cc)
			case 3:
				b.WriteString("mov r1.x, cb0[r2.x + 1].y\n")
			case 4, 5:
				fmt.Fprintf(&b, "itof r%d.x, r4.%c\n", rng.IntN(4), cc)
			default:
				alu()
			}
		}
		fmt.Fprintf(&b, "iadd r4.%c, r4.%c, l(1, 1, 1, 1)\nendloop\n", cc, cc)
	}
	for range rng.IntN(3) {
		alu()
	}
	fmt.Fprintf(&b, "mov o1.xy, r4.%c%c\nret\n", cc, tc)
	return b.String()
}

// consts is the cb0 the counted loops' programs read.
type consts struct{}

func (consts) Constant(slot, elem int) ([4]uint32, error) {
	return [4]uint32{uint32(elem) + 3, 0x3FC00000 + uint32(elem), 0x7FC00001, 0x80000000}, nil
}

// TestCountedFast: random counted loops (randomCounted) run round by round
// and the general way give the same outputs, temps, alive lanes, Steps,
// LaneSteps and faults, over whole blocks and partial ones, one machine for
// several blocks, with step limits that cut some loops short (the general
// way is the machine's, checked against the per-lane reference by
// TestRandomProgramsAgainstReference). Most loops run round by round.
func TestCountedFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	var names []string
	for _, op := range batteryOps() {
		names = append(names, op.String())
	}
	fast, programs := 0, 400
	if testing.Short() {
		programs = 150
	}
	for i := range programs {
		src := randomCounted(rng, names)
		p, a, g := twoWays(t, i, src, consts{}, func(m *Machine) { m.noCounted = true })
		for block := range 3 {
			mask := blockLimits(rng, block, a, g, 6, 5, 60)
			for v := range p.Inputs {
				for c := range 4 {
					x := uint32(rng.IntN(8))
					same := rng.IntN(2) == 0
					f := func(int) uint32 {
						if !same {
							if rng.IntN(4) == 0 {
								return specials[rng.IntN(len(specials))]
							}
							return uint32(rng.IntN(8))
						}
						return x
					}
					for l := range Lanes {
						a.In(v)[c][l] = f(l)
					}
					*g.In(v) = *a.In(v)
				}
			}
			before := a.countedRuns
			aliveA, errA := a.Run(mask)
			aliveG, errG := g.Run(mask)
			fast += a.countedRuns - before
			sameRun(t, fmt.Sprintf("program %d, block %d", i, block), [2]string{"round by round", "the general way"}, a, g, aliveA, aliveG, errA, errG, src)
			if errA != nil && !errors.Is(errA, ErrStepLimit) {
				t.Fatalf("program %d: %v\n%s", i, errA, src)
			}
		}
	}
	if fast < programs {
		t.Errorf("%d loops ran round by round in %d programs: the path is not taken", fast, programs)
	}
}

// TestCountedForms: the loops taken round by round and those not.
func TestCountedForms(t *testing.T) {
	const head = "ps inputs=1 outputs=1 temps=4\nmov r1.x, l(0, 0, 0, 0)\nloop\n"
	tests := []struct {
		body string
		ok   bool
	}{
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", true},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", true}, // an empty body
		{"ilt r1.y, r1.x, l(8, 8, 8, 8)\nbreakc_z r1.y\nitof r0.x, r1.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", true},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_nz r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ige r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, r1.x, l(2, 2, 2, 2)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nmov r1.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nmov r2.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\ndiscard_nz v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nbreakc_nz v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nmov r0.x, r[r1.x + 0].x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, r3.x\nbreakc_z r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.xy, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, r1.x, l(1, 1, 1, 1)\n", false},
		{"ilt r2.x, r1.x, l(8, 8, 8, 8)\nbreakc_z r2.x\nadd r0.x, r0.x, v0.x\niadd r1.x, -r1.x, l(1, 1, 1, 1)\n", false},
	}
	for i, tc := range tests {
		src := head + tc.body + "endloop\nmov o0, r0\nret\n"
		p, err := Assemble(src)
		if err != nil {
			if strings.Contains(tc.body, "r[") {
				continue // (no relative temps in this assembler form)
			}
			t.Fatalf("%d: %v\n%s", i, err, src)
		}
		m := NewMachine(p)
		if got := m.code[1].counted != nil; got != tc.ok {
			t.Errorf("%d: counted %v, want %v\n%s", i, got, tc.ok, src)
		}
	}
}
