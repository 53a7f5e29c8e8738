package gpu

import (
	"testing"

	"d3dsim/gpu/shaderisa"
)

// TestCountedLoops: the loops whose steps are bounded (countedLoops), which
// makes their programs tileable, and near misses that are not.
func TestCountedLoops(t *testing.T) {
	const head = "ps inputs=3 outputs=1 temps=4\n"
	loop := func(init, test, body, inc string) string {
		return head + "mov r0, v1\n" + init + "\nloop\n" + test + "\nbreakc_z r1.y\n" + body + "\n" + inc + "\nendloop\nmov o0, r0"
	}
	const (
		init = "mov r1.x, l(0, 0, 0, 0)"
		test = "ilt r1.y, r1.x, l(8, 8, 8, 8)"
		body = "mul r0.x, r0.x, l(0.5, 0, 0, 0)"
		inc  = "iadd r1.x, r1.x, l(1, 0, 0, 0)"
	)
	for _, c := range []struct {
		desc string
		src  string
		want bool
	}{
		{"the bench's loop (the HLSL compiler's for)", LoopPS, true},
		{"the form", loop(init, test, body, inc), true},
		{"no loop", head + "mov o0, v1", true},
		{"a break and an if in the body", loop(init, test, "if_nz r0.x\nbreak\nendif\n"+body, inc), true},
		{"two loops", head + "mov r0, v1\n" + init + "\nloop\n" + test + "\nbreakc_z r1.y\n" + body + "\n" + inc + "\nendloop\n" +
			"mov r1.x, l(2, 0, 0, 0)\nloop\nilt r1.y, r1.x, l(5, 5, 5, 5)\nbreakc_z r1.y\n" + body + "\n" + inc + "\nendloop\nmov o0, r0", true},
		{"a start past the end", loop("mov r1.x, l(9, 0, 0, 0)", test, body, inc), true},
		{"a negative start", loop("mov r1.x, l(-5, 0, 0, 0)", test, body, inc), true},
		{"the counter in another component", loop("mov r2.z, l(0, 0, 0, 0)", "ilt r1.y, r2.z, l(8, 8, 8, 8)", body, "iadd r2.z, r2.z, l(0, 0, 1, 0)"), true},
		{"too many steps", loop(init, "ilt r1.y, r1.x, l(100000, 100000, 100000, 100000)", body, inc), false},
		{"under the machine's step limit but past a tiled round's (hostile.test.mjs's 8,150 rounds)", loop(init, "ilt r1.y, r1.x, l(8150, 8150, 8150, 8150)", body, inc), false},
		{"30 rounds: under tiledLoopSteps", loop(init, "ilt r1.y, r1.x, l(30, 30, 30, 30)", body, inc), true},
		{"a bound of 0: the component the test reads for .y of l(100000, 0, 0, 0)", loop(init, "ilt r1.y, r1.x, l(100000, 0, 0, 0)", body, inc), true},
		{"a huge count", loop("mov r1.x, l(-2147483648, 0, 0, 0)", "ilt r1.y, r1.x, l(2147483647, 2147483647, 2147483647, 2147483647)", body, inc), false},
		{"the increment first (TestTilesISASamePixels's loop)", head + "mov r0, v1\nmov r1.x, l(0, 0, 0, 0)\nloop\niadd r1.x, r1.x, l(1, 0, 0, 0)\nige r1.y, r1.x, l(3, 0, 0, 0)\nbreakc_nz r1.y\nmul r0.x, r0.x, l(0.5, 0, 0, 0)\nendloop\nmov o0, r0", false},
		{"a step of 2", loop(init, test, body, "iadd r1.x, r1.x, l(2, 0, 0, 0)"), false},
		{"a step of -1", loop(init, test, body, "iadd r1.x, r1.x, l(-1, 0, 0, 0)"), false},
		{"the counter written in the body", loop(init, test, "mov r1.x, l(0, 0, 0, 0)", inc), false},
		{"the counter written by a wider mask", loop(init, test, "mov r1.xz, l(0, 0, 0, 0)", inc), false},
		{"another component written in the body", loop(init, test, "mov r1.z, l(0, 0, 0, 0)", inc), true},
		{"a bound from a register", loop(init, "ilt r1.y, r1.x, v1.x", body, inc), false},
		{"a start from a register", loop("mov r1.x, v1.x", test, body, inc), false},
		{"a start from an immediate with a modifier", loop("mov r1.x, -l(3, 0, 0, 0)", test, body, inc), false},
		{"a start set inside an if", loop("if_nz v1.x\n"+init+"\nendif", test, body, inc), false},
		{"no start", head + "mov r0, v1\nloop\n" + test + "\nbreakc_z r1.y\n" + body + "\n" + inc + "\nendloop\nmov o0, r0", false},
		{"breakc_nz", loop(init, test, body, inc)[:0] + head + "mov r0, v1\n" + init + "\nloop\n" + test + "\nbreakc_nz r1.y\n" + body + "\n" + inc + "\nendloop\nmov o0, r0", false},
		{"a test of another register", loop(init, "ilt r1.y, r2.x, l(8, 8, 8, 8)", body, inc), false},
		{"a continue", loop(init, test, "continue", inc), false},
		{"a nested loop", loop(init, test, "loop\nbreak\nendloop", inc), false},
		{"a loop inside an if", head + "mov r0, v1\n" + init + "\nif_nz v1.x\nloop\n" + test + "\nbreakc_z r1.y\n" + body + "\n" + inc + "\nendloop\nendif\nmov o0, r0", false},
	} {
		p, err := shaderisa.Assemble(c.src)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.desc, err, c.src)
		}
		if got := countedLoops(p); got != c.want {
			t.Errorf("%s: countedLoops = %v, want %v\n%s", c.desc, got, c.want, c.src)
		}
	}
}
