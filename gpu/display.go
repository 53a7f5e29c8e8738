package gpu

import "d3dsim/gpu/isa"

// ScanOut is the display engine's scan-out address register: the driver
// points it at a surface (a flip, DxgkDdiSetVidPnSourceAddress) and the
// display shows that surface from then on. The simulated display reads the
// surface once, now, and hands the frame to the OnScanout hook, as a SCANOUT
// packet does when its DMA buffer completes. A surface that is not RGBA8 or
// BGRA8, or not in memory, shows nothing.
func (g *GPU) ScanOut(addr uint64, width, height, pitch, format uint32) {
	fm := isa.Format(format)
	if fm != isa.FmtRGBA8 && fm != isa.FmtBGRA8 || width == 0 || height == 0 || pitch < 4*width {
		return
	}
	g.mu.Lock()
	scan := g.scanout
	g.mu.Unlock()
	if scan == nil {
		return
	}
	n := uint64(pitch)*uint64(height-1) + 4*uint64(width)
	mem, ok := g.mem.Bytes(addr, n)
	if !ok {
		return
	}
	w, h := int(width), int(height)
	f := Frame{Width: w, Height: h, Pix: make([]byte, 4*w*h)}
	for y := 0; y < h; y++ {
		out := f.Pix[4*w*y : 4*w*(y+1)]
		copy(out, mem[y*int(pitch):y*int(pitch)+4*w])
		if fm == isa.FmtBGRA8 {
			for i := 0; i < len(out); i += 4 {
				out[i], out[i+2] = out[i+2], out[i]
			}
		}
	}
	scan(f)
}
