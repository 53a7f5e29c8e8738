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

// ResizeBuffers is IDXGISwapChain::ResizeBuffers: new buffers of the
// given size (0 keeps the current one: the simulator's window is the swap
// chain's size), count (0 keeps it) and format (UNKNOWN keeps it; the
// formats CreateSwapChainFormat takes for the swap chain's model). "Before you call ResizeBuffers, ensure that
// the application releases all references ... on the resources, any views
// to the resource, and any command lists that use either the resources or
// views, and ensure that neither the resource nor a view is still bound to
// a device context": otherwise DXGI_ERROR_INVALID_CALL, naming the buffer
// and what holds it. The new buffers are made before the old ones go, so a
// failure leaves the swap chain as it was.
func (sc *SwapChain) ResizeBuffers(count, width, height uint32, format ddi.Format) (err error) {
	d := sc.dev
	done := d.api("ResizeBuffers", sc.name, "")
	defer func() { done.end(err) }()
	if err := sc.checkAlive("ResizeBuffers"); err != nil {
		return err
	}
	if err := d.removedHR(); err != nil {
		return err
	}
	if count == 0 {
		count = uint32(len(sc.Buffers))
	}
	if width == 0 {
		width = sc.Width
	}
	if height == 0 {
		height = sc.Height
	}
	switch {
	case format != ddi.FormatUnknown && swapChainFormat(format, sc.SwapEffect) != "":
		return d.invalidCall("ResizeBuffers", sc.name, "NewFormat %s: %s (UNKNOWN keeps the format)", FormatName(format), swapChainFormat(format, sc.SwapEffect))
	case sc.SwapEffect.Flip() && (count < 2 || count > 16):
		return d.invalidCall("ResizeBuffers", sc.name, "%v needs BufferCount 2..16 (DXGI flip model), not %d", sc.SwapEffect, count)
	case count > 16:
		return d.invalidCall("ResizeBuffers", sc.name, "BufferCount %d is outside 1..16", count)
	}
	for i, b := range sc.Buffers {
		if app, held := b.refs.Load()-1, b.pins.Load(); app > 0 || held > 0 {
			return d.invalidCall("ResizeBuffers", sc.name, "buffer %d (%s) is still referenced: %d reference(s) of the application (GetBuffer's: Release them) and %d of views, bindings or command lists (release the views, unbind them with OMSetRenderTargets or ClearState; a view released while bound goes at the next Flush)",
				i, b.name, app, held)
		}
	}
	if format == ddi.FormatUnknown {
		format = ddi.FormatR8G8B8A8Unorm
		if len(sc.Buffers) > 0 {
			format = sc.Buffers[0].Desc.Format
		}
	}
	var fresh []*Resource
	for i := uint32(0); i < count; i++ {
		r, err := d.createTexture2D("ResizeBuffers", fmt.Sprintf("%s.buffer%d", sc.name, i), Texture2DDesc{Width: width, Height: height,
			Format: format, Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget | ddi.BindShaderResource}, nil, true)
		if err != nil {
			for _, b := range fresh {
				b.release()
			}
			return err
		}
		fresh = append(fresh, r)
	}
	old := sc.Buffers
	sc.Buffers, sc.Width, sc.Height = fresh, width, height
	for _, b := range old {
		b.release()
	}
	if sc.Fullscreen {
		return d.ddiIC().on(sc.name, handleName(uint32(fresh[0].h))).SetDisplayModeDXGI(d.hDev, fresh[0].h)
	}
	return nil
}
