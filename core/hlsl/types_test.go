package hlsl

import "testing"

func TestBuiltinTypes(t *testing.T) {
	tests := []struct {
		name       string
		want       string
		rows, cols int
	}{
		{"float", "float", 1, 1}, {"float1", "float", 1, 1}, {"float3", "float3", 1, 3}, {"int4", "int4", 1, 4},
		{"uint2", "uint2", 1, 2}, {"bool", "bool", 1, 1}, {"half4", "float4", 1, 4}, {"float4x4", "float4x4", 4, 4},
		{"float3x3", "float3x3", 3, 3}, {"float4x3", "float4x3", 4, 3}, {"int2x4", "int2x4", 2, 4},
		{"matrix", "float4x4", 4, 4}, {"vector", "float4", 1, 4}, {"dword", "uint", 1, 1},
		{"Texture2D", "Texture2D<float4>", 0, 4}, {"SamplerState", "SamplerState", 0, 0}, {"sampler", "SamplerState", 0, 0},
		{"float5", "", 0, 0}, {"float0", "", 0, 0}, {"float4x5", "", 0, 0}, {"floaty", "", 0, 0}, {"double", "double", 1, 1},
		{"double4", "double4", 1, 4}, {"double2x2", "", 0, 0},
	}
	for _, tc := range tests {
		ty := builtinType(tc.name)
		if tc.want == "" {
			if ty != nil {
				t.Errorf("%s = %v, want no type", tc.name, ty)
			}
			continue
		}
		if ty == nil || ty.String() != tc.want || ty.Rows != tc.rows || ty.Cols != tc.cols {
			t.Errorf("%s = %v, want %s %dx%d", tc.name, ty, tc.want, tc.rows, tc.cols)
		}
	}
}

func TestTemplateTypes(t *testing.T) {
	src := `float4 main(float4 a : A) : SV_Target { vector<float, 3> v = a.xyz; matrix<float, 2, 2> m = float2x2(v.xy, v.yz); return float4(m[1], v.z, 1); }`
	r := compileOK(t, src, "main", "ps_4_0")
	out, err := Run(r.Program, &Env{Inputs: [][4]uint32{bits4([4]float32{1, 2, 3, 4})}})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{2, 3, 3, 1} {
		t.Errorf("got %v", got)
	}
}

func TestSemanticNames(t *testing.T) {
	tests := []struct {
		in   string
		name string
		idx  int
	}{{"TEXCOORD0", "TEXCOORD", 0}, {"TEXCOORD12", "TEXCOORD", 12}, {"COLOR", "COLOR", 0}, {"SV_Target3", "SV_Target", 3}, {"NORMAL", "NORMAL", 0}}
	for _, tc := range tests {
		if n, i := parseSemantic(tc.in); n != tc.name || i != tc.idx {
			t.Errorf("%s -> %s %d", tc.in, n, i)
		}
	}
}
