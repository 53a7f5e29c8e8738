package hlsl

import (
	"slices"
	"strings"
	"testing"
)

// TestTemplateCountExpression: a multisampled texture's sample count
// written as a constant expression (static const int size = 2;
// Texture2DMS<float4, size - 1>), as fxc takes it; a count that is not a
// literal expression is refused.
func TestTemplateCountExpression(t *testing.T) {
	r := compileOK(t, "static const int size = 2;\nTexture2DMS<float4, size - 1> t;\nfloat4 main(float4 pos : sv_position) : sv_target { return t.Load(pos.yx, 0); }", "main", "ps_4_1")
	if tx := r.Program.Textures; len(tx) != 1 || tx[0].Samples != 1 {
		t.Errorf("textures %+v, want one of 1 sample", tx)
	}
	if _, err := Compile([]byte("uniform int k;\nTexture2DMS<float4, k + 1> t;\nfloat4 main() : sv_target { return t.Load(int2(0, 0), 0); }"), "c.hlsl", "main", "ps_4_1"); err == nil || !strings.Contains(err.Error(), "sample count must be a literal expression") {
		t.Errorf("a uniform count: %v", err)
	}
}

// TestLowercaseTextureNames: texture1D, texture2D, texture3D and
// textureCUBE name the texture types, as fxc takes them.
func TestLowercaseTextureNames(t *testing.T) {
	r := compileOK(t, "texture2D<float> f1;\ntexture3D t3;\ntextureCUBE tc;\ntexture1D t1;\nSamplerState s;\nfloat4 main() : sv_target { return f1.Load(int3(0, 0, 0)) + t3.Load(int4(0, 0, 0, 0)) + t1.Load(int2(0, 0)) + tc.SampleLevel(s, 0, 0); }", "main", "ps_4_0")
	var dims []TexDim
	for _, tx := range r.Program.Textures {
		dims = append(dims, tx.Dim)
	}
	if want := []TexDim{Tex2D, Tex3D, TexCube, Tex1D}; !slices.Equal(dims, want) {
		t.Errorf("texture dimensions %v, want %v", dims, want)
	}
}

// TestCastOutArgument: a cast of a variable passed as an out argument
// writes the variable back through the cast, as fxc does: func((float4)x)
// of an int4 x and func((int4)x) of a float4 x both give (-1, -1, 2, 4)
// from (-1.9, -1.0, 2.9, 4.0).
func TestCastOutArgument(t *testing.T) {
	for _, src := range []string{
		"uniform float4 f;\nvoid func(out float4 o) { o = f; }\nfloat4 main() : sv_target { int4 x; func((float4)x); return x; }",
		"uniform float4 f;\nvoid func(out float4 o) { o = f; }\nfloat4 main() : sv_target { float4 x; func((int4)x); return x; }",
		"uniform float4 f;\nvoid func(inout float4 o) { o += f; }\nfloat4 main() : sv_target { float4 x = 0.5; func((int4)x); return x; }",
	} {
		r := compileOK(t, src, "main", "ps_4_0")
		out, err := Run(r.Program, &Env{CB: [][][4]uint32{{{0xbff33333, 0xbf800000, 0x4039999a, 0x40800000}}}})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := floats4(out.Regs[0]); got != [4]float32{-1, -1, 2, 4} {
			t.Errorf("%s: %v, want [-1 -1 2 4]", src, got)
		}
	}
}

// TestStringTypeSpellings: string and String are the effect's string type
// and may not be redeclared; its other spellings (sTring) name it too, and
// may be a typedef's name, as fxc takes them.
func TestStringTypeSpellings(t *testing.T) {
	compileOK(t, "String s = \"text\";\nstring s2 = \"text2\";\nsTring s3 = \"text3\";\nfloat4 main() : sv_target { return 0; }", "main", "ps_4_0")
	compileOK(t, "typedef float4 sTring;\nsTring var = float4(1, 2, 3, 4);\nfloat4 main() : sv_target { return var; }", "main", "ps_4_0")
	if _, err := Compile([]byte("typedef float4 string;\nfloat4 main() : sv_target { return 0; }"), "s.hlsl", "main", "ps_4_0"); err == nil {
		t.Error("typedef float4 string compiled")
	}
}

// TestParameterNamedAsItsType: a parameter may take its struct type's
// name (out vertex vertex), which in the function's body is the
// parameter; past the function the name is the type again.
func TestParameterNamedAsItsType(t *testing.T) {
	compileOK(t, `struct vertex { float4 position : SV_Position; float clip : C; };
void main(float4 p : POSITION, out vertex vertex) { vertex.position = p; vertex.clip = p.x; }
vertex other(float4 p) { vertex v; v.position = p; v.clip = 0; return v; }`, "main", "vs_4_0")
}

// TestArrayDimensionBool: an array's dimension may be a bool, true being
// 1 (its register holds all ones), as fxc takes float d[true].
func TestArrayDimensionBool(t *testing.T) {
	r := compileOK(t, "float4 main() : sv_target { const int dim = 4; float a[2 * 2] = {0.1, 0.2, 0.3, 0.4}; float c[dim] = a; float d[true] = {c[0]}; return float4(d[0], c[0], c[1], c[3]); }", "main", "ps_4_0")
	out, err := Run(r.Program, &Env{})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{0.1, 0.1, 0.2, 0.4} {
		t.Errorf("o0 = %v", got)
	}
}
