package shader

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// Relative addressing (arrays of temps, the immediate constant buffer,
// inputs) and subroutines (call, callc, label; ret inside them; discard
// inside them; calls in loops and nested), each program run over random
// blocks against the per-lane reference.
var relAndCallPrograms = []struct {
	desc, src string
}{
	{"temp array written and read per lane, icb, input array", `ps inputs=4 outputs=3 temps=12
icb 1, 2, 3, 4
icb 5, 6, 7, 8
icb 9, 10, 11, 12
mov r0, l(0, 0, 0, 0)
ftou r1.x, v0.x
and r1.x, r1.x, l(15, 15, 15, 15)
loop
  uge r1.y, r0.x, l(8, 8, 8, 8)
  breakc_nz r1.y
  mul r2[8][r0.x + 2], v1, r0.xxxx
  iadd r2[8][r0.x + 2].y, r0.x, l(100, 100, 100, 100)
  iadd r0.x, r0.x, l(1, 1, 1, 1)
endloop
mov r2[8][r1.x + 20], l(7, 7, 7, 7)
mov o0, r2[8][r1.x + 2].wzyx
mov o1, icb0[3][r1.x + 0]
mov o2, v1[3][r1.x + 1]
`},
	{"calls with a ret inside an if, callc, discard in a subroutine", `ps inputs=2 outputs=1 temps=3
mov r0, v0
call l0
lt r1.x, v1.x, l(0.5, 0.5, 0.5, 0.5)
callc_nz r1.x, l1
mov o0, r0
ret
label l0
add r0, r0, l(1, 1, 1, 1)
lt r2.x, v1.y, l(0.3, 0.3, 0.3, 0.3)
if_nz r2.x
  mul r0, r0, l(2, 2, 2, 2)
  ret
endif
add r0, r0, l(10, 10, 10, 10)
ret
label l1
lt r2.y, v1.z, l(0.2, 0.2, 0.2, 0.2)
discard_nz r2.y
call l0
ret
`},
	{"a call in a loop, a loop with break in the subroutine, a ret of the main program inside one", `ps inputs=2 outputs=2 temps=4
mov r0, l(0, 0, 0, 0)
mov r3, l(0, 0, 0, 0)
loop
  uge r1.x, r3.x, l(3, 3, 3, 3)
  breakc_nz r1.x
  call l2
  iadd r3.x, r3.x, l(1, 1, 1, 1)
endloop
mov o0, r0
lt r1.y, v1.w, l(0.25, 0.25, 0.25, 0.25)
retc_nz r1.y
mov o1, r3
ret
label l2
mov r2.x, l(0, 0, 0, 0)
loop
  add r0, r0, v0
  iadd r2.x, r2.x, l(1, 1, 1, 1)
  ige r2.y, r2.x, l(2, 2, 2, 2)
  lt r2.z, v1.x, l(0.5, 0.5, 0.5, 0.5)
  or r2.y, r2.y, r2.z
  breakc_nz r2.y
endloop
retc_nz r2.z
mul r0, r0, l(0.5, 0.5, 0.5, 0.5)
ret
`},
	{"the main program ends at the first label without a ret", `ps inputs=1 outputs=1 temps=1
mov r0, v0
call l5
mov o0, r0
label l5
add r0, r0, r0
ret
`},
}

func TestRelativeAndCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for _, tc := range relAndCallPrograms {
		t.Run(tc.desc, func(t *testing.T) {
			p := mustAsm(t, tc.src)
			m := NewMachine(p)
			for range 30 {
				for v := range p.Inputs {
					for c := range 4 {
						setLanes(m, v, c, func(int) uint32 {
							if v == 0 && rng.IntN(4) == 0 {
								return specials[rng.IntN(len(specials))]
							}
							return fbits(float32(rng.Float64() * 12))
						})
					}
				}
				// v1 of the call programs is a probability.
				if p.Inputs > 1 && !strings.Contains(tc.desc, "array") {
					for c := range 4 {
						setLanes(m, 1, c, func(int) uint32 { return fbits(float32(rng.Float64())) })
					}
				}
				checkAgainstRef(t, p, m, rng.Uint64()|1)
			}
		})
	}
}

// Programs the decoder refuses: a call to no label, recursion, a label
// inside an if, calls nested too deep, an array past its file.
func TestCallAndArrayErrors(t *testing.T) {
	deep := "ps inputs=1 outputs=1 temps=1\ncall l0\nret\n"
	for i := range 34 {
		deep += "label l" + itoa(i) + "\ncall l" + itoa(i+1) + "\nret\n"
	}
	deep += "label l34\nret\n"
	for _, tc := range []struct{ desc, src, want string }{
		{"no such label", "ps inputs=1 outputs=1 temps=1\ncall l3\nret\n", "no label defines"},
		{"recursion", "ps inputs=1 outputs=1 temps=1\ncall l0\nret\nlabel l0\ncall l1\nret\nlabel l1\ncall l0\nret\n", "recursion"},
		{"label in an if", "ps inputs=1 outputs=1 temps=1\nif_nz v0.x\nlabel l0\nendif\n", "inside an if"},
		{"label twice", "ps inputs=1 outputs=1 temps=1\nret\nlabel l0\nret\nlabel l0\nret\n", "twice"},
		{"too deep", deep, "nested"},
		{"array past the temps", "ps inputs=1 outputs=1 temps=4\nmov o0, r2[8][r0.x + 2]\n", "past the"},
		{"icb without one", "ps inputs=1 outputs=1 temps=1\nmov o0, icb0[1][r0.x + 0]\n", "out of range"},
		{"double mask", "ps inputs=1 outputs=1 temps=1\ndadd o0.xyz, v0, v0\n", "xy, zw or xyzw"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Assemble(tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
