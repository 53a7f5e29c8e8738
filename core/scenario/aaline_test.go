package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// lineRect reports whether the point (px, py) is inside the rectangle
// around the segment (x0, y0)-(x1, y1), from end point to end point and
// half wide to either side, and how far from its border it is.
func lineRect(px, py, x0, y0, x1, y1, half float64) (in bool, margin float64) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	ux, uy := dx/l, dy/l
	along := (px-x0)*ux + (py-y0)*uy
	across := math.Abs(-(px-x0)*uy + (py-y0)*ux)
	margin = math.Min(math.Min(math.Abs(along), math.Abs(l-along)), math.Abs(half-across))
	return along >= 0 && along <= l && across <= half, margin
}

// TestLineAlgorithms: D3D11_RASTERIZER_DESC's table at one sample. With
// MultisampleEnable TRUE (AntialiasedLineEnable either way) a line is a
// quadrilateral 1.4 pixels wide lighting the pixels whose centre it holds
// (pixels within 1e-3 of its border not checked); with MultisampleEnable
// FALSE and AntialiasedLineEnable TRUE it is alpha antialiased: every
// pixel the width-1 rectangle covers is written with the pixel shader's
// alpha (1) times the covered part of the pixel, here the fraction of a
// 64x64 grid of points in the pixel that the rectangle holds (within
// 0.02: the grid's and the fixed-point end points' error). The line goes
// from (0, 7.6) to (8, 1.2) in pixels; blending is off, so the target
// stores the alpha.
func TestLineAlgorithms(t *testing.T) {
	const x0, y0, x1, y1 = 0, 7.6, 8, 1.2
	for _, c := range []struct {
		state string
		quad  bool
	}{
		{"MultisampleEnable=TRUE", true},
		{"MultisampleEnable=TRUE AntialiasedLineEnable=TRUE", true},
		{"AntialiasedLineEnable=TRUE", false},
	} {
		var sb strings.Builder
		sb.WriteString(rsPrelude + `imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
line = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -0.9 0.5 1 1 1 1 0 0  1 0.7 0.5 1 1 1 1 0 0]
rs = dev.CreateRasterizerState ` + c.state + `
imm.RSSetState rs
imm.IASetPrimitiveTopology LINELIST
imm.IASetVertexBuffers 0 line Stride=36
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 2 0
`)
		lit, partial := 0, 0
		for y := range 8 {
			for x := range 8 {
				if c.quad {
					in, margin := lineRect(float64(x)+0.5, float64(y)+0.5, x0, y0, x1, y1, 0.7)
					if margin < 1e-3 {
						continue
					}
					want := "#000000ff"
					if in {
						want, lit = "#ffffffff", lit+1
					}
					fmt.Fprintf(&sb, "expect pixel t %d %d == %s\n", x, y, want)
					continue
				}
				const n = 64
				hit := 0
				for j := range n {
					for i := range n {
						if in, _ := lineRect(float64(x)+(float64(i)+0.5)/n, float64(y)+(float64(j)+0.5)/n, x0, y0, x1, y1, 0.5); in {
							hit++
						}
					}
				}
				cov := float64(hit) / (n * n)
				switch {
				case cov == 0:
					fmt.Fprintf(&sb, "expect pixel t %d %d == #000000ff\n", x, y)
				case cov < 0.02:
					// the grid's error: either way
				default:
					lit++
					if cov < 0.98 {
						partial++
					}
					fmt.Fprintf(&sb, "expect pixel t %d %d == f32[1 1 1 %g] within 0.02\n", x, y, cov)
				}
			}
		}
		if lit < 8 || !c.quad && partial < 8 {
			t.Fatalf("%s: the reference lights %d pixels, %d partly", c.state, lit, partial)
		}
		sb.WriteString("expect violations == 0\n")
		t.Run(c.state, func(t *testing.T) { mustRun(t, sb.String()) })
	}
}
