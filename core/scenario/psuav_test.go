
// discardPS counts, with atomic_iadd on a raw view, the pixels it does
// not discard (those of even x); it takes a derivative, so the other
// lanes of each 2x2 quad run as helpers.
const discardPS = `ps_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u1
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
deriv_rtx r0.x, v0.x
ftou r0.y, v0.x
and r0.y, r0.y, l(1)
discard_nz r0.y
atomic_iadd u1, l(0), l(1)
mov o0.xyzw, r0.xxxx
ret
`

// TestPixelUAVHelpersAndDiscard: helper lanes (the quad's other pixels a
// derivative needs, outside the triangle) and discarded pixels write
// nothing: the count is the covered pixels of even x, from the
// rasterization rules.
func TestPixelUAVHelpersAndDiscard(t *testing.T) {
	bc, err := dxbc.Assemble(discardPS)
	if err != nil {
		t.Fatal(err)
	}
	even := 0
	for _, p := range covered([3][2]float64{{4, 2}, {6, 6}, {2, 6}}) {
		if p[0]%2 == 0 {
			even++
		}
	}
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
tri = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
cnt = dev.CreateBuffer ByteWidth=4 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_TYPELESS Flags=RAW
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader bytes:`+hex.EncodeToString(bc)+`
imm.OMSetRenderTargetsAndUnorderedAccessViews rtv cntv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.IASetVertexBuffers 0 tri
imm.Draw 3
expect probe cnt 0 0 == `+u32List([]uint32{uint32(even)})+`
expect violations == 0
`)
}
