package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// queryPrelude draws on an 8x8 render target with the built-in shaders.
const queryPrelude = `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
tri = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
`

func mustRun(t *testing.T, src string) *Run {
	t.Helper()
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	return r
}

// TestPipelineStatisticsQuery counts by hand: the full-viewport quad is
// two triangles of six vertices covering the 64 pixels; mesh:triangle on
// 8x8 is (4,2) (6,6) (2,6) on the screen, whose pixel centres inside are
// 0 + 2 + 2 + 4 = 8 in rows 2..5; a triangle wholly left of the viewport
// is assembled and clipped away. No geometry, hull, domain or compute
// stage runs, and there is no stream output.
func TestPipelineStatisticsQuery(t *testing.T) {
	src := queryPrelude + `st = dev.CreateQuery Query=PIPELINE_STATISTICS
so = dev.CreateQuery Query=SO_STATISTICS
ov = dev.CreatePredicate Query=SO_OVERFLOW_PREDICATE
out = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-3 0.5 0.5 1 1 1 1 0 0  -2 -0.5 0.5 1 1 1 1 0 0  -3 -0.5 0.5 1 1 1 1 0 0]
imm.Begin st
imm.Begin so
imm.Begin ov
imm.IASetVertexBuffers 0 quad
imm.Draw 6 0
imm.IASetVertexBuffers 0 tri
imm.Draw 3 0
imm.IASetVertexBuffers 0 out
imm.Draw 3 0
imm.End ov
imm.End so
imm.End st
until hr == S_OK max 100 {
  imm.GetData st
}
expect data st == 12
expect data st.IAVertices == 12
expect data st.IAPrimitives == 4
expect data st.VSInvocations == 12
expect data st.GSInvocations == 0
expect data st.GSPrimitives == 0
expect data st.CInvocations == 4
expect data st.CPrimitives == 3
expect data st.PSInvocations == 72
expect data st.HSInvocations == 0
expect data st.DSInvocations == 0
expect data st.CSInvocations == 0
imm.GetData so
expect hr == S_OK
expect data so.NumPrimitivesWritten == 0
expect data so.PrimitivesStorageNeeded == 0
imm.GetData ov
expect data ov == FALSE
expect violations == 0
`
	r := mustRun(t, src)
	// GetData's return carries the answer in the trace (type=, data=).
	want := map[string]bool{
		"type=PIPELINE_STATISTICS data=IAVertices:12,IAPrimitives:4,VSInvocations:12,GSInvocations:0,GSPrimitives:0,CInvocations:4,CPrimitives:3,PSInvocations:72,HSInvocations:0,DSInvocations:0,CSInvocations:0": false,
		"type=SO_STATISTICS data=NumPrimitivesWritten:0,PrimitivesStorageNeeded:0": false,
		"type=SO_OVERFLOW_PREDICATE data=0":                                        false,
	}
	for _, e := range r.Events() {
		if e.Kind == trace.Return && e.Name == "GetData" && e.HR == "S_OK" {
			if _, ok := want[e.Args.String()]; ok {
				want[e.Args.String()] = true
			}
		}
	}
	for a, seen := range want {
		if !seen {
			t.Errorf("no GetData return with %s", a)
		}
	}
}

// TestOcclusionPredication: an OCCLUSION_PREDICATE's data is TRUE when a
// sample passed; with SetPredication the draws, clears, copies and updates
// after it are skipped while the predicate's data equals the value,
// whether or not the application has read the data ("predication can
// occur while GetData returns S_FALSE"). The runtime drops what
// "ID3D11DeviceContext::SetPredication" and "CreatePredicate" forbid,
// naming the field.
func TestOcclusionPredication(t *testing.T) {
	src := queryPrelude + `seen = dev.CreatePredicate Query=OCCLUSION_PREDICATE
hidden = dev.CreateQuery Query=OCCLUSION_PREDICATE
occ = dev.CreateQuery Query=OCCLUSION
out = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-3 0.5 0.5 1 1 1 1 0 0  -2 -0.5 0.5 1 1 1 1 0 0  -3 -0.5 0.5 1 1 1 1 0 0]
src = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE Data=#336699ff
stage = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
imm.ClearRenderTargetView rtv 0 0 0 1
imm.IASetVertexBuffers 0 quad
imm.Begin seen
imm.Draw 6 0
imm.End seen
imm.IASetVertexBuffers 0 out
imm.Begin hidden
imm.Draw 3 0
imm.End hidden

# Predicated on seen == TRUE, which it is: skipped (before any GetData).
imm.SetPredication seen TRUE
expect calls SetPredication SetPredication
imm.ClearRenderTargetView rtv 1 0 0 1
imm.CopyResource stage src
imm.UpdateSubresource t Data=#00ff00ff
expect pixel t 3 3 == #ffffffff
expect pixel stage 0 0 == #00000000
imm.GetPredication
expect got == seen TRUE
# seen == FALSE: performed.
imm.SetPredication seen FALSE
imm.ClearRenderTargetView rtv 1 0 0 1
expect pixel t 3 3 == #ff0000ff
# hidden is FALSE: predicated on TRUE, performed.
imm.SetPredication hidden TRUE
imm.CopyResource stage src
expect pixel stage 0 0 == #336699ff
imm.SetPredication NULL
imm.GetPredication
expect got == NULL FALSE
until hr == S_OK max 100 {
  imm.GetData seen
}
expect data seen == TRUE
imm.GetData hidden
expect data hidden == FALSE

# What the runtime drops.
imm.SetPredication occ TRUE
expect hr == DROPPED
imm.Begin seen
imm.SetPredication seen TRUE
expect hr == DROPPED
imm.End seen
imm.SetPredication seen TRUE
imm.Begin seen
expect hr == DROPPED
imm.End seen
expect hr == DROPPED
imm.ClearState
imm.GetPredication
expect got == NULL FALSE
bad = dev.CreatePredicate Query=OCCLUSION
expect hr == E_INVALIDARG
ts = dev.CreateQuery Query=TIMESTAMP
imm.Begin ts
expect hr == DROPPED
expect violations == 0
`
	r := mustRun(t, src)
	msgs := strings.Join(r.Summary().Messages, "\n")
	for _, want := range []string{
		"pPredicate: occ is a OCCLUSION query, not a predicate",
		"pPredicate: seen is not issued or signaled",
		"seen is the context's predicate (SetPredication): Begin and End on it are invalid while it is set",
		"pPredicateDesc->Query: OCCLUSION is not a predicate",
		"a TIMESTAMP query has no Begin",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no debug message %q in\n%s", want, msgs)
		}
	}
}

// TestPredicatedDrawAfterDraw: a Draw that changes no state after a Draw,
// with SetPredication between them, goes to the GPU predicated (the UMD's
// Draw of an unchanged state sends the predication first), and after
// SetPredication NULL it is drawn again.
func TestPredicatedDrawAfterDraw(t *testing.T) {
	src := queryPrelude + `seen = dev.CreatePredicate Query=OCCLUSION_PREDICATE
imm.IASetVertexBuffers 0 quad
imm.ClearRenderTargetView rtv 1 0 0 1
imm.Begin seen
imm.Draw 6 0
imm.End seen
imm.ClearRenderTargetView rtv 1 0 0 1
imm.SetPredication seen TRUE
imm.Draw 6 0
expect pixel t 3 3 == #ff0000ff
imm.SetPredication NULL
imm.Draw 6 0
expect pixel t 3 3 == #ffffffff
expect violations == 0
`
	mustRun(t, src)
}

// TestTimestampDisjoint: TIMESTAMP queries read the GPU's virtual clock
// when the GPU reaches them; the TIMESTAMP_DISJOINT around them reports
// the clock's frequency (one tick a virtual nanosecond) and no
// discontinuity.
func TestTimestampDisjoint(t *testing.T) {
	src := queryPrelude + `dj = dev.CreateQuery Query=TIMESTAMP_DISJOINT
t1 = dev.CreateQuery Query=TIMESTAMP
t2 = dev.CreateQuery Query=TIMESTAMP
imm.IASetVertexBuffers 0 quad
imm.Begin dj
imm.End t1
imm.Draw 6 0
imm.End t2
imm.End dj
until hr == S_OK max 100 {
  imm.GetData dj
}
expect data dj.Frequency == 1000000000
expect data dj.Disjoint == FALSE
imm.GetData t1
imm.GetData t2
expect data t2 > t1
expect violations == 0
`
	mustRun(t, src)
}

// TestPredicationInCommandLists: a deferred context records
// SetPredication with its commands (by the driver, or by the runtime
// when the driver has no command lists); the list starts without
// predication whatever the immediate context set, and leaves the
// immediate context without it ("ExecuteCommandList": the context returns
// to its default state), or with its own again under RestoreContextState.
// Pipeline statistics count the list's draws.
func TestPredicationInCommandLists(t *testing.T) {
	for _, opt := range []string{"", "option driver.commandlists=false\n"} {
		src := opt + queryPrelude + `seen = dev.CreatePredicate Query=OCCLUSION_PREDICATE
st = dev.CreateQuery Query=PIPELINE_STATISTICS
dc = dev.CreateDeferredContext
imm.IASetVertexBuffers 0 quad
imm.Begin seen
imm.Draw 6 0
imm.End seen
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 8 8
dc.SetPredication seen TRUE
dc.ClearRenderTargetView rtv 1 0 0 1
dc.SetPredication seen FALSE
dc.ClearRenderTargetView rtv 0 0 1 1
cl = dc.FinishCommandList FALSE
dc2 = dev.CreateDeferredContext
dc2.OMSetRenderTargets rtv
dc2.ClearRenderTargetView rtv 0 1 0 1
cl2 = dc2.FinishCommandList FALSE

imm.ExecuteCommandList cl
expect pixel t 1 1 == #0000ffff
# The immediate context's predication does not reach the list.
imm.SetPredication seen TRUE
imm.ExecuteCommandList cl2 TRUE
expect pixel t 1 1 == #00ff00ff
imm.GetPredication
expect got == seen TRUE
imm.ClearRenderTargetView rtv 1 1 1 1
expect pixel t 1 1 == #00ff00ff
imm.ExecuteCommandList cl2 FALSE
imm.GetPredication
expect got == NULL FALSE
imm.ClearRenderTargetView rtv 1 1 1 1
expect pixel t 1 1 == #ffffffff

dc3 = dev.CreateDeferredContext
dc3.OMSetRenderTargets rtv
dc3.RSSetViewports 0 0 8 8
dc3.IASetPrimitiveTopology TRIANGLELIST
dc3.IASetVertexBuffers 0 tri
dc3.VSSetShader vs
dc3.PSSetShader ps
dc3.Draw 3 0
cl3 = dc3.FinishCommandList FALSE
imm.Begin st
imm.ExecuteCommandList cl3
imm.ExecuteCommandList cl3
imm.End st
until hr == S_OK max 100 {
  imm.GetData st
}
expect data st.IAPrimitives == 2
expect data st.PSInvocations == 16
expect violations == 0
`
		mustRun(t, src)
	}
}

// TestPredicationInNestedCommandLists: a command list executed on a
// deferred context runs without the outer recording's predication, and
// leaves the deferred context without it ("ExecuteCommandList": the
// context returns to its default state), so the outer list's later
// commands are performed; the outer list's predicated clear is skipped.
func TestPredicationInNestedCommandLists(t *testing.T) {
	bothPaths(t, queryPrelude+`seen = dev.CreatePredicate Query=OCCLUSION_PREDICATE
imm.IASetVertexBuffers 0 quad
imm.Begin seen
imm.Draw 6 0
imm.End seen
dc1 = dev.CreateDeferredContext
dc1.OMSetRenderTargets rtv
dc1.ClearRenderTargetView rtv 0 1 0 1
inner = dc1.FinishCommandList FALSE
dc2 = dev.CreateDeferredContext
dc2.OMSetRenderTargets rtv
dc2.ClearRenderTargetView rtv 0 0 1 1
dc2.SetPredication seen TRUE
dc2.ClearRenderTargetView rtv 1 0 0 1
dc2.ExecuteCommandList inner FALSE
dc2.GetPredication
expect got == NULL FALSE
outer = dc2.FinishCommandList FALSE
imm.ExecuteCommandList outer FALSE
expect pixel t 1 1 == #00ff00ff
dc3 = dev.CreateDeferredContext
dc3.OMSetRenderTargets rtv
dc3.ClearRenderTargetView rtv 0 0 1 1
dc3.SetPredication seen TRUE
dc3.ExecuteCommandList inner FALSE
dc3.OMSetRenderTargets rtv
dc3.ClearRenderTargetView rtv 1 1 1 1
outer2 = dc3.FinishCommandList FALSE
imm.ExecuteCommandList outer2 FALSE
expect pixel t 1 1 == #ffffffff
expect violations == 0
`)
}
