package dxbc_test

import (
	"fmt"

	"d3dsim/core/dxbc"
)

// A compiler emits a pixel shader that samples a texture and tints it, then
// builds the container the runtime's CreatePixelShader takes.
func Example() {
	b := dxbc.NewBuilder(dxbc.PixelShader, 4, 0)
	b.DclConstantBuffer(0, 1, false)
	b.DclSampler(0, dxbc.SamplerDefault)
	b.DclResource(0, dxbc.DimTexture2D, dxbc.ReturnFloat)
	b.DclInputPS(1, dxbc.XY, dxbc.InterpLinear)
	b.DclOutput(0, dxbc.XYZW)
	b.Emit(dxbc.OpSample, dxbc.Temp(0), dxbc.Input(1).Swz("xyxx"), dxbc.Texture(0), dxbc.Sampler(0))
	b.EmitSat(dxbc.OpMul, dxbc.Output(0), dxbc.Temp(0), dxbc.CB(0, 0))
	b.Ret()

	in := &dxbc.Signature{Elements: []dxbc.Element{
		{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW},
		{Name: "TEXCOORD", ComponentType: dxbc.ComponentFloat32, Register: 1, Mask: dxbc.XY, ReadWrite: dxbc.XY},
	}}
	out := &dxbc.Signature{Elements: []dxbc.Element{
		{Name: "SV_Target", ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW},
	}}
	blob, err := b.Build(in, out, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	shader, err := dxbc.Validate(blob, dxbc.PixelShader)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(shader.Program.Disassemble())
	// Output:
	// ps_4_0
	// dcl_constantbuffer CB0[1], immediateIndexed
	// dcl_sampler s0, mode_default
	// dcl_resource_texture2d (float,float,float,float) t0
	// dcl_input_ps linear v1.xy
	// dcl_output o0.xyzw
	// dcl_temps 1
	// sample r0.xyzw, v1.xyxx, t0.xyzw, s0
	// mul_sat o0.xyzw, r0.xyzw, cb0[0].xyzw
	// ret
}

// The checks between a vertex shader's outputs and a pixel shader's inputs.
func ExampleLink() {
	vs := &dxbc.Signature{Elements: []dxbc.Element{
		{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW},
		{Name: "COLOR", ComponentType: dxbc.ComponentFloat32, Register: 1, Mask: dxbc.XYZW},
	}}
	ps := &dxbc.Signature{Elements: []dxbc.Element{
		{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW},
		{Name: "COLOR", ComponentType: dxbc.ComponentFloat32, Register: 2, Mask: dxbc.XYZW},
	}}
	fmt.Println(dxbc.Link(vs, ps))
	// Output:
	// dxbc: link: COLOR0 is o1 in the vertex shader but v2 in the pixel shader
}

// ParseFxcHeader reads what fxc /Fh writes.
func ExampleParseFxcHeader() {
	_, err := dxbc.ParseFxcHeader("const BYTE g_main[] =\n{\n    68,  88,  66,  67,\n   300\n};")
	fmt.Println(err)
	// Output:
	// dxbc: fxc header line 4: 300 is over 255
}
