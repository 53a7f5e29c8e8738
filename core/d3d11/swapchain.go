package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// SwapEffect is DXGI_SWAP_EFFECT: the presentation model of a swap chain.
type SwapEffect uint32

// The swap effects ("DXGI_SWAP_EFFECT"). DISCARD and SEQUENTIAL are the
// bit-block transfer (bitblt) model: "contents of the back buffer get copied
// into the redirection surface on each call" to Present. FLIP_SEQUENTIAL
// and FLIP_DISCARD are the flip model: "all back buffers are shared with the
// DWM", nothing is copied.
const (
	SwapEffectDiscard        SwapEffect = 0
	SwapEffectSequential     SwapEffect = 1
	SwapEffectFlipSequential SwapEffect = 3
	SwapEffectFlipDiscard    SwapEffect = 4
)

// Flip reports whether the effect is the flip model.
func (e SwapEffect) Flip() bool { return e == SwapEffectFlipSequential || e == SwapEffectFlipDiscard }

func (e SwapEffect) String() string {
	switch e {
	case SwapEffectDiscard:
		return "DXGI_SWAP_EFFECT_DISCARD"
	case SwapEffectSequential:
		return "DXGI_SWAP_EFFECT_SEQUENTIAL"
	case SwapEffectFlipSequential:
		return "DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL"
	case SwapEffectFlipDiscard:
		return "DXGI_SWAP_EFFECT_FLIP_DISCARD"
	}
	return fmt.Sprintf("DXGI_SWAP_EFFECT(%d)", uint32(e))
}

// CreateSwapChain creates a bitblt-model swap chain
// (DXGI_SWAP_EFFECT_DISCARD, what a zeroed DXGI_SWAP_CHAIN_DESC asks for):
// see CreateSwapChainEffect.
func (d *Device) CreateSwapChain(name string, width, height, count uint32) (sc *SwapChain, err error) {
	return d.CreateSwapChainEffect(name, width, height, count, SwapEffectDiscard)
}

// CreateSwapChainEffect creates a swap chain of R8G8B8A8_UNORM buffers
// with the given presentation model: see CreateSwapChainFormat.
func (d *Device) CreateSwapChainEffect(name string, width, height, count uint32, effect SwapEffect) (sc *SwapChain, err error) {
	return d.CreateSwapChainFormat(name, width, height, count, effect, ddi.FormatR8G8B8A8Unorm)
}

// CreateSwapChainFormat creates a swap chain whose buffers are primary
// surfaces (render targets the display engine can scan out) of the given
// format, with the given presentation model. A flip-model swap chain needs
// 2 to 16 buffers ("DXGI flip model": "BufferCount to a value between 2
// and 16") of R16G16B16A16_FLOAT, B8G8R8A8_UNORM, R8G8B8A8_UNORM or
// R10G10B10A2_UNORM ("DXGI_SWAP_CHAIN_DESC1"); a bitblt-model one may also
// have R8G8B8A8_UNORM_SRGB or B8G8R8A8_UNORM_SRGB buffers.
func (d *Device) CreateSwapChainFormat(name string, width, height, count uint32, effect SwapEffect, format ddi.Format) (sc *SwapChain, err error) {
	done := d.api("CreateSwapChain", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	switch {
	case effect != SwapEffectDiscard && effect != SwapEffectSequential && !effect.Flip():
		return nil, d.invalidCall("CreateSwapChain", name, "SwapEffect %d is none of DXGI_SWAP_EFFECT's", uint32(effect))
	case effect.Flip() && (count < 2 || count > 16):
		return nil, d.invalidCall("CreateSwapChain", name, "%v needs BufferCount 2..16 (DXGI flip model), not %d", effect, count)
	}
	if why := swapChainFormat(format, effect); why != "" {
		return nil, d.invalidCall("CreateSwapChain", name, "Format %s: %s", FormatName(format), why)
	}
	if count == 0 || count > 16 {
		return nil, d.invalid("CreateSwapChain", name, "BufferCount %d is outside 1..16", count)
	}
	sc = &SwapChain{Width: width, Height: height, SwapEffect: effect}
	for i := uint32(0); i < count; i++ {
		bn := fmt.Sprintf("%s.buffer%d", name, i)
		r, err := d.createTexture2D("CreateSwapChain", bn, Texture2DDesc{Width: width, Height: height, Format: format,
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

// swapChainFormat says why format cannot be a swap chain's with effect
// ("" when it can).
func swapChainFormat(format ddi.Format, effect SwapEffect) string {
	switch format {
	case ddi.FormatR8G8B8A8Unorm, ddi.FormatB8G8R8A8Unorm, ddi.FormatR10G10B10A2Unorm, ddi.FormatR16G16B16A16Float:
		return ""
	case ddi.FormatR8G8B8A8UnormSRGB, ddi.FormatB8G8R8A8UnormSRGB:
		if effect.Flip() {
			return "a flip-model swap chain's buffers are R16G16B16A16_FLOAT, B8G8R8A8_UNORM, R8G8B8A8_UNORM or R10G10B10A2_UNORM (DXGI_SWAP_CHAIN_DESC1); _SRGB is for the bitblt model (DISCARD, SEQUENTIAL)"
		}
		return ""
	}
	return "not a format the display scans out: a swap chain's buffers are R8G8B8A8_UNORM, B8G8R8A8_UNORM, R10G10B10A2_UNORM, R16G16B16A16_FLOAT, or (bitblt model) R8G8B8A8_UNORM_SRGB, B8G8R8A8_UNORM_SRGB"
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

// PresentFlags is IDXGISwapChain::Present: the driver's PresentDXGI,
// which submits the frame's command buffer with pfnRenderCb and then asks
// for the present with pfnPresentCb ("DXGI_DDI_BASE_FUNCTIONS"). What
// SyncInterval means depends on the model ("IDXGISwapChain::Present
// method"): for the bitblt model 0 is "the presentation occurs immediately,
// there is no synchronization" and 1 through 4 "synchronize presentation
// after the nth vertical blank"; for the flip model 0 is "cancel the
// remaining time on the previously presented frame" and 1 through 4
// "synchronize presentation for at least n vertical blanks". A larger one is
// DXGI_ERROR_INVALID_CALL. When the device has as many frames queued and not
// shown as its maximum frame latency, the present waits for one to be
// shown, or with DXGI_PRESENT_DO_NOT_WAIT returns
// DXGI_ERROR_WAS_STILL_DRAWING without presenting.
//
// After a flip-model present the runtime rotates the buffers' identities
// (RotateResourceIdentitiesDXGI), so buffer 0 is again the back buffer,
// and "a successful presentation unbinds back buffer 0 from the graphics
// pipeline": the application binds it again for its next frame.
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
	arg := ddi.PresentArg{SurfaceToPresent: src.h, Flags: ddi.PresentFlags{Blt: !sc.SwapEffect.Flip(), Flip: sc.SwapEffect.Flip()}, FlipInterval: syncInterval}
	var ab trace.ArgBuilder
	ab.Str(trace.KeyFlags, arg.Flags.String()).Int(trace.KeySyncInterval, int64(syncInterval))
	d.presentSync.Store(syncInterval)
	err = d.ddiIC().with(sc.name, handleName(uint32(src.h)), ab.Args()).PresentDXGI(d.hDev, &arg)
	d.presentSync.Store(0)
	if err != nil {
		if e := d.removedHR(); e != nil {
			return e
		}
		return err
	}
	if sc.SwapEffect.Flip() {
		sc.rotate()
	}
	return nil
}

// rotate is the runtime's part of a flip-model present: the driver swaps
// the buffers' allocations so buffer 0 is the next back buffer
// (RotateResourceIdentitiesDXGI), and buffer 0 is unbound from the
// pipeline ("IDXGISwapChain::Present method": "a successful presentation
// unbinds back buffer 0 from the graphics pipeline").
func (sc *SwapChain) rotate() {
	d := sc.dev
	hs := make([]ddi.HRESOURCE, len(sc.Buffers))
	for i, b := range sc.Buffers {
		hs[i] = b.h
	}
	d.ddiIC().on(sc.name, "").RotateResourceIdentitiesDXGI(d.hDev, hs)
	// The runtime's own record of each buffer's allocations rotates the
	// same way (buffer i takes buffer i+1's, the last the first's), so
	// what it reads back for buffer 0 is the buffer 0 of now.
	if len(sc.Buffers) > 1 {
		d.mu.Lock()
		first := d.allocs[sc.Buffers[0].rth]
		for i, b := range sc.Buffers {
			if i+1 < len(sc.Buffers) {
				d.allocs[b.rth] = d.allocs[sc.Buffers[i+1].rth]
			} else {
				d.allocs[b.rth] = first
			}
		}
		d.mu.Unlock()
	}
	d.imm.unbindResource(sc.Buffers[0])
}

// SetMaximumFrameLatency is IDXGIDevice1::SetMaximumFrameLatency: the most
// frames the device may have queued and not shown before Present waits;
// 0 restores the default (3), above 16 is DXGI_ERROR_INVALID_CALL; on a
// removed device it "Returns ... DXGI_ERROR_DEVICE_REMOVED if the device
// was removed" and changes nothing ("IDXGIDevice1::SetMaximumFrameLatency
// method").
func (d *Device) SetMaximumFrameLatency(n uint32) (err error) {
	done := d.api("SetMaximumFrameLatency", d.name, "")
	done.ev.Args = trace.IntArg(trace.KeyLatency, int64(n))
	defer func() { done.end(err) }()
	if n > dxgk.MaxFrameLatency {
		return d.invalidCall("SetMaximumFrameLatency", d.name, "MaxLatency %d is outside 0..%d (0 is the default, %d)", n, dxgk.MaxFrameLatency, dxgk.DefaultMaxFrameLatency)
	}
	if err := d.removedHR(); err != nil {
		return err
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

// unbindResource unbinds every view of r from the context's output merger
// and every stage's shader-resource slots, with the runtime's own calls
// (runtimeCalls).
func (c *DeviceContext) unbindResource(r *Resource) {
	defer c.runtimeCalls()()
	rtvs, changed := c.renderTargets(), false
	for i, v := range rtvs {
		if v != nil && v.Res == r {
			rtvs[i], changed = nil, true
		}
	}
	if changed {
		c.OMSetRenderTargets(rtvs, c.dsv)
	}
	for st := range c.stages {
		for i, v := range c.stages[st].srv {
			if v != nil && v.Res == r {
				c.SetShaderResources(Stage(st), uint32(i), []*View{nil})
			}
		}
	}
}
