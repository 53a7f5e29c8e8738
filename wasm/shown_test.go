package main

import (
	"testing"

	"d3dsim/core/scenario"
)

// TestShownFrame: a frame up to maxShown is shown as it is; a bigger one
// (8192x8192 ended the module in Ebiten's atlas) shrunk by a whole factor,
// a pixel for each k x k.
func TestShownFrame(t *testing.T) {
	small := scenario.Frame{Width: 3, Height: 2, Pix: make([]byte, 24)}
	if w, h, pix := shownFrame(small); w != 3 || h != 2 || len(pix) != 24 {
		t.Errorf("small: %dx%d, %d bytes", w, h, len(pix))
	}
	big := scenario.Frame{Width: 8192, Height: 4100, Pix: make([]byte, 4*8192*4100)}
	big.Pix[4*(8192*4+8)] = 7 // pixel (8, 4): shown at (2, 1)
	w, h, pix := shownFrame(big)
	if w != 2048 || h != 1025 || len(pix) != 4*w*h {
		t.Fatalf("big: %dx%d, %d bytes", w, h, len(pix))
	}
	if pix[4*(w*1+2)] != 7 {
		t.Error("pixel (8, 4) is not shown at (2, 1)")
	}
}
