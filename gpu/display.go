package gpu

import (
	"bytes"

	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
)

// ScanOut is the display engine's scan-out address register: the driver
// points it at a surface (a flip, DxgkDdiSetVidPnSourceAddress) and the
// display shows that surface from then on. The simulated display reads the
// surface once, now, and hands the frame to the OnScanout hook, as a SCANOUT
// packet does when its DMA buffer completes. A surface of a format the
// display cannot scan out (isa.Displayable), or not in memory, shows
// nothing.
func (g *GPU) ScanOut(addr uint64, width, height, pitch, format uint32) {
	g.mu.Lock()
	g.disp.addr, g.disp.flip = addr, nil
	g.mu.Unlock()
	g.scanOut(addr, width, height, pitch, format)
}

// FlipOnVSync programs the scan-out address to change at the next vertical
// blank: the display keeps showing the old surface until then, and the
// blank's interrupt reports the new address (TakeVSync). The vertical-blank
// interrupt must be on for the blank to come (EnableVSync); a second call
// before the blank replaces the first.
func (g *GPU) FlipOnVSync(addr uint64, width, height, pitch, format uint32) {
	g.mu.Lock()
	g.disp.flip = &scanSurface{addr, width, height, pitch, format}
	g.mu.Unlock()
}

func (g *GPU) scanOut(addr uint64, width, height, pitch, format uint32) {
	fm := isa.Format(format)
	row := fm.RowBytes(width)
	if !isa.Displayable(fm) || width == 0 || height == 0 || uint64(pitch) < row {
		return
	}
	g.mu.Lock()
	scan := g.scanout
	if scan == nil {
		g.mu.Unlock()
		return
	}
	n := uint64(pitch)*uint64(height-1) + row
	mem, ok := g.mem.Bytes(addr, n)
	if !ok {
		g.mu.Unlock()
		return
	}
	f := g.scanFrame(fm, int(width), int(height), mem, int(pitch))
	g.mu.Unlock()
	scan(f)
}

// scanFrame makes the frame of a w x h surface of format fm at mem. A frame
// whose pixels equal those of the last frame the display made is that frame
// again, its Pix shared (frames are read-only: Frame): a still scene
// presented again keeps no second copy of its picture, and none is
// allocated (256 KiB a Present of the page's draws figure, 600 of them:
// two thirds of its heap's growth, issue 32). The rows are compared one by
// one (RGBA8 straight from the surface, other formats converted into a row
// of scratch); at the first that differs the frame gets pixels of its own,
// the rows before copied from the last frame's.
// Called with g.mu held.
func (g *GPU) scanFrame(fm isa.Format, w, h int, mem []byte, pitch int) Frame {
	last := g.lastScan
	rowBytes := 4 * w
	y := 0
	if last.Width == w && last.Height == h && len(last.Pix) == rowBytes*h {
		if cap(g.scanScratch) < rowBytes {
			g.scanScratch = make([]byte, rowBytes)
		}
		tmp := g.scanScratch[:rowBytes]
		for ; y < h; y++ {
			want := last.Pix[rowBytes*y : rowBytes*(y+1)]
			if fm == isa.FmtRGBA8 || fm == isa.FmtRGBA8SRGB {
				if !bytes.Equal(want, mem[y*pitch:y*pitch+rowBytes]) {
					break
				}
				continue
			}
			scanRow(fm, tmp, mem, pitch, y)
			if !bytes.Equal(want, tmp) {
				break
			}
		}
		if y == h {
			return last
		}
	}
	f := Frame{Width: w, Height: h, Pix: make([]byte, rowBytes*h)}
	copy(f.Pix, last.Pix[:rowBytes*y]) // (y > 0: the same size, these rows equal)
	for ; y < h; y++ {
		scanRow(fm, f.Pix[rowBytes*y:rowBytes*(y+1)], mem, pitch, y)
	}
	g.lastScan = f
	return f
}

// scanRow converts row y of a displayable surface into the frame's RGBA8.
// The 8-bit formats go out as they are stored (an _SRGB surface holds
// sRGB-encoded bytes, which is what a display takes); R10G10B10A2 keeps
// its top 8 bits, rounded; an R16G16B16A16_FLOAT surface holds linear
// scRGB ("DXGI_COLOR_SPACE_TYPE": RGB_FULL_G10_NONE_P709, the colour space
// of a float swap chain), encoded for an sRGB display here and clamped to
// its range.
func scanRow(fm isa.Format, out, mem []byte, pitch, y int) {
	w := len(out) / 4
	switch fm {
	case isa.FmtRGBA8, isa.FmtRGBA8SRGB:
		copy(out, mem[y*pitch:y*pitch+4*w])
	case isa.FmtBGRA8, isa.FmtBGRA8SRGB:
		copy(out, mem[y*pitch:y*pitch+4*w])
		for i := 0; i < len(out); i += 4 {
			out[i], out[i+2] = out[i+2], out[i]
		}
	default:
		as := isa.FmtRGBA8
		if fm == isa.FmtRGBA16F {
			as = isa.FmtRGBA8SRGB
		}
		for x := 0; x < w; x++ {
			tfmt.Encode(as, tfmt.Load(fm, mem, pitch, x, y), 0xF, out[4*x:4*x+4])
		}
	}
}

// DisplayLine is the interrupt line of the display controller; the engines'
// lines are 0, 1, ... (ConnectInterrupt's fn gets it as the engine number).
const DisplayLine = -1

// DefaultRefreshHz is the display's refresh rate when Config.RefreshHz is 0.
const DefaultRefreshHz = 60

// display is the display controller's vertical-blank interrupt: while
// enabled, at every vertical blank it latches the blank's number and raises
// the display's interrupt line (the driver reports it as
// DXGK_INTERRUPT_CRTC_VSYNC).
type display struct {
	hz      int64
	on      bool
	gen     uint64       // bumped by each enable: a blank scheduled before is dropped
	pending int64        // the blank the ISR has not taken yet (0: none)
	latched uint64       // the scan-out address at that blank
	addr    uint64       // the scan-out address now
	flip    *scanSurface // a flip programmed to be latched at the next blank
}

// scanSurface is a surface the scan-out address register points at.
type scanSurface struct {
	addr                         uint64
	width, height, pitch, format uint32
}

// VBlankTime is the virtual time of vertical blank n (blank 0 at time 0).
func (g *GPU) VBlankTime(n int64) int64 { return n * 1_000_000_000 / g.refreshHz() }

func (g *GPU) refreshHz() int64 {
	if g.disp.hz > 0 {
		return g.disp.hz
	}
	return DefaultRefreshHz
}

// EnableVSync turns the vertical-blank interrupt on or off (the driver's
// DxgkDdiControlInterrupt for DXGK_INTERRUPT_CRTC_VSYNC). While it is on,
// thread "display" emits a VSync event at every blank (args vblank=N) and
// raises DisplayLine.
func (g *GPU) EnableVSync(on bool) {
	g.mu.Lock()
	if g.disp.on == on {
		g.mu.Unlock()
		return
	}
	g.disp.on = on
	g.disp.gen++
	gen := g.disp.gen
	g.mu.Unlock()
	if on {
		g.scheduleVBlank(gen)
	}
}

// scheduleVBlank schedules the first blank after now.
func (g *GPU) scheduleVBlank(gen uint64) {
	now := g.sim.Now()
	n := now*g.refreshHz()/1_000_000_000 + 1
	for g.VBlankTime(n) <= now {
		n++
	}
	g.sim.Schedule(g.VBlankTime(n), "display", func() { g.vblank(gen, n) })
}

// vblank is blank n: latch it, trace it, raise the line, schedule the next.
func (g *GPU) vblank(gen uint64, n int64) {
	g.mu.Lock()
	if !g.disp.on || g.disp.gen != gen {
		g.mu.Unlock()
		return
	}
	f := g.disp.flip
	if f != nil {
		g.disp.addr, g.disp.flip = f.addr, nil
	}
	g.disp.pending, g.disp.latched = n, g.disp.addr
	intr := g.interrupt
	g.mu.Unlock()
	if f != nil {
		g.scanOut(f.addr, f.width, f.height, f.pitch, f.format)
	}
	var b trace.ArgBuilder
	g.rec.Emit(trace.Event{Thread: "display", From: trace.KMD, Layer: trace.GPU, Kind: trace.Interrupt, Name: "VSync",
		Args: b.Int(trace.KeyVBlank, n).Args()})
	if intr != nil {
		intr(DisplayLine)
	}
	g.sim.Schedule(g.VBlankTime(n+1), "display", func() { g.vblank(gen, n+1) })
}

// TakeVSync reads and clears the display controller's latched blank: the
// ISR's question "was it a vertical blank, which, and what did it scan
// out" (the address the driver reports as the effective scan address).
func (g *GPU) TakeVSync() (vblank int64, addr uint64, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := g.disp.pending
	g.disp.pending = 0
	return n, g.disp.latched, n != 0
}
