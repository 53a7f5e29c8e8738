package dxgk

import (
	"fmt"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// The display: one video present source whose vertical blank comes every
// 1/RefreshHz seconds of virtual time, from time 0 ("IDXGISwapChain::Present
// method": for the bitblt model, SyncInterval 0 means "the presentation
// occurs immediately, there is no synchronization", 1 through 4
// "synchronize presentation after the nth vertical blank"). A present is
// queued from its submission until it is shown: at once when its DMA
// buffer is done for SyncInterval 0, at a vertical blank for 1..4, where
// Dxgkrnl flips the display to it with DxgkDdiSetVidPnSourceAddress. The
// frames a device has queued and not shown are what its maximum frame
// latency bounds ("IDXGIDevice1::SetMaximumFrameLatency method": "the
// maximum number of back buffer frames that a driver can queue").

// Defaults of the display and the frame queue.
const (
	DefaultRefreshHz       = 60 // vertical blanks per second
	DefaultMaxFrameLatency = 3  // DXGI's default
	MaxFrameLatency        = 16 // the most SetMaximumFrameLatency accepts
	MaxSyncInterval        = 4  // the most IDXGISwapChain::Present accepts
)

// frame is a present queued on a context and not shown yet.
type frame struct {
	seq    uint64 // the context's present number, from 1
	fence  uint64
	dma    uint64
	sync   uint32 // SyncInterval
	src    HAllocation
	vblank int64 // the vertical blank its flip is scheduled at (0: not yet)
}

// refreshHz is the display's refresh rate.
func (k *Dxgkrnl) refreshHz() int64 {
	if k.cfg.RefreshHz <= 0 {
		return DefaultRefreshHz
	}
	return int64(k.cfg.RefreshHz)
}

// VBlankTime is the virtual time of vertical blank n (vertical blank 0 is
// at time 0): derived from the refresh rate alone, so the same on every
// run.
func (k *Dxgkrnl) VBlankTime(n int64) int64 { return n * 1_000_000_000 / k.refreshHz() }

// vblankAt is the number of the last vertical blank at or before t.
func (k *Dxgkrnl) vblankAt(t int64) int64 {
	n := t * k.refreshHz() / 1_000_000_000
	for k.VBlankTime(n+1) <= t {
		n++
	}
	for n > 0 && k.VBlankTime(n) > t {
		n--
	}
	return n
}

// latencyLocked is the maximum frame latency of d.
func (d *device) latencyLocked() int {
	if d.maxLatency == 0 {
		return DefaultMaxFrameLatency
	}
	return d.maxLatency
}

// SetMaximumFrameLatency sets how many frames the device may have queued
// and not shown before its next present waits: 1..16, 0 for the default
// (3).
func (k *Dxgkrnl) SetMaximumFrameLatency(dev HDevice, n int) error {
	if n < 0 || n > MaxFrameLatency {
		return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "SetMaximumFrameLatency: %d is outside 0..%d", n, MaxFrameLatency)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	d := k.devices[dev]
	if d == nil || d.destroyed {
		return errorf(dxgkddi.STATUS_INVALID_HANDLE, "SetMaximumFrameLatency: %v is not a device", dev)
	}
	d.maxLatency = n
	return nil
}

// MaximumFrameLatency is the device's maximum frame latency (3 unless set).
func (k *Dxgkrnl) MaximumFrameLatency(dev HDevice) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if d := k.devices[dev]; d != nil {
		return d.latencyLocked()
	}
	return DefaultMaxFrameLatency
}

// FrameQueueFull reports whether a present on ctx would wait now: its
// device has as many frames queued and not shown as its maximum frame
// latency (what DXGI_PRESENT_DO_NOT_WAIT tests).
func (k *Dxgkrnl) FrameQueueFull(ctx HContext) bool {
	k.mu.Lock()
	c := k.contexts[ctx]
	k.mu.Unlock()
	if c == nil {
		return false
	}
	k.advance(c)
	k.mu.Lock()
	defer k.mu.Unlock()
	return !c.dev.removed && len(c.presents) >= c.dev.latencyLocked()
}

// advance shows what can be shown of c's queue now and schedules the flip
// of the frame that waits for a vertical blank.
func (k *Dxgkrnl) advance(c *context) {
	k.mu.Lock()
	f := k.advanceLocked(c)
	k.mu.Unlock()
	if f.seq != 0 {
		k.s.Schedule(k.VBlankTime(f.vblank), "kernel", func() { k.flip(c, f.seq) })
	}
}

// advanceLocked takes the frames at the head of c's queue whose DMA buffer
// is done and that need no vertical blank (SyncInterval 0) off the queue:
// they are shown. It returns the first frame that needs a vertical blank,
// its flip's blank chosen, if that flip is to be scheduled now (else the
// zero frame). Frames are shown in the order they were presented; each
// one with SyncInterval n is shown at least n blanks after the context's
// frame before it and at the nth blank after its buffer is done. Each
// context keeps its own pace: two devices presenting at once are both
// shown at the next blank, as windows composed on one display are. A
// removed device's frames are dropped. The caller holds mu.
func (k *Dxgkrnl) advanceLocked(c *context) frame {
	for len(c.presents) > 0 {
		f := &c.presents[0]
		switch {
		case c.dev.removed:
			c.shown = c.presents[len(c.presents)-1].seq
			c.presents = nil
			return frame{}
		case f.fence > c.completed || f.vblank != 0:
			return frame{}
		case f.sync == 0:
			c.shown = f.seq
			c.presents = c.presents[1:]
			continue
		}
		f.vblank = max(k.vblankAt(k.s.Now())+int64(f.sync), c.lastFlip+int64(f.sync))
		c.lastFlip = f.vblank
		return *f
	}
	return frame{}
}

// flip shows frame seq of c at its vertical blank: DxgkDdiSetVidPnSourceAddress
// on "kernel", then the frames behind it.
func (k *Dxgkrnl) flip(c *context, seq uint64) {
	k.mu.Lock()
	if len(c.presents) == 0 || c.presents[0].seq != seq {
		k.mu.Unlock()
		return // dropped: the device was removed
	}
	f := c.presents[0]
	k.mu.Unlock()
	at := k.VBlankTime(f.vblank)
	args := dxgkddi.SetVidPnSourceAddressArgs{PrimaryAllocation: f.src, Context: c.h, VBlank: f.vblank}
	var ab trace.ArgBuilder
	ev := trace.Event{Handle: c.h.String(), Fence: f.fence, DMA: f.dma,
		Args: ab.Int(trace.KeyVBlank, f.vblank).Int(trace.KeySyncInterval, int64(f.sync)).Args(),
		Msg: fmt.Sprintf("flip to %v at vertical blank %d (%d.%03d ms, %d Hz), SyncInterval %d",
			f.src, f.vblank, at/1_000_000, at/1000%1000, k.refreshHz(), f.sync)}
	err := k.ddi("DxgkDdiSetVidPnSourceAddress", ev, func() error { return k.drv.DxgkDdiSetVidPnSourceAddress(&args) })
	_ = err // a failed flip still ends the frame's wait: the display keeps the old frame
	k.mu.Lock()
	if len(c.presents) > 0 && c.presents[0].seq == seq {
		c.presents = c.presents[1:]
		c.shown = seq
	}
	k.wakeAt = max(k.wakeAt, k.s.Now())
	k.mu.Unlock()
	k.advance(c)
}

// waitShown blocks the calling thread until frame seq of c is shown: a
// present that found the frame queue full waits for a vertical blank.
func (k *Dxgkrnl) waitShown(c *context, f frame, why string) error {
	ev := trace.Event{Handle: c.h.String(), Fence: f.fence, DMA: f.dma,
		Msg: fmt.Sprintf("the present of fence %d of %v (SyncInterval %d) to be shown at a vertical blank%s", f.fence, c.h, f.sync, why)}
	k.event(trace.Wait, "WaitForVerticalBlank", ev)
	err := k.waitUntil(func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return c.shown >= f.seq || c.dev.removed
	}, 0)
	ev.Args = doneArgs
	if err != nil {
		ev.Msg, ev.HR = dxgkddi.Message(err), dxgkddi.StatusOf(err).Name()
	}
	k.event(trace.Wait, "WaitForVerticalBlank", ev)
	return err
}
