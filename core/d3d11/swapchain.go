package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
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

// PresentFlag is IDXGISwapChain::Present's Flags ("DXGI_PRESENT").
type PresentFlag uint32

// PresentDoNotWait is DXGI_PRESENT_DO_NOT_WAIT: when the frame queue is
// full, return DXGI_ERROR_WAS_STILL_DRAWING instead of waiting.
const PresentDoNotWait PresentFlag = 0x8

// Present shows buffer 0 with SyncInterval 0 and no flags.
func (sc *SwapChain) Present(syncInterval uint32) error { return sc.PresentFlags(syncInterval, 0) }

// PresentFlags is IDXGISwapChain::Present: PresentDXGI, in which the
// driver calls pfnPresentCb ("WDDM operation flow"). syncInterval 0 shows
// the frame as soon as the GPU has drawn it; 1 through 4 "synchronize
// presentation after the nth vertical blank" ("IDXGISwapChain::Present
// method"); a larger one is DXGI_ERROR_INVALID_CALL. When the device has
// as many frames queued and not shown as its maximum frame latency, the
// present waits for one to be shown, or with DXGI_PRESENT_DO_NOT_WAIT
// returns DXGI_ERROR_WAS_STILL_DRAWING without presenting.
func (sc *SwapChain) PresentFlags(syncInterval uint32, flags PresentFlag) (err error) {
	d := sc.dev
	done := d.api("Present", sc.name, "IC")
	if syncInterval != 0 || flags != 0 {
		var ab trace.ArgBuilder
		ab.Int(trace.KeySyncInterval, int64(syncInterval))
		if flags&PresentDoNotWait != 0 {
			ab.Str(trace.KeyFlags, "DO_NOT_WAIT")
		}
		done.ev.Args = ab.Args()
	}
	defer func() { done.end(err) }()
	if err := sc.checkAlive("Present"); err != nil {
		return err
	}
	if err := d.removedHR(); err != nil {
		return err
	}
	if syncInterval > dxgk.MaxSyncInterval {
		return d.invalidCall("Present", sc.name, "SyncInterval %d is outside 0..%d (IDXGISwapChain::Present)", syncInterval, dxgk.MaxSyncInterval)
	}
	if flags&^PresentDoNotWait != 0 {
		return d.invalidCall("Present", sc.name, "Flags 0x%x: the simulator knows DXGI_PRESENT_DO_NOT_WAIT (0x8) only", uint32(flags))
	}
	k, ok := d.displayKernel()
	if flags&PresentDoNotWait != 0 && ok && k.FrameQueueFull(d.kctx) {
		return hresult.Errorf(hresult.DXGI_ERROR_WAS_STILL_DRAWING, "Present(%s): DXGI_PRESENT_DO_NOT_WAIT and the device has %d frames queued, its maximum frame latency", sc.name, d.frameLatency())
	}
	src := sc.Buffers[0]
	d.presentSync.Store(syncInterval)
	err = d.ddiIC().on(sc.name, handleName(uint32(src.h))).PresentDXGI(d.hDev, src.h, syncInterval)
	d.presentSync.Store(0)
	if err != nil {
		if e := d.removedHR(); e != nil {
			return e
		}
		return err
	}
	return nil
}

// SetMaximumFrameLatency is IDXGIDevice1::SetMaximumFrameLatency: the most
// frames the device may have queued and not shown before Present waits;
// 0 restores the default (3), above 16 is DXGI_ERROR_INVALID_CALL
// ("IDXGIDevice1::SetMaximumFrameLatency method").
func (d *Device) SetMaximumFrameLatency(n uint32) (err error) {
	done := d.api("SetMaximumFrameLatency", d.name, "")
	done.ev.Args = trace.IntArg(trace.KeyLatency, int64(n))
	defer func() { done.end(err) }()
	if n > dxgk.MaxFrameLatency {
		return d.invalidCall("SetMaximumFrameLatency", d.name, "MaxLatency %d is outside 0..%d (0 is the default, %d)", n, dxgk.MaxFrameLatency, dxgk.DefaultMaxFrameLatency)
	}
	if k, ok := d.displayKernel(); ok {
		if err := k.SetMaximumFrameLatency(d.kdev, int(n)); err != nil {
			return kernelErr(err)
		}
	}
	d.maxLatency.Store(n)
	return nil
}

// GetMaximumFrameLatency is IDXGIDevice1::GetMaximumFrameLatency: the
// value in effect (3 unless set), also in the return event's latency.
func (d *Device) GetMaximumFrameLatency() uint32 {
	done := d.api("GetMaximumFrameLatency", d.name, "")
	n := d.frameLatency()
	done.ev.Args = trace.IntArg(trace.KeyLatency, int64(n))
	done.end(nil)
	return n
}

// frameLatency is the maximum frame latency in effect.
func (d *Device) frameLatency() uint32 {
	if n := d.maxLatency.Load(); n != 0 {
		return n
	}
	return dxgk.DefaultMaxFrameLatency
}

// invalidCall is DXGI_ERROR_INVALID_CALL with the debug layer's message
// (DXGI's own calls answer a bad argument with it, not E_INVALIDARG).
func (d *Device) invalidCall(call, obj, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if d.debug {
		d.message(call, obj, "DXGI ERROR: "+msg)
	}
	return hresult.Errorf(hresult.DXGI_ERROR_INVALID_CALL, "%s(%s): %s", call, obj, msg)
}
