package hlsl

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// passCase runs one pass over before and wants its output; both run on
// random inputs and must write the same outputs.
func passCase(t *testing.T, p pass, before, want string) {
	t.Helper()
	code, temps := irAsm(t, before)
	orig, origTemps := irAsm(t, before)
	got, gotTemps, _ := p(code, temps)
	if g, w := irText(got), irText(mustAsm(t, want)); g != w {
		t.Errorf("before\n%s\ngot\n%s\nwant\n%s", before, g, w)
		return
	}
	r := rand.New(rand.NewPCG(3, 14))
	for k := 0; k < 8; k++ {
		seed := r.Uint64()
		a, errA := Run(testProgram(orig, origTemps), optEnv(rand.New(rand.NewPCG(seed, 1)), 4))
		b, errB := Run(testProgram(got, max(gotTemps, origTemps)), optEnv(rand.New(rand.NewPCG(seed, 1)), 4))
		if errA != nil || errB != nil {
			t.Fatalf("run: %v, %v", errA, errB)
		}
		if !sameOutput(a, b) {
			t.Fatalf("outputs differ: before %v, after %v\n%s", a, b, irText(got))
		}
	}
}

func mustAsm(t *testing.T, s string) []Instr {
	code, _ := irAsm(t, s)
	return code
}

// testProgram is a pixel shader of code with outputs o0..o3.
func testProgram(code []Instr, temps int) *Program {
	p := &Program{Target: "ps_5_0", Stage: Pixel, Major: 5, Code: code, Temps: temps}
	for r := 0; r < 4; r++ {
		p.Outputs = append(p.Outputs, IODecl{Reg: r, Mask: 0xf})
		p.Inputs = append(p.Inputs, IODecl{Reg: r, Mask: 0xf, Interp: "linear"})
	}
	return p
}

func TestPassSplitWebs(t *testing.T) {
	webs := func(code []Instr, temps int) ([]Instr, int, bool) {
		code, temps = splitWebs(code, temps)
		return code, temps, true
	}
	// One register, two values: two registers.
	passCase(t, webs, `
mov r0.x, v0.x___
mov o0.x, r0.x___
mov r0.x, v0.y___
mov o1.x, r0.x___
ret`, `
mov r0.x, v0.x___
mov o0.x, r0.x___
mov r1.x, v0.y___
mov o1.x, r1.x___
ret`)
	// A variable written in both branches, and lanes read together: one.
	passCase(t, webs, `
lt r3.x, v0.x___, v0.y___
if_nz r3.x___
mov r2.xy, v1.xy__
else
mov r2.xy, v2.xy__
endif
mov r2.zw, v3.__zw
mov o0.xyzw, r2.xyzw
ret`, `
lt r0.x, v0.x___, v0.y___
if_nz r0.x___
mov r1.xy, v1.xy__
else
mov r1.xy, v2.xy__
endif
mov r1.zw, v3.__zw
mov o0.xyzw, r1.xyzw
ret`)
}

func TestPassCopyProp(t *testing.T) {
	// Through a copy, with its modifiers, into a float operation; a
	// copy of an immediate folds the add.
	passCase(t, simple(copyProp), `
mov r1.xy, -|v0.zw__|
add r2.xy, r1.xy__, v1.xy__
mov r3.x, l(2.0, _, _, _)
add r4.x, r3.x___, l(1.5, _, _, _)
mov o0.xy, r2.xy__
mov o1.x, r4.x___
ret`, `
mov r1.xy, -|v0.zw__|
add r2.xy, -|v0.zw__|, v1.xy__
mov r3.x, l(2.0, _, _, _)
mov r4.x, l(3.5, _, _, _)
mov o0.xy, r2.xy__
mov o1.x, l(3.5, _, _, _)
ret`)
	// Across blocks: the copy holds on every path into the if, not in a
	// loop that writes its source.
	passCase(t, simple(copyProp), `
mov r1.x, v0.x___
lt r2.x, v0.y___, l(0.0, _, _, _)
if_nz r2.x___
mov o0.x, r1.x___
endif
mov r3.x, v1.x___
mov r4.x, r3.x___
loop
mov o1.x, r4.x___
mov r4.x, r3.x___
add r3.x, r3.x___, l(1.0, _, _, _)
ge r5.x, r3.x___, l(4.0, _, _, _)
breakc_nz r5.x___
endloop
ret`, `
mov r1.x, v0.x___
lt r2.x, v0.y___, l(0.0, _, _, _)
if_nz r2.x___
mov o0.x, v0.x___
endif
mov r3.x, v1.x___
mov r4.x, v1.x___
loop
mov o1.x, r4.x___
mov r4.x, r3.x___
add r3.x, r3.x___, l(1.0, _, _, _)
ge r5.x, r3.x___, l(4.0, _, _, _)
breakc_nz r5.x___
endloop
ret`)
}

func TestPassDeadCode(t *testing.T) {
	// An unread result goes; one read around a loop stays.
	passCase(t, simple(deadCode), `
mul r0.x, v0.x___, v0.y___
mov r1.x, l(0.0, _, _, _)
loop
ge r2.x, r1.x___, l(3.0, _, _, _)
breakc_nz r2.x___
add r1.x, r1.x___, l(1.0, _, _, _)
endloop
mov o0.x, r1.x___
ret`, `
mov r1.x, l(0.0, _, _, _)
loop
ge r2.x, r1.x___, l(3.0, _, _, _)
breakc_nz r2.x___
add r1.x, r1.x___, l(1.0, _, _, _)
endloop
mov o0.x, r1.x___
ret`)
}

func TestPassForwardResults(t *testing.T) {
	// Into other lanes of an output, the sources' swizzles following.
	passCase(t, simple(forwardResults), `
add r1.xy, v0.xy__, l(1.0, 2.0, _, _)
mov o0.zw, r1.__xy
ret`, `
add o0.zw, v0.__xy, l(_, _, 1.0, 2.0)
ret`)
	// A texel's lanes picked by the texture's swizzle; a mov_sat's
	// saturation given to a float result (forwarded on to the output).
	passCase(t, simple(forwardResults), `
sample r1.xyzw, v0.xy__, t0.xyzw, s0
mov r2.yz, r1._xy_
mul_sat r3.x, v1.x___, v1.y___
mov_sat r4.x, r3.x___
mov o0.xyzw, r2.xyzw
mov o1.x, r4.x___
ret`, `
sample r2.yz, v0.xy__, t0.xxyw, s0
mul_sat o1.x, v1.x___, v1.y___
mov o0.xyzw, r2.xyzw
ret`)
	// Not past a read of the lanes it would write early.
	passCase(t, simple(forwardResults), `
add r1.x, v0.x___, v0.y___
mov o1.x, r0.x___
mov r0.x, r1.x___
mov o0.x, r0.x___
ret`, `
add r1.x, v0.x___, v0.y___
mov o1.x, r0.x___
mov r0.x, r1.x___
mov o0.x, r0.x___
ret`)
}

func TestPassFuseMad(t *testing.T) {
	passCase(t, simple(fuseMad), `
mul r1.xy, v0.xy__, cb0[1].zw__
add r2.xy, v1.xy__, -r1.yx__
mov o0.xy, r2.xy__
ret`, `
mad r2.xy, -v0.yx__, cb0[1].wz__, v1.xy__
mov o0.xy, r2.xy__
ret`)
	// A saturated product, or one read twice, stays.
	passCase(t, simple(fuseMad), `
mul_sat r1.x, v0.x___, v0.y___
add r2.x, r1.x___, v1.x___
mul r3.x, v0.x___, v0.z___
add r4.x, r3.x___, r3.x___
mov o0.xy, r2.xy__
mov o1.x, r4.x___
ret`, `
mul_sat r1.x, v0.x___, v0.y___
add r2.x, r1.x___, v1.x___
mul r3.x, v0.x___, v0.z___
add r4.x, r3.x___, r3.x___
mov o0.xy, r2.xy__
mov o1.x, r4.x___
ret`)
}

func TestPassCommonSubexprs(t *testing.T) {
	// A derivative taken twice (both lanes reused), a dp3 twice.
	passCase(t, simple(commonSubexprs), `
deriv_rtx r0.xy, v0.xy__
deriv_rtx r1.xy, v0.xy__
dp3 r2.zw, v1.xyz_, v2.xyz_
dp3 r3.zw, v1.xyz_, v2.xyz_
add r4.xy, r0.xy__, r1.xy__
add r5.x, r2.z___, r3.w___
mov o0.xy, r4.xy__
mov o1.x, r5.x___
ret`, `
deriv_rtx r0.xy, v0.xy__
mov r1.xy, r0.xy__
dp3 r2.zw, v1.xyz_, v2.xyz_
mov r3.zw, r2.__zz
add r4.xy, r0.xy__, r1.xy__
add r5.x, r2.z___, r3.w___
mov o0.xy, r4.xy__
mov o1.x, r5.x___
ret`)
	// Not when a source was written in between.
	passCase(t, simple(commonSubexprs), `
add r0.x, v0.x___, r9.x___
mov r9.x, v1.x___
add r1.x, v0.x___, r9.x___
mov o0.x, r0.x___
mov o1.x, r1.x___
ret`, `
add r0.x, v0.x___, r9.x___
mov r9.x, v1.x___
add r1.x, v0.x___, r9.x___
mov o0.x, r0.x___
mov o1.x, r1.x___
ret`)
}

func TestPassFlatten(t *testing.T) {
	passCase(t, flatten, `
mov r0.xy, v0.xy__
lt r1.x, v1.x___, l(0.0, _, _, _)
if_nz r1.x___
mul r0.x, r0.x___, l(2.0, _, _, _)
else
add r0.xy, r0.xy__, l(1.0, 1.0, _, _)
endif
mov o0.xy, r0.xy__
ret`, `
mov r0.xy, v0.xy__
lt r1.x, v1.x___, l(0.0, _, _, _)
mul r2.x, r0.x___, l(2.0, _, _, _)
add r3.xy, r0.xy__, l(1.0, 1.0, _, _)
movc r0.x, r1.x___, r2.x___, r3.x___
movc r0.y, r1._x__, r0._y__, r3._y__
mov o0.xy, r0.xy__
ret`)
	// An if writing an output stays an if.
	passCase(t, flatten, `
lt r1.x, v1.x___, l(0.0, _, _, _)
if_z r1.x___
mov o0.x, v0.x___
endif
ret`, `
lt r1.x, v1.x___, l(0.0, _, _, _)
if_z r1.x___
mov o0.x, v0.x___
endif
ret`)
}

func TestPassMergeMovs(t *testing.T) {
	passCase(t, simple(func(c []Instr, _ int) ([]Instr, bool) { return mergeMovs(c) }), `
mov r0.x, l(1.0, _, _, _)
mov r0.yw, l(_, 0, _, 2.5)
mov r1.x, v0.y___
mov r1.z, v0.__w_
mov o0.xyzw, r0.xyzw
mov o1.xz, r1.x_z_
ret`, `
mov r0.xyw, l(1.0, 0, _, 2.5)
mov r1.xz, v0.y_w_
mov o0.xyzw, r0.xyzw
mov o1.xz, r1.x_z_
ret`)
}

func TestPassInvertConds(t *testing.T) {
	passCase(t, simple(func(c []Instr, _ int) ([]Instr, bool) { return invertConds(c) }), `
ne r0.x, v0.x___, l(0.0, _, _, _)
not r1.x, r0.x___
if_nz r1.x___
mov o0.x, v1.x___
endif
movc r2.x, r1.x___, v1.x___, v2.x___
mov o1.x, r2.x___
ret`, `
ne r0.x, v0.x___, l(0.0, _, _, _)
not r1.x, r0.x___
if_z r0.x___
mov o0.x, v1.x___
endif
movc r2.x, r1.x___, v1.x___, v2.x___
mov o1.x, r2.x___
ret`)
}

func TestPassVectorize(t *testing.T) {
	// v.x, v.y, v.z each through the same two steps: two instructions.
	passCase(t, vectorize, `
mul r1.x, v0.x___, l(2.0, _, _, _)
add r2.x, r1.x___, cb0[0].x___
mul r3.x, v0.y___, l(3.0, _, _, _)
add r4.x, r3.x___, cb0[0].y___
mul r5.x, v0.z___, l(4.0, _, _, _)
add r6.x, r5.x___, cb0[0].z___
mov o0.x, r2.x___
mov o0.y, r4._x__
mov o0.z, r6.__x_
ret`, `
mul r7.xyz, v0.xyz_, l(2.0, 3.0, 4.0, _)
add r8.xyz, r7.xyz_, cb0[0].xyz_
mov o0.x, r8.x___
mov o0.y, r8._y__
mov o0.z, r8.__z_
ret`)
	// Lanes of one register written in place; a chain that depends on
	// another's result is not grouped with it.
	passCase(t, vectorize, `
mul r0.x, v0.x___, v1.x___
mul r0.y, r0._x__, v1._y__
mul r0.z, v0.__z_, v1.__z_
mov o0.xyz, r0.xyz_
ret`, `
mul r0.xz, v0.x_z_, v1.x_z_
mul r0.y, r0._x__, v1._y__
mov o0.xyz, r0.xyz_
ret`)
}

func TestPassCoalesce(t *testing.T) {
	passCase(t, simple(coalesce), `
sample r0.xyzw, v1.xy__, t0.xyzw, s0
mul r1.xyz, r0.xyz_, cb0[0].www_
mov r1.w, r0.___w
mul o0.xyzw, r1.xyzw, v2.xyzw
ret`, `
sample r1.xyzw, v1.xy__, t0.xyzw, s0
mul r1.xyz, r1.xyz_, cb0[0].www_
mul o0.xyzw, r1.xyzw, v2.xyzw
ret`)
}

func TestPassRenumberTemps(t *testing.T) {
	passCase(t, func(c []Instr, temps int) ([]Instr, int, bool) {
		c, temps = renumberTemps(c, temps)
		return c, temps, true
	}, `
mov r5.x, v0.x___
mov o0.x, r5.x___
mov r7.x, v0.y___
loop
mov o1.x, r7.x___
mov r9.x, v1.x___
mov o2.x, r9.x___
breakc_nz r9.x___
endloop
ret`, `
mov r0.x, v0.x___
mov o0.x, r0.x___
mov r0.x, v0.y___
loop
mov o1.x, r0.x___
mov r1.x, v1.x___
mov o2.x, r1.x___
breakc_nz r1.x___
endloop
ret`)
}

// TestOptimizeListing: the whole optimiser on a shader, as the listing
// shows it.
func TestOptimizeListing(t *testing.T) {
	r := compileOK(t, `
float3 srgb(float3 v) { return v <= 0.04045 ? v / 12.92 : pow(abs(v + 0.055) / 1.055, 2.4); }
float f(float v) { if (v <= 0.04045) v = v / 12.92; else v = pow(abs(v + 0.055) / 1.055, 2.4); return v; }
float4 main(float4 c : COLOR) : SV_Target {
	float3 v = c.rgb;
	v.r = f(v.r); v.g = f(v.g); v.b = f(v.b);
	return float4(v, c.a);
}`, "main", "ps_5_0")
	got := irText(r.Program.Code)
	// One vector computation, not three scalar ones, and no branches.
	if strings.Contains(got, "if") || strings.Count(got, "log") != 1 {
		t.Errorf("not flattened and vectorised:\n%s", got)
	}
}

// TestSLPImmediateModifiers: two instructions packed into one keep each
// lane's immediate with its modifiers: ref - d beside ref + d packs to
// l(-d, d), for floats and for integers.
func TestSLPImmediateModifiers(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"float ref;\nfloat4 main() : SV_Target {\n    float d = 0.25;\n    float2 v = float2(ref - d, ref + d);\n    return v.xyxy * v.yxyx;\n}", "add r0.xy, cb0[0].xx, l(-0.25, 0.25)"},
		{"int ref;\nfloat4 main() : SV_Target {\n    int d = 3;\n    int2 v = int2(ref - d, ref + d);\n    return float4(v.xyxy * v.yxyx);\n}", "l(-3, 3)"},
	} {
		r := compileOK(t, c.src, "main", "ps_4_0")
		text := r.Program.String()
		if !strings.Contains(text, c.want) {
			t.Errorf("want %q in\n%s", c.want, text)
		}
	}
}

// TestPassSkipping: the rounds that skip a pass until another changes the
// code make the same bytecode as rounds that run every pass, for the
// testdata shaders and SDL's largest.
func TestPassSkipping(t *testing.T) {
	type shader struct {
		src           []byte
		entry, target string
	}
	var list []shader
	for _, f := range []struct{ file, entry, target string }{{"phong.hlsl", "VSMain", "vs_5_0"}, {"phong.hlsl", "PSMain", "ps_5_0"},
		{"tutorial06.hlsl", "VS", "vs_4_0"}, {"tutorial06.hlsl", "PS", "ps_4_0"}, {"nuklear.hlsl", "ps", "ps_4_0"}, {"imgui_ps.hlsl", "main", "ps_4_0"}} {
		b, err := os.ReadFile(filepath.Join("testdata", f.file))
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, shader{b, f.entry, f.target})
	}
	common, err1 := os.ReadFile("../dxbc/testdata/sdl_D3D11_PixelShader_Common.hlsli")
	adv, err2 := os.ReadFile("../dxbc/testdata/sdl_D3D11_PixelShader_Advanced.hlsl")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	list = append(list, shader{append(common, includeRe.ReplaceAll(adv, nil)...), "main", "ps_5_0"})
	for _, sh := range list {
		skipped := compileOK(t, string(sh.src), sh.entry, sh.target)
		runEveryPass = true
		every := compileOK(t, string(sh.src), sh.entry, sh.target)
		runEveryPass = false
		if !bytes.Equal(skipped.Bytecode, every.Bytecode) {
			t.Errorf("%s %s: the bytecode differs with every pass run every round", sh.entry, sh.target)
		}
	}
}
