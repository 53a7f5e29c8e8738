package main

import "d3dsim/core/scenario"

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
