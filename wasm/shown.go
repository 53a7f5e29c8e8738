package main

import (
	"bytes"

	"d3dsim/core/scenario"
)

// maxShown is the largest frame side the canvas shows as it is: Ebiten puts
// an image on a texture atlas, and an 8192x8192 frame ("atlas: the image
// being put on an atlas is too big") ended the module. A bigger frame is
// shown shrunk by a whole factor, a pixel for each k x k (the stage shows
// it scaled to fit anyway); d3dsim.pixel and the PNG download read the
// frame itself.
const maxShown = 2048

// shownFrame is the frame as the canvas shows it: f's own pixels, or, past
// maxShown, every k-th pixel of every k-th row.
func shownFrame(f scenario.Frame) (w, h int, pix []byte) {
	k := (max(f.Width, f.Height) + maxShown - 1) / maxShown
	if k <= 1 {
		return f.Width, f.Height, f.Pix[:f.Width*f.Height*4]
	}
	w, h = (f.Width+k-1)/k, (f.Height+k-1)/k
	pix = make([]byte, 4*w*h)
	for y := range h {
		row := f.Pix[4*f.Width*(y*k):]
		out := pix[4*w*y:]
		for x := range w {
			copy(out[4*x:4*x+4], row[4*x*k:4*x*k+4])
		}
	}
	return w, h, pix
}

// sameShown reports whether a frame of w x h pixels pix shows what the
// stage shows already (w0 x h0, shown): the run's summary moves with every
// slice and every step, and the stage was given the last frame again each
// time, the same frame or a new one with the same picture (a still scene
// stepped a frame at a time, the draws figure's 1,000 draws of one
// triangle): an upload of its pixels, a Draw of the stage and a swap of
// the canvas for nothing (3-5% of the page's main thread in the draws
// figure, 2026-11-29). A comparison of 256 KiB is about 0.16 ms under
// WebAssembly. Not while the run plays (game.Update says why).
func sameShown(w0, h0 int, shown []byte, w, h int, pix []byte) bool {
	if w0 != w || h0 != h || len(shown) != len(pix) || shown == nil {
		return false
	}
	return len(pix) == 0 || &shown[0] == &pix[0] || bytes.Equal(shown, pix)
}
