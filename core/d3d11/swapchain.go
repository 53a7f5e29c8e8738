package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
)

// CreateSwapChain creates a swap chain whose buffers are primary surfaces
// (R8G8B8A8_UNORM render targets the display engine can scan out).
func (d *Device) CreateSwapChain(name string, width, height, count uint32) (sc *SwapChain, err error) {
	done := d.api("CreateSwapChain", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if count == 0 || count > 16 {
		return nil, d.invalid("CreateSwapChain", name, "BufferCount %d is outside 1..16", count)
	}
	sc = &SwapChain{Width: width, Height: height}
	for i := uint32(0); i < count; i++ {
		bn := fmt.Sprintf("%s.buffer%d", name, i)
		r, err := d.createTexture2D("CreateSwapChain", bn, Texture2DDesc{Width: width, Height: height, Format: ddi.FormatR8G8B8A8Unorm,
			Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget | ddi.BindShaderResource}, nil, true)
		if err != nil {
			for _, b := range sc.Buffers {
				b.release()
			}
			return nil, err
		}
		sc.Buffers = append(sc.Buffers, r)
	}
	d.initChild(&sc.object, name, d.charge(ObjectOverhead), func() {
		for _, b := range sc.Buffers {
			b.release()
		}
	})
	return sc, nil
}

// SetFullscreenState switches the swap chain to full screen (or back): the
// runtime calls the driver's SetDisplayModeDXGI with its primary.
func (sc *SwapChain) SetFullscreenState(fullscreen bool) (err error) {
	d := sc.dev
	done := d.api("SetFullscreenState", sc.name, "IC")
	defer func() { done.end(err) }()
	if err := sc.checkAlive("SetFullscreenState"); err != nil {
		return err
	}
	if err := d.removedHR(); err != nil {
		return err
	}
	sc.Fullscreen = fullscreen
	if !fullscreen {
		return nil
	}
	src := sc.Buffers[0]
	return d.ddiIC().on(sc.name, handleName(uint32(src.h))).SetDisplayModeDXGI(d.hDev, src.h)
}

// GetBuffer returns buffer i with a new reference (IDXGISwapChain::GetBuffer).
func (sc *SwapChain) GetBuffer(i uint32) (*Resource, error) {
	d := sc.dev
	done := d.api("GetBuffer", sc.name, "")
	if err := sc.checkAlive("GetBuffer"); err != nil {
		done.end(err)
		return nil, err
	}
	if i >= uint32(len(sc.Buffers)) {
		err := d.invalid("GetBuffer", sc.name, "buffer %d does not exist (BufferCount %d)", i, len(sc.Buffers))
		done.end(err)
		return nil, err
	}
	b := sc.Buffers[i]
	b.AddRef()
	done.end(nil)
	return b, nil
}

// Present shows buffer 0: PresentDXGI, in which the driver calls
// pfnPresentCb ("WDDM operation flow").
func (sc *SwapChain) Present(syncInterval uint32) (err error) {
	d := sc.dev
	done := d.api("Present", sc.name, "IC")
	defer func() { done.end(err) }()
	if err := sc.checkAlive("Present"); err != nil {
		return err
	}
	if err := d.removedHR(); err != nil {
		return err
	}
	src := sc.Buffers[0]
	err = d.ddiIC().on(sc.name, handleName(uint32(src.h))).PresentDXGI(d.hDev, src.h, syncInterval)
	if err != nil {
		if e := d.removedHR(); e != nil {
			return e
		}
		return err
	}
	return nil
}
