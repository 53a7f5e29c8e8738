package dxgk

import (
	"cmp"
	"fmt"
	"slices"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// The display: one video present source whose vertical blank comes every
// 1/RefreshHz seconds of virtual time, from time 0. A present is queued from
// its submission until it is shown; the frames a device has queued and not
// shown are what its maximum frame latency bounds ("IDXGIDevice1::
// SetMaximumFrameLatency method": "the maximum number of back buffer frames
// that a driver can queue"). When a frame is shown depends on the
// presentation model ("IDXGISwapChain::Present method", SyncInterval):
//
//   - bitblt (DxgkDdiPresent with Blt: a DMA buffer that copies the back
//     buffer into the window's redirection surface, present.go): 0 means
//     "the presentation occurs immediately, there is no synchronization",
//     the frame is shown when its copy is done; 1 through 4 "synchronize
//     presentation after the nth vertical blank": the copy waits in the
//     scheduler for that blank, then the frame is shown when it is done.
//   - flip (DxgkDdiPresent with Flip, no DMA buffer: a MMIO flip): the frame
//     is shown when Dxgkrnl points the scan-out at the back buffer with
//     DxgkDdiSetVidPnSourceAddress, once the context's work before the
//     present is done: at once for SyncInterval 0, at a vertical blank for
//     1..4, each frame "for at least n vertical blanks".

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
	fence  uint64 // bitblt: the fence of its copy; flip: the context's last fence before it
	dma    uint64 // bitblt: the copy's DMA buffer; flip: the context's last DMA buffer before it
	sync   uint32 // SyncInterval
	src    HAllocation
	flip   bool
	vblank int64 // the vertical blank it waits for (0: none yet)
	// flip: its DxgkDdiSetVidPnSourceAddress is scheduled or done
	programmed bool
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

// advance shows what can be shown of c's queue now and programs the flip
// of the frame whose vertical blank is next.
func (k *Dxgkrnl) advance(c *context) {
	k.mu.Lock()
	f := k.advanceLocked(c)
	k.mu.Unlock()
	k.updateVSync() // the interrupt goes on before the flip is programmed
	if f.seq != 0 {
		k.s.Schedule(k.s.Now(), "kernel", func() { k.flip(c, f.seq) })
	}
}

// advanceLocked takes the frames at the head of c's queue that are shown
// now off it, and returns the flip to program, if any (else the zero
// frame). A bitblt frame is shown when its copy is done (the copy waited for
// its vertical blank, if it had one). A flip frame is ready once the
// context's work before it is done: with SyncInterval 0 it is flipped at
// once (FlipImmediate); with n it is due at the nth vertical blank after
// that and at least n blanks after the context's flip before it, and its
// flip is programmed after the blank before the due one, to be latched at
// the due one ("DXGKDDI_SETVIDPNSOURCEADDRESS": the driver "must program
// the DAC and start scanning out, at the following vertical sync, the
// primary surface"). The simulated display has one scan-out: when two
// contexts' flips are latched at one blank, the later programmed is the one
// on screen, and both frames count as shown. Frames are shown in the order
// they were presented. Each context keeps its own pace. A removed device's frames
// are dropped. The caller holds mu.
func (k *Dxgkrnl) advanceLocked(c *context) frame {
	for len(c.presents) > 0 {
		f := &c.presents[0]
		switch {
		case c.dev.removed:
			c.shown = c.presents[len(c.presents)-1].seq
			c.presents = nil
			return frame{}
		case f.fence > c.completed || f.programmed:
			return frame{}
		case !f.flip:
			c.shown = f.seq
			c.presents = c.presents[1:]
			continue
		}
		now := k.s.Now()
		if f.sync != 0 && f.vblank == 0 {
			f.vblank = max(k.vblankAt(now)+int64(f.sync), c.lastFlip+int64(f.sync))
			c.lastFlip = f.vblank
		}
		cur := k.vblankPassedLocked()
		if f.sync != 0 && cur < f.vblank-1 {
			return frame{} // the blank before f's is to come
		}
		f.programmed = true
		if f.sync != 0 {
			c.flipping = &pendingFlip{seq: f.seq, src: f.src, after: cur}
		}
		return *f
	}
	return frame{}
}

// vblankPassedLocked is the last vertical blank that has surely come: the
// last the driver reported, or the last before now by the clock (a blank
// due at this very instant may not have been latched yet). The caller
// holds mu.
func (k *Dxgkrnl) vblankPassedLocked() int64 {
	now := k.s.Now()
	cur := k.vblankAt(now)
	if cur > 0 && k.VBlankTime(cur) == now {
		cur--
	}
	return max(cur, k.vsyncSeen)
}

// pendingFlip is a flip of a context programmed to be latched at a
// vertical blank after blank after: its frame seq, showing src at address
// addr.
type pendingFlip struct {
	seq   uint64
	src   HAllocation
	addr  uint64
	after int64
}

// vsyncReport is a DXGK_INTERRUPT_CRTC_VSYNC the ISR reported: the blank
// and the address it scanned out.
type vsyncReport struct {
	vblank int64
	addr   uint64
}

// flip programs the flip of frame seq of c: DxgkDdiSetVidPnSourceAddress
// on "kernel". With SyncInterval 0 (FlipImmediate) the display shows the
// frame's buffer at once; otherwise from the next vertical blank on, and
// the frame is shown when the driver reports that blank (vsyncDpc).
func (k *Dxgkrnl) flip(c *context, seq uint64) {
	k.mu.Lock()
	if len(c.presents) == 0 || c.presents[0].seq != seq {
		c.flipping = nil
		k.mu.Unlock()
		return // dropped: the device was removed
	}
	f := c.presents[0]
	args := dxgkddi.SetVidPnSourceAddressArgs{PrimaryAllocation: f.src, Context: c.h, VBlank: f.vblank, FlipImmediate: f.sync == 0}
	if a := k.allocLocked(f.src); a != nil {
		args.PrimarySegment, args.PrimaryAddress = a.location()
	}
	if c.flipping != nil && c.flipping.seq == seq {
		c.flipping.addr = args.PrimaryAddress
	}
	k.mu.Unlock()
	var ab trace.ArgBuilder
	ev := trace.Event{Handle: c.h.String(), Fence: f.fence, DMA: f.dma, Args: ab.Int(trace.KeyVBlank, f.vblank).Int(trace.KeySyncInterval, int64(f.sync)).Args()}
	if f.sync == 0 {
		ev.Msg = fmt.Sprintf("flip to %v now (SyncInterval 0, FlipImmediate: no vertical blank to wait for)", f.src)
	} else {
		at := k.VBlankTime(f.vblank)
		ev.Msg = fmt.Sprintf("flip to %v at vertical blank %d (%d.%03d ms, %d Hz), SyncInterval %d: the display latches the new address at the next blank",
			f.src, f.vblank, at/1_000_000, at/1000%1000, k.refreshHz(), f.sync)
	}
	err := k.ddi("DxgkDdiSetVidPnSourceAddress", ev, func() error { return k.drv.DxgkDdiSetVidPnSourceAddress(&args) })
	k.mu.Lock()
	done := err != nil || f.sync == 0 // a failed flip still ends the frame's wait: the display keeps the old frame
	if err == nil && f.sync == 0 {
		k.scanout = f.src
	}
	if done {
		c.flipping = nil
		if len(c.presents) > 0 && c.presents[0].seq == seq {
			c.presents = c.presents[1:]
			c.shown = seq
		}
		k.wakeAt = max(k.wakeAt, k.s.Now())
	}
	kick := done && len(k.schedQ) > 0 // a buffer that writes the old scan-out may wait for this flip
	k.mu.Unlock()
	if done {
		k.advanceAll()
	}
	if kick {
		k.s.Schedule(k.s.Now(), "kernel", k.kick)
	}
}

// advanceAll advances every context's frames: the display's scan-out was
// freed, or a vertical blank came.
func (k *Dxgkrnl) advanceAll() {
	k.mu.Lock()
	cs := k.presentingLocked()
	k.mu.Unlock()
	for _, c := range cs {
		k.advance(c)
	}
	k.updateVSync()
}

// vsyncDpc processes, at DPC time (DxgkCbNotifyDpc), the vertical blank the
// ISR reported: copies that waited for it are released to the scheduler, a
// flip latched at it is done (its frame is shown), and the next flip due is
// programmed.
func (k *Dxgkrnl) vsyncDpc() {
	k.mu.Lock()
	r := k.vsyncNew
	k.vsyncNew = nil
	if r == nil {
		k.mu.Unlock()
		return
	}
	k.vsyncSeen = max(k.vsyncSeen, r.vblank)
	type done struct {
		c  *context
		fl *pendingFlip
		f  frame
	}
	var shown []done
	for _, c := range k.presentingLocked() {
		fl := c.flipping
		if fl == nil || r.vblank <= fl.after {
			continue
		}
		c.flipping = nil
		if c.presents[0].seq == fl.seq {
			shown = append(shown, done{c, fl, c.presents[0]})
			c.presents = c.presents[1:]
			c.shown = fl.seq
			c.lastFlip = max(c.lastFlip, r.vblank)
			k.scanout = fl.src
		}
	}
	for _, d := range shown {
		if d.fl.addr == r.addr {
			k.scanout = d.fl.src
		}
	}
	k.wakeAt = max(k.wakeAt, k.s.Now())
	kick := len(k.schedQ) > 0 // a copy may wait for this blank, or a buffer for this flip
	k.mu.Unlock()
	for _, d := range shown {
		var ab trace.ArgBuilder
		msg := fmt.Sprintf("vertical blank %d scanned out %v: the flip of %v's present is done, its frame is on screen", r.vblank, d.fl.src, d.c.h)
		if d.fl.addr != r.addr {
			msg = fmt.Sprintf("vertical blank %d latched the flip to %v of %v, and a later flip replaced it on the one scan-out: its frame counts as shown", r.vblank, d.fl.src, d.c.h)
		}
		k.event(trace.Message, "FlipDone", trace.Event{Handle: d.c.h.String(), Fence: d.f.fence, DMA: d.f.dma,
			Args: ab.Int(trace.KeyVBlank, r.vblank).Int(trace.KeySyncInterval, int64(d.f.sync)).Args(), Msg: msg})
	}
	k.advanceAll()
	if kick {
		k.s.Schedule(k.s.Now(), "kernel", k.kick)
	}
}

// updateVSync turns the display's vertical-blank interrupt on while a
// frame waits for a blank (a copy held for its blank, a flip due at one or
// programmed and not latched yet) and off when none does
// (DxgkDdiControlInterrupt with DXGK_INTERRUPT_CRTC_VSYNC, on "kernel").
// Off, the display raises no interrupt, and a simulation with nothing else
// to do ends.
func (k *Dxgkrnl) updateVSync() {
	k.mu.Lock()
	want, why := k.vsyncWantedLocked()
	if want == k.vsyncOn {
		k.mu.Unlock()
		return
	}
	k.vsyncOn = want
	k.vsyncCalls++
	k.mu.Unlock()
	k.s.Schedule(k.s.Now(), "kernel", func() {
		defer func() {
			k.mu.Lock()
			k.vsyncCalls--
			k.mu.Unlock()
		}()
		args := dxgkddi.ControlInterruptArgs{Type: dxgkddi.InterruptCrtcVsync, Enable: want}
		var ab trace.ArgBuilder
		ev := trace.Event{Args: ab.Str(trace.KeyType, "DXGK_INTERRUPT_CRTC_VSYNC").Args()}
		if want {
			ev.Msg = "enable the vertical-blank interrupt: " + why
		} else {
			ev.Msg = "disable the vertical-blank interrupt: no present waits for a vertical blank"
		}
		k.ddi("DxgkDdiControlInterrupt", ev, func() error { return k.drv.DxgkDdiControlInterrupt(&args) })
	})
}

// vsyncWantedLocked is whether a frame waits for a vertical blank, and
// which. The caller holds mu.
func (k *Dxgkrnl) vsyncWantedLocked() (bool, string) {
	for _, c := range k.presentingLocked() {
		if fl := c.flipping; fl != nil {
			return true, fmt.Sprintf("the flip to %v waits to be latched", fl.src)
		}
		if c.dev.removed {
			continue
		}
		for _, f := range c.presents {
			if f.vblank > k.vsyncSeen {
				return true, fmt.Sprintf("a present of %v waits for vertical blank %d", c.h, f.vblank)
			}
		}
	}
	return false, ""
}

// presentingLocked is the contexts with frames queued, by handle. The
// caller holds mu.
func (k *Dxgkrnl) presentingLocked() []*context {
	var cs []*context
	for _, d := range k.devices {
		for _, c := range d.contexts {
			if len(c.presents) > 0 {
				cs = append(cs, c)
			}
		}
	}
	slices.SortFunc(cs, func(a, b *context) int { return cmp.Compare(a.h, b.h) })
	return cs
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
