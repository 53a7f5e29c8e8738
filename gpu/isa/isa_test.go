package isa

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// every builds one packet of each opcode with the Builder and returns the
// buffer with, per packet, the word offsets of its address fields.
func every() (Builder, [][]int) {
	var b Builder
	var at [][]int
	one := func(a ...int) { at = append(at, a) }
	b.Words = append(b.Words, uint32(OpNop)<<24)
	one()
	one(b.SetRT(0x1000, 4, 4, 16, FmtRGBA8))
	one(b.SetDS(0x2000, 4, 4, 16, FmtD32F))
	one(b.SetVB(0, 0x3000, 108, 36, 0))
	one(b.SetIB(0x4000, 12, 2, 0))
	one(b.SetCB(StagePS, 0, 0x5000, 16))
	one(b.SetTex(0, 0x6000, 4, 4, 16, FmtBGRA8))
	b.SetSampler(0, FilterLinear, AddrWrap, AddrClamp, 0xff0000ff)
	one()
	b.SetViewport(0, 0, 4, 4, 0, 1)
	one()
	b.SetRaster(CullBack, false, true)
	one()
	b.SetBlend(true, BlendSrcAlpha, BlendInvSrcAlpha, BlendOpAdd, BlendOne, BlendZero, BlendOpAdd, 0xf)
	one()
	b.SetDepth(true, true, CmpLess)
	one()
	b.SetTopology(TopoTriangleList)
	one()
	b.Draw(3, 0)
	one()
	b.DrawIndexed(6, 0, -2)
	one()
	one(b.ClearRT(0x1000, 4, 4, 16, FmtRGBA8, [4]float32{1, 0.5, 0, 1}))
	one(b.ClearDS(0x2000, 4, 4, 16, FmtD32F, 1))
	d, s := b.Copy(0x7000, 0x8000, 64)
	one(d, s)
	one(b.Write(0x9000, []byte{1, 2, 3, 4, 5}))
	b.Fence(42)
	one()
	one(b.Query(QueryTimestamp, 0xa000))
	one(b.Scanout(0x1000, 4, 4, 16, FmtRGBA8))
	one(b.Fill(0xb000, 64, 0xdeadbeef))
	one(b.SetProgram(StagePS, 0xc000, 20, NoReg))
	b.SetLayout(BuiltinLayout())
	one()
	b.DrawInstanced(6, 0, 3, 1)
	one()
	b.DrawIndexedInstanced(6, 0, -1, 3, 1)
	one()
	one(b.SetRTSlot(3, 0x1000, 4, 4, 16, FmtRGBA16F))
	b.SetBlendRT(2, true, BlendSrc1Color, BlendInvSrc1Alpha, BlendOpAdd, BlendOne, BlendZero, BlendOpMax, 0x3)
	one()
	b.SetBlendFactor([4]float32{0.5, 0.25, 1, 0}, 0xfffffffe, BlendAlphaToCoverage)
	one()
	b.SetStencil(true, 0xff, 0x0f, 7, StencilFace{StencilKeep, StencilIncr, StencilReplace, CmpEqual}, StencilFace{StencilZero, StencilDecr, StencilInvert, CmpAlways})
	one()
	one(b.ClearStencil(0x2000, 4, 4, 16, FmtD24S8, 9))
	b.SetScissor(0, 1, 2, 3, 4)
	one()
	b.SetViewportN(5, 0, 0, 4, 4, 0, 1)
	one()
	b.SetDepthBias(-3, 0.5, 1.5)
	one()
	one(b.DrawIndirect(0xd000))
	one(b.DrawIndexedIndirect(0xe000))
	one(b.SetTexStage(StageVS, 5, 0x6000, 4, 4, 16, FmtR32F))
	b.SetSamplerStage(StageVS, 3, FilterPoint, AddrWrap, AddrWrap, 0)
	one()
	one(b.SetView(1, 0xd000, ViewTex2DArray, FmtRGBA8, 8, 8, 3, 4, 1|3<<16, 0|3<<16))
	b.SetSamplerEx(2, 0x55, AddrWrap, AddrMirrorOnce, AddrBorder, -0.5, 8, CmpLessEqual, [4]float32{0, 0.5, 1, 1}, 0, 6)
	one()
	one(b.SetPredication(0xf000, true))
	a1, a2 := b.SetUAV(3, 0x10000, ViewStructured, 0, 256, 16, 16, 0, 0, 0x11000)
	one(a1, a2)
	b.Dispatch(4, 2, 1)
	one()
	one(b.DispatchIndirect(0x12000))
	a1, a2 = b.SetSOTarget(1, 0x13000, 256, 0x14000, SOAppend)
	one(a1, a2)
	b.SetSODecl(SORasterize, [MaxSOTargets]uint32{16, 8}, []uint32{SOEntry(0, 0, 0, 4), SOEntry(1, SOGap, 0, 2)})
	one()
	one(b.DrawAuto(0x14000, 16))
	one(b.ClearUAV(0x13000, ViewTex2D, FmtRGBA8, 1024, 4, 16, 16, 64, ClearUAVFloat, [4]uint32{1, 2, 3, 4}, 1, 0))
	b.SetUAVSlices(UAVStageSlot(StagePS, 2), 4, 1024)
	one()
	b.SetSamples(4)
	one()
	r := b.Resolve(0x15000, 0x16000, 4, 4, 16, 64, FmtRGBA8, 4)
	one(r, r+2)
	one(b.SetRTLayers(DSLayers, 0x17000, 4, 4, 16, FmtD32F, 6, 64))
	b.SetClipDist(ClipDistWord([2]int{2, -1}, 0x3, 0x4))
	one()
	return b, at
}

func TestRoundTripEveryOpcode(t *testing.T) {
	b, at := every()
	pkts, err := Decode(b.Words)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(pkts), len(Opcodes()); got != want {
		t.Fatalf("%d packets, want one per opcode (%d)", got, want)
	}
	for i, p := range pkts {
		if p.Op != Opcodes()[i] {
			t.Errorf("packet %d is %v, want %v", i, p.Op, Opcodes()[i])
		}
		// The offsets the Builder returned are the address fields the
		// KMD patches.
		var fields []int
		for _, f := range AddrFields(p.Op) {
			fields = append(fields, p.At+1+f)
		}
		if !slices.Equal(fields, at[i]) && !(len(fields) == 0 && len(at[i]) == 0) {
			t.Errorf("%v: address words %v, Builder returned %v", p.Op, fields, at[i])
		}
	}
	// Patch writes a physical address where the Builder put the relative one.
	Patch(b.Words, at[1][0], 0x1_0000_2000)
	p, _, err := Next(b.Words, pkts[1].At)
	if err != nil || p.Addr(0) != 0x1_0000_2000 {
		t.Errorf("after Patch SET_RT reads %#x (%v)", p.Addr(0), err)
	}
	if w := pkts[18]; w.Op != OpWrite || w.Args[2] != 5 || w.Args[3] != 0x04030201 || w.Args[4] != 5 {
		t.Errorf("WRITE carries %v", w.Args)
	}
	if d := pkts[14]; int32(d.Args[2]) != -2 {
		t.Errorf("DRAW_INDEXED base %d, want -2", int32(d.Args[2]))
	}
}

func TestString(t *testing.T) {
	b, _ := every()
	pkts, _ := Decode(b.Words)
	for _, p := range pkts {
		s := p.String()
		if !strings.HasPrefix(s, p.Op.String()) || strings.HasPrefix(s, "OP_") {
			t.Errorf("%v prints %q", p.Op, s)
		}
	}
	for _, tc := range []struct {
		i    int
		want string
	}{
		{1, "SET_RT addr=0x1000 4x4 pitch=16 fmt=1"},
		{13, "DRAW count=3 start=0"},
		{14, "DRAW_INDEXED count=6 start=0 base=-2"},
		{17, "COPY dst=0x7000 src=0x8000 n=64"},
		{19, "FENCE value=42"},
	} {
		if got := pkts[tc.i].String(); got != tc.want {
			t.Errorf("packet %d prints %q, want %q", tc.i, got, tc.want)
		}
	}
	if got := Opcode(0xEE).String(); got != "OP_0xee" {
		t.Errorf("unknown opcode prints %q", got)
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	for name, buf := range map[string][]uint32{
		"unknown opcode": {0xEE000000},
		"wrong length":   {uint32(OpDraw)<<24 | 1, 3},
		"past the end":   {uint32(OpDraw)<<24 | 2, 3},
		"short WRITE":    {uint32(OpWrite)<<24 | 2, 0, 0},
		"WRITE size":     {uint32(OpWrite)<<24 | 4, 0, 0, 9, 0},
	} {
		if _, err := Decode(buf); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: Decode error %v, want ErrMalformed", name, err)
		}
	}
}

// A layout survives Words and ParseLayout; bad fields are refused.
func TestLayoutRoundTrip(t *testing.T) {
	l := BuiltinLayout()
	l.VertexIDReg = 5
	l.Elements = append(l.Elements, VertexElement{Reg: 3, Slot: 2, Format: VtxRGBA8, PerInstance: true, Offset: 4, StepRate: 2})
	got, err := ParseLayout(l.Words())
	if err != nil || got.String() != l.String() || !slices.Equal(got.Words(), l.Words()) {
		t.Fatalf("ParseLayout(Words) = %v, %v; want %v", got, err, l)
	}
	for name, w := range map[string][]uint32{
		"format 0":   {0xFFFF, 0, 0, 0},
		"format 99":  {0xFFFF, 99 << 16, 0, 0},
		"slot 32":    {0xFFFF, 32<<8 | 1<<16, 0, 0},
		"high bits":  {0xFFFF, 1<<16 | 1<<30, 0, 0},
		"word 0":     {1 << 20},
		"length":     {0xFFFF, 1 << 16},
		"no words":   {},
		"too many":   make([]uint32, 1+3*(MaxVertexElements+1)),
		"high word0": {0x10000},
	} {
		if _, err := ParseLayout(w); err == nil {
			t.Errorf("%s: ParseLayout accepted %v", name, w)
		}
	}
	if _, _, err := Next([]uint32{uint32(OpSetLayout)<<24 | 2, 0, 0}, 0); err == nil {
		t.Error("SET_LAYOUT of 2 words accepted")
	}
}

// 0x08 is no opcode (a program is bound from memory with SET_PROGRAM): a
// buffer with it is malformed, an unknown opcode, whatever its length.
func TestOpcode08Unknown(t *testing.T) {
	for _, n := range []uint32{0, 2} {
		buf := []uint32{0x08<<24 | n, 0, 1}
		_, _, err := Next(buf, 0)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "unknown opcode 0x08") {
			t.Errorf("0x08 with %d payload words: %v, want an unknown opcode", n, err)
		}
	}
	if slices.Contains(Opcodes(), Opcode(0x08)) {
		t.Error("Opcodes lists 0x08")
	}
}

// Subresources lays a texture out slice by slice, each slice's levels
// from the most detailed, rows tight, and refuses what the hardware cannot
// hold.
func TestSubresources(t *testing.T) {
	subs, size, err := Subresources(FmtRGBA8, 8, 4, 1, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Subresource{
		{0, 32, 128, 8, 4, 1}, {128, 16, 32, 4, 2, 1}, {160, 8, 8, 2, 1, 1},
		{168, 32, 128, 8, 4, 1}, {296, 16, 32, 4, 2, 1}, {328, 8, 8, 2, 1, 1},
	}
	if !slices.Equal(subs, want) || size != 336 {
		t.Fatalf("layout %v size %d, want %v 336", subs, size, want)
	}
	// A 3D texture halves its depth too; a BC1 level is rows of blocks.
	if s, n, err := Subresources(FmtR32F, 4, 4, 4, 3, 1); err != nil || s[1] != (Subresource{256, 8, 16, 2, 2, 2}) || n != 256+32+4 {
		t.Fatalf("3D layout %v %d %v", s, n, err)
	}
	if s, _, err := Subresources(FmtBC1, 8, 8, 1, 2, 1); err != nil || s[0].RowPitch != 16 || s[0].DepthPitch != 32 || s[1].DepthPitch != 8 {
		t.Fatalf("BC1 layout %v %v", s, err)
	}
	for _, bad := range [][6]uint32{{0, 1, 1, 1, 1}, {4, 4, 1, 4, 1}, {4, 4, 1, 1, 0}, {4, 4, 2, 1, 2}, {20000, 1, 1, 1, 1}} {
		if _, _, err := Subresources(FmtRGBA8, bad[0], bad[1], bad[2], bad[3], bad[4]); err == nil {
			t.Errorf("Subresources %v accepted", bad)
		}
	}
	if MaxMips(256, 64, 1) != 9 || MaxMips(1, 1, 1) != 1 || MaxMips(5, 3, 17) != 5 {
		t.Error("MaxMips")
	}
}
