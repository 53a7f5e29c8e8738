package hlsl

import (
	"fmt"
	"testing"
)

// TestPackingRules checks constant-buffer layout against the examples of
// "Packing Rules for Constant Variables" (the first six, with their sizes
// in 16-byte registers), the worked example of the vvvv page "Constant
// buffer packing", and the array, struct and matrix rules.
func TestPackingRules(t *testing.T) {
	tests := []struct {
		desc string
		body string
		offs []int
		size int
	}{
		{"page: float4, float2 starts a new vector, float2", "float4 Val1; float2 Val2; float2 Val3;", []int{0, 16, 24}, 32},
		{"page: float2, float4 starts a new vector, float2 starts a new vector", "float2 Val1; float4 Val2; float2 Val3;", []int{0, 16, 32}, 48},
		{"page: float1, float1, float2", "float1 Val1; float1 Val2; float2 Val3;", []int{0, 4, 8}, 16},
		{"page: float1, float2, float1", "float1 Val1; float2 Val2; float1 Val3;", []int{0, 4, 12}, 16},
		{"page: three float1 then a float2 starts a new vector", "float1 A; float1 B; float1 C; float2 Val2;", []int{0, 4, 8, 16}, 32},
		{"page: float3, float1", "float3 Val1; float1 Val2;", []int{0, 12}, 16},
		{"vvvv: float after matrices, float4 bounced", "float4x4 tW; float4x4 tWVP; float Alpha; float4 cAmb; float4x4 tTex; float4x4 tColor;", []int{0, 64, 128, 144, 160, 224}, 288},
		{"arrays start a register, elements take one each", "float a; float2 arr[3]; float b;", []int{0, 16, 56}, 64},
		{"array of float4", "float4 lights[4]; float3 eye;", []int{0, 64}, 80},
		{"column_major float3x3 takes three registers of three", "float s; float3x3 m; float t;", []int{0, 16, 60}, 64},
		{"row_major float4x3 is four rows of three", "row_major float4x3 m; float t;", []int{0, 60}, 64},
		{"column_major float4x3 is three columns of four", "float4x3 m; float t;", []int{0, 48}, 64},
		{"float2x4 column_major: four columns of two", "float2x4 m; float2 t;", []int{0, 56}, 64},
		{"int and uint pack like float", "int i; uint u; bool b; float f;", []int{0, 4, 8, 12}, 16},
		{"straddling float3 moves on", "float2 a; float3 b;", []int{0, 16}, 32},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			src := "cbuffer IE : register(b0) {" + tc.body + "};\nfloat4 main() : SV_Target { return 0; }"
			r := compileOK(t, src, "main", "ps_4_0")
			if len(r.CBuffers) != 1 {
				t.Fatalf("%d cbuffers", len(r.CBuffers))
			}
			cb := r.CBuffers[0]
			var offs []int
			for _, v := range cb.Vars {
				offs = append(offs, v.Offset)
			}
			if fmt.Sprint(offs) != fmt.Sprint(tc.offs) || cb.Size != tc.size {
				t.Errorf("%s: offsets %v size %d, want %v size %d", tc.body, offs, cb.Size, tc.offs, tc.size)
			}
		})
	}
}

func TestStructPacking(t *testing.T) {
	src := `
struct Light { float3 dir; float4 color; };
cbuffer Lights : register(b1) {
	float intensity;
	Light sun;        // structs start a register
	float after;      // after its last full register
	Light more[2];    // each element 32 bytes
	float2 tail;
};
float4 main() : SV_Target { return sun.color * intensity + more[1].color + after + tail.x; }`
	r := compileOK(t, src, "main", "ps_4_0")
	cb := r.CBuffers[0]
	want := []struct {
		name      string
		off, size int
	}{{"intensity", 0, 4}, {"sun", 16, 32}, {"after", 48, 4}, {"more", 64, 64}, {"tail", 128, 8}}
	for i, w := range want {
		v := cb.Vars[i]
		if v.Name != w.name || v.Offset != w.off || v.Size != w.size {
			t.Errorf("var %d = %s@%d size %d, want %s@%d size %d", i, v.Name, v.Offset, v.Size, w.name, w.off, w.size)
		}
	}
	if cb.Slot != 1 || cb.Size != 144 {
		t.Errorf("slot %d size %d, want 1, 144", cb.Slot, cb.Size)
	}
	// The values reach the right registers.
	regs := make([][4]uint32, 9)
	regs[0][0] = fbits(2)                           // intensity
	regs[2] = bits4([4]float32{1, 2, 3, 4})         // sun.color
	regs[3][0] = fbits(10)                          // after
	regs[7] = bits4([4]float32{100, 200, 300, 400}) // more[1].color
	regs[8] = bits4([4]float32{1000, 0, 0, 0})      // tail
	out, err := Run(r.Program, &Env{CB: [][][4]uint32{nil, regs}})
	if err != nil {
		t.Fatal(err)
	}
	got := floats4(out.Regs[0])
	if got != [4]float32{1112, 1214, 1316, 1418} {
		t.Errorf("got %v\n%s", got, r.Program)
	}
}

func TestPackoffset(t *testing.T) {
	src := `cbuffer C : register(b0) { float4 a : packoffset(c2); float b : packoffset(c0.y); };
float4 main() : SV_Target { return a + b; }`
	r := compileOK(t, src, "main", "ps_4_0")
	if v := r.CBuffers[0].Vars; v[0].Offset != 32 || v[1].Offset != 4 {
		t.Errorf("offsets %d %d, want 32 4", v[0].Offset, v[1].Offset)
	}
	if r.CBuffers[0].Size != 48 {
		t.Errorf("size %d, want 48", r.CBuffers[0].Size)
	}
}

func TestGlobalsBufferAndBindings(t *testing.T) {
	src := `
cbuffer X : register(b0) { float4 x; };
float4 tint;
float scale;
Texture2D unused;
Texture2D used;
SamplerState s;
float4 main(float2 uv : TEXCOORD0) : SV_Target { return used.Sample(s, uv) * tint * scale + x; }`
	r := compileOK(t, src, "main", "ps_4_0")
	g := r.CBuffers[0]
	if g.Name != "$Globals" || g.Slot != 1 || g.Size != 32 || g.Vars[1].Offset != 16 {
		t.Errorf("$Globals = %+v", g)
	}
	want := []Binding{{Name: "s", Kind: BindSampler, Count: 1}, {Name: "used", Kind: BindTexture, Count: 1, Comps: 4, Base: Float},
		{Name: "X", Kind: BindCBuffer, Count: 1}, {Name: "$Globals", Kind: BindCBuffer, Slot: 1, Count: 1}}
	if len(r.Bindings) != len(want) {
		t.Fatalf("bindings %+v", r.Bindings)
	}
	for i := range want {
		if r.Bindings[i] != want[i] {
			t.Errorf("binding %d = %+v, want %+v", i, r.Bindings[i], want[i])
		}
	}
}

// TestMatrixOrderInConstantBuffers stores the same logical matrix as
// column_major (one column per register) and row_major (one row per
// register) and checks every mul form reads it the same way.
func TestMatrixOrderInConstantBuffers(t *testing.T) {
	src := `cbuffer M : register(b0) { float4x4 C; row_major float4x4 R; float3x3 C3; };
float4 main(float4 v : V, uint which : W) : SV_Target {
	if (which == 0) return mul(v, C);
	if (which == 1) return mul(v, R);
	if (which == 2) return mul(C, v);
	if (which == 3) return mul(R, v);
	return float4(mul(v.xyz, C3), C[1][2]);
}`
	r := compileOK(t, src, "main", "ps_4_0")
	var m [4][4]float32 // logical m[row][col]
	for i := range m {
		for j := range m[i] {
			m[i][j] = float32(1 + i*4 + j)
		}
	}
	cb := make([][4]uint32, 11)
	for i := 0; i < 4; i++ {
		var col, row [4]float32
		for k := 0; k < 4; k++ {
			col[k], row[k] = m[k][i], m[i][k]
		}
		cb[i], cb[4+i] = bits4(col), bits4(row)
	}
	for i := 0; i < 3; i++ { // float3x3 = top-left of m, column_major
		cb[8+i] = bits4([4]float32{m[0][i], m[1][i], m[2][i], 0})
	}
	v := [4]float32{0.5, -1, 2, 0.25}
	var vm, mv [4]float32
	for j := 0; j < 4; j++ {
		for k := 0; k < 4; k++ {
			vm[j] += v[k] * m[k][j]
			mv[j] += m[j][k] * v[k]
		}
	}
	var v3 [4]float32
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			v3[j] += v[k] * m[k][j]
		}
	}
	v3[3] = m[1][2]
	for which, want := range [][4]float32{vm, vm, mv, mv, v3} {
		out, err := Run(r.Program, &Env{Inputs: [][4]uint32{bits4(v), {uint32(which)}}, CB: [][][4]uint32{cb}})
		if err != nil {
			t.Fatal(err)
		}
		if got := floats4(out.Regs[0]); got != want {
			t.Errorf("case %d: got %v, want %v", which, got, want)
		}
	}
}
