package scenario

import "testing"

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
