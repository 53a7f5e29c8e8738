package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// dcMapHead: a DYNAMIC vertex buffer the immediate context fills with a
// green triangle on the left, and a deferred context set up to draw from
// it.
const dcMapHead = `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=216 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.Map vb WRITE_DISCARD
vb.Write f32[-0.5 0.5 0.5 0 1 0 1 0 0   0 -0.5 0.5 0 1 0 1 0 0   -1 -0.5 0.5 0 1 0 1 0 0]
imm.Unmap vb
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb
dc.VSSetShader vs
dc.PSSetShader ps
`

// icDraw binds the immediate context's pipeline and draws vertices 0-2.
const icDraw = `imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
imm.Draw 3 0
`

// Triangles: blue on the right, red at the top.
const (
	blueRight = "f32[0.5 0.5 0.5 0 0 1 1 0 0   1 -0.5 0.5 0 0 1 1 0 0   0 -0.5 0.5 0 0 1 1 0 0]"
	redTop    = "f32[0 1 0.5 1 0 0 1 0 0   0.5 0.6 0.5 1 0 0 1 0 0   -0.5 0.6 0.5 1 0 0 1 0 0]"
)

// TestDeferredMap: Map on a deferred context gives the command list its own
// version of a DYNAMIC resource ("Mapping on Deferred Contexts"): draws
// recorded after the Map read it, the immediate context's draws before
// ExecuteCommandList read the old contents, and after it the resource holds
// the list's. WRITE_NO_OVERWRITE after the list's WRITE_DISCARD writes into
// the same version. The same scenario gives the same pixels whether the
// driver records the command list or the runtime emulates it.
func TestDeferredMap(t *testing.T) {
	tests := []struct{ desc, body string }{
		{"discard, then the immediate context draws the old data first", `dc.Map vb WRITE_DISCARD
DRIVER expect calls Map DynamicIABufferMapDiscard pfnAllocateCb pfnLockCb
vb.Write ` + blueRight + `
dc.Unmap vb
dc.Draw 3 0
cl = dc.FinishCommandList FALSE
` + icDraw + `imm.ExecuteCommandList cl FALSE
expect pixel bb 16 30 == #00ff00ff
expect pixel bb 48 30 == #0000ffff
`},
		{"no-overwrite after discard", `dc.Map vb WRITE_DISCARD
DRIVER expect calls Map DynamicIABufferMapDiscard pfnAllocateCb pfnLockCb
vb.Write ` + blueRight + `
dc.Unmap vb
dc.Draw 3 0
dc.Map vb WRITE_NO_OVERWRITE
DRIVER expect calls Map DynamicIABufferMapNoOverwrite pfnLockCb
vb.Write ` + redTop + ` Offset=108
dc.Unmap vb
dc.Draw 3 3
cl = dc.FinishCommandList FALSE
` + icDraw + `imm.ExecuteCommandList cl FALSE
expect pixel bb 16 30 == #00ff00ff
expect pixel bb 48 30 == #0000ffff
expect pixel bb 32 4 == #ff0000ff
` + icDraw + `imm.Draw 3 3
expect pixel bb 16 30 == #000000ff
expect pixel bb 48 30 == #0000ffff
expect pixel bb 32 4 == #ff0000ff
`},
		{"after ExecuteCommandList the immediate context reads the list's data", `dc.Map vb WRITE_DISCARD
vb.Write ` + blueRight + `
vb.Write ` + redTop + ` Offset=108
dc.Unmap vb
cl = dc.FinishCommandList FALSE
imm.ExecuteCommandList cl FALSE
` + icDraw + `imm.Draw 3 3
expect pixel bb 16 30 == #000000ff
expect pixel bb 48 30 == #0000ffff
expect pixel bb 32 4 == #ff0000ff
`},
		{"two discards in one list: each draw reads its own version", `dc.Map vb WRITE_DISCARD
vb.Write ` + blueRight + `
dc.Unmap vb
dc.Draw 3 0
dc.Map vb WRITE_DISCARD
vb.Write ` + redTop + `
dc.Unmap vb
dc.Draw 3 0
cl = dc.FinishCommandList FALSE
` + icDraw + `imm.ExecuteCommandList cl FALSE
expect pixel bb 16 30 == #00ff00ff
expect pixel bb 48 30 == #0000ffff
expect pixel bb 32 4 == #ff0000ff
cl.Release
`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var hashes []string
			for _, opt := range []string{"", "option driver.commandlists=false\n"} {
				// The driver's DDIs are checked where the driver records
				// the list; the runtime's emulation calls none.
				body := strings.ReplaceAll(tt.body, "DRIVER ", "")
				if opt != "" {
					body = strings.ReplaceAll(tt.body, "DRIVER expect calls", "# expect calls")
				}
				r := runSource(t, opt+dcMapHead+body+"sc.Present\nexpect violations == 0\n")
				if f := r.Summary().Failures; len(f) > 0 {
					t.Fatalf("%q: %v", opt, f)
				}
				hashes = append(hashes, r.Summary().Hash)
			}
			if hashes[0] != hashes[1] {
				t.Errorf("driver command lists give frame %s, emulated ones %s", hashes[0], hashes[1])
			}
		})
	}
}

// TestDeferredMapRules: a deferred context maps only DYNAMIC resources,
// only WRITE_DISCARD or WRITE_NO_OVERWRITE, and a resource's first Map in
// each command list must be WRITE_DISCARD: the runtime refuses the rest
// before the driver sees them, with a message naming the rule.
func TestDeferredMapRules(t *testing.T) {
	tests := []struct{ desc, body, hr, msg string }{
		{"no-overwrite first", "dc.Map vb WRITE_NO_OVERWRITE\n", "D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD", "first Map of a resource on a deferred context"},
		{"no-overwrite first in the next list", "dc.Map vb WRITE_DISCARD\ndc.Unmap vb\ncl = dc.FinishCommandList FALSE\ndc.Map vb WRITE_NO_OVERWRITE\n", "D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD", "after CreateDeferredContext or FinishCommandList must be WRITE_DISCARD"},
		{"WRITE", "st = dev.CreateBuffer ByteWidth=16 Usage=STAGING CPUAccessFlags=WRITE\ndc.Map st WRITE\n", "E_INVALIDARG", "maps only DYNAMIC resources"},
		{"READ of a dynamic buffer", "dc.Map vb READ\n", "E_INVALIDARG", "only with WRITE_DISCARD or WRITE_NO_OVERWRITE, not READ"},
	}
	for _, tt := range tests {
		for _, opt := range []string{"", "option driver.commandlists=false\n"} {
			t.Run(tt.desc+" "+opt, func(t *testing.T) {
				r := runSource(t, opt+dcMapHead+tt.body+"expect hr == "+tt.hr+"\n")
				if f := r.Summary().Failures; len(f) > 0 {
					t.Fatal(f)
				}
				var last string
				reached := false
				for _, e := range r.Events() {
					if e.Name == "Map" && e.Ctx != "IC" {
						last = e.Msg
					}
					if e.Layer == trace.UMD && strings.Contains(e.Name, "Map") && e.Ctx != "IC" && strings.Contains(tt.body, "dc.Map vb WRITE_NO_OVERWRITE") && !strings.Contains(tt.body, "WRITE_DISCARD") {
						reached = true
					}
				}
				if !strings.Contains(last, tt.msg) {
					t.Errorf("the refused Map says %q, want %q", last, tt.msg)
				}
				if reached {
					t.Error("the refused Map reached the driver's ResourceMap")
				}
			})
		}
	}
}
