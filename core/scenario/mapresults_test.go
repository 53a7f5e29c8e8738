package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestMapResults: what Map returns where the reference pages say.
//   - D3D11_MAP_FLAG_DO_NOT_WAIT "cannot be used with D3D11_MAP_WRITE_DISCARD
//     or D3D11_MAP_WRITE_NOOVERWRITE" ("D3D11_MAP_FLAG"): E_INVALIDARG, and
//     the driver is not called.
//   - On a removed device Map "returns DXGI_ERROR_DEVICE_REMOVED if MapType
//     allows any CPU read access" ("ID3D11DeviceContext::Map method"): READ
//     fails; WRITE_DISCARD succeeds on memory the runtime hands out, without
//     a map or unmap DDI.
//   - The map DDI is the table entry the runtime picks for the resource and
//     the map type ("PFND3D10DDI_RESOURCEMAP"), and it reports a refused
//     DO_NOT_WAIT map through pfnSetErrorCb (DXGI_DDI_ERR_WASSTILLDRAWING).
func TestMapResults(t *testing.T) {
	const head = `dev, imm = D3D11CreateDevice
dyn = dev.CreateBuffer ByteWidth=64 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE
cb = dev.CreateBuffer ByteWidth=64 Usage=DYNAMIC BindFlags=CONSTANT_BUFFER CPUAccessFlags=WRITE
tex = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM Usage=DYNAMIC BindFlags=SHADER_RESOURCE CPUAccessFlags=WRITE
rt = dev.CreateTexture2D Width=16 Height=16 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
stage = dev.CreateTexture2D Width=16 Height=16 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
`
	tests := []struct {
		desc, body string
		ddis       []string // the map and unmap DDIs, in order
	}{
		{"DO_NOT_WAIT with WRITE_DISCARD is invalid", "imm.Map dyn WRITE_DISCARD Flags=DO_NOT_WAIT\nexpect hr == E_INVALIDARG\n", nil},
		{"DO_NOT_WAIT with WRITE_NO_OVERWRITE is invalid", "imm.Map dyn WRITE_NO_OVERWRITE Flags=DO_NOT_WAIT\nexpect hr == E_INVALIDARG\n", nil},
		{"the entries", `imm.Map dyn WRITE_DISCARD
imm.Unmap dyn
imm.Map dyn WRITE_NO_OVERWRITE
imm.Unmap dyn
imm.Map cb WRITE_DISCARD
imm.Unmap cb
imm.Map tex WRITE_DISCARD
imm.Unmap tex
imm.Map stage READ
imm.Unmap stage
`, []string{"DynamicIABufferMapDiscard", "DynamicIABufferUnmap", "DynamicIABufferMapNoOverwrite", "DynamicIABufferUnmap",
			"DynamicConstantBufferMapDiscard", "DynamicConstantBufferUnmap", "DynamicResourceMapDiscard", "DynamicResourceUnmap",
			"StagingResourceMap", "StagingResourceUnmap"}},
		{"DO_NOT_WAIT refused by the driver through pfnSetErrorCb", `imm.ClearRenderTargetView rtv 1 0 0 1
imm.CopyResource stage rt
imm.Map stage READ Flags=DO_NOT_WAIT
expect hr == DXGI_ERROR_WAS_STILL_DRAWING
expect calls Map StagingResourceMap pfnLockCb pfnSetErrorCb
`, []string{"StagingResourceMap"}},
		{"a removed device: reads fail, writes go nowhere", `inject gpu.hang
imm.ClearRenderTargetView rtv 1 0 0 1
imm.CopyResource stage rt
imm.Map stage READ
expect hr == DXGI_ERROR_DEVICE_REMOVED
imm.Map dyn WRITE_DISCARD
expect hr == S_OK
dyn.Write f32[1 2 3 4]
imm.Unmap dyn
imm.Map stage READ
expect hr == DXGI_ERROR_DEVICE_REMOVED
`, []string{"StagingResourceMap"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, head+tt.body+"expect violations == 0\n")
			if f := r.Summary().Failures; len(f) > 0 {
				t.Fatal(f)
			}
			var ddis []string
			removedMsg := false
			for _, e := range r.Events() {
				if e.Kind == trace.Call && e.Layer == trace.UMD && strings.Contains(e.Name, "map") || e.Kind == trace.Call && e.Layer == trace.UMD && strings.Contains(e.Name, "Map") {
					ddis = append(ddis, e.Name)
				}
				removedMsg = removedMsg || e.Name == "MapOnRemovedDevice"
			}
			if strings.Join(ddis, " ") != strings.Join(tt.ddis, " ") {
				t.Errorf("map DDIs %v, want %v", ddis, tt.ddis)
			}
			if strings.Contains(tt.desc, "removed") != removedMsg {
				t.Errorf("MapOnRemovedDevice message: %v", removedMsg)
			}
		})
	}
}
