package shader

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// checkAgainstRef runs p over a block and each lane through refRun, and
// compares outputs (for the lanes of mask) and the alive mask.
func checkAgainstRef(t *testing.T, p *Program, m *Machine, mask uint64) {
	t.Helper()
	alive, err := m.Run(mask)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, p)
	}
	for lane := range Lanes {
		if mask>>lane&1 == 0 {
			continue
		}
		out, live, err := refRun(p, m.in, lane, DefaultStepLimit)
		if err != nil {
			t.Fatalf("reference: %v", err)
		}
		if got := alive>>lane&1 != 0; got != live {
			t.Fatalf("lane %d: alive %v, reference %v\n%s", lane, got, live, p)
		}
		if !live {
			continue
		}
		for o := range out {
			for c := range 4 {
				if g := m.Out(o)[c][lane]; g != out[o][c] {
					t.Fatalf("lane %d: o%d[%d] = %#x, reference %#x\n%s", lane, o, c, g, out[o][c], p)
				}
			}
		}
	}
	if alive&^mask != 0 {
		t.Fatalf("alive %#x outside the mask %#x", alive, mask)
	}
}

// setLanes fills input v# component c with f(lane).
func setLanes(m *Machine, v, c int, f func(lane int) uint32) {
	for i := range Lanes {
		m.In(v)[c][i] = f(i)
	}
}

func TestFlow(t *testing.T) {
	tests := []struct {
		desc string
		src  string
		want func(lane int) uint32 // o0.x, for alive lanes
		dead func(lane int) bool
	}{
		{"divergent if/else", `ps inputs=1 outputs=1 temps=1
			ilt r0.x, v0.x, l(20, 20, 20, 20)
			if_nz r0.x
			  mov o0.x, l(1, 1, 1, 1)
			else
			  mov o0.x, l(2, 0, 0, 0)
			endif`,
			func(l int) uint32 { return map[bool]uint32{true: 1, false: 2}[l < 20] }, nil},
		{"if_z with nothing taken", `ps inputs=1 outputs=1 temps=1
			mov o0.x, l(7, 0, 0, 0)
			if_z l(1, 1, 1, 1)
			  mov o0.x, l(1, 1, 1, 1)
			endif`,
			func(int) uint32 { return 7 }, nil},
		{"loop, break per lane", `ps inputs=1 outputs=1 temps=2
			mov r0.x, l(0, 0, 0, 0)
			loop
			  uge r1.x, r0.x, v0.x
			  breakc_nz r1.x
			  iadd r0.x, r0.x, l(1, 1, 1, 1)
			endloop
			mov o0.x, r0.x`,
			func(l int) uint32 { return uint32(l) }, nil},
		{"continue skips odd counts", `ps inputs=1 outputs=1 temps=3
			mov r0.xy, l(0, 0, 0, 0)
			loop
			  uge r1.x, r0.x, v0.x
			  breakc_nz r1.x
			  iadd r0.x, r0.x, l(1, 1, 1, 1)
			  and r2.x, r0.x, l(1, 1, 1, 1)
			  continuec_nz r2.x
			  iadd r0.y, r0.y, r0.x
			endloop
			mov o0.x, r0.y`,
			func(l int) uint32 {
				s := 0
				for i := 2; i <= l; i += 2 {
					s += i
				}
				return uint32(s)
			}, nil},
		{"break inside an if inside nested loops", `ps inputs=1 outputs=1 temps=3
			mov r0.xyz, l(0, 0, 0, 0)
			loop
			  uge r1.x, r0.x, l(3, 3, 3, 3)
			  breakc_nz r1.x
			  mov r0.y, l(0, 0, 0, 0)
			  loop
			    ieq r1.y, r0.y, v0.x
			    if_nz r1.y
			      break
			    endif
			    iadd r0.y, r0.y, l(1, 1, 1, 1)
			    iadd r0.z, r0.z, l(1, 1, 1, 1)
			  endloop
			  iadd r0.x, r0.x, l(1, 1, 1, 1)
			endloop
			mov o0.x, r0.z`,
			func(l int) uint32 { return uint32(3 * l) }, nil},
		{"discard kills lanes", `ps inputs=1 outputs=1 temps=1
			and r0.x, v0.x, l(1, 1, 1, 1)
			discard_nz r0.x
			mov o0.x, l(5, 0, 0, 0)`,
			func(int) uint32 { return 5 }, func(l int) bool { return l&1 != 0 }},
		{"ret in an if keeps earlier writes", `ps inputs=1 outputs=1 temps=1
			mov o0.x, l(1, 1, 1, 1)
			ilt r0.x, v0.x, l(10, 10, 10, 10)
			retc_nz r0.x
			mov o0.x, l(2, 0, 0, 0)`,
			func(l int) uint32 { return map[bool]uint32{true: 1, false: 2}[l < 10] }, nil},
		{"discard in a loop", `ps inputs=1 outputs=1 temps=2
			mov r0.x, l(0, 0, 0, 0)
			loop
			  ieq r1.x, r0.x, l(3, 3, 3, 3)
			  breakc_nz r1.x
			  ieq r1.y, r0.x, v0.x
			  discard_nz r1.y
			  iadd r0.x, r0.x, l(1, 1, 1, 1)
			endloop
			mov o0.x, r0.x`,
			func(int) uint32 { return 3 }, func(l int) bool { return l < 3 }},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			p := mustAsm(t, tc.src)
			m := NewMachine(p)
			setLanes(m, 0, 0, func(l int) uint32 { return uint32(l) })
			for _, mask := range []uint64{AllLanes, 0x00FF00FF00FF00FF, 1 << 63} {
				alive, err := m.Run(mask)
				if err != nil {
					t.Fatal(err)
				}
				for l := range Lanes {
					if mask>>l&1 == 0 {
						continue
					}
					dead := tc.dead != nil && tc.dead(l)
					if (alive>>l&1 == 0) != dead {
						t.Errorf("mask %#x lane %d: alive %v", mask, l, alive>>l&1 != 0)
					}
					if !dead && m.Out(0)[0][l] != tc.want(l) {
						t.Errorf("mask %#x lane %d: o0.x = %d, want %d", mask, l, m.Out(0)[0][l], tc.want(l))
					}
				}
				checkAgainstRef(t, p, m, mask)
			}
		})
	}
}

func TestStepLimit(t *testing.T) {
	p := mustAsm(t, "vs inputs=0 outputs=1 temps=1\nloop\nendloop\n")
	m := NewMachine(p)
	m.StepLimit = 1000
	_, err := m.Run(AllLanes)
	var f *Fault
	if !errors.As(err, &f) || !errors.Is(err, ErrStepLimit) {
		t.Fatalf("Run = %v, want a step-limit fault", err)
	}
}

// Lanes that start inactive keep their outputs; zeroed registers start at
// zero whatever the previous block left.
func TestMaskedWritesAndZeroing(t *testing.T) {
	p := mustAsm(t, `ps inputs=1 outputs=2 temps=1
		add r0.x, r0.x, v0.x
		mov o0, r0.x
		if_nz v0.x
		  mov o1, v0
		endif`)
	m := NewMachine(p)
	setLanes(m, 0, 0, func(l int) uint32 { return fbits(float32(l)) })
	for range 2 {
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
	}
	for l := range Lanes {
		if got := bitsf(m.Out(0)[3][l]); got != float32(l) {
			t.Fatalf("lane %d: o0.w = %g, want %g (r0 not zeroed per block)", l, got, float32(l))
		}
	}
	if m.Out(1)[0][0] != 0 {
		t.Fatalf("o1 of a lane that skipped its only write = %#x, want 0", m.Out(1)[0][0])
	}
	for c := range 4 {
		for l := range Lanes {
			m.Out(0)[c][l] = 0xDEAD
		}
	}
	if _, err := m.Run(0xF0); err != nil {
		t.Fatal(err)
	}
	if m.Out(0)[0][0] != 0xDEAD || m.Out(0)[0][4] != fbits(4) {
		t.Fatalf("masked write: lane 0 %#x (want untouched), lane 4 %#x", m.Out(0)[0][0], m.Out(0)[0][4])
	}
}

// Swizzles, masks, modifiers and saturate, with the destination also a
// source (each component must read the old value).
func TestOperandsAndAliasing(t *testing.T) {
	p := mustAsm(t, `vs inputs=1 outputs=3 temps=2
		mov r0, v0
		mov r0.xyz, r0.zxy
		mov o0, r0
		mov r1, v0
		add r1.yzw, r1.x, -|r1.yzww|
		mov o1, r1
		mul_sat o2, v0, l(0.5, -1.0, 0x7fc00000, 4.0)
		iadd o2.w, -v0.w, l(1, 1, 1, 1)`)
	m := NewMachine(p)
	vals := [4]float32{1, -2, 3, -4}
	for c := range 4 {
		setLanes(m, 0, c, func(int) uint32 { return fbits(vals[c]) })
	}
	if _, err := m.Run(AllLanes); err != nil {
		t.Fatal(err)
	}
	want := [3][4]uint32{
		{fbits(3), fbits(1), fbits(-2), fbits(-4)},
		{fbits(1), fbits(1 - 3), fbits(1 - 4), fbits(1 - 4)}, // component c reads swizzle[c]
		{fbits(0.5), fbits(1), 0, 1 - fbits(-4)},
	}
	for o := range want {
		for c := range 4 {
			if got := m.Out(o)[c][17]; got != want[o][c] {
				t.Errorf("o%d.%c = %#x (%g), want %#x (%g)", o, "xyzw"[c], got, bitsf(got), want[o][c], bitsf(want[o][c]))
			}
		}
	}
	checkAgainstRef(t, p, m, AllLanes)
}

// Random structured programs (ifs, loops with per-lane breaks and
// continues, discards, rets, every ALU op) against the per-lane reference.
func TestRandomProgramsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	randomPrograms(t, rng, 300, func(p *Program, m *Machine) {
		for v := range p.Inputs {
			for c := range 4 {
				setLanes(m, v, c, func(int) uint32 {
					if rng.IntN(3) == 0 {
						return specials[rng.IntN(len(specials))]
					}
					return uint32(rng.IntN(8))
				})
			}
		}
		checkAgainstRef(t, p, m, rng.Uint64()|1)
	})
}

// randomPrograms assembles n random programs (randomProgram) and hands each
// to f with a new machine.
func randomPrograms(t *testing.T, rng *rand.Rand, n int, f func(p *Program, m *Machine)) {
	t.Helper()
	var names []string
	for _, op := range batteryOps() {
		names = append(names, op.String())
	}
	for i := range n {
		src := randomProgram(rng, names)
		p, err := Assemble(src)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, src)
		}
		f(p, NewMachine(p))
	}
}

func randomProgram(rng *rand.Rand, names []string) string {
	var b strings.Builder
	b.WriteString("ps inputs=2 outputs=2 temps=6\nmov r5, l(0, 0, 0, 0)\n")
	reg := func() string { return randomReg(rng, nil) }
	depth, loops := 0, 0
	for range 8 + rng.IntN(20) {
		switch k := rng.IntN(20); {
		case k < 2 && depth < 4:
			fmt.Fprintf(&b, "if_%s %s\n", []string{"z", "nz"}[rng.IntN(2)], reg())
			depth++
		case k < 3 && depth < 4 && loops < 2:
			// A counted loop: r4.<loops> counts to 4 so that it ends.
			c := "xy"[loops]
			fmt.Fprintf(&b, "mov r4.%c, l(0, 0, 0, 0)\nloop\nuge r5.%c, r4.%c, l(4, 4, 4, 4)\nbreakc_nz r5.%c\niadd r4.%c, r4.%c, l(1, 1, 1, 1)\n", c, c, c, c, c, c)
			depth++
			loops++
		case k < 5 && depth > 0:
			b.WriteString("endif\n") // replaced below when the top is a loop
			depth--
		case k < 6 && loops > 0:
			fmt.Fprintf(&b, "%s_%s %s\n", []string{"breakc", "continuec"}[rng.IntN(2)], []string{"z", "nz"}[rng.IntN(2)], reg())
		case k < 7:
			fmt.Fprintf(&b, "%s_%s %s\n", []string{"discard", "retc"}[rng.IntN(2)], []string{"z", "nz"}[rng.IntN(2)], reg())
		default:
			randomALU(&b, rng, names, func() string { return randomMod(rng, reg()) })
		}
	}
	b.WriteString(strings.Repeat("endif\n", depth))
	// Fix the closers: walk the text and close each construct with its
	// own keyword.
	var out []string
	var stack []string
	for _, line := range strings.Split(b.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "if_"):
			stack = append(stack, "endif")
		case line == "loop":
			stack = append(stack, "endloop")
		case line == "endif":
			line = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(line, "breakc") || strings.HasPrefix(line, "continuec"):
			if !strings.Contains(strings.Join(stack, " "), "endloop") {
				continue
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// randomReg returns a register source: an input's component, an
// immediate or a temp swizzled, or, one time in three when other is not
// nil, other's.
func randomReg(rng *rand.Rand, other func() string) string {
	if other != nil && rng.IntN(3) == 0 {
		return other()
	}
	switch rng.IntN(4) {
	case 0:
		return fmt.Sprintf("v%d.%c", rng.IntN(2), "xyzw"[rng.IntN(4)])
	case 1:
		return fmt.Sprintf("l(%d, 1.5, -2, 0x7f800000)", rng.IntN(5))
	}
	return fmt.Sprintf("r%d.%c%c%c%c", rng.IntN(4), "xyzw"[rng.IntN(4)], "xyzw"[rng.IntN(4)], "xyzw"[rng.IntN(4)], "xyzw"[rng.IntN(4)])
}

// randomMod returns s negated or in an absolute value, one time in six
// each.
func randomMod(rng *rand.Rand, s string) string {
	switch rng.IntN(6) {
	case 0:
		return "-" + s
	case 1:
		return "|" + s + "|"
	}
	return s
}

// randomALU writes an instruction of one of names to b: _sat now and then
// on a float result, a temp or now and then an output, a random mask, the
// sources from src.
func randomALU(b *strings.Builder, rng *rand.Rand, names []string, src func() string) {
	op := names[rng.IntN(len(names))]
	o, _ := OpByName(op)
	sat := ""
	if o.FloatResult() && rng.IntN(4) == 0 {
		sat = "_sat"
	}
	dst := fmt.Sprintf("r%d", rng.IntN(4))
	if rng.IntN(4) == 0 {
		dst = fmt.Sprintf("o%d", rng.IntN(2))
	}
	if m := rng.IntN(15) + 1; m != 15 {
		dst += "."
		for c := range 4 {
			if m>>c&1 != 0 {
				dst += "xyzw"[c : c+1]
			}
		}
	}
	fmt.Fprintf(b, "%s%s %s", op, sat, dst)
	for range o.Srcs() {
		b.WriteString(", " + src())
	}
	b.WriteString("\n")
}

// Every op runs in a one-op program (gpu/shaderisa's TestEveryOpRoundTrips
// assembles and decodes the same programs).
func TestEveryOpRuns(t *testing.T) {
	for i := range NumOps {
		op := Op(i)
		m := NewMachine(mustAsm(t, oneOpProgram(op)))
		m.Bind(nil, &fakeTex{})
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
}

// oneOpProgram returns the text of a small pixel program that uses op once
// with register operands (r0, v0, t0, s0), inside the constructs its
// control flow needs.
func oneOpProgram(op Op) string {
	if op.ComputeOnly() {
		return oneComputeOp(op)
	}
	switch op {
	case OpDclHS: // a patch of one control point in and out, integer triangles, the factors in o0
		return "hs inputs=3 outputs=1 temps=0\ndcl_hs l(0x3120101, 0x10101, 0xff020100, 0xffffff03)\nmov o0, l(1, 1, 1, 1)\nret\n"
	case OpDclDS:
		return "ds inputs=4 outputs=1 temps=0\ndcl_ds l(0x201, 0x101, 0, 0)\nmov o0, v2\nret\n"
	}
	if op.GeometryOnly() {
		// A point in, v0 its one vertex's one register, v1 and v2 the
		// identifiers; a triangle strip of at most 4 vertices out.
		head := "gs inputs=3 outputs=1 temps=1\ndcl_gs l(257, 5, 4, 1)\n"
		if op == OpDclGS {
			return head + "ret\n"
		}
		return head + "mov o0, v0\n" + op.String() + "\nret\n"
	}
	var b strings.Builder
	b.WriteString(op.String())
	if op.HasTest() {
		b.WriteString("_nz")
	}
	sep := " "
	if op.HasDst() {
		b.WriteString(" r0")
		if op == OpDEq || op == OpDGe || op == OpDLt || op == OpDNe || op == OpDToF {
			b.WriteString(".xy") // 32-bit results from doubles 0 and 1
		}
		sep = ", "
	}
	for _, a := range op.Srcs() {
		b.WriteString(sep)
		b.WriteString([...]string{ArgReg: "v0", ArgTex: "t0", ArgSmp: "s0", ArgRes: "t0"}[a])
		sep = ", "
	}
	body := b.String()
	switch op {
	case OpIf:
		body += "\nendif"
	case OpElse:
		body = "if_z v0.x\nelse\nendif"
	case OpEndIf:
		body = "if_z v0.x\nendif"
	case OpLoop, OpEndLoop:
		body = "loop\nbreak\nendloop"
	case OpBreak, OpBreakc, OpContinue, OpContinuec:
		body = "loop\nbreakc_z v0.x\n" + body + "\nbreak\nendloop"
	case OpCall:
		body = "call l0"
	case OpCallc:
		body += ", l0"
	case OpLabel:
		body = "call l1"
	}
	sub := ""
	if op == OpCall || op == OpCallc || op == OpLabel {
		sub = "label l" + map[bool]string{true: "1", false: "0"}[op == OpLabel] + "\nmov r0, v0\nret\n"
	}
	return "ps inputs=1 outputs=1 temps=1\n" + body + "\nmov o0, r0\nret\n" + sub
}

// oneComputeOp returns a compute program that uses op once (u0, g0 of 16
// bytes, v0, r0).
func oneComputeOp(op Op) string {
	head := "cs inputs=4 outputs=0 temps=1\ndcl_thread_group l(4, 2, 1, 0)\ndcl_tgsm g0, l(16, 0, 0, 0)\n"
	if op == OpDclThreadGroup || op == OpDclTGSM {
		return head + "ret\n"
	}
	var b strings.Builder
	b.WriteString(op.String())
	sep := " "
	if op.HasDst() {
		switch {
		case op == OpStoreUAVTyped:
			b.WriteString(" u0")
		case op.MemDst():
			b.WriteString(" g0.x")
		default:
			b.WriteString(" r0")
		}
		sep = ", "
	}
	for _, a := range op.Srcs() {
		b.WriteString(sep)
		b.WriteString([...]string{ArgReg: "v0", ArgTex: "t0", ArgSmp: "s0", ArgRes: "u0", ArgUAV: "u0", ArgMem: "g0",
			ArgTGSM: "g0", ArgImm: "l(0, 0, 0, 0)"}[a])
		sep = ", "
	}
	return head + b.String() + "\nret\n"
}
