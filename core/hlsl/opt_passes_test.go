package hlsl

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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

// runDepsPairs is runDeps as it was written first, every pair of the run
// compared: the reference the one-pass version is held to.
func runDepsPairs(run []Instr) [][]int {
	type key struct {
		file  File
		index int
		lane  int
	}
	barrier := key{FileNull, -1, -1}
	access := func(x *Instr) (reads, writes []key) {
		x.reads(func(r, c int) { reads = append(reads, key{FileTemp, r, c}) })
		for _, s := range x.Src {
			if s.File == FileIndexable || s.File == FileOutput {
				reads = append(reads, key{s.File, s.Index, -1})
			}
		}
		for _, d := range x.Dst {
			switch d.File {
			case FileTemp:
				for c := 0; c < 4; c++ {
					if d.Mask&(1<<c) != 0 {
						writes = append(writes, key{FileTemp, d.Index, c})
					}
				}
			case FileNull:
			default:
				writes = append(writes, key{d.File, d.Index, -1})
			}
		}
		if !x.removable() && len(writes) == 0 {
			writes = append(writes, barrier)
		}
		return append(reads, barrier), writes
	}
	n := len(run)
	rs, ws := make([][]key, n), make([][]key, n)
	for i := range run {
		rs[i], ws[i] = access(&run[i])
	}
	deps := make([][]int, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if slices.ContainsFunc(ws[i], func(k key) bool { return slices.Contains(rs[j], k) || slices.Contains(ws[j], k) }) ||
				slices.ContainsFunc(rs[i], func(k key) bool { return slices.Contains(ws[j], k) }) {
				deps[i] = append(deps[i], j)
			}
		}
	}
	return deps
}

// closure is which instructions each one must precede, followed through.
func closure(deps [][]int) [][]bool {
	n := len(deps)
	c := make([][]bool, n)
	for i := n - 1; i >= 0; i-- {
		c[i] = make([]bool, n)
		for _, j := range deps[i] {
			c[i][j] = true
			for k := range n {
				c[i][k] = c[i][k] || c[j][k]
			}
		}
	}
	return c
}

// TestRunDepsOrder: runDeps, which ties each access to the last write of
// its register, implies the same order as every pair compared, on the
// unoptimised code of real shaders (SDL's largest, the testdata files) and
// of random programs, and lists each successor once, in order.
func TestRunDepsOrder(t *testing.T) {
	var codes [][]Instr
	common, err := os.ReadFile("../dxbc/testdata/sdl_D3D11_PixelShader_Common.hlsli")
	if err != nil {
		t.Fatal(err)
	}
	adv, err := os.ReadFile("../dxbc/testdata/sdl_D3D11_PixelShader_Advanced.hlsl")
	if err != nil {
		t.Fatal(err)
	}
	noOptimize = true
	defer func() { noOptimize = false }()
	add := func(src []byte, entry, target string) {
		r, err := Compile(src, "t.hlsl", entry, target)
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		codes = append(codes, r.Program.Code)
	}
	add(append(common, includeRe.ReplaceAll(adv, nil)...), "main", "ps_5_0")
	for _, f := range []struct{ file, entry, target string }{{"phong.hlsl", "VSMain", "vs_5_0"}, {"phong.hlsl", "PSMain", "ps_5_0"},
		{"tutorial06.hlsl", "VS", "vs_4_0"}, {"tutorial06.hlsl", "PS", "ps_4_0"}, {"nuklear.hlsl", "ps", "ps_4_0"}, {"nuklear.hlsl", "vs", "vs_4_0"}} {
		b, err := os.ReadFile(filepath.Join("testdata", f.file))
		if err != nil {
			t.Fatal(err)
		}
		add(b, f.entry, f.target)
	}
	checked := 0
	for _, code := range codes {
		// The straight runs, as vectorize cuts them, and the whole program.
		runs := [][]Instr{code}
		start := 0
		for i, x := range code {
			if controlOp(x.Op) || i == len(code)-1 {
				if i > start {
					runs = append(runs, code[start:i])
				}
				start = i + 1
			}
		}
		for _, run := range runs {
			got, want := runDeps(run), runDepsPairs(run)
			for i, d := range got {
				if !slices.IsSorted(d) || len(slices.Compact(slices.Clone(d))) != len(d) {
					t.Fatalf("successors of %d not sorted once: %v", i, d)
				}
			}
			if gc, wc := closure(got), closure(want); !slices.EqualFunc(gc, wc, slices.Equal) {
				t.Fatalf("a run of %d instructions: the orders differ", len(run))
			}
			checked += len(run)
		}
	}
	t.Logf("%d instructions checked", checked)
}
