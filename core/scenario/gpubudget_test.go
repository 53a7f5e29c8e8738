package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/machine"
)

// fullScreen is a scenario drawing a full-target quad on a size x size
// render target with vertex shader vs and pixel shader ps (hlsl block s when
// "hlsl:s"), the draw line given. A render-target texture, not a swap
// chain: a bitblt swap chain of 8192x8192 adds a redirection surface of its
// size at its first Present, a flip one a second buffer, and either pair
// passes the default sysmem limit of 512 MiB.
func fullScreen(opts, hlsl string, size int, vs, ps, draw string) string {
	s := opts
	if hlsl != "" {
		s += "hlsl s {\n" + hlsl + "\n}\n"
	}
	return s + `dev, imm = D3D11CreateDevice
bb = dev.CreateTexture2D Width=` + itoa(size) + ` Height=` + itoa(size) + ` Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader ` + vs + `
ps = dev.CreatePixelShader ` + ps + `
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 ` + itoa(size) + ` ` + itoa(size) + `
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
` + draw + `
imm.Flush
`
}

const loopHLSL = `float4 main(float4 p : SV_Position, float4 c : COLOR) : SV_Target {
  float4 s = c;
  for (int i = 0; i < 8150; i++) { s = s * 0.5 + 0.25; }
  return s;
}`

// TestGPUBudgetsInsideDraws: the draws that ran for hours end at
// a budget inside the draw, with a message naming the budget, the draw
// and its shaders (a week of real time for the DrawInstanced, 45 minutes
// for the looping pixel shader; each now stops after the budget's worth
// of work).
func TestGPUBudgetsInsideDraws(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"DrawInstanced 6 699050 of a full-screen quad on 8192x8192",
			fullScreen("option maxpixels=20000000\n", "", 8192, "builtin:vs_passthrough", "builtin:ps_vertexcolor", "imm.DrawInstanced 6 699050 0 0"),
			[]string{"pixel budget of 20000000 pixels shaded, written or presented reached after", "the GPU stopped DRAW_INSTANCED (packet", "of device dev, at instance 0) running vertex shader vs and pixel shader ps there (option maxpixels=N raises it)"}},
		{"the same on 64x64",
			fullScreen("option maxpixels=20000000\n", "", 64, "builtin:vs_passthrough", "builtin:ps_vertexcolor", "imm.DrawInstanced 6 699050 0 0"),
			[]string{"pixel budget of 20000000", "the GPU stopped DRAW_INSTANCED (packet", "at instance 5119)"}},
		{"a pixel shader looping 8,150 times on 8192x8192",
			fullScreen("option maxinstructions=100000000\n", loopHLSL, 8192, "builtin:vs_passthrough", "hlsl:s", "imm.Draw 6 0"),
			[]string{"instruction budget of 100000000 shader instructions executed reached after", "the GPU stopped DRAW (packet", "running vertex shader vs and pixel shader ps there (option maxinstructions=N raises it)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runSource(t, tc.src)
			s := r.Summary()
			all := strings.Join(s.Failures, "\n")
			for _, w := range tc.want {
				if !strings.Contains(s.Limit, w) {
					t.Errorf("limit %q\nwant %q (failures: %s)", s.Limit, w, all)
				}
			}
			st := r.mach.GPUStats()
			t.Logf("%d pixels, %d instructions: %s", st.Pixels, st.Instructions, s.Limit)
		})
	}
}

// TestTDROnALongDraw: a draw whose virtual time passes the deadline of
// timeout detection is reset by TDR as on Windows (a hung engine and a
// busy one look the same to Dxgkrnl), and the GPU stops executing it at
// the deadline: here a GPU that takes a millisecond a pixel draws 64x1024,
// 65 s, and stops after its first round of rows.
func TestTDROnALongDraw(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
t = dev.CreateTexture2D Width=64 Height=1024 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
stage = dev.CreateTexture2D Width=64 Height=1024 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
rtv = dev.CreateRenderTargetView t
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 1024
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
imm.Draw 6 0
imm.CopyResource stage t
imm.Map stage READ
expect hr == DXGI_ERROR_DEVICE_REMOVED
expect calls StagingResourceMap pfnLockCb WaitForFence DxgkDdiPreemptCommand TDR DxgkDdiResetEngine DeviceRemoved
dev.GetDeviceRemovedReason
expect hr == DXGI_ERROR_DEVICE_HUNG
`
	s, err := Load("t.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := machine.DefaultGPUCosts()
	c.PixelNS = 1_000_000
	r := NewRun(s, Overrides{gpuCosts: &c})
	sum := r.Finish()
	if !sum.OK() {
		t.Fatalf("%s", strings.Join(sum.Failures, "\n"))
	}
	overrun := ""
	for _, e := range r.Events() {
		if e.Name == "DmaBufferOverrun" {
			overrun = e.Msg
		}
	}
	if !strings.Contains(overrun, "DRAW (packet") || !strings.Contains(overrun, "the deadline of timeout detection") {
		t.Errorf("DmaBufferOverrun %q", overrun)
	}
	if px := r.mach.GPUStats().Pixels; px >= 64*1024 || px == 0 {
		t.Errorf("%d pixels: the GPU did not stop the draw at the deadline", px)
	}
}
