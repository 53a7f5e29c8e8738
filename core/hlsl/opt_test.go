package hlsl

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// optCorpus is the HLSL the optimiser's equivalence test compiles: the
// shaders of testdata and of core/dxbc/testdata, the assets' shaders.
type optSource struct{ name, src, entry, target string }

func optCorpus(t *testing.T) []optSource {
	var out []optSource
	for _, s := range fxcSources {
		out = append(out, optSource{s.src + "/" + s.entry, readFxcSource(t, s.src), s.entry, s.target})
	}
	for _, s := range []struct{ file, entry, target string }{
		{"imgui_vs.hlsl", "main", "vs_4_0"}, {"imgui_ps.hlsl", "main", "ps_4_0"},
		{"nuklear.hlsl", "vs", "vs_5_0"}, {"nuklear.hlsl", "ps", "ps_5_0"},
		{"tutorial06.hlsl", "VS", "vs_4_0"}, {"tutorial06.hlsl", "PS", "ps_4_0"}, {"tutorial06.hlsl", "PSSolid", "ps_5_0"},
		{"phong.hlsl", "VSMain", "vs_5_0"}, {"phong.hlsl", "PSMain", "ps_5_0"},
	} {
		out = append(out, optSource{s.file + "/" + s.entry, string(readTestdata(t, s.file)), s.entry, s.target})
	}
	for i, src := range optInline {
		out = append(out, optSource{"inline" + itoa(i), src, "main", "ps_5_0"})
	}
	files, _ := filepath.Glob("../../assets/shaders/*.hlsl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		target := "ps_4_0"
		if strings.HasPrefix(filepath.Base(f), "vs") {
			target = "vs_4_0"
		}
		out = append(out, optSource{filepath.Base(f), string(b), "main", target})
	}
	return out
}

// optInline are shaders for what the others lack: dynamic indexing of
// arrays (the index registers vectorised), loops, switch, discard, a
// local matrix kept in columns (matlayout.go).
var optInline = []string{`
int i, j;
float4 main() : SV_Target {
	float a[4] = {1, 2, 3, 4};
	float b[4] = {5, 6, 7, 8};
	a[i] = 100;
	b[j] = a[j];
	return float4(b[0], b[1], b[2], b[3]);
}`, `
float4 main(float4 c : COLOR, int n : N) : SV_Target {
	float4 s = 0;
	for (int k = 0; k < 8; k++) {
		if (k >= (n & 7)) break;
		s.x += c.x * k; s.y += c.y * k; s.z += c.z; s.w = max(s.w, c.w - k);
	}
	switch (n & 3) {
	case 0: s *= 2; break;
	case 1: s.xy = s.yx; break;
	default: s = -s; break;
	}
	if (s.x < -100) discard;
	return s;
}`, `
cbuffer L : register(b1) { float4 dir[3]; float4 col[3]; int count; };
float4 main(float4 c : COLOR, int n : N) : SV_Target {
	float3x3 d = 0;
	float4 s = 0;
	[unroll] for (int i = 0; i < 3; i++) {
		d[i] = dir[i].xyz;
		s += col[i] * dot(d[i], c.xyz);
		[unroll(2)] for (int j = i; j < 4; j += 2) s.w += j * c.w;
		[unroll] while (s.x > 100) { s.x -= 10; if (n > 0) break; }
	}
	[loop] for (int k = 0; k < 2; k++) s.xy += c.zw;
	[unroll] for (int m = 0; m < count; m++) s.z += 1;
	float3 dots = mul(-d, c.xyz);
	return s + float4(dots, 0);
}`, skinSource("")}

// compileBoth compiles src as generated and optimised.
func compileBoth(src, entry, target string) (plain, opt *Result, err error) {
	opt, err = Compile([]byte(src), "opt.hlsl", entry, target)
	if err != nil {
		return nil, nil, err
	}
	noOptimize = true
	defer func() { noOptimize = false }()
	plain, err = Compile([]byte(src), "opt.hlsl", entry, target)
	return plain, opt, err
}

// optEnv is a run's inputs drawn from r: finite values of a moderate size
// (the identities fxc applies, x*0 = 0, hold only for finite x), textures
// that answer with a function of their coordinates.
func optEnv(r *rand.Rand, inputs int) *Env {
	val := func() uint32 {
		switch r.IntN(4) {
		case 0:
			return uint32(r.IntN(4)) // a small integer's bits (a finite float), an index
		case 1:
			return math.Float32bits(float32(r.IntN(9) - 4))
		}
		return math.Float32bits(float32(r.Float64()*8 - 4))
	}
	vec := func() [4]uint32 { return [4]uint32{val(), val(), val(), val()} }
	env := &Env{MaxSteps: 1 << 14}
	for i := 0; i < inputs; i++ {
		env.Inputs = append(env.Inputs, vec())
	}
	for b := 0; b < 4; b++ {
		var cb [][4]uint32
		for i := 0; i < 64; i++ {
			cb = append(cb, vec())
		}
		env.CB = append(env.CB, cb)
	}
	env.Sample = func(tex, samp int, u, v, lod float32) [4]float32 {
		return [4]float32{u + float32(tex), v - float32(samp), u * v, lod + 0.5}
	}
	env.Load = func(tex int, x, y, mip int32) [4]uint32 {
		return [4]uint32{uint32(x + 2*y), uint32(tex), uint32(mip), math.Float32bits(float32(x) * 0.25)}
	}
	env.Info = func(tex int) (uint32, uint32, uint32) { return 16, 8, 3 }
	env.Deriv = func(pc int, op Op, v [4]uint32) [4]uint32 {
		for i := range v {
			v[i] = math.Float32bits(f32(v[i]) * 0.125)
		}
		return v
	}
	return env
}

// sameOutput compares two runs' outputs bit for bit, -0 equal to 0 and
// anything to a NaN or an infinity as generated (x*0 is 0, as fxc folds
// it, even where x is a division by zero).
func sameOutput(a, b *Output) bool {
	if a.Discarded != b.Discarded {
		return false
	}
	if a.Discarded {
		return true
	}
	if len(a.Regs) != len(b.Regs) {
		return false
	}
	for i := range a.Regs {
		for c := 0; c < 4; c++ {
			x, y := a.Regs[i][c], b.Regs[i][c]
			if fx := f32(x); fx != fx || math.IsInf(float64(fx), 0) {
				continue // x*0 folds to 0 (as fxc folds it): an infinity's NaN may be gone
			}
			if x != y && x|y != 0x80000000 {
				return false
			}
		}
	}
	return true
}

// checkAlike runs the two compiles of a source on a few inputs and
// reports where they differ.
func checkAlike(t *testing.T, name, src string, plain, opt *Result, r *rand.Rand) {
	t.Helper()
	inputs := 0
	for _, e := range plain.Inputs {
		inputs = max(inputs, e.Register+1)
	}
	for k := 0; k < 4; k++ {
		seed := r.Uint64()
		a, errA := Run(plain.Program, optEnv(rand.New(rand.NewPCG(seed, 1)), inputs))
		b, errB := Run(opt.Program, optEnv(rand.New(rand.NewPCG(seed, 1)), inputs))
		if errA != nil || errB != nil {
			if errors.Is(errA, ErrSteps) || errors.Is(errB, ErrSteps) {
				continue
			}
			if (errA == nil) != (errB == nil) {
				t.Errorf("%s: as generated %v, optimised %v\n%s\n%s\n%s", name, errA, errB, src, plain.Program, opt.Program)
			}
			return
		}
		if !sameOutput(a, b) {
			t.Errorf("%s: as generated %v, optimised %v\n%s\n== as generated\n%s\n== optimised\n%s", name, a, b, src, plain.Program, opt.Program)
			return
		}
	}
}

// TestOptimizerKeepsResults: every shader of the tests and 1500 random
// programs compute the same outputs optimised as they do as generated.
func TestOptimizerKeepsResults(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 28))
	for _, s := range optCorpus(t) {
		plain, opt, err := compileBoth(s.src, s.entry, s.target)
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		if len(opt.Program.Code) > len(plain.Program.Code) {
			t.Errorf("%s: %d instructions optimised, %d as generated", s.name, len(opt.Program.Code), len(plain.Program.Code))
		}
		checkAlike(t, s.name, s.src, plain, opt, r)
	}
	next := randomPrograms(rand.New(rand.NewPCG(21, 2026)))
	n := 0
	for i := 0; i < 1500; i++ {
		src := next()
		plain, opt, err := compileBoth(src, "main", "ps_5_0")
		if err != nil {
			continue
		}
		n++
		checkAlike(t, "random", src, plain, opt, r)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d random programs compared", n)
}

// TestOptimizerKeepsResultsCorpus does the same for the pixel shaders of
// a directory of shader_test files (vkd3d-shader's suite: set
// D3DSIM_OPT_CORPUS to its tests/hlsl), each compiled for ps_5_0.
func TestOptimizerKeepsResultsCorpus(t *testing.T) {
	dir := os.Getenv("D3DSIM_OPT_CORPUS")
	if dir == "" {
		t.Skip("D3DSIM_OPT_CORPUS not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	r := rand.New(rand.NewPCG(7, 7))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *strings.Builder
		var srcs []string
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "[") {
				if cur != nil {
					srcs = append(srcs, cur.String())
					cur = nil
				}
				if strings.HasPrefix(line, "[pixel shader") && !strings.Contains(line, "fail") {
					cur = &strings.Builder{}
				}
				continue
			}
			if cur != nil {
				cur.WriteString(line + "\n")
			}
		}
		if cur != nil {
			srcs = append(srcs, cur.String())
		}
		for _, src := range srcs {
			plain, opt, err := compileBoth(src, "main", "ps_5_0")
			if err != nil {
				continue
			}
			n++
			checkAlike(t, filepath.Base(f), src, plain, opt, r)
		}
	}
	t.Logf("%d shaders compared", n)
}
