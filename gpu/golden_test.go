package gpu

import (
	"bytes"
	"crypto/sha256"
	"d3dsim/gpu/isa"
	"encoding/hex"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// Golden images: each scene is rendered with the reference programs of
// builtins.go, bound from memory with SET_PROGRAM and fetched through the
// built-in vertex's SET_LAYOUT, and its RGBA8 pixels compared exactly with
// testdata/NAME.png and with the SHA-256 in testdata/NAME.sha256 (the GPU
// is deterministic: the same hash natively and in WebAssembly). On a
// mismatch the picture is written to testdata/NAME-bad.png. Regenerate with
// go test ./gpu -run Golden -update.

type golden struct {
	name string
	w, h int
	draw func(r *rig, rt target, b *isa.Builder)
}

var goldens = []golden{
	{"gouraud", 96, 96, func(r *rig, rt target, b *isa.Builder) {
		r.useVerts(b, []vtx{
			{0, 0.9, 0.5, 1, 0, 0, 1}, {0.85, -0.8, 0.5, 0, 1, 0, 1}, {-0.85, -0.8, 0.5, 0, 0, 1, 1},
		})
		b.Draw(3, 0)
	}},
	{"depth", 96, 96, func(r *rig, rt target, b *isa.Builder) {
		// Two triangles crossing each other in depth.
		ds := r.target(rt.w, rt.h, isa.FmtD24S8)
		ds.setDS(b)
		b.ClearDS(ds.addr, uint32(ds.w), uint32(ds.h), uint32(ds.pitch), isa.FmtD24S8, 1)
		b.SetDepth(true, true, isa.CmpLess)
		r.useVerts(b, []vtx{
			{-0.9, 0.8, 0.1, 1, 0.5, 0, 1}, {0.9, 0.5, 0.9, 1, 0.5, 0, 1}, {-0.6, -0.9, 0.1, 1, 1, 0, 1},
			{-0.9, -0.6, 0.9, 0, 0.5, 1, 1}, {0.8, 0.9, 0.1, 0, 1, 1, 1}, {0.9, -0.9, 0.2, 0, 0, 1, 1},
		})
		b.Draw(6, 0)
	}},
	{"texture", 96, 96, func(r *rig, rt target, b *isa.Builder) {
		// A rotated quad, uv 0..2, bilinear over a 4x4 checker, mirrored
		// in u and wrapped in v.
		var tex []byte
		for i := 0; i < 16; i++ {
			if (i/4+i%4)%2 == 0 {
				tex = append(tex, 240, 200, 40, 255)
			} else {
				tex = append(tex, 30, 60, 160, 255)
			}
		}
		b.SetTex(0, r.buffer(tex), 4, 4, 16, isa.FmtRGBA8)
		b.SetSampler(0, isa.FilterLinear, isa.AddrMirror, isa.AddrWrap, 0)
		r.bind(b, "ps_texture")
		var vs []vtx
		corner := func(i int) vtx {
			a := 0.3 + float64(i)*math.Pi/2
			u, v := float32(0), float32(0)
			if i == 1 || i == 2 {
				u = 2
			}
			if i >= 2 {
				v = 2
			}
			return vtx{float32(0.85 * math.Cos(a)), float32(0.85 * math.Sin(a)), 0.5, 1, 1, 1, 1, u, v}
		}
		for _, i := range []int{0, 3, 2, 0, 2, 1} {
			vs = append(vs, corner(i))
		}
		r.useVerts(b, vs)
		b.Draw(6, 0)
	}},
	{"blend", 96, 96, func(r *rig, rt target, b *isa.Builder) {
		b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendInvSrcAlpha, isa.BlendOpAdd, 0xF)
		var vs []vtx
		for i, c := range [][4]float32{{1, 0, 0, 0.6}, {0, 1, 0, 0.6}, {0, 0, 1, 0.6}} {
			x, y := float32(20+i*14), float32(18+(i%2)*24)
			vs = append(vs, quadVerts(x, y, x+44, y+40, rt.w, rt.h, c)...)
		}
		r.useVerts(b, vs)
		b.Draw(uint32(len(vs)), 0)
	}},
	{"cube", 128, 96, func(r *rig, rt target, b *isa.Builder) {
		ds := r.target(rt.w, rt.h, isa.FmtD32F)
		ds.setDS(b)
		b.ClearDS(ds.addr, uint32(ds.w), uint32(ds.h), uint32(ds.pitch), isa.FmtD32F, 1)
		b.SetRaster(isa.CullBack, false, true)
		m := mul(mul(rotY(0.6), rotX(0.45)), mul(translate(0, 0, 3.2), perspectiveFovLH(1.0, float64(rt.w)/float64(rt.h), 0.5, 10)))
		r.transform(b, m)
		vs := cube()
		r.useVerts(b, vs)
		b.Draw(uint32(len(vs)), 0)
	}},
	{"strip-bgra-fault", 64, 64, func(r *rig, rt target, b *isa.Builder) {
		var vs []vtx
		for i := 0; i < 8; i++ {
			x := float32(-0.9 + 0.25*float64(i))
			y := float32(0.5)
			if i%2 == 1 {
				y = -0.5
			}
			vs = append(vs, vtx{x, y, 0.5, float32(i) / 7, 1 - float32(i)/7, 0.5, 1})
		}
		r.useVerts(b, vs)
		b.SetTopology(isa.TopoTriangleStrip)
		b.Draw(8, 0)
		r.bind(b, "ps_fault")
		b.SetTopology(isa.TopoTriangleList)
		b.Draw(3, 2)
	}},
	{"wireframe", 128, 96, func(r *rig, rt target, b *isa.Builder) {
		// The cube of "cube" with fill mode WIREFRAME and back faces
		// culled: the front faces' edges, each face's diagonal too; and a
		// triangle reaching past the target, clipped: only its own edges.
		b.SetRaster(isa.CullBack|isa.RasterWireframe, false, true)
		m := mul(mul(rotY(0.6), rotX(0.45)), mul(translate(0, 0, 3.2), perspectiveFovLH(1.0, float64(rt.w)/float64(rt.h), 0.5, 10)))
		r.transform(b, m)
		vs := cube()
		r.useVerts(b, vs)
		b.Draw(uint32(len(vs)), 0)
		r.bind(b, "vs_passthrough")
		b.SetRaster(isa.CullNone|isa.RasterWireframe, false, true)
		r.useVerts(b, []vtx{{-0.95, 0.9, 0.5, 1, 1, 0, 1}, {1.6, 0.3, 0.5, 0, 1, 1, 1}, {-0.6, -1.7, 0.5, 1, 0, 1, 1}})
		b.Draw(3, 0)
	}},
	{"lines-points", 64, 64, func(r *rig, rt target, b *isa.Builder) {
		// A star of lines from the centre, colour going white to hue,
		// and a ring of points.
		var vs []vtx
		for i := 0; i < 24; i++ {
			a := 2 * math.Pi * float64(i) / 24
			c := [4]float32{float32(0.5 + 0.5*math.Cos(a)), float32(0.5 + 0.5*math.Sin(a)), 0.5, 1}
			vs = append(vs, vtx{0, 0, 0.5, 1, 1, 1, 1},
				vtx{float32(0.8 * math.Cos(a)), float32(0.8 * math.Sin(a)), 0.5, c[0], c[1], c[2], 1})
		}
		for i := 0; i < 48; i++ {
			a := 2 * math.Pi * float64(i) / 48
			vs = append(vs, vtx{float32(0.93 * math.Cos(a)), float32(0.93 * math.Sin(a)), 0.5, 1, 0.8, 0.2, 1})
		}
		r.useVerts(b, vs)
		b.SetTopology(isa.TopoLineList)
		b.Draw(48, 0)
		b.SetTopology(isa.TopoPointList)
		b.Draw(48, 48)
	}},
}

// useVerts puts vs in a new vertex buffer on slot 0.
func (r *rig) useVerts(b *isa.Builder, vs []vtx) {
	data := vbytes(vs...)
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
}

func TestGolden(t *testing.T) {
	for _, gd := range goldens {
		t.Run(gd.name, func(t *testing.T) {
			r := newRig(t)
			fm := isa.FmtRGBA8
			if strings.Contains(gd.name, "bgra") {
				fm = isa.FmtBGRA8
			}
			rt := r.target(gd.w, gd.h, fm)
			b := &isa.Builder{}
			rt.set(b)
			rt.clear(b, [4]float32{0.1, 0.1, 0.12, 1})
			b.SetViewport(0, 0, float32(gd.w), float32(gd.h), 0, 1)
			r.builtins(b, "vs_passthrough", "ps_vertexcolor")
			b.SetRaster(isa.CullNone, false, true)
			gd.draw(r, rt, b)
			fs := r.exec(b)
			if strings.Contains(gd.name, "fault") {
				// ps_fault's loop runs into the step limit: the draw
				// faults and its pixels get the warning colour.
				if !hasFault(fs, "step limit") {
					t.Errorf("faults %v, want ps_fault's step limit", fs)
				}
			} else {
				for _, f := range fs {
					t.Errorf("fault: %v", f)
				}
			}
			pix := r.rgba(rt)
			checkGolden(t, gd.name, gd.w, gd.h, pix)
		})
	}
}

func pixHash(pix []byte) string {
	h := sha256.Sum256(pix)
	return hex.EncodeToString(h[:])
}

func checkGolden(t *testing.T, name string, w, h int, pix []byte) {
	t.Helper()
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	base := filepath.Join("testdata", name)
	hash := pixHash(pix)
	if *update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(base+".png", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(base+".sha256", []byte(hash+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	bad := func(format string, args ...any) {
		t.Helper()
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err == nil {
			_ = os.WriteFile(base+"-bad.png", buf.Bytes(), 0o644)
		}
		t.Errorf(format+" (wrote %s-bad.png; -update to accept)", append(args, base)...)
	}
	want, err := os.ReadFile(base + ".sha256")
	if err != nil {
		bad("no golden hash: %v", err)
		return
	}
	if got := strings.TrimSpace(string(want)); got != hash {
		bad("pixels hash to %s, golden %s", hash, got)
		return
	}
	f, err := os.Open(base + ".png")
	if err != nil {
		bad("no golden image: %v", err)
		return
	}
	defer f.Close()
	gi, err := png.Decode(f)
	if err != nil {
		bad("golden image: %v", err)
		return
	}
	gr := image.NewRGBA(gi.Bounds())
	for y := gi.Bounds().Min.Y; y < gi.Bounds().Max.Y; y++ {
		for x := gi.Bounds().Min.X; x < gi.Bounds().Max.X; x++ {
			gr.Set(x, y, gi.At(x, y))
		}
	}
	if gr.Rect.Dx() != w || gr.Rect.Dy() != h || !bytes.Equal(gr.Pix, pix) {
		bad("pixels differ from the golden image")
	}
}

// Matrices for the cube, D3DX conventions: row-major, row vector on the
// left, left-handed.
type mat [16]float32

func mul(a, b mat) mat {
	var m mat
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += float64(a[4*i+k]) * float64(b[4*k+j])
			}
			m[4*i+j] = float32(s)
		}
	}
	return m
}

func rotY(a float64) mat {
	c, s := float32(math.Cos(a)), float32(math.Sin(a))
	return mat{c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1}
}

func rotX(a float64) mat {
	c, s := float32(math.Cos(a)), float32(math.Sin(a))
	return mat{1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1}
}

func translate(x, y, z float32) mat {
	return mat{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1}
}

// perspectiveFovLH is D3DXMatrixPerspectiveFovLH.
func perspectiveFovLH(fovY, aspect, zn, zf float64) mat {
	ys := 1 / math.Tan(fovY/2)
	xs := ys / aspect
	q := zf / (zf - zn)
	return mat{float32(xs), 0, 0, 0, 0, float32(ys), 0, 0, 0, 0, float32(q), 1, 0, 0, float32(-zn * q), 0}
}

// cube is a unit cube, a colour per face, each face clockwise seen from
// outside (front-facing under D3D's default rasterizer state).
func cube() []vtx {
	type v3 [3]float64
	faces := []struct {
		n v3
		c [4]float32
	}{
		{v3{1, 0, 0}, [4]float32{0.9, 0.2, 0.2, 1}}, {v3{-1, 0, 0}, [4]float32{0.2, 0.9, 0.2, 1}},
		{v3{0, 1, 0}, [4]float32{0.2, 0.2, 0.9, 1}}, {v3{0, -1, 0}, [4]float32{0.9, 0.9, 0.2, 1}},
		{v3{0, 0, 1}, [4]float32{0.9, 0.2, 0.9, 1}}, {v3{0, 0, -1}, [4]float32{0.2, 0.9, 0.9, 1}},
	}
	var out []vtx
	for _, f := range faces {
		// Two axes spanning the face.
		var u, w v3
		switch {
		case f.n[0] != 0:
			u, w = v3{0, 1, 0}, v3{0, 0, 1}
		case f.n[1] != 0:
			u, w = v3{1, 0, 0}, v3{0, 0, 1}
		default:
			u, w = v3{1, 0, 0}, v3{0, 1, 0}
		}
		corner := func(su, sw float64) v3 {
			var p v3
			for k := range p {
				p[k] = 0.5*f.n[k] + 0.5*su*u[k] + 0.5*sw*w[k]
			}
			return p
		}
		quad := []v3{corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)}
		// Seen from outside, clockwise means (b-a)x(c-a) points out of the
		// face (left-handed: towards the viewer).
		a, bb, c := quad[0], quad[1], quad[2]
		e1 := v3{bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]}
		e2 := v3{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		cross := v3{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		if cross[0]*f.n[0]+cross[1]*f.n[1]+cross[2]*f.n[2] < 0 {
			quad[1], quad[3] = quad[3], quad[1]
		}
		for i, k := range []int{0, 1, 2, 0, 2, 3} {
			p := quad[k]
			shade := float32(0.75 + 0.05*float64(i%3))
			out = append(out, vtx{float32(p[0]), float32(p[1]), float32(p[2]), f.c[0] * shade, f.c[1] * shade, f.c[2] * shade, 1})
		}
	}
	return out
}

// TestCubeWinding checks the cube's winding (and so culling): culling back
// faces must show exactly what the depth test shows with no culling.
func TestCubeWinding(t *testing.T) {
	render := func(cull uint32, depth bool) []byte {
		r := newRig(t)
		rt := r.target(64, 64, isa.FmtRGBA8)
		b := &isa.Builder{}
		rt.set(b)
		b.SetViewport(0, 0, 64, 64, 0, 1)
		r.builtins(b, "vs_passthrough", "ps_vertexcolor")
		b.SetRaster(cull, false, true)
		if depth {
			ds := r.target(64, 64, isa.FmtD32F)
			ds.setDS(b)
			b.ClearDS(ds.addr, 64, 64, 256, isa.FmtD32F, 1)
		}
		r.transform(b, mul(mul(rotY(2.1), rotX(-0.7)), mul(translate(0, 0, 3), perspectiveFovLH(1, 1, 0.5, 10))))
		vs := cube()
		r.useVerts(b, vs)
		b.Draw(uint32(len(vs)), 0)
		r.mustExec(b)
		return r.rgba(rt)
	}
	if !bytes.Equal(render(isa.CullBack, false), render(isa.CullNone, true)) {
		t.Error("culling back faces differs from depth testing all faces")
	}
	if bytes.Equal(render(isa.CullFront, false), render(isa.CullNone, true)) {
		t.Error("culling front faces looks like depth testing all faces")
	}
}
