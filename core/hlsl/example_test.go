package hlsl_test

import (
	"fmt"

	"d3dsim/core/hlsl"
)

func ExampleCompile() {
	src := `
cbuffer vertexBuffer : register(b0) { float4x4 ProjectionMatrix; };
struct VS_INPUT { float2 pos : POSITION; float4 col : COLOR0; };
struct PS_INPUT { float4 pos : SV_POSITION; float4 col : COLOR0; };
PS_INPUT main(VS_INPUT input) {
    PS_INPUT output;
    output.pos = mul(ProjectionMatrix, float4(input.pos.xy, 0.f, 1.f));
    output.col = input.col;
    return output;
}`
	r, err := hlsl.Compile([]byte(src), "imgui.hlsl", "main", "vs_4_0")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(r.Program)
	for _, e := range r.Outputs {
		fmt.Printf("output %s%d o%d %v\n", e.Semantic, e.Index, e.Register, e.SysVal)
	}
	// Output:
	// vs_4_0
	// dcl_constantbuffer cb0[4], immediateIndexed
	// dcl_input v0.xy
	// dcl_input v1.xyzw
	// dcl_output_siv o0.xyzw, position
	// dcl_output o1.xyzw
	// dcl_temps 6
	// mul r2.xyzw, cb0[0].xyzw, v0.xxxx
	// mad r3.xyzw, cb0[1].xyzw, v0.yyyy, r2.xyzw
	// mad r4.xyzw, cb0[2].xyzw, l(0.000000, 0.000000, 0.000000, 0.000000), r3.xyzw
	// mad r5.xyzw, cb0[3].xyzw, l(1.000000, 1.000000, 1.000000, 1.000000), r4.xyzw
	// mov r0.xyzw, r5.xyzw
	// mov r1.xyzw, v1.xyzw
	// mov o0.xyzw, r0.xyzw
	// mov o1.xyzw, r1.xyzw
	// ret
	// output SV_POSITION0 o0 POS
	// output COLOR0 o1 NONE
}

func ExampleCompile_error() {
	_, err := hlsl.Compile([]byte("float4 main() : SV_Target {\n  return foo;\n}"), "bad.hlsl", "main", "ps_4_0")
	fmt.Println(err)
	// Output: bad.hlsl(2,10): error X3004: undeclared identifier 'foo'
}
