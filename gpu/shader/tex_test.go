package shader

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// lodTex is a reference texture unit for the level-of-detail tests: a
// 256x128 texture whose sample returns the level of detail it selected
// (from DX and DY per lane, plus Bias), and u, v. refLOD is its formula.
type lodTex struct{ queries []TexOp }

const lodW, lodH = 256, 128

func refLOD(dxu, dxv, dyu, dyv, bias float32) float32 {
	x := float32(dxu*lodW)*float32(dxu*lodW) + float32(dxv*lodH)*float32(dxv*lodH)
	y := float32(dyu*lodW)*float32(dyu*lodW) + float32(dyv*lodH)*float32(dyv*lodH)
	return float32(math.Log2(float64(max(x, y)))/2) + bias
}

func (t *lodTex) Texture(q *TexQuery) error {
	t.queries = append(t.queries, q.Op)
	if q.Op != TexSample && q.Op != TexSampleGrad {
		return errors.New("lodTex: not a sample")
	}
	for i := range Lanes {
		if q.Mask>>i&1 == 0 {
			continue
		}
		var b float32
		if q.Bias != nil {
			b = q.Bias[i]
		}
		lod := refLOD(q.DX[0][i], q.DX[1][i], q.DY[0][i], q.DY[1][i], b)
		q.Out[0][i], q.Out[1][i], q.Out[2][i], q.Out[3][i] = fbits(lod), q.Coord[0][i], q.Coord[1][i], uint32(q.Op)
	}
	return nil
}

func (t *lodTex) Info(int) (TexInfo, error) { return TexInfo{Width: lodW, Height: lodH, Mips: 9}, nil }

// uv is a coordinate that is not linear over the block, so the coarse
// derivatives differ from quad to quad and from the fine ones.
func uv(x, y int) (float32, float32) {
	return float32(x*x)/64 + float32(y)/32, float32(y*y)/128 - float32(x)/16
}

// sample_d given the quad's own coarse derivatives selects the same level
// of detail as sample, bit for bit; given other gradients, the level of
// refLOD from them, per lane.
func TestSampleGrad(t *testing.T) {
	p := mustAsm(t, `ps inputs=3 outputs=3 temps=2
		sample o0, v0, t0, s0
		deriv_rtx r0, v0
		deriv_rty r1, v0
		sample_d o1, v0, t0, s0, r0, r1
		sample_d o2, v0, t1, s1, v1, v2.zwxy`)
	for _, mask := range []uint64{AllLanes, 0x00F0_0F00_1234_8001} {
		m := NewMachine(p)
		tex := &lodTex{}
		m.Bind(nil, tex)
		for y := range 8 {
			for x := range 8 {
				l := QuadLane(x, y)
				u, v := uv(x, y)
				m.In(0)[0][l], m.In(0)[1][l] = fbits(u), fbits(v)
				m.In(1)[0][l], m.In(1)[1][l] = fbits(float32(l)/512), fbits(float32(x)/1024)
				m.In(2)[2][l], m.In(2)[3][l] = fbits(float32(y+1)/300), fbits(-float32(l)/700)
			}
		}
		alive, err := m.Run(mask)
		if err != nil || alive != mask {
			t.Fatalf("Run: %#x, %v", alive, err)
		}
		if want := []TexOp{TexSample, TexSampleGrad, TexSampleGrad}; !slices.Equal(tex.queries, want) {
			t.Fatalf("queries %v, want %v", tex.queries, want)
		}
		for y := range 8 {
			for x := range 8 {
				l := QuadLane(x, y)
				if mask>>l&1 == 0 {
					continue
				}
				if a, b := m.Out(0)[0][l], m.Out(1)[0][l]; a != b {
					t.Errorf("mask %#x pixel (%d, %d): sample lod %g, sample_d with the quad's derivatives %g", mask, x, y, bitsf(a), bitsf(b))
				}
				x0, y0 := x&^1, y&^1
				u0, v0 := uv(x0, y0)
				u1, v1 := uv(x0+1, y0)
				u2, v2 := uv(x0, y0+1)
				if got, want := bitsf(m.Out(0)[0][l]), refLOD(u1-u0, v1-v0, u2-u0, v2-v0, 0); got != want {
					t.Errorf("pixel (%d, %d): sample lod %g, want %g", x, y, got, want)
				}
				want := refLOD(float32(l)/512, float32(x)/1024, float32(y+1)/300, -float32(l)/700, 0)
				if got := bitsf(m.Out(2)[0][l]); got != want {
					t.Errorf("pixel (%d, %d): sample_d lod %g, want %g", x, y, got, want)
				}
				if m.Out(2)[3][l] != uint32(TexSampleGrad) {
					t.Errorf("pixel (%d, %d): sample_d op %d", x, y, m.Out(2)[3][l])
				}
			}
		}
	}
	// sample_d needs no quad: it runs in a vertex program.
	if _, err := Assemble("vs inputs=1 outputs=1 temps=0\nsample_d o0, v0, t0, s0, v0, v0"); err != nil {
		t.Errorf("sample_d in a vertex program: %v", err)
	}
}

// sample_b: the implicit level plus the bias, clamped to [-16, 15.99]; the
// helper lanes of a partial quad still give the derivatives.
func TestSampleBias(t *testing.T) {
	p := mustAsm(t, `ps inputs=2 outputs=2 temps=0
		sample o0, v0, t0, s0
		sample_b o1, v0, t0, s0, v1.y`)
	biases := []float32{0, 1.5, -2.25, -20, 20, 15.99, -16, float32(math.NaN()), float32(math.Inf(1)), 0.001}
	clamped := []float32{0, 1.5, -2.25, -16, 15.99, 15.99, -16, 0, 15.99, 0.001}
	m := NewMachine(p)
	m.Bind(nil, &lodTex{})
	for y := range 8 {
		for x := range 8 {
			l := QuadLane(x, y)
			u, v := uv(x, y)
			m.In(0)[0][l], m.In(0)[1][l] = fbits(u), fbits(v)
			m.In(1)[1][l] = fbits(biases[l%len(biases)])
		}
	}
	mask := uint64(0x8421_8421_8421_8421)
	if _, err := m.Run(mask); err != nil {
		t.Fatal(err)
	}
	for l := range Lanes {
		if mask>>l&1 == 0 {
			continue
		}
		if got, want := bitsf(m.Out(1)[0][l]), float32(bitsf(m.Out(0)[0][l])+clamped[l%len(biases)]); got != want {
			t.Errorf("lane %d bias %g: lod %g, want %g", l, biases[l%len(biases)], got, want)
		}
	}
	if _, err := Assemble("vs inputs=1 outputs=1 temps=0\nsample_b o0, v0, t0, s0, v0.x"); err == nil {
		t.Error("sample_b (implicit derivatives) assembles in a vertex program")
	}
}

// infoTex is a texture unit with fixed views per slot.
type infoTex struct {
	views map[int]TexInfo
	err   error
}

func (t *infoTex) Texture(*TexQuery) error { return errors.New("infoTex: no sampling") }
func (t *infoTex) Info(s int) (TexInfo, error) {
	return t.views[s], t.err
}

// resinfo per "resinfo (sm4 - asm)": the values written out by hand.
func TestResInfo(t *testing.T) {
	inf := float32(math.Inf(1))
	views := map[int]TexInfo{
		0: {Width: 256, Height: 100, Mips: 9},            // 2D
		1: {Width: 7, Height: 1024, Layers: 6, Mips: 11}, // 2D array
		// 2: unbound
	}
	tests := []struct {
		op   string
		slot int
		mip  uint32
		want [4]uint32
	}{
		{"resinfo_uint", 0, 0, [4]uint32{256, 100, 0, 9}},
		{"resinfo_uint", 0, 3, [4]uint32{32, 12, 0, 9}},
		{"resinfo_uint", 0, 8, [4]uint32{1, 1, 0, 9}},
		{"resinfo_uint", 0, 9, [4]uint32{0, 0, 0, 9}},
		{"resinfo_uint", 0, 0xFFFFFFFF, [4]uint32{0, 0, 0, 9}},
		{"resinfo_uint", 1, 2, [4]uint32{1, 256, 6, 11}},
		{"resinfo_uint", 1, 10, [4]uint32{1, 1, 6, 11}},
		{"resinfo_uint", 1, 11, [4]uint32{0, 0, 0, 11}},
		{"resinfo_uint", 2, 0, [4]uint32{}},
		{"resinfo", 0, 1, [4]uint32{fbits(128), fbits(50), 0, fbits(9)}},
		{"resinfo", 1, 0, [4]uint32{fbits(7), fbits(1024), fbits(6), fbits(11)}},
		{"resinfo", 1, 12, [4]uint32{0, 0, 0, fbits(11)}},
		{"resinfo", 2, 0, [4]uint32{}},
		{"resinfo_rcpfloat", 0, 2, [4]uint32{fbits(1.0 / 64), fbits(1.0 / 25), 0, fbits(9)}},
		{"resinfo_rcpfloat", 1, 1, [4]uint32{fbits(1.0 / 3), fbits(1.0 / 512), fbits(6), fbits(11)}},
		{"resinfo_rcpfloat", 0, 9, [4]uint32{fbits(inf), fbits(inf), 0, fbits(9)}},
		{"resinfo_rcpfloat", 2, 0, [4]uint32{}},
	}
	for _, tc := range tests {
		// Through the machine, per lane: the mip level from a register,
		// every lane the same; and the swizzle and mask.
		p := mustAsm(t, "ps inputs=1 outputs=2 temps=0\n"+tc.op+" o0, v0.y, t"+string(rune('0'+tc.slot))+
			"\n"+tc.op+" o1.yw, v0.y, t"+string(rune('0'+tc.slot))+".wzyx")
		m := NewMachine(p)
		m.Bind(nil, &infoTex{views: views})
		setLanes(m, 0, 1, func(int) uint32 { return tc.mip })
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		for l := range Lanes {
			var got [4]uint32
			for c := range got {
				got[c] = m.Out(0)[c][l]
			}
			if got != tc.want {
				t.Fatalf("%s t%d mip %d: %#x, want %#x", tc.op, tc.slot, tc.mip, got, tc.want)
			}
			if y, w := m.Out(1)[1][l], m.Out(1)[3][l]; y != tc.want[2] || w != tc.want[0] || m.Out(1)[0][l] != 0 {
				t.Fatalf("%s t%d mip %d .wzyx into .yw: y %#x w %#x", tc.op, tc.slot, tc.mip, y, w)
			}
		}
	}
	// Faults: the texture unit's error, no texture unit.
	m := NewMachine(mustAsm(t, "vs inputs=1 outputs=1 temps=0\nmov o0, v0\nresinfo o0, l(0, 0, 0, 0), t0"))
	perr := errors.New("page fault")
	m.Bind(nil, &infoTex{err: perr})
	var f *Fault
	if _, err := m.Run(AllLanes); !errors.Is(err, perr) || !errors.As(err, &f) || f.PC != 1 {
		t.Errorf("a faulting Info gives %v", err)
	}
	m.Bind(nil, nil)
	if _, err := m.Run(AllLanes); !errors.As(err, &f) || f.PC != 1 {
		t.Errorf("resinfo with no texture unit gives %v", err)
	}
}

func TestTexOpsRefused(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"ps inputs=1 outputs=1\nresinfo o0, -v0.x, t0", "modifier"},
		{"ps inputs=1 outputs=1\nresinfo_uint o0, |v0.x|, t0", "modifier"},
		{"ps inputs=1 outputs=1\nresinfo_uint_sat o0, v0.x, t0", "saturate"},
		{"ps inputs=1 outputs=1\nsample_d o0, v0, t0, s0, v0", "operands"},
		{"ps inputs=1 outputs=1\nsample_d o0, v0, t0, s0, v0, s0", "not allowed"},
		{"ps inputs=1 outputs=1\nsample_b o0, v0, t0, v0, v0", "not allowed"},
		{"ps inputs=1 outputs=1\nresinfo o0, t0, t0", "not allowed"},
	} {
		_, err := Assemble(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.src, err, tc.want)
		}
	}
	// resinfo_rcpfloat and resinfo may saturate (float results).
	mustAsm(t, "ps inputs=1 outputs=1\nresinfo_rcpfloat_sat o0, v0.x, t0")
}

// cbErr faults on one element.
type cbErr struct{ bad int }

func (c cbErr) Constant(slot, elem int) ([4]uint32, error) {
	if elem == c.bad {
		return [4]uint32{}, errors.New("page fault")
	}
	return [4]uint32{uint32(elem), uint32(slot), 7, 9}, nil
}

// A relative cb read: the element is base + register as a 32-bit add
// (wrapping), one past MaxCBIndex reads zero, and a Constants error
// faults the draw at the instruction (not a silent zero).
func TestRelativeConstants(t *testing.T) {
	p := mustAsm(t, "vs inputs=1 outputs=1 temps=1\nmov r0, v0\nmov o0, cb2[r0.x + 10]")
	m := NewMachine(p)
	if err := m.Bind(cbErr{bad: -1}, nil); err != nil {
		t.Fatal(err)
	}
	regs := []uint32{0, 5, 0xFFFFFFFF, 0xFFFFFFF6, 0xFFFFFFF5, 4085, 4086, 0x80000000, 0x7FFFFFFF}
	want := []uint32{10, 15, 9, 0, 0, 4095, 0, 0, 0} // x of the element read; 0 past the end
	ok := []bool{true, true, true, true, false, true, false, false, false}
	setLanes(m, 0, 0, func(l int) uint32 { return regs[l%len(regs)] })
	if _, err := m.Run(AllLanes); err != nil {
		t.Fatal(err)
	}
	for l := range Lanes {
		k := l % len(regs)
		var w [4]uint32
		if ok[k] {
			w = [4]uint32{want[k], 2, 7, 9}
		}
		got := [4]uint32{m.Out(0)[0][l], m.Out(0)[1][l], m.Out(0)[2][l], m.Out(0)[3][l]}
		if got != w {
			t.Errorf("cb2[%#x + 10] = %v, want %v", regs[k], got, w)
		}
	}
	// A page fault on a lane's element faults at that instruction, and the
	// next Run is clean.
	m.Bind(cbErr{bad: 15}, nil)
	var f *Fault
	if _, err := m.Run(AllLanes); !errors.As(err, &f) || f.PC != 1 || f.Err == nil || !strings.Contains(err.Error(), "cb2[15]") {
		t.Errorf("a faulting relative read gives %v", err)
	}
	setLanes(m, 0, 0, func(int) uint32 { return 1 })
	if _, err := m.Run(AllLanes); err != nil {
		t.Errorf("the next block (element 11) gives %v", err)
	}
}
