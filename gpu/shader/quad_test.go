package shader

import (
	"errors"
	"strings"
	"testing"
)

func TestQuadLane(t *testing.T) {
	seen := map[int]bool{}
	for y := range 8 {
		for x := range 8 {
			l := QuadLane(x, y)
			if l < 0 || l >= Lanes || seen[l] {
				t.Fatalf("QuadLane(%d, %d) = %d: out of range or taken", x, y, l)
			}
			seen[l] = true
			if q, c := l/4, l%4; q != (y/2)*4+x/2 || c != (y%2)*2+x%2 {
				t.Fatalf("QuadLane(%d, %d) = %d: quad %d corner %d", x, y, l, q, c)
			}
		}
	}
}

// Derivatives of f(x, y) = x*x + 3*y*y over the quads of an 8x8 block.
func TestDerivatives(t *testing.T) {
	p := mustAsm(t, `ps inputs=1 outputs=4 temps=1
		deriv_rtx o0, v0
		deriv_rty o1, v0
		deriv_rtx_fine o2, v0
		deriv_rty_fine o3, v0`)
	m := NewMachine(p)
	f := func(x, y int) float32 { return float32(x*x + 3*y*y) }
	for y := range 8 {
		for x := range 8 {
			for c := range 4 {
				m.In(0)[c][QuadLane(x, y)] = fbits(f(x, y) * float32(c+1))
			}
		}
	}
	if _, err := m.Run(AllLanes); err != nil {
		t.Fatal(err)
	}
	for y := range 8 {
		for x := range 8 {
			x0, y0 := x&^1, y&^1
			want := [4]float32{
				f(x0+1, y0) - f(x0, y0),
				f(x0, y0+1) - f(x0, y0),
				f(x0+1, y) - f(x0, y),
				f(x, y0+1) - f(x, y0),
			}
			for o, w := range want {
				for c := range 4 {
					if got := bitsf(m.Out(o)[c][QuadLane(x, y)]); got != w*float32(c+1) {
						t.Errorf("pixel (%d, %d) o%d.%c = %g, want %g", x, y, o, "xyzw"[c], got, w*float32(c+1))
					}
				}
			}
		}
	}
}

// fakeTex answers texture queries with values made of the coordinates,
// and keeps the last query.
type fakeTex struct {
	last TexQuery
	dx   [2][Lanes]float32
	dy   [2][Lanes]float32
	err  error
}

func (f *fakeTex) Texture(q *TexQuery) error {
	f.last = *q
	if q.DX[0] != nil {
		f.dx[0], f.dx[1], f.dy[0], f.dy[1] = *q.DX[0], *q.DX[1], *q.DY[0], *q.DY[1]
	}
	for i := range Lanes {
		if q.Mask>>i&1 == 0 {
			continue
		}
		u, v := bitsf(q.Coord[0][i]), bitsf(q.Coord[1][i])
		q.Out[0][i], q.Out[1][i], q.Out[2][i], q.Out[3][i] = fbits(u), fbits(v), fbits(u+v), fbits(float32(q.Texture*100+q.Sampler))
		if q.Op == TexSampleLevel {
			q.Out[3][i] = fbits(q.LOD[i])
		}
		if q.Op == TexLoad {
			q.Out[0][i] = q.Coord[0][i] + q.Coord[3][i]
		}
	}
	return f.err
}

// Info gives dimensions made of the slot number.
func (f *fakeTex) Info(texture int) (TexInfo, error) {
	return TexInfo{Width: uint32(64 + texture), Height: 32, Layers: uint32(texture % 3), Mips: 7}, f.err
}

func TestTexture(t *testing.T) {
	p := mustAsm(t, `ps inputs=2 outputs=3 temps=1
		sample r0, v0.xyxx, t3.wzyx, s2
		mul o0, r0, v1
		sample_l o1, v0, t1, s0, l(2.5, 0, 0, 0)
		ld o2, l(7, 8, 0, 2), t5`)
	m := NewMachine(p)
	ft := &fakeTex{}
	if err := m.Bind(nil, ft); err != nil {
		t.Fatal(err)
	}
	for y := range 8 {
		for x := range 8 {
			l := QuadLane(x, y)
			m.In(0)[0][l], m.In(0)[1][l] = fbits(float32(x)/8), fbits(float32(y*y)/64)
			for c := range 4 {
				m.In(1)[c][l] = fbits(2)
			}
		}
	}
	mask := uint64(0x0000FFFF0000FFFF)
	if _, err := m.Run(mask); err != nil {
		t.Fatal(err)
	}
	l := QuadLane(3, 1)
	u, v := float32(3)/8, float32(1)/64
	if got, want := [4]float32{bitsf(m.Out(0)[0][l]), bitsf(m.Out(0)[1][l]), bitsf(m.Out(0)[2][l]), bitsf(m.Out(0)[3][l])},
		[4]float32{2 * 302, 2 * (u + v), 2 * v, 2 * u}; got != want {
		t.Errorf("sample × colour = %v, want %v (the resource swizzle wzyx)", got, want)
	}
	if got := ft.dx[0][l]; got != float32(1)/8 {
		t.Errorf("du/dx = %g, want %g", got, float32(1)/8)
	}
	if got, want := ft.dy[1][l], float32(1)/64; got != want {
		t.Errorf("dv/dy = %g, want %g (coarse: the quad's left column)", got, want)
	}
	if got := bitsf(m.Out(1)[3][l]); got != 2.5 {
		t.Errorf("sample_l lod = %g, want 2.5", got)
	}
	if got := m.Out(2)[0][l]; got != 9 {
		t.Errorf("ld x+mip = %d, want 9", got)
	}
	if ft.last.Op != TexLoad || ft.last.Texture != 5 || ft.last.Mask != mask {
		t.Errorf("last query %+v", ft.last)
	}

	ft.err = errors.New("page fault")
	if _, err := m.Run(AllLanes); !errors.Is(err, ft.err) {
		t.Errorf("a texture error gives %v", err)
	}
	m.Bind(nil, nil)
	var f *Fault
	if _, err := m.Run(AllLanes); !errors.As(err, &f) || f.PC != 0 {
		t.Errorf("sample with no texture unit gives %v", err)
	}
}

type fakeCB map[[2]int][4]uint32

func (f fakeCB) Constant(slot, elem int) ([4]uint32, error) {
	if slot == 13 {
		return [4]uint32{}, errors.New("page fault")
	}
	return f[[2]int{slot, elem}], nil
}

func TestConstants(t *testing.T) {
	p := mustAsm(t, `vs inputs=1 outputs=2 temps=1
		mov o0, cb1[3].wzyx
		ftou r0.x, v0.x
		mov o1, cb0[r0.x + 2]`)
	m := NewMachine(p)
	cb := fakeCB{{1, 3}: {1, 2, 3, 4}}
	for e := range 70 {
		cb[[2]int{0, e}] = [4]uint32{uint32(e), uint32(e * 2), 0, 0}
	}
	if err := m.Bind(cb, nil); err != nil {
		t.Fatal(err)
	}
	setLanes(m, 0, 0, func(l int) uint32 { return fbits(float32(l)) })
	if _, err := m.Run(AllLanes); err != nil {
		t.Fatal(err)
	}
	for l := range Lanes {
		if m.Out(0)[0][l] != 4 || m.Out(0)[3][l] != 1 {
			t.Fatalf("lane %d: cb1[3].wzyx = %d..%d", l, m.Out(0)[0][l], m.Out(0)[3][l])
		}
		if m.Out(1)[0][l] != uint32(l+2) || m.Out(1)[1][l] != uint32(2*(l+2)) {
			t.Fatalf("lane %d: cb0[r0.x + 2] = %d, %d", l, m.Out(1)[0][l], m.Out(1)[1][l])
		}
	}
	bad := NewMachine(mustAsm(t, "vs inputs=0 outputs=1 temps=0\nmov o0, cb13[0]"))
	if err := bad.Bind(cb, nil); err == nil {
		t.Error("Bind with a faulting constant buffer: no error")
	}
}

// A sample whose destination is also its coordinate register: the texture
// unit must not write the register it is reading.
func TestSampleIntoItsCoordinates(t *testing.T) {
	for _, src := range []string{
		"ps inputs=1 outputs=1 temps=1\nmov r0, v0\nsample r0, r0, t0, s0\nmov o0, r0",
		"ps inputs=1 outputs=1 temps=1\nmov r0, v0\nsample_l r0, v0, t0, s0, r0.w\nmov o0, r0",
	} {
		m := NewMachine(mustAsm(t, src))
		m.Bind(nil, &fakeTex{})
		for c := range 4 {
			setLanes(m, 0, c, func(l int) uint32 { return fbits(float32(l + c)) })
		}
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		for l := range Lanes {
			u, v := float32(l), float32(l+1)
			want := [4]float32{u, v, u + v, 0}
			if strings.Contains(src, "sample_l") {
				want[3] = float32(l + 3)
			}
			for c := range 4 {
				if got := bitsf(m.Out(0)[c][l]); got != want[c] {
					t.Fatalf("%s\nlane %d .%c = %g, want %g", src, l, "xyzw"[c], got, want[c])
				}
			}
		}
	}
}

func TestQuadMask(t *testing.T) {
	for _, tc := range []struct{ in, want uint64 }{
		{0, 0}, {1, 0xF}, {0x8, 0xF}, {0x10, 0xF0}, {0x21, 0xFF}, {1 << 63, 0xF << 60}, {AllLanes, AllLanes},
	} {
		if got := quadMask(tc.in); got != tc.want {
			t.Errorf("quadMask(%#x) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// One live lane of a quad: its derivative is the whole quad's, computed
// from this block's inputs (the other lanes run as helpers), and only it
// is alive.
func TestHelperLanes(t *testing.T) {
	p := mustAsm(t, "ps inputs=1 outputs=1 temps=1\nmul r0.x, v0.x, v0.x\nderiv_rtx o0.x, r0.x\n")
	m := NewMachine(p)
	setLanes(m, 0, 0, func(l int) uint32 { return fbits(100) })
	if _, err := m.Run(AllLanes); err != nil { // r0 left at 10000 everywhere
		t.Fatal(err)
	}
	setLanes(m, 0, 0, func(l int) uint32 { return fbits(float32(l)) })
	alive, err := m.Run(1 << 5)
	if err != nil {
		t.Fatal(err)
	}
	if alive != 1<<5 {
		t.Errorf("alive %#x, want lane 5 alone", alive)
	}
	if got, want := bitsf(m.Out(0)[0][5]), float32(5*5-4*4); got != want {
		t.Errorf("ddx at lane 5 = %g, want %g (lane 4 not run as a helper)", got, want)
	}
}

// gradFree is fakeTex that declares it ignores gradients.
type gradFree struct{ fakeTex }

func (*gradFree) IgnoresGradients() bool { return true }

// A GradientFree texture unit gets sample's query without DX and DY, and
// the same results; any other gets the quads' derivatives.
func TestGradientFree(t *testing.T) {
	p := mustAsm(t, `ps inputs=1 outputs=1 temps=0
		sample o0, v0.xyxx, t1, s2`)
	var outs [2]Vec
	for i, tex := range []Textures{&fakeTex{}, &gradFree{}} {
		m := NewMachine(p)
		for l := range Lanes {
			m.In(0)[0][l], m.In(0)[1][l] = fbits(float32(l*l)), fbits(float32(3*l))
		}
		if err := m.Bind(nil, tex); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		var last TexQuery
		switch f := tex.(type) {
		case *fakeTex:
			last = f.last
		case *gradFree:
			last = f.last
		}
		if (last.DX[0] == nil) != (i == 1) || (last.DY[1] == nil) != (i == 1) {
			t.Errorf("texture unit %d: DX %v, DY %v", i, last.DX, last.DY)
		}
		outs[i] = *m.Out(0)
	}
	if outs[0] != outs[1] {
		t.Error("a GradientFree texture unit samples differently")
	}
}
