package hlsl

import (
	"strings"
	"testing"
)

// unrollMarked marks every loop [unroll] and runs unrollLoops once.
func unrollMarked(hint int8) pass {
	return func(code []Instr, temps int) ([]Instr, int, bool) {
		for i := range code {
			if code[i].Op == OpLoop {
				code[i].Unroll = hint
			}
		}
		code, ch := unrollLoops(code, temps)
		return code, temps, ch
	}
}

func TestPassUnroll(t *testing.T) {
	// Three trips: each copy without its exit, the last trip's test kept
	// (dead code takes it away), the counter a constant in each.
	loop := `
mov r0.x, l(0, _, _, _)
mov r1.x, v0.x___
loop
ilt r2.x, r0.x___, l(3, _, _, _)
breakc_z r2.x___
add r1.x, r1.x___, v1.x___
iadd r0.x, r0.x___, l(1, _, _, _)
endloop
mov o0.x, r1.x___
ret`
	passCase(t, unrollMarked(1), loop, `
mov r0.x, l(0, _, _, _)
mov r1.x, v0.x___
ilt r2.x, r0.x___, l(3, _, _, _)
add r1.x, r1.x___, v1.x___
iadd r0.x, r0.x___, l(1, _, _, _)
ilt r2.x, r0.x___, l(3, _, _, _)
add r1.x, r1.x___, v1.x___
iadd r0.x, r0.x___, l(1, _, _, _)
ilt r2.x, r0.x___, l(3, _, _, _)
add r1.x, r1.x___, v1.x___
iadd r0.x, r0.x___, l(1, _, _, _)
ilt r2.x, r0.x___, l(3, _, _, _)
mov o0.x, r1.x___
ret`)
	// [loop], and a loop without an attribute, stay loops.
	passCase(t, unrollMarked(-1), loop, loop)
	passCase(t, unrollMarked(0), loop, loop)
	// A counter the code does not know (an input), an exit inside an if,
	// a continue: not unrolled.
	for _, body := range []string{`
and r0.x, v2.x___, l(3, _, _, _)
loop
ilt r2.x, r0.x___, l(3, _, _, _)
breakc_z r2.x___
iadd r0.x, r0.x___, l(1, _, _, _)
endloop
mov o0.x, r0.x___
ret`, `
mov r0.x, l(0, _, _, _)
loop
ilt r2.x, r0.x___, l(3, _, _, _)
if_nz r2.x___
break
endif
iadd r0.x, r0.x___, l(1, _, _, _)
endloop
mov o0.x, r0.x___
ret`, `
mov r0.x, l(0, _, _, _)
loop
ilt r2.x, r0.x___, l(3, _, _, _)
breakc_z r2.x___
iadd r0.x, r0.x___, l(1, _, _, _)
lt r3.x, v0.x___, v1.x___
if_nz r3.x___
continue
endif
endloop
mov o0.x, r0.x___
ret`} {
		passCase(t, unrollMarked(1), body, body)
	}
	// An inner loop's break is its own: the outer loop unrolls around it.
	passCase(t, unrollMarked(1), `
mov r0.x, l(0, _, _, _)
loop
ige r2.x, r0.x___, l(2, _, _, _)
breakc_nz r2.x___
mov r3.x, v0.x___
loop
lt r4.x, r3.x___, l(0.0, _, _, _)
breakc_nz r4.x___
add r3.x, r3.x___, l(-1.0, _, _, _)
endloop
iadd r0.x, r0.x___, l(1, _, _, _)
mov o0.x, r3.x___
endloop
ret`, `
mov r0.x, l(0, _, _, _)
ige r2.x, r0.x___, l(2, _, _, _)
mov r3.x, v0.x___
loop
lt r4.x, r3.x___, l(0.0, _, _, _)
breakc_nz r4.x___
add r3.x, r3.x___, l(-1.0, _, _, _)
endloop
iadd r0.x, r0.x___, l(1, _, _, _)
mov o0.x, r3.x___
ige r2.x, r0.x___, l(2, _, _, _)
mov r3.x, v0.x___
loop
lt r4.x, r3.x___, l(0.0, _, _, _)
breakc_nz r4.x___
add r3.x, r3.x___, l(-1.0, _, _, _)
endloop
iadd r0.x, r0.x___, l(1, _, _, _)
mov o0.x, r3.x___
ige r2.x, r0.x___, l(2, _, _, _)
ret`)
}

func TestPassMovcKnown(t *testing.T) {
	// A known condition picks a value; two values the same are one.
	passCase(t, simple(copyProp), `
mov r0.xy, l(0, -1, _, _)
movc r1.x, r0.x___, v0.x___, v1.x___
movc r1.y, r0.__y_, v0.__y_, v1.__y_
movc r1.z, v2.____z, -v0.____z, -v0.____z
mov o0.xyz, r1.xyz_
ret`, `
mov r0.xy, l(0, -1, _, _)
mov r1.x, v1.x___
mov r1.y, v0.__y_
mov r1.z, -v0.____z
mov o0.xyz, r1.xyz_
ret`)
}

// TestUnrolledShader: an [unroll] loop over a constant buffer's array
// compiles to straight code reading cb1[0] .. cb1[2] (the buffer declared
// immediateIndexed, as fxc declares it); a [loop] stays a loop.
func TestUnrolledShader(t *testing.T) {
	const src = `
cbuffer L : register(b1) { float4 dir[3]; };
float4 main(float4 c : COLOR) : SV_Target {
	float4 s = 0;
	[unroll] for (int i = 0; i < 3; i++) s += dir[i] * c.x;
	[loop] for (int k = 0; k < 2; k++) s.y += c.z;
	return s;
}`
	r, err := Compile([]byte(src), "u.hlsl", "main", "ps_4_0")
	if err != nil {
		t.Fatal(err)
	}
	l := r.Program.String()
	for _, want := range []string{"cb1[0].xyzw", "cb1[1].xyzw", "cb1[2].xyzw", "dcl_constantbuffer cb1[3], immediateIndexed"} {
		if !strings.Contains(l, want) {
			t.Errorf("no %q in\n%s", want, l)
		}
	}
	if n := strings.Count(l, "\nloop"); n != 1 {
		t.Errorf("%d loops, want the [loop] one:\n%s", n, l)
	}
}

func TestPassForwardLanes(t *testing.T) {
	// Three dot products gathered into one vector, which a copy and a
	// second gathering read too: each writes its lane of r1 (and the
	// last dot product its output's).
	passCase(t, simple(forwardLanes), `
dp3 r1.x, v0.xyz_, v1.xyz_
dp3 r2.x, v0.xyz_, v2.xyz_
dp3 r3.x, v0.xyz_, v3.xyz_
mov r1.y, r2._x__
mov r1.z, r3.__x_
mov r4.x, r1.x___
mov r4.y, r2._x__
mov r4.z, r3.__x_
dp3 r5.x, r1.xyz_, r4.xyz_
mov r1.y, r2._x__
mov o0.xyz, r1.xyz_
mov o0.w, r5.___x
ret`, `
dp3 r1.x, v0.xyz_, v1.xyz_
dp3 r1.y, v0.xyz_, v2.xyz_
dp3 r1.z, v0.xyz_, v3.xyz_
mov r4.x, r1.x___
mov r4.y, r1._y__
mov r4.z, r1.__z_
dp3 o0.w, r1.xyz_, r4.xyz_
mov o0.xyz, r1.xyz_
ret`)
	// Three results moved to an output at the end, reversed: written
	// there, the sources' swizzles following.
	passCase(t, simple(forwardLanes), `
dp4 r2.x, v0.xyzw, v1.xyzw
add r2.yz, v0._xy_, v2._zw_
mul r2.w, v0.___x, v3.___y
mov o1.xyzw, r2.wzyx
ret`, `
dp4 o1.w, v0.xyzw, v1.xyzw
add o1.yz, v0._yx_, v2._wz_
mul o1.x, v0.x___, v3.y___
ret`)
	// The destination read between the write and the mov, a lane also
	// read in another block, an output read elsewhere: left alone.
	for _, body := range []string{`
add r2.x, v0.x___, v1.x___
mov o0.x, r1.x___
mov r1.x, r2.x___
mov o1.x, r1.x___
ret`, `
add r2.x, v0.x___, v1.x___
mov r1.x, r2.x___
lt r3.x, v0.x___, v1.x___
if_nz r3.x___
mov o1.x, r2.x___
endif
mov o0.x, r1.x___
ret`, `
add r2.x, v0.x___, v1.x___
mov o0.x, r2.x___
mul o1.x, r2.x___, v2.x___
ret`} {
		passCase(t, simple(forwardLanes), body, body)
	}
}
