package dxgk

import (
	"fmt"

	"d3dsim/core/dxgkddi"
)

// Present is the kernel's half of pfnPresentCb. PresentDXGI has already
// submitted the frame's draws with pfnRenderCb ("DXGI_DDI_BASE_FUNCTIONS":
// "The driver must submit all partially built render data (command
// buffers) using the pfnRenderCb function. Thereafter, the driver must
// translate the resource handle parameters into kernel handles and use
// those kernel handles in a call to pfnPresentCbDXGI"); what arrives here
// names only a source, a destination and how to present ("DXGIDDICB_PRESENT").
// The KMD's DxgkDdiPresent writes the present's commands itself: "the
// user-mode display driver cannot compile hardware instructions for the
// display miniport driver's DxgkDdiPresent function in advance"
// ("DXGKDDI_PRESENT").
//
// Two presentation models ("DXGI_SWAP_EFFECT"):
//
//   - Blt, the bitblt model (DXGI_SWAP_EFFECT_DISCARD, the default of a
//     DXGI_SWAP_CHAIN_DESC): "contents of the back buffer get copied into
//     the redirection surface on each call" to Present. Dst 0 is what
//     D3D11 passes for a window ("hDstAllocation can be zero if the
//     destination is unknown; kernel mode will determine the destination"):
//     Dxgkrnl picks the device's redirection surface for the source's size
//     (made at the first such present, with DxgkDdiCreateAllocation). The
//     desktop compositor that reads it is not simulated: the display shows
//     the redirection surface as the copy leaves it. The copy is a DMA
//     buffer on the context, with a fence of its own.
//   - Flip, the flip model (DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL and
//     FLIP_DISCARD): no copy; the display's scan-out is pointed at the back
//     buffer. The simulated driver flips by MMIO (FlipOnVSyncMmIo), so
//     DxgkDdiPresent builds no DMA buffer and Dxgkrnl runs the flip with
//     DxgkDdiSetVidPnSourceAddress once the context's work before it is
//     done (display.go). This is what full screen and the compositor's
//     independent flip do; a windowed flip-model swap chain the compositor
//     composes is read by the compositor instead, which is not simulated.
//
// It returns the fence of the copy's DMA buffer (0 for a flip).
func (k *Dxgkrnl) Present(p PresentInfo) (fence uint64, err error) {
	if p.SyncInterval > MaxSyncInterval {
		return 0, errorf(dxgkddi.STATUS_INVALID_PARAMETER, "Present on %v: SyncInterval %d is outside 0..%d", p.Context, p.SyncInterval, MaxSyncInterval)
	}
	if p.Flip && p.Dst != 0 {
		return 0, errorf(dxgkddi.STATUS_INVALID_PARAMETER, "Present on %v: a flip has no destination (it points the scan-out at the source)", p.Context)
	}
	req := &presentReq{src: p.Src, dst: p.Dst, sync: p.SyncInterval, flags: dxgkddi.PresentFlags{Blt: !p.Flip, Flip: p.Flip}}
	k.mu.Lock()
	c := k.contexts[p.Context]
	src := k.allocLocked(p.Src)
	k.mu.Unlock()
	if c != nil && src != nil && !src.destroyed && !p.Flip && p.Dst == 0 {
		dst, err := k.redirectionSurface(c.dev, src)
		if err != nil {
			return 0, err
		}
		req.dst, req.picked = dst, true
	}
	list := []AllocationListEntry{{}, {Allocation: req.src}, {Allocation: req.dst, Write: true}}
	return k.submit(p.Context, nil, list, req, nil)
}

// PresentInfo is what pfnPresentCb hands the kernel (D3DDDICB_PRESENT's
// source, destination and context, and D3DKMT_PRESENT's FlipInterval,
// which the runtime has from IDXGISwapChain::Present's SyncInterval).
type PresentInfo struct {
	Context      HContext
	Src          HAllocation
	Dst          HAllocation // 0: the kernel picks (bitblt); always 0 for a flip
	Flip         bool        // the flip model; else bitblt
	SyncInterval uint32
}

// presentReq is a present on its way through submit.
type presentReq struct {
	src, dst HAllocation
	picked   bool // dst is the redirection surface Dxgkrnl picked
	sync     uint32
	flags    dxgkddi.PresentFlags
}

// describe is the DxgkDdiPresent event's message.
func (p *presentReq) describe() string {
	if p.flags.Flip {
		return fmt.Sprintf("Flip: point the scan-out at %v (SyncInterval %d)", p.src, p.sync)
	}
	dst := p.dst.String()
	if p.picked {
		dst += ", the redirection surface Dxgkrnl picked"
	}
	return fmt.Sprintf("Blt: copy %v into %v (SyncInterval %d)", p.src, dst, p.sync)
}

// frame is the queue entry of the present: dma is its copy's DMA buffer,
// or for a flip the context's last DMA buffer before it (lastDMA), whose
// completion the flip waits for.
func (p *presentReq) frame(seq, fence, dma, lastDMA uint64, flip bool) frame {
	f := frame{seq: seq, fence: fence, sync: p.sync, src: p.src, flip: flip, dma: dma}
	if flip {
		f.dma = lastDMA
	}
	return f
}

// redirectionSurface is the redirection surface of src's window: the
// destination Dxgkrnl picks for a bitblt present of src, made at the first
// one (DxgkDdiCreateAllocation) with src's size and format, and destroyed
// with src (a swap chain's window goes with its swap chain). It is an
// allocation of src's device, so the device's DMA buffers may name it (rule
// WDDM-ISOLATE).
func (k *Dxgkrnl) redirectionSurface(d *device, src *allocation) (HAllocation, error) {
	k.mu.Lock()
	if src.redirect != 0 {
		h := src.redirect
		k.mu.Unlock()
		return h, nil
	}
	size, key := src.size, src.surface
	k.mu.Unlock()
	h, err := k.CreateAllocation(d.h, AllocationDesc{Size: size, Surface: key,
		Obj: fmt.Sprintf("redirection surface %dx%d", key.Width, key.Height)})
	if err != nil {
		return 0, err
	}
	k.mu.Lock()
	src.redirect = h
	k.mu.Unlock()
	return h, nil
}

// bltVBlankLocked is the vertical blank a bitblt present's copy waits for:
// with SyncInterval n, "after the nth vertical blank" from now, and at least
// n blanks after the context's previous present that waited for one; 0 for
// SyncInterval 0. The frame (the newest of c's queue) records it. The
// caller holds mu.
func (k *Dxgkrnl) bltVBlankLocked(c *context, p *presentReq) int64 {
	if p.sync == 0 || len(c.presents) == 0 {
		return 0
	}
	n := int64(p.sync)
	v := max(k.vblankAt(k.s.Now())+n, c.lastFlip+n)
	c.lastFlip = v
	c.presents[len(c.presents)-1].vblank = v
	return v
}

// msTime is virtual time t in milliseconds with three decimals.
func msTime(t int64) string { return fmt.Sprintf("%d.%03d ms", t/1_000_000, t/1000%1000) }

// queueFlip schedules the flip of a present without a DMA buffer, if the
// work before it is done already.
func (k *Dxgkrnl) queueFlip(c *context) { k.advance(c) }

// vblankHeldLocked is whether a queued bitblt copy waits for its vertical
// blank: until the driver reports it (DXGK_INTERRUPT_CRTC_VSYNC, display.go).
func (k *Dxgkrnl) vblankHeldLocked(b *dmaBuffer) bool {
	return b.waitVBlank > k.vsyncSeen && !b.dev.removed
}

// scanoutHeldLocked is whether a queued DMA buffer writes a buffer the
// display is about to show or shows while a flip away from it is queued: it
// waits for that flip, so what is shown is the frame that was presented.
// (Windows' scheduler keeps rendering off a flip-model swap chain's queued
// and scanned-out buffers the same way; the application sees only that its
// next frame's work starts later.)
func (k *Dxgkrnl) scanoutHeldLocked(b *dmaBuffer) bool {
	if b.ctx == nil || b.dev.removed {
		return false
	}
	for i, a := range b.entries {
		if a == nil || !b.list[i].WriteOperation {
			continue
		}
		for _, d := range k.devices {
			for _, c := range d.contexts {
				for j, f := range c.presents {
					if !f.flip {
						continue
					}
					// Queued for a flip, or on screen with a flip away queued.
					if f.src == a.h && (c != b.ctx || f.fence < b.fence) || j == 0 && k.scanout == a.h && f.src != a.h {
						return true
					}
				}
			}
		}
	}
	return false
}
