package hlsl

import (
	"math"
	"testing"
)

// compileOK compiles and fails the test on an error.
func compileOK(t *testing.T, src, entry, target string) *Result {
	t.Helper()
	r, err := Compile([]byte(src), "test.hlsl", entry, target)
	if err != nil {
		t.Fatalf("compile:\n%s\nerror:\n%v", src, err)
	}
	return r
}

// compileCompat is compileOK with fxc's /Gec (FlagBackCompat).
func compileCompat(t *testing.T, src, entry, target string) *Result {
	t.Helper()
	r, err := CompileWith([]byte(src), "test.hlsl", entry, target, Limits{Flags: FlagBackCompat})
	if err != nil {
		t.Fatalf("compile (/Gec):\n%s\nerror:\n%v", src, err)
	}
	return r
}

func bits4(v [4]float32) [4]uint32 {
	var u [4]uint32
	for i, f := range v {
		u[i] = math.Float32bits(f)
	}
	return u
}

func floats4(u [4]uint32) [4]float32 {
	var f [4]float32
	for i, x := range u {
		f[i] = math.Float32frombits(x)
	}
	return f
}

// runPS compiles "float4 main(float4 a : A, float4 b : B, float4 c : C) :
// SV_Target { body }" and runs it on a, b, c.
func runPS(t *testing.T, body string, a, b, c [4]float32) [4]float32 {
	t.Helper()
	src := "float4 main(float4 a : TEXCOORD0, float4 b : TEXCOORD1, float4 c : TEXCOORD2) : SV_Target {\n" + body + "\n}"
	r := compileOK(t, src, "main", "ps_4_0")
	out, err := Run(r.Program, &Env{Inputs: [][4]uint32{bits4(a), bits4(b), bits4(c)}})
	if err != nil {
		t.Fatalf("run %q: %v\n%s", body, err, r.Program)
	}
	return floats4(out.Regs[0])
}
