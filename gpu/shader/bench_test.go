package shader

import (
	"math"
	"testing"
)

// The pixel programs of issue 21's speed targets, over one 8x8 block per
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
