package shadertest

import (
	"fmt"
	"strings"
	"testing"
)

// The interpolation modes of pixel shader inputs, drawn through the whole
// stack: a triangle whose vertices have different w (so perspective
// matters) and a colour each, the pixel shader returning its input under
// one mode. The expected values are computed here from the vertices,
// independently of the rasterizer: linear (and centroid, the pixel's
// centre at one sample) is perspective-correct, 1/w-weighted screen
// barycentrics; noperspective the screen barycentrics themselves;
// nointerpolation the first vertex's value.

// interpVerts are the triangle's clip-space positions (NDC times w) and
// colours; interpClipped the same with v0 left of the clip volume
// (x < -w), so that the clipper makes new vertices.
var interpVerts, interpClipped = [3]interpVert{
	{[2]float64{-1, -1}, 1, [4]float64{1, 0, 0, 0.25}},
	{[2]float64{-1, 1}, 2, [4]float64{0, 1, 0, 0.5}},
	{[2]float64{1, -1}, 4, [4]float64{0, 0, 1, 1}},
}, [3]interpVert{
	{[2]float64{-3, -1}, 1, [4]float64{1, 0, 0, 0.25}},
	{[2]float64{-1, 1}, 2, [4]float64{0, 1, 0, 0.5}},
	{[2]float64{1, -1}, 4, [4]float64{0, 0, 1, 1}},
}

type interpVert struct {
	ndc [2]float64
	w   float64
	c   [4]float64
}

// interpExpected is the value of an input of mode (linear, noperspective,
// nointerpolation) at the centre of pixel (x, y) of an 8x8 target.
func interpExpected(verts [3]interpVert, mode string, x, y int) [4]float64 {
	var sx, sy [3]float64
	for i, v := range verts {
		sx[i] = (v.ndc[0] + 1) / 2 * 8
		sy[i] = (1 - v.ndc[1]) / 2 * 8
	}
	px, py := float64(x)+0.5, float64(y)+0.5
	area := func(ax, ay, bx, by, cx, cy float64) float64 { return (bx-ax)*(cy-ay) - (cx-ax)*(by-ay) }
	total := area(sx[0], sy[0], sx[1], sy[1], sx[2], sy[2])
	l := [3]float64{
		area(px, py, sx[1], sy[1], sx[2], sy[2]) / total,
		area(sx[0], sy[0], px, py, sx[2], sy[2]) / total,
		area(sx[0], sy[0], sx[1], sy[1], px, py) / total,
	}
	var out [4]float64
	switch mode {
	case "nointerpolation":
		return verts[0].c
	case "noperspective":
		for i := range 3 {
			for c := range 4 {
				out[c] += l[i] * verts[i].c[c]
			}
		}
	default:
		var den float64
		for i := range 3 {
			den += l[i] / verts[i].w
			for c := range 4 {
				out[c] += l[i] / verts[i].w * verts[i].c[c]
			}
		}
		for c := range out {
			out[c] /= den
		}
	}
	return out
}

// interpFile is a shader_test file drawing the triangle once per mode and
// probing pixels inside it (x < y: below the diagonal from v1 to v2).
func interpFile(verts [3]interpVert) string {
	var b strings.Builder
	b.WriteString("[rtv 0]\nformat r32g32b32a32-float\nsize (2d, 8, 8)\n\n")
	b.WriteString("[input layout]\n0 r32g32b32a32-float position\n0 r32g32b32a32-float color\n\n[vb 0]\n")
	for _, v := range verts {
		fmt.Fprintf(&b, "%g %g 0 %g %g %g %g %g\n", v.ndc[0]*v.w, v.ndc[1]*v.w, v.w, v.c[0], v.c[1], v.c[2], v.c[3])
	}
	for _, mode := range []string{"", "centroid", "noperspective", "nointerpolation"} {
		fmt.Fprintf(&b, `
[vertex shader]
void main(float4 p : position, float4 c : color, out float4 o : sv_position, out %[1]s float4 t : texcoord)
{
    o = p;
    t = c;
}

[pixel shader]
float4 main(float4 p : sv_position, %[1]s float4 t : texcoord) : sv_target
{
    return t;
}

[test]
clear rtv 0 0.0 0.0 0.0 0.0
draw triangle list 3
`, mode)
		for _, xy := range [][2]int{{0, 3}, {1, 6}, {2, 4}, {5, 7}, {0, 7}, {3, 5}} {
			e := interpExpected(verts, mode, xy[0], xy[1])
			fmt.Fprintf(&b, "probe (%d, %d) rgba (%.9g, %.9g, %.9g, %.9g) 16\n", xy[0], xy[1], e[0], e[1], e[2], e[3])
		}
	}
	return b.String()
}

// TestInterpolationModes draws the triangle under each mode with the
// shaders d3dsim's compiler makes (dcl_input_ps linear, linear centroid,
// linear noperspective, constant): every probe holds.
func TestInterpolationModes(t *testing.T) {
	// The three modes differ at the probed pixels, so a GPU that ignored
	// the mode would fail.
	if a, b := interpExpected(interpVerts, "", 2, 4), interpExpected(interpVerts, "noperspective", 2, 4); a == b || a == interpVerts[0].c {
		t.Fatalf("linear %v and noperspective %v do not differ", a, b)
	}
	for i, verts := range [][3]interpVert{interpVerts, interpClipped} {
		checkInterpFile(t, fmt.Sprintf("interp%d.shader_test", i), interpFile(verts), 4)
	}
	checkInterpFile(t, "flat.shader_test", flatFile, 1)
}

// flatFile: a strip of two triangles whose nointerpolation uint input
// comes from each triangle's provoking vertex, its first: vertex 0 for
// triangle 0 (bottom left), vertex 1 for the odd triangle 1 (top right,
// whose first two vertices the rasterizer swaps for its winding). The
// first vertex's values are the bits of signalling NaNs, which float
// arithmetic would not carry unchanged.
const flatFile = `[rtv 0]
format r32g32b32a32-uint
size (2d, 8, 8)

[input layout]
0 r32g32-float position
0 r32g32b32a32-float color

[vb 0]
-1.0 -1.0 4290000128 2140000000 1 7
-1.0  1.0 4287000064 2 3 4
 1.0 -1.0 5 6 7 8
 1.0  1.0 9 10 11 12

[vertex shader]
void main(float2 p : position, float4 c : color, out float4 o : sv_position, out uint4 t : texcoord)
{
    o = float4(p, 0, 1);
    t = uint4(c);
}

[pixel shader]
uint4 main(float4 p : sv_position, nointerpolation uint4 t : texcoord) : sv_target
{
    return t;
}

[test]
draw triangle strip 4
probe (1, 5) rgbaui (4290000128, 2140000000, 1, 7)
probe (6, 2) rgbaui (4287000064, 2, 3, 4)
`

func checkInterpFile(t *testing.T, name, src string, cases int) {
	t.Helper()
	rep := &Report{}
	rep.RunFile(name, []byte(src), Options{})
	if len(rep.Errors) > 0 {
		t.Fatalf("unreadable: %v\n%s", rep.Errors, src)
	}
	runs := 0
	for _, r := range rep.Results {
		if r.Case.Kind == KindCompile {
			continue
		}
		runs++
		if r.Outcome != Pass {
			t.Errorf("%s: %s %s", r.Name, r.Outcome, r.Reason)
		}
	}
	if runs != cases {
		t.Errorf("%d cases ran, want %d\n%s", runs, cases, src)
	}
}
