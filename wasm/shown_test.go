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

// TestSameShown: the stage keeps its picture only for the same size and the
// same pixels (the same frame, or another frame with the same picture).
func TestSameShown(t *testing.T) {
	a := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	b := append([]byte(nil), a...)
	c := append([]byte(nil), a...)
	c[7] = 9
	for _, tt := range []struct {
		name   string
		w0, h0 int
		shown  []byte
		w, h   int
		pix    []byte
		want   bool
	}{
		{"the same frame", 2, 1, a, 2, 1, a, true},
		{"another frame, the same pixels", 2, 1, a, 2, 1, b, true},
		{"another frame, one byte differs", 2, 1, a, 2, 1, c, false},
		{"the same pixels, another size", 2, 1, a, 1, 2, b, false},
		{"nothing shown yet", 2, 1, nil, 2, 1, a, false},
		{"a shorter frame", 2, 1, a, 2, 1, a[:4], false},
	} {
		if got := sameShown(tt.w0, tt.h0, tt.shown, tt.w, tt.h, tt.pix); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
