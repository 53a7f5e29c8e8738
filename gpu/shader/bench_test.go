package shader

import (
	"math"
	"testing"
)

// The pixel programs of the programmable GPU's speed targets, over one 8x8 block per
// iteration, the inputs already interpolated (the gpu package's job).

// vertexColor is "out = vertex colour".
const vertexColor = `ps inputs=1 outputs=1 temps=0
mov o0, v0
`

// texturedColor is the ImGui pixel shader: texture sample × vertex colour.
const texturedColor = `ps inputs=2 outputs=1 temps=1
sample r0, v1.xyxx, t0, s0
mul o0, r0, v0
`

// benchTex is a 64x64 RGBA8 texture with point sampling and wrap: enough
// of a texture unit to measure the executor, not the gpu's filtering.
type benchTex struct {
	texels [64 * 64][4]float32
}

func newBenchTex() *benchTex {
	t := &benchTex{}
	for i := range t.texels {
		t.texels[i] = [4]float32{float32(i%64) / 63, float32(i/64) / 63, 0.5, 1}
	}
	return t
}

func (t *benchTex) Texture(q *TexQuery) error {
	u, v := f32(q.Coord[0]), f32(q.Coord[1])
	o0, o1, o2, o3 := q.Out.F(0), q.Out.F(1), q.Out.F(2), q.Out.F(3)
	for i := range Lanes {
		x := int(min(max(u[i]*64, 0), 63))
		y := int(min(max(v[i]*64, 0), 63))
		tx := &t.texels[y*64+x]
		o0[i], o1[i], o2[i], o3[i] = tx[0], tx[1], tx[2], tx[3]
	}
	return nil
}

func (t *benchTex) Info(int) (TexInfo, error) { return TexInfo{Width: 64, Height: 64, Mips: 1}, nil }

func benchBlock(b *testing.B, src string) {
	m := NewMachine(mustAsm(b, src))
	if err := m.Bind(nil, newBenchTex()); err != nil {
		b.Fatal(err)
	}
	for y := range 8 {
		for x := range 8 {
			l := QuadLane(x, y)
			for c := range 4 {
				m.In(0).F(c)[l] = float32(x+y+c) / 16
			}
			if len(m.in) > 1 {
				m.In(1).F(0)[l], m.In(1).F(1)[l] = float32(x)/8, float32(y)/8
			}
		}
	}
	b.ResetTimer()
	cpu := cpuSeconds()
	for range b.N {
		if _, err := m.Run(AllLanes); err != nil {
			b.Fatal(err)
		}
	}
	cpu = cpuSeconds() - cpu
	b.ReportMetric(float64(b.N)*Lanes/b.Elapsed().Seconds()/1e6, "Mpixels/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)*Lanes/cpu/1e6, "Mpixels/cpu-s")
	}
	if math.IsNaN(float64(m.Out(0).F(0)[5])) {
		b.Fatal("NaN")
	}
}

func BenchmarkVertexColor(b *testing.B)   { benchBlock(b, vertexColor) }
func BenchmarkTexturedColor(b *testing.B) { benchBlock(b, texturedColor) }

// BenchmarkVertexColorBlock is VertexColor with what the gpu package will
// add around it per block, as a test-only sketch: the colour interpolated
// from plane equations (c = a + b*x + d*y per component, products rounded
// first; the lanes' offsets b*x + d*y within a block are the same for every
// block of a triangle, so they are computed once) into v0, the program
// run, o0 packed to RGBA8 (clamped, rounded) into a row-major 8x8 tile. Its
// figure is the one to set against the GPU's fill scene
// (gpu.BenchmarkFill/1, which draws this copy program with the Gouraud spans).
func BenchmarkVertexColorBlock(b *testing.B) {
	m := NewMachine(mustAsm(b, vertexColor))
	var px, py [Lanes]float32
	for y := range 8 {
		for x := range 8 {
			l := QuadLane(x, y)
			px[l], py[l] = float32(x)+0.5, float32(y)+0.5
		}
	}
	plane := [4][3]float32{{0.1, 0.01, 0.002}, {0.2, 0.003, 0.01}, {0.9, -0.01, -0.01}, {1, 0, 0}}
	var offset [4][Lanes]float32 // per triangle
	for c := range 4 {
		for i := range Lanes {
			offset[c][i] = float32(plane[c][1]*px[i]) + float32(plane[c][2]*py[i])
		}
	}
	var tile [Lanes]uint32
	var dst [Lanes]int
	for y := range 8 {
		for x := range 8 {
			dst[QuadLane(x, y)] = y*8 + x
		}
	}
	b.ResetTimer()
	cpu := cpuSeconds()
	for n := range b.N {
		ox, oy := float32(n&63), float32(n>>6&63)
		for c := range 4 {
			v := m.In(0).F(c)
			a := plane[c][0] + float32(plane[c][1]*ox) + float32(plane[c][2]*oy)
			off := &offset[c]
			for i := range v {
				v[i] = a + off[i]
			}
		}
		if _, err := m.Run(AllLanes); err != nil {
			b.Fatal(err)
		}
		o := m.Out(0)
		r, g, bl, al := o.F(0), o.F(1), o.F(2), o.F(3)
		for i := range Lanes {
			tile[dst[i]] = unorm8(r[i]) | unorm8(g[i])<<8 | unorm8(bl[i])<<16 | unorm8(al[i])<<24
		}
	}
	cpu = cpuSeconds() - cpu
	b.ReportMetric(float64(b.N)*Lanes/b.Elapsed().Seconds()/1e6, "Mpixels/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)*Lanes/cpu/1e6, "Mpixels/cpu-s")
	}
	if tile[0] == 0 {
		b.Fatal("nothing packed")
	}
}

// unorm8 converts a float to an 8-bit unorm value, NaN to 0 (clamped
// before the conversion, which Go leaves to the machine out of range).
func unorm8(f float32) uint32 {
	if !(f > 0) {
		return 0
	}
	if f >= 1 {
		return 255
	}
	return uint32(float32(f*255) + 0.5)
}
