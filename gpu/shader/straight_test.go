package shader

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// randomFused returns a program of mad-then-frc and mul-then-mad pairs
// among other ALU ops (straight.go's runs), some inside a counted loop:
// random masks and swizzles (some reading a component an earlier one
// wrote: not direct), destinations that are a source or the same register,
// outputs, immediates and cb elements with NaNs, infinities, denormals and
// -0; now and then a modifier that ends a run, or _sat.
func randomFused(rng *rand.Rand, names []string) string {
	var b strings.Builder
	b.WriteString("ps inputs=2 outputs=2 temps=6\nmov r0, v0\nmov r1, v1\nmov r2, v0.yxwz\nmov r3, v1.wzyx\n")
	comps := func(m int) string {
		s := ""
		for c := range 4 {
			if m>>c&1 != 0 {
				s += "xyzw"[c : c+1]
			}
		}
		return s
	}
	swz := func() string {
		s := ""
		for range 4 {
			c := rng.IntN(4)
			s += "xyzw"[c : c+1]
		}
		return s
	}
	konst := func() string {
		if rng.IntN(3) == 0 {
			return fmt.Sprintf("cb0[%d].%s", rng.IntN(3), swz())
		}
		v := []string{"1.9", "0.13", "-2.5", "0", "-0", "1e30", "-1e-40", "0x7f800000", "0xff800000", "0x7fc00001", "8388608.0", "16777216.0", "3.5"}
		pick := func() string { return v[rng.IntN(len(v))] }
		return fmt.Sprintf("l(%s, %s, %s, %s)", pick(), pick(), pick(), pick())
	}
	reg := func() string {
		if rng.IntN(6) == 0 {
			return fmt.Sprintf("o%d", rng.IntN(2))
		}
		return fmt.Sprintf("r%d", rng.IntN(5))
	}
	pair1 := func() {
		am := rng.IntN(15) + 1
		fm := am
		if rng.IntN(3) == 0 {
			fm = am & (rng.IntN(15) + 1)
			if fm == 0 {
				fm = am
			}
		}
		t, d, s := fmt.Sprintf("r%d", rng.IntN(5)), reg(), fmt.Sprintf("r%d", rng.IntN(5))
		if rng.IntN(4) == 0 {
			s = fmt.Sprintf("v%d", rng.IntN(2))
		}
		ssw := swz()
		if rng.IntN(2) == 0 {
			ssw = "xyzw"
		}
		fsw := "xyzw"
		if rng.IntN(8) == 0 {
			fsw = swz()
		}
		sat, mod := "", ""
		switch rng.IntN(12) {
		case 0:
			sat = "_sat"
		case 1:
			mod = "-"
		}
		fmt.Fprintf(&b, "mad%s %s.%s, %s%s.%s, %s, %s\n", sat, t, comps(am), mod, s, ssw, konst(), konst())
		fmt.Fprintf(&b, "frc %s.%s, %s.%s\n", d, comps(fm), t, fsw)
	}
	// mul t.c, a, b then mad d.(three), x, y, z with t.c broadcast in
	// one source, the others random (the mad's destination may be t, or
	// a source of a later component).
	pair2 := func() {
		t, c := rng.IntN(5), "xyzw"[rng.IntN(4)]
		src := func() string {
			if rng.IntN(3) == 0 {
				return konst()
			}
			return fmt.Sprintf("r%d.%s", rng.IntN(5), swz())
		}
		dm := 15 &^ (1 << rng.IntN(4))
		if rng.IntN(10) == 0 {
			dm = rng.IntN(15) + 1
		}
		d := reg()
		srcs := []string{src(), src(), src()}
		srcs[rng.IntN(3)] = fmt.Sprintf("r%d.%c", t, c)
		if rng.IntN(10) == 0 {
			srcs[rng.IntN(3)] = "-" + srcs[rng.IntN(3)]
		}
		sat := ""
		if rng.IntN(12) == 0 {
			sat = "_sat"
		}
		fmt.Fprintf(&b, "mul r%d.%c, %s, %s\nmad%s %s.%s, %s, %s, %s\n", t, c, src(), src(), sat, d, comps(dm), srcs[0], srcs[1], srcs[2])
	}
	pair := func() {
		if rng.IntN(2) == 0 {
			pair2()
		} else {
			pair1()
		}
	}
	alu := func() {
		randomALU(&b, rng, names, func() string { return randomMod(rng, randomReg(rng, nil)) })
	}
	for range 1 + rng.IntN(4) {
		if rng.IntN(3) == 0 {
			alu()
		}
		pair()
	}
	if rng.IntN(2) == 0 {
		n := rng.IntN(10)
		fmt.Fprintf(&b, "mov r5.x, l(0, 0, 0, 0)\nloop\nilt r5.y, r5.x, l(%d, %d, %d, %d)\nbreakc_z r5.y\n", n, n, n, n)
		for range 1 + rng.IntN(3) {
			pair()
		}
		b.WriteString("iadd r5.x, r5.x, l(1, 1, 1, 1)\nendloop\n")
	}
	for range rng.IntN(3) {
		pair()
	}
	b.WriteString("ret\n")
	return b.String()
}

// TestStraightRuns: random programs (randomFused) run with straight runs
// and one instruction at a time give the same registers (every lane),
// alive lanes, Steps, LaneSteps and faults, over whole and partial blocks,
// with step limits that stop some programs inside a run. Most programs
// have runs taken.
func TestStraightRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 5))
	var names []string
	for _, op := range batteryOps() {
		names = append(names, op.String())
	}
	programs := 400
	if testing.Short() {
		programs = 150
	}
	fused := 0
	for i := range programs {
		src := randomFused(rng, names)
		p, a, g := twoWays(t, i, src, fusedConsts{}, func(m *Machine) { m.noFused = true })
		for block := range 3 {
			mask := blockLimits(rng, block, a, g, 5, 4, 30)
			for v := range p.Inputs {
				for c := range 4 {
					for l := range Lanes {
						x := specials[rng.IntN(len(specials))]
						switch rng.IntN(3) {
						case 0:
							x = fbits(float32(rng.NormFloat64() * 1000))
						case 1:
							x = rng.Uint32()
						}
						a.In(v)[c][l] = x
					}
					*g.In(v) = *a.In(v)
				}
			}
			before := a.fusedRuns
			aliveA, errA := a.Run(mask)
			aliveG, errG := g.Run(mask)
			fused += a.fusedRuns - before
			if g.fusedRuns != 0 {
				t.Fatal("noFused ran a straight run")
			}
			sameRun(t, fmt.Sprintf("program %d, block %d", i, block), [2]string{"straight", "one by one"}, a, g, aliveA, aliveG, errA, errG, src)
			if errA != nil && !errors.Is(errA, ErrStepLimit) {
				t.Fatalf("program %d: %v\n%s", i, errA, src)
			}
		}
	}
	if fused < programs {
		t.Errorf("%d straight runs in %d programs: the path is not taken", fused, programs)
	}
}

// twoWays assembles program i, src, and makes two machines of it bound to
// cb, the second set by way to run without the path under test.
func twoWays(t *testing.T, i int, src string, cb Constants, way func(*Machine)) (p *Program, a, g *Machine) {
	t.Helper()
	p, err := Assemble(src)
	if err != nil {
		t.Fatalf("program %d: %v\n%s", i, err, src)
	}
	a, g = NewMachine(p), NewMachine(p)
	way(g)
	for _, m := range []*Machine{a, g} {
		if err := m.Bind(cb, nil); err != nil {
			t.Fatal(err)
		}
	}
	return p, a, g
}

// blockLimits returns the lanes of a block (block 1 partial one time in
// two) and sets both machines' step limit: one time in n, lo plus a
// number below span, else the default.
func blockLimits(rng *rand.Rand, block int, a, g *Machine, n, lo, span int) uint64 {
	mask := AllLanes
	if block == 1 && rng.IntN(2) == 0 {
		mask = rng.Uint64() | 1
	}
	limit := DefaultStepLimit
	if rng.IntN(n) == 0 {
		limit = lo + rng.IntN(span)
	}
	a.StepLimit, g.StepLimit = limit, limit
	return mask
}

// sameRun fails t unless machines a and g ran a block (ways names how)
// to the same alive lanes, Steps, LaneSteps, fault and registers.
func sameRun(t *testing.T, where string, ways [2]string, a, g *Machine, aliveA, aliveG uint64, errA, errG error, src string) {
	t.Helper()
	if fmt.Sprint(errA) != fmt.Sprint(errG) || aliveA != aliveG || a.Steps != g.Steps || a.LaneSteps != g.LaneSteps {
		t.Fatalf("%s: %s: alive %#x, %d steps, %d lane steps, %v; %s: %#x, %d, %d, %v\n%s",
			where, ways[0], aliveA, a.Steps, a.LaneSteps, errA, ways[1], aliveG, g.Steps, g.LaneSteps, errG, src)
	}
	for r := range a.regs {
		if a.regs[r] == g.regs[r] {
			continue
		}
		for c := range 4 {
			for l := range Lanes {
				if a.regs[r][c][l] != g.regs[r][c][l] {
					t.Fatalf("%s: register %d.%c lane %d = %#x %s, %#x %s\n%s",
						where, r, "xyzw"[c], l, a.regs[r][c][l], ways[0], g.regs[r][c][l], ways[1], src)
				}
			}
		}
	}
}

// fusedConsts is the cb0 of randomFused's programs: NaNs, infinities,
// denormals, -0 and ordinary values.
type fusedConsts struct{}

func (fusedConsts) Constant(slot, elem int) ([4]uint32, error) {
	return [][4]uint32{
		{fbits(1.9), fbits(0.13), 0x80000000, 0x7FC00001},
		{0x7F800000, 0xFF800000, 1, 0x80000001},
		{fbits(-3.25), fbits(8388607.5), fbits(1e-3), fbits(16777216)},
	}[elem%3], nil
}

// TestStraightForms: the instructions that start a straight run and those
// that do not.
func TestStraightForms(t *testing.T) {
	const no, pair, run = false, true, true
	// The vector build's mad takes its first source's negation (vecFold).
	negMad := vecOK
	tests := []struct {
		code string
		want bool
	}{
		{"mad r4.xy, r1.xyxx, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.xy, r4.xyxx\n", pair}, // the bench loop's
		{"mad r4.xyzw, v0.xyzw, cb0[0].x, l(1, 2, 3, 4)\nfrc r4.xz, r4.xyzw\n", pair},
		{"mad r4.x, r1.x, l(2, 2, 2, 2), l(1, 1, 1, 1)\nfrc o0.x, r4.x\n", pair},
		{"mad r4.xy, r1.yxxx, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.xy, r4.xyxx\n", run}, // y reads the x frc wrote
		{"mad r1.xy, r1.yxxx, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r2.xy, r1.xyxx\n", no},  // y reads the x mad wrote: not direct
		{"mad r4.xy, r1.xyxx, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.xy, r4.yxxx\n", run},
		{"mad r4.x, r1.x, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.xy, r4.xyxx\n", run},
		{"mad r4.x, r1.x, r2.x, l(0.13, 0.13, 0.13, 0.13)\nfrc r1.x, r4.x\n", run},
		{"mad_sat r4.x, r1.x, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.x, r4.x\n", run},
		{"mad r4.x, -r1.x, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.x, r4.x\n", negMad},
		{"mad r4.x, r1.x, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc r1.x, -r4.x\n", no},
		{"mad r4.x, r1.x, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)\nfrc_sat r1.x, r4.x\n", run},
		{"mul r4.x, r1.x, r1.y\nmad r0.xyz, v0.xyzx, r4.x, r0.xyzx\n", run},
		{"mul r1.x, l(0.5, 0.5, 0.5, 0.5).x, r2.x\nmad o0.xyz, v0.xyzx, r0.x, r1.x\n", run},
		{"mul r1.x, r2.x, r2.y\nmad r1.xyz, v0.xyzx, r1.x, r0.xyzx\n", no}, // y reads the x the mad wrote
		{"mul r1.x, r2.x, -r2.y\nmad r0.xyz, v0.xyzx, r1.x, r0.xyzx\n", no},
		{"iadd r1.x, r2.x, r2.y\nmad r0.xyz, v0.xyzx, r1.x, r0.xyzx\n", no},
		{"dp3 r1.x, r2.xyzx, r2.xyzx\nmad r0.xyz, v0.xyzx, r1.x, r0.xyzx\n", no},
		{"log2 r1.x, r2.x\nmul r1.x, r1.x, l(16, 16, 16, 16)\n", run},
	}
	for i, tc := range tests {
		src := "ps inputs=1 outputs=1 temps=5\nmov r0, v0\nmov r1, v0\nmov r2, v0\nmov r3, v0\nmov r4, v0\nnop\n" + tc.code + "ret\n"
		p, err := Assemble(src)
		if err != nil {
			t.Fatalf("%d: %v\n%s", i, err, src)
		}
		m := NewMachine(p)
		if got := m.code[6].run != 0; got != tc.want {
			t.Errorf("%d: a straight run %v, want %v\n%s", i, got, tc.want, src)
		}
	}
}
