package gpu

import (
	"bytes"
	"testing"

	"d3dsim/gpu/isa"
)

// TestScanoutRepeatShares: a surface scanned out again with the same
// pixels gives the last frame's Pix again (no copy: issue 32's presented
// frames), by a SCANOUT packet or the scan-out register, for the formats
// the display converts too; one byte changed anywhere gives a frame of its
// own, and the frame before keeps its pixels.
func TestScanoutRepeatShares(t *testing.T) {
	for _, fm := range []isa.Format{isa.FmtRGBA8, isa.FmtBGRA8, isa.FmtRGBA16F} {
		for _, path := range []string{"packet", "register"} {
			t.Run(fm.String()+" "+path, func(t *testing.T) {
				r := newRig(t)
				var frames []Frame
				r.g.OnScanout(func(f Frame) { frames = append(frames, f) })
				const w, h = 5, 3
				bpp := int(fm.Info().Bytes)
				pitch := bpp*w + 8 // rows apart: the padding is never compared
				addr := r.alloc(pitch * h)
				surf := r.mem(addr, pitch*h)
				for i := range surf {
					surf[i] = byte(i*7 + 1)
				}
				scan := func() Frame {
					t.Helper()
					if path == "packet" {
						b := &isa.Builder{}
						b.Scanout(addr, w, h, uint32(pitch), fm)
						r.mustExec(b)
					} else {
						r.g.ScanOut(addr, w, h, uint32(pitch), uint32(fm))
					}
					return frames[len(frames)-1]
				}
				a := scan()
				a2 := scan()
				if len(frames) != 2 || &a2.Pix[0] != &a.Pix[0] || a2.Width != w || a2.Height != h {
					t.Fatalf("the same surface again: %d frames, shared %v", len(frames), &a2.Pix[0] == &a.Pix[0])
				}
				keep := bytes.Clone(a.Pix)
				surf[pitch-1] = 0xEE // row 0's padding: not shown
				if p := scan(); &p.Pix[0] != &a.Pix[0] {
					t.Fatal("a change in the pitch's padding made a new frame")
				}
				for _, off := range []int{(h-1)*pitch + bpp*w - 1, 0, pitch + bpp} { // last row's last byte, the first, a middle one
					prev := frames[len(frames)-1]
					was := bytes.Clone(prev.Pix)
					surf[off] ^= 0x80
					f := scan()
					if !bytes.Equal(prev.Pix, was) {
						t.Fatalf("byte %d changed: the frame before changed", off)
					}
					// The new frame is the surface as a fresh scan makes it;
					// the last frame again only if that is the same picture
					// (R16G16B16A16_FLOAT's low mantissa bits may not show).
					fresh := make([]byte, 4*w*h)
					for y := 0; y < h; y++ {
						scanRow(fm, fresh[4*w*y:4*w*(y+1)], surf, pitch, y)
					}
					if !bytes.Equal(f.Pix, fresh) {
						t.Fatalf("byte %d changed: frame %v, want %v", off, f.Pix, fresh)
					}
					same := bytes.Equal(fresh, was)
					if same && fm != isa.FmtRGBA16F {
						t.Fatalf("byte %d changed: the picture did not", off)
					}
					if (&f.Pix[0] == &prev.Pix[0]) != same {
						t.Fatalf("byte %d changed, the picture changed %v: shares the last frame's pixels %v", off, !same, &f.Pix[0] == &prev.Pix[0])
					}
				}
				if !bytes.Equal(a.Pix, keep) {
					t.Fatal("the first frame's pixels changed")
				}
				// A different size is never the last frame.
				b := &isa.Builder{}
				b.Scanout(addr, w-1, h, uint32(pitch), fm)
				r.mustExec(b)
				if f := frames[len(frames)-1]; f.Width != w-1 || len(f.Pix) != 4*(w-1)*h {
					t.Fatalf("a %dx%d frame of %d bytes", f.Width, f.Height, len(f.Pix))
				}
			})
		}
	}
}

// TestScanoutRepeatAllocates: the same picture scanned out again allocates
// nothing for its pixels.
func TestScanoutRepeatAllocates(t *testing.T) {
	r := newRig(t)
	n := 0
	r.g.OnScanout(func(f Frame) { n++ })
	const w, h = 256, 256
	addr := r.alloc(4 * w * h)
	r.g.ScanOut(addr, w, h, 4*w, uint32(isa.FmtRGBA8))
	if a := testing.AllocsPerRun(10, func() { r.g.ScanOut(addr, w, h, 4*w, uint32(isa.FmtRGBA8)) }); a != 0 || n != 12 {
		t.Fatalf("%v allocations a scan of the same picture, %d frames", a, n)
	}
}

// BenchmarkScanFrame: the display's frame of a 256x256 RGBA8 surface (the
// page's draws figure's): a picture like the last one (shared), one that
// differs in its last row (compared, then copied), and one that differs in
// its first (a copy, as before the comparison).
func BenchmarkScanFrame(b *testing.B) {
	for _, tt := range []struct {
		name string
		row  int // the row changed before each scan (-1: none)
	}{{"same", -1}, {"last-row-differs", 255}, {"first-row-differs", 0}} {
		b.Run(tt.name, func(b *testing.B) {
			r := newRig(b)
			r.g.OnScanout(func(Frame) {})
			const w, h = 256, 256
			addr := r.alloc(4 * w * h)
			surf := r.mem(addr, 4*w*h)
			r.g.ScanOut(addr, w, h, 4*w, uint32(isa.FmtRGBA8))
			b.ReportAllocs()
			for b.Loop() {
				if tt.row >= 0 {
					surf[4*w*tt.row]++
				}
				r.g.mu.Lock()
				r.g.scanFrame(isa.FmtRGBA8, w, h, surf, 4*w)
				r.g.mu.Unlock()
			}
		})
	}
}
