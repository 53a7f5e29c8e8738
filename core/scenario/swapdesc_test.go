package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestSwapChainGetDesc: IDXGISwapChain::GetDesc reports each swap chain's
// size, format, buffer count, model and windowed state, several swap
// chains on one device apart; a released swap chain is a use after free.
func TestSwapChainGetDesc(t *testing.T) {
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=64 Height=32 BufferCount=3 SwapEffect=FLIP_DISCARD
sc2 = dev.CreateSwapChain Width=16 Height=8
sc.GetDesc
expect hr == S_OK
expect got == 64 32 R8G8B8A8_UNORM 3 FLIP_DISCARD TRUE
sc.SetFullscreenState TRUE
sc2.GetDesc
expect got == 16 8 R8G8B8A8_UNORM 1 DISCARD TRUE
sc.GetDesc
expect got == 64 32 R8G8B8A8_UNORM 3 FLIP_DISCARD FALSE
sc2.Release
sc2.GetDesc
expect hr == E_INVALIDARG
`)
}

// TestResizeBuffers: IDXGISwapChain::ResizeBuffers refuses while the
// application or a view or binding still holds a buffer
// (DXGI_ERROR_INVALID_CALL, as its page says), then makes new buffers of
// the new size through CreateResource (bitblt and flip model), which draw
// and present; BufferCount and NewFormat are checked as at creation, and
// nothing leaks.
func TestResizeBuffers(t *testing.T) {
	r := mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 1 0 0 1
sc.Present
sc.ResizeBuffers Width=32 Height=24
expect hr == DXGI_ERROR_INVALID_CALL
bb.Release
sc.ResizeBuffers Width=32 Height=24
expect hr == DXGI_ERROR_INVALID_CALL
rtv.Release
sc.ResizeBuffers Width=32 Height=24
expect hr == DXGI_ERROR_INVALID_CALL
imm.ClearState
imm.Flush
sc.ResizeBuffers Width=32 Height=24
expect hr == S_OK
sc.GetDesc
expect got == 32 24 R8G8B8A8_UNORM 1 DISCARD TRUE
bb2 = sc.GetBuffer 0
rtv2 = dev.CreateRenderTargetView bb2
imm.OMSetRenderTargets rtv2
imm.ClearRenderTargetView rtv2 0 1 0 1
sc.Present
expect pixel bb2 31 23 == #00ff00ff
fl = dev.CreateSwapChain Width=8 Height=8 BufferCount=2 SwapEffect=FLIP_DISCARD
fl.ResizeBuffers BufferCount=1
expect hr == DXGI_ERROR_INVALID_CALL
fl.ResizeBuffers Width=4 Height=4 NewFormat=R32_FLOAT
expect hr == DXGI_ERROR_INVALID_CALL
fl.ResizeBuffers Width=4 Height=4
expect hr == S_OK
fl.GetDesc
expect got == 4 4 R8G8B8A8_UNORM 2 FLIP_DISCARD TRUE
fb = fl.GetBuffer 0
frtv = dev.CreateRenderTargetView fb
imm.OMSetRenderTargets frtv
imm.ClearRenderTargetView frtv 0 0 1 1
fl.Present
frtv.Release
fb.Release
imm.ClearState
rtv2.Release
bb2.Release
sc.Release
fl.Release
imm.Flush
imm.Release
dev.Release
expect live == 0
expect violations == 0
`)
	var b strings.Builder
	for _, e := range r.Events() {
		if e.Kind == trace.Message && strings.HasPrefix(e.Msg, "DXGI ERROR: ") {
			b.WriteString(e.Msg + "\n")
		}
	}
	msgs := b.String()
	for _, want := range []string{
		"buffer 0 (sc.buffer0) is still referenced: 1 reference(s) of the application (GetBuffer's: Release them) and 1 of views",
		"buffer 0 (sc.buffer0) is still referenced: 0 reference(s) of the application (GetBuffer's: Release them) and 1 of views",
		"FLIP_DISCARD needs BufferCount 2..16 (DXGI flip model), not 1",
		"NewFormat R32_FLOAT: not a format the display scans out",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no debug message %q in\n%s", want, msgs)
		}
	}
	// The summary's messages carry DXGI's as they carry D3D11's.
	dxgi := 0
	for _, m := range r.Summary().Messages {
		if strings.Contains(m, ": DXGI ERROR: ") {
			dxgi++
		}
	}
	if dxgi != strings.Count(msgs, "\n") {
		t.Errorf("%d DXGI messages in the summary, %d in the trace: %q", dxgi, strings.Count(msgs, "\n"), r.Summary().Messages)
	}
}
