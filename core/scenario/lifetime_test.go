package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestLifeDanglingWhileAlive: a call that names an object after the
// application's final Release is refused (E_INVALIDARG, a debug-layer
// message naming the call and the object, on the call's scenario line) and
// never reaches the UMD, even when a binding, a view or a command list keeps
// the object alive inside the runtime (rule LIFE-DANGLING). The last line of
// each case's src is the dangling call. With bug=LIFE-DANGLING the call goes
// through, and where it names the object first the verifier reports it.
func TestLifeDanglingWhileAlive(t *testing.T) {
	const dev = "dev, imm = D3D11CreateDevice\n"
	const tex = "t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE\n" +
		"u = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE\n" +
		"rtv = dev.CreateRenderTargetView t\n" +
		"t.Release\n"
	tests := []struct {
		desc     string
		src      string
		call     string // the API call refused
		obj      string
		verified bool // the verifier sees the bug (the DDI names obj first)
	}{
		{"rebinding a bound vertex buffer", dev + "vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle\n" +
			"imm.IASetVertexBuffers 0 vb\nvb.Release\nimm.IASetVertexBuffers 0 vb\n", "IASetVertexBuffers", "vb", true},
		{"a bound shader", dev + "ps = dev.CreatePixelShader builtin:ps_vertexcolor\nimm.PSSetShader ps\nps.Release\nimm.PSSetShader ps\n", "PSSetShader", "ps", true},
		{"a bound state", dev + "bs = dev.CreateBlendState\nimm.OMSetBlendState bs\nbs.Release\nimm.OMSetBlendState bs\n", "OMSetBlendState", "bs", true},
		{"clearing a bound view", dev + tex + "imm.OMSetRenderTargets rtv\nrtv.Release\nimm.ClearRenderTargetView rtv 0 0 0 1\n", "ClearRenderTargetView", "rtv", true},
		{"a view onto a resource a view keeps", dev + tex + "srv = dev.CreateShaderResourceView t\n", "CreateShaderResourceView", "t", true},
		{"copying into a resource a view keeps", dev + tex + "imm.CopyResource t u\n", "CopyResource", "t", true},
		{"copying from a resource a view keeps", dev + tex + "imm.CopyResource u t\n", "CopyResource", "t", true},
		{"updating a resource a view keeps", dev + tex + "imm.UpdateSubresource t Data=u32[1 2 3 4]\n", "UpdateSubresource", "t", true},
		{"mapping a bound dynamic buffer", dev + "vb = dev.CreateBuffer ByteWidth=64 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE\n" +
			"imm.IASetVertexBuffers 0 vb\nvb.Release\nimm.Map vb WRITE_DISCARD\n", "Map", "vb", true},
		{"writing the mapped memory of a released buffer", dev + "vb = dev.CreateBuffer ByteWidth=64 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE\n" +
			"imm.IASetVertexBuffers 0 vb\nimm.Map vb WRITE_DISCARD\nvb.Release\nvb.Write u32[1 2 3]\n", "Write", "vb", false},
		{"a deferred context's binding", dev + "ps = dev.CreatePixelShader builtin:ps_vertexcolor\ndc = dev.CreateDeferredContext\n" +
			"dc.PSSetShader ps\nps.Release\ndc.PSSetShader ps\n", "PSSetShader", "ps", true},
		{"an emulated deferred context's binding", "option driver.commandlists=false\n" + dev + "ps = dev.CreatePixelShader builtin:ps_vertexcolor\ndc = dev.CreateDeferredContext\n" +
			"dc.PSSetShader ps\nps.Release\ndc.PSSetShader ps\n", "PSSetShader", "ps", false},
		{"an emulated deferred context naming what the immediate context binds", "option driver.commandlists=false\n" + dev +
			"vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle\nimm.IASetVertexBuffers 0 vb\nvb.Release\n" +
			"dc = dev.CreateDeferredContext\ndc.IASetVertexBuffers 0 vb\n", "IASetVertexBuffers", "vb", false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			line := strings.Count(tt.src, "\n")
			r := runSource(t, tt.src+"expect hr == E_INVALIDARG\nexpect violations == 0\n")
			if s := r.Summary(); !s.OK() {
				t.Fatalf("run fails: %s", strings.Join(s.Failures, "\n"))
			}
			msg := false
			for _, e := range r.Events() {
				if e.Line != line {
					continue
				}
				if e.Layer == trace.UMD {
					t.Errorf("line %d reached the UMD: %s %s %s", line, e.Kind, e.Name, e.Obj)
				}
				if e.Kind == trace.Message && e.Name == tt.call && e.Obj == tt.obj && strings.Contains(e.Msg, "LIFE-DANGLING") {
					msg = true
				}
			}
			if !msg {
				t.Errorf("no debug-layer message names %s and %s on line %d", tt.call, tt.obj, line)
			}
			if !tt.verified {
				return
			}
			buggy := runSource(t, "option bug=LIFE-DANGLING\n"+tt.src)
			found := false
			for _, v := range buggy.Violations() {
				if v.Rule != "LIFE-DANGLING" {
					t.Errorf("bug=LIFE-DANGLING also broke %s: %s", v.Rule, v)
				}
				found = found || v.Rule == "LIFE-DANGLING" && v.Line == line+1
			}
			if !found {
				t.Errorf("bug=LIFE-DANGLING: the verifier did not report line %d: %v", line+1, buggy.Violations())
			}
		})
	}
}

// TestLifeDanglingAddRefRelease: AddRef and Release after the final Release
// name the object too. The debug layer says so, and AddRef does not bring
// the object back: the next call that names it is still refused.
func TestLifeDanglingAddRefRelease(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
imm.IASetVertexBuffers 0 vb
vb.Release
vb.AddRef
vb.Release
imm.IASetVertexBuffers 0 vb
expect hr == E_INVALIDARG
expect violations == 0
`
	r := runSource(t, src)
	if s := r.Summary(); !s.OK() {
		t.Fatalf("run fails: %s", strings.Join(s.Failures, "\n"))
	}
	msgs := map[int]string{}
	for _, e := range r.Events() {
		if e.Kind == trace.Message && strings.Contains(e.Msg, "LIFE-DANGLING") && e.Obj == "vb" {
			msgs[e.Line] = e.Name
		}
	}
	for line, call := range map[int]string{5: "AddRef", 6: "Release", 7: "IASetVertexBuffers"} {
		if msgs[line] != call {
			t.Errorf("line %d: message from %q, want %s (all: %v)", line, msgs[line], call, msgs)
		}
	}
}
