package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// SwapChainDesc is what IDXGISwapChain::GetDesc reports of a swap chain
// ("DXGI_SWAP_CHAIN_DESC"): its buffers' size and format, their count and
// the presentation model.
type SwapChainDesc struct {
	Width, Height uint32
	Format        ddi.Format
	BufferCount   uint32
	SwapEffect    SwapEffect
	Windowed      bool
}

// GetDesc is IDXGISwapChain::GetDesc; its event's bound= lists the
// members.
func (sc *SwapChain) GetDesc() (desc SwapChainDesc, err error) {
	d := sc.dev
	done := d.api("GetDesc", sc.name, "")
	defer func() { done.end(err) }()
	if err := sc.checkAlive("GetDesc"); err != nil {
		return desc, err
	}
	desc = SwapChainDesc{Width: sc.Width, Height: sc.Height, Format: ddi.FormatR8G8B8A8Unorm, BufferCount: uint32(len(sc.Buffers)),
		SwapEffect: sc.SwapEffect, Windowed: !sc.Fullscreen}
	if len(sc.Buffers) > 0 {
		desc.Format = sc.Buffers[0].Desc.Format
	}
	done.ev.Args = strArg(trace.KeyBound, fmt.Sprintf("%dx%d %s BufferCount=%d %s Windowed=%v", desc.Width, desc.Height,
		FormatName(desc.Format), desc.BufferCount, EnumName("SwapEffect", uint32(desc.SwapEffect)), desc.Windowed))
	return desc, nil
}
