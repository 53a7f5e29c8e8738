package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"testing"

	"d3dsim/core/trace"
)

// gpuEvents returns the GPU's trace events as "t thread kind name dma fence
// args msg" lines.
func gpuEvents(rec *trace.Recorder) []string {
	var out []string
	for _, e := range rec.Events() {
		if e.Layer != trace.GPU {
			continue
		}
		s := fmt.Sprintf("%d %s %v %s dma=%d fence=%d", e.T, e.Thread, e.Kind, e.Name, e.DMA, e.Fence)
		if !e.Args.IsZero() {
			s += " " + e.Args.String()
		}
		if e.Msg != "" {
			s += " " + e.Msg
		}
		out = append(out, s)
	}
	return out
}

func checkLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestTimingAndTrace(t *testing.T) {
	r := newRig(t)
	var intr []string
	r.g.ConnectInterrupt(func(e int) {
		intr = append(intr, fmt.Sprintf("%d engine=%d on %s fence=%d", r.sim.Now(), e, r.sim.Thread(), r.g.CompletedFence(e)))
	})
	c := DefaultCosts()
	one := func(fence uint64) []uint32 { // NOP + FENCE: costs 2000 + 2*40
		b := &isa.Builder{}
		b.Words = append(b.Words, uint32(isa.OpNop)<<24)
		b.Fence(fence)
		return b.Words
	}
	if c.BufferStartNS+2*c.PacketNS != 2080 {
		t.Fatalf("default costs changed: %+v", c)
	}
	r.g.Submit(0, 11, one(1))
	r.g.Submit(0, 12, one(2))
	r.g.Submit(1, 13, one(7)) // another engine runs at the same time
	if !r.g.Busy(0) || !r.g.Busy(1) {
		t.Error("engines not busy after Submit")
	}
	r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) == 2 && r.g.CompletedFence(1) == 7 })
	r.sim.Charge(10000) // main is now at 14160
	r.g.Submit(0, 14, []uint32{})
	r.sim.RunUntil(func() bool { return !r.g.Busy(0) })

	checkLines(t, gpuEvents(r.rec), []string{
		"0 gpu0 exec DmaBufferStart dma=11 fence=0 packets=2",
		"0 gpu1 exec DmaBufferStart dma=13 fence=0 packets=2",
		"2080 gpu0 fence FenceWrite dma=11 fence=1",
		"2080 gpu0 interrupt Interrupt dma=11 fence=1",
		"2080 gpu1 fence FenceWrite dma=13 fence=7",
		"2080 gpu1 interrupt Interrupt dma=13 fence=7",
		"2080 gpu0 exec DmaBufferStart dma=12 fence=0 packets=2",
		"4160 gpu0 fence FenceWrite dma=12 fence=2",
		"4160 gpu0 interrupt Interrupt dma=12 fence=2",
		"14160 gpu0 exec DmaBufferStart dma=14 fence=0 packets=0",
		"16160 gpu0 interrupt Interrupt dma=14 fence=0",
	})
	checkLines(t, intr, []string{
		"2080 engine=0 on gpu0 fence=1",
		"2080 engine=1 on gpu1 fence=7",
		"4160 engine=0 on gpu0 fence=2",
		"16160 engine=0 on gpu0 fence=2", // no FENCE: the register keeps its value
	})
	if r.g.Busy(0) || r.g.Busy(1) {
		t.Error("engines busy after their rings ran dry")
	}
	if s := r.g.Stats(); s.Buffers != 4 || s.Packets != 6 {
		t.Errorf("stats %+v", s)
	}
}

func TestCostModel(t *testing.T) {
	r := newRig(t)
	rt := r.target(64, 64, isa.FmtRGBA8)
	// A 10x10 pixel quad.
	q := [][2]float32{{10, 10}, {20, 10}, {10, 20}, {20, 10}, {20, 20}, {10, 20}}
	var vs []vtx
	for _, p := range q {
		vs = append(vs, pxv(p[0], p[1], 64, 64, [4]float32{1, 1, 1, 1}))
	}
	b := r.scene(rt, "ps_vertexcolor", vs) // 7 packets
	rt.clear(b, [4]float32{})              // 64*64/16 = 256 ns
	b.Draw(6, 0)                           // 6 vertices, 100 pixels
	b.Copy(rt.addr, rt.addr+4096, 100)     // 2 blocks of 64 bytes
	r.mustExec(b)                          // + FENCE
	want := int64(2000 + 11*40 + 256 + 6*4 + 100*1 + 2*4)
	for _, e := range r.rec.Events() {
		if e.Name == "FenceWrite" && e.T != want {
			t.Errorf("buffer completed at %d, want %d", e.T, want)
		}
	}
	s := r.g.Stats()
	if s.Draws != 1 || s.Vertices != 6 || s.Pixels != 100 || s.BytesCopied != 100 || s.Packets != 11 {
		t.Errorf("stats %+v", s)
	}
	// what a scenario's budgets count: 100 pixels and 100 bytes copied (25
	// pixels), and the instructions
	if px, in := r.g.Budgeted(); px != 125 || in != s.Instructions || in == 0 {
		t.Errorf("Budgeted = %d pixels, %d instructions; Stats %+v", px, in, s)
	}
}

func TestHangAndReset(t *testing.T) {
	r := newRig(t)
	interrupts := 0
	r.g.ConnectInterrupt(func(int) { interrupts++ })
	rt := r.target(8, 8, isa.FmtRGBA8)
	r.exec(&isa.Builder{})
	r.g.InjectHang()
	b := &isa.Builder{}
	rt.clear(b, [4]float32{1, 1, 1, 1})
	b.Fence(2)
	r.g.Submit(0, 2, b.Words)
	b2 := &isa.Builder{}
	b2.Fence(3)
	r.g.Submit(0, 3, b2.Words) // queued behind the hung buffer
	for r.sim.Step() {
	}
	if !r.g.Busy(0) || r.g.CompletedFence(0) != 1 || interrupts != 1 {
		t.Fatalf("after hang: busy %v fence %d interrupts %d", r.g.Busy(0), r.g.CompletedFence(0), interrupts)
	}
	if r.px(rt, 0, 0) != [4]byte{} {
		t.Error("the hung buffer wrote memory")
	}
	r.g.Reset(0)
	if r.g.Busy(0) || r.g.CompletedFence(0) != 1 {
		t.Fatalf("after reset: busy %v fence %d", r.g.Busy(0), r.g.CompletedFence(0))
	}
	for r.sim.Step() {
	}
	if r.g.CompletedFence(0) != 1 || interrupts != 1 {
		t.Errorf("a dropped buffer completed: fence %d interrupts %d", r.g.CompletedFence(0), interrupts)
	}
	// The engine works again.
	r.id = 3
	r.exec(&isa.Builder{})
	if r.g.CompletedFence(0) != 4 || interrupts != 2 {
		t.Errorf("after reset: fence %d interrupts %d", r.g.CompletedFence(0), interrupts)
	}
	var names []string
	for _, e := range r.rec.Events() {
		names = append(names, e.Name)
	}
	got := strings.Join(names, " ")
	want := "DmaBufferStart FenceWrite Interrupt DmaBufferStart EngineReset DmaBufferStart FenceWrite Interrupt"
	if got != want {
		t.Errorf("events %s\nwant %s", got, want)
	}
}

func TestResetDropsRunningBuffer(t *testing.T) {
	r := newRig(t)
	b := &isa.Builder{}
	b.Fence(5)
	r.g.Submit(0, 1, b.Words)
	r.sim.Step() // started, completion pending
	r.g.Reset(0)
	for r.sim.Step() {
	}
	if r.g.CompletedFence(0) != 0 || r.g.Busy(0) {
		t.Errorf("fence %d busy %v", r.g.CompletedFence(0), r.g.Busy(0))
	}
}

func TestBadEngine(t *testing.T) {
	r := newRig(t)
	r.g.Submit(5, 9, nil)
	r.g.Reset(-1)
	if r.g.Busy(7) || r.g.CompletedFence(7) != 0 {
		t.Error("engine 7 exists")
	}
	if fs := r.g.Faults(); len(fs) != 1 || fs[0].DMA != 9 || !strings.Contains(fs[0].Reason, "engine 5") {
		t.Errorf("faults %v", fs)
	}
}

func TestScanout(t *testing.T) {
	r := newRig(t)
	var frames []Frame
	var at []int64
	r.g.OnScanout(func(f Frame) { frames = append(frames, f); at = append(at, r.sim.Now()) })
	rt := target{w: 3, h: 2, pitch: 16, fmt: isa.FmtBGRA8}
	rt.addr = r.alloc(32)
	b := &isa.Builder{}
	rt.clear(b, [4]float32{1, 0.5, 0, 1}) // BGRA bytes 00 80 ff ff
	b.Scanout(rt.addr, 3, 2, 16, isa.FmtBGRA8)
	rt.clear(b, [4]float32{}) // after the scanout: not in the frame
	r.mustExec(b)
	if len(frames) != 1 {
		t.Fatalf("%d frames", len(frames))
	}
	f := frames[0]
	if f.Width != 3 || f.Height != 2 || len(f.Pix) != 24 {
		t.Fatalf("frame %dx%d, %d bytes", f.Width, f.Height, len(f.Pix))
	}
	for i := 0; i < 24; i += 4 {
		if [4]byte(f.Pix[i:i+4]) != [4]byte{255, 128, 0, 255} {
			t.Fatalf("pixel %d = %v, want RGBA ff 80 00 ff", i/4, f.Pix[i:i+4])
		}
	}
	if at[0] == 0 {
		t.Error("scanout shown at the start of the buffer, not on completion")
	}
}

func TestBadPackets(t *testing.T) {
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	vb := r.buffer(vbytes(vtx{}, vtx{}, vtx{}))
	ib := r.buffer([]byte{0, 0, 1, 0, 9, 0})
	draw := func(b *isa.Builder) {
		rt.set(b)
		r.builtins(b, "vs_passthrough", "")
		b.SetVB(0, vb, 3*vertexBytes, vertexBytes, 0)
	}
	hdr := func(op isa.Opcode, n int) uint32 { return uint32(op)<<24 | uint32(n) }
	tests := []struct {
		desc  string
		build func(b *isa.Builder)
		want  string
	}{
		{"unknown opcode", func(b *isa.Builder) { b.Words = append(b.Words, 0xEE000000) }, "unknown opcode"},
		{"bad payload length", func(b *isa.Builder) { b.Words = append(b.Words, hdr(isa.OpDraw, 1), 3) }, "payload words"},
		{"past the end", func(b *isa.Builder) { b.Words = append(b.Words, hdr(isa.OpWrite, 1000), 0, 0, 4) }, "malformed"},
		{"WRITE byte count", func(b *isa.Builder) { b.Words = append(b.Words, hdr(isa.OpWrite, 4), 0, 0, 9, 0) }, "carries 9 bytes"},
		{"RT not committed", func(b *isa.Builder) { b.SetRT(VRAMBase+200<<20, 16, 16, 64, isa.FmtRGBA8) }, "page fault"},
		{"RT null", func(b *isa.Builder) {
			b.SetRT(0, 0, 0, 0, isa.FmtRGBA8)
			b.ClearRT(0, 4, 4, 16, isa.FmtRGBA8, [4]float32{})
		}, "page fault"},
		{"RT zero-sized", func(b *isa.Builder) { b.SetRT(rt.addr, 0, 16, 64, isa.FmtRGBA8) }, "size 0x16"},
		{"RT absurd", func(b *isa.Builder) { b.SetRT(rt.addr, 1<<31, 1<<31, 1<<31, isa.FmtRGBA8) }, "outside 1..16384"},
		{"RT format", func(b *isa.Builder) { b.SetRT(rt.addr, 16, 16, 64, isa.FmtD32F) }, "format D32_FLOAT"},
		{"RT pitch", func(b *isa.Builder) { b.SetRT(rt.addr, 16, 16, 60, isa.FmtRGBA8) }, "pitch 60"},
		{"RT past its extent", func(b *isa.Builder) { b.SetRT(rt.addr, 16, 65, 64, isa.FmtRGBA8) }, "page fault"},
		{"clear past the extent", func(b *isa.Builder) { b.ClearRT(rt.addr+64, 16, 64, 64, isa.FmtRGBA8, [4]float32{}) }, "page fault"},
		{"DS format", func(b *isa.Builder) { b.SetDS(rt.addr, 16, 16, 64, isa.FmtRGBA8) }, "format R8G8B8A8_UNORM"},
		{"VB slot", func(b *isa.Builder) { b.SetVB(99, vb, 36, 36, 0) }, "slot 99"},
		{"VB address", func(b *isa.Builder) { b.SetVB(0, 12345, 36, 36, 0) }, "page fault"},
		{"IB index size", func(b *isa.Builder) { b.SetIB(ib, 6, 3, 0) }, "index size 3"},
		{"CB stage", func(b *isa.Builder) { b.SetCB(6, 0, vb, 16) }, "stage 6"},
		{"texture format", func(b *isa.Builder) { b.SetTex(0, rt.addr, 4, 4, 16, isa.Format(200)) }, "format 200"},
		{"sampler", func(b *isa.Builder) { b.SetSampler(0, 7, 0, 0, 0) }, "filter 7"},
		{"0x08, no opcode (a program is bound with SET_PROGRAM)", func(b *isa.Builder) { b.Words = append(b.Words, hdr(0x08, 2), isa.StageVS, 1) }, "unknown opcode 0x08"},
		{"program stage", func(b *isa.Builder) { b.SetProgram(6, vb, 4, 0) }, "stage 6"},
		{"cull", func(b *isa.Builder) { b.SetRaster(5, false, true) }, "cull mode 5"},
		{"blend factor", func(b *isa.Builder) { b.SetBlend(true, 42, 0, 0, 0, 0, 0, 15) }, "blend factor 42"},
		{"blend op", func(b *isa.Builder) { b.SetBlend(true, 0, 0, 9, 0, 0, 0, 15) }, "blend op 9"},
		{"depth func", func(b *isa.Builder) { b.SetDepth(true, true, 8) }, "depth function 8"},
		{"topology", func(b *isa.Builder) { b.SetTopology(77) }, "topology 77"},
		{"draw without VS", func(b *isa.Builder) { rt.set(b); b.Draw(3, 0) }, "no vertex program"},
		{"draw with only a pixel program", func(b *isa.Builder) {
			rt.set(b)
			r.bind(b, "ps_vertexcolor")
			b.Draw(3, 0)
		}, "no vertex program"},
		{"draw huge", func(b *isa.Builder) { draw(b); b.Draw(1<<31, 0) }, "more than"},
		{"draw undefined topology", func(b *isa.Builder) { draw(b); b.SetTopology(isa.TopoUndefined); b.Draw(3, 0) }, "topology undefined"},
		{"copy from nowhere", func(b *isa.Builder) { b.Copy(rt.addr, 64, 16) }, "page fault: source"},
		{"copy too long", func(b *isa.Builder) { b.Copy(rt.addr, rt.addr+8, 4096) }, "page fault"},
		{"fill not a multiple of 4", func(b *isa.Builder) { b.Fill(rt.addr, 6, 0) }, "multiple of 4"},
		{"write to nowhere", func(b *isa.Builder) { b.Write(0x1234, []byte{1}) }, "page fault"},
		{"query kind", func(b *isa.Builder) { b.Query(isa.NumQueryKinds, rt.addr) }, "query kind 11"},
		{"occlusion end without begin", func(b *isa.Builder) { b.Query(isa.QueryOcclusionEnd, rt.addr) }, "without a begin"},
		{"scanout", func(b *isa.Builder) { b.Scanout(rt.addr, 16, 16, 64, isa.FmtR32F) }, "format R32_FLOAT"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			b := &isa.Builder{}
			tc.build(b)
			before := r.rec.Len()
			fs := r.exec(b) // exec checks that the fence is written
			if !hasFault(fs, tc.want) {
				t.Errorf("faults %v, want one containing %q", fs, tc.want)
			}
			var msgs int
			for _, e := range r.rec.Events()[before:] {
				if e.Name == "GpuFault" && e.Kind == trace.Message && e.DMA == r.id && e.Msg != "" {
					msgs++
				}
			}
			if msgs != len(fs) {
				t.Errorf("%d GpuFault events for %d faults", msgs, len(fs))
			}
		})
	}
}

func TestFaultsPerBufferBounded(t *testing.T) {
	r := newRig(t)
	b := &isa.Builder{}
	for i := 0; i < 100; i++ {
		b.SetTopology(99)
	}
	fs := r.exec(b)
	if len(fs) != maxFaultsPerBuffer+1 || !strings.Contains(fs[len(fs)-1].Reason, "92 more faults") {
		t.Errorf("%d faults, last %v", len(fs), fs[len(fs)-1])
	}
	if n := r.g.Stats().Faults; n != 100 {
		t.Errorf("Stats.Faults = %d, want 100", n)
	}
	if fs[3].Packet != 3 {
		t.Errorf("fault 3 names packet %d", fs[3].Packet)
	}
}

func TestCopyWriteFill(t *testing.T) {
	r := newRig(t)
	a := r.alloc(4096)
	ap := ApertureBase
	if err := r.g.Memory().Commit(ap, 4096); err != nil {
		t.Fatal(err)
	}
	b := &isa.Builder{}
	b.Fill(a, 64, 0xA1B2C3D4)
	b.Write(a+1, []byte{1, 2, 3, 4, 5, 6, 7})
	b.Copy(ap+100, a, 64)       // VRAM -> aperture (a paging transfer)
	b.Copy(a+2, a, 8)           // overlapping: memmove
	b.Write(ap+4095, []byte{9}) // last byte of the extent
	r.mustExec(b)
	want := []byte{0xD4, 1, 0xD4, 1, 2, 3, 4, 5, 6, 7, 0xB2, 0xA1}
	if got := r.mem(a, 12); string(got) != string(want) {
		t.Errorf("VRAM % x\nwant % x", got, want)
	}
	if got := r.mem(ap+100, 8); string(got) != string([]byte{0xD4, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("aperture % x", got)
	}
	if got := r.mem(ap+4095, 1); got[0] != 9 {
		t.Errorf("last byte %d", got[0])
	}
	if s := r.g.Stats(); s.BytesCopied != 64+7+64+8+1 {
		t.Errorf("BytesCopied = %d", s.BytesCopied)
	}
}

func TestQueries(t *testing.T) {
	r := newRig(t)
	rt := r.target(32, 32, isa.FmtRGBA8)
	ds := r.target(32, 32, isa.FmtD32F)
	q := r.alloc(64)
	quad := func(x0, y0, x1, y1, z float32) []vtx {
		c := [4]float32{1, 1, 1, 1}
		v := func(x, y float32) vtx { p := pxv(x, y, 32, 32, c); p[2] = z; return p }
		return []vtx{v(x0, y0), v(x1, y0), v(x0, y1), v(x1, y0), v(x1, y1), v(x0, y1)}
	}
	// Buffer 1: clear depth to 0.5, begin. Buffer 2: a 10x10 quad in
	// front and a 4x4 one behind. Buffer 3: end.
	b := &isa.Builder{}
	ds.setDS(b)
	b.ClearDS(ds.addr, 32, 32, 128, isa.FmtD32F, 0.5)
	b.Query(isa.QueryOcclusionBegin, q)
	r.mustExec(b)
	b = r.scene(rt, "ps_vertexcolor", append(quad(0, 0, 10, 10, 0.25), quad(20, 20, 24, 24, 0.75)...))
	ds.setDS(b)
	b.SetDepth(true, true, isa.CmpLess)
	b.Draw(12, 0)
	b.Query(isa.QueryTimestamp, q+8)
	r.mustExec(b)
	b = &isa.Builder{}
	b.Query(isa.QueryOcclusionEnd, q)
	r.mustExec(b)
	if got := binary.LittleEndian.Uint64(r.mem(q, 8)); got != 100 {
		t.Errorf("occlusion query = %d, want 100", got)
	}
	var start int64
	for _, e := range r.rec.Events() {
		if e.Name == "DmaBufferStart" && e.DMA == 2 {
			start = e.T
		}
	}
	// Timestamp after 11 packets (7 scene, SET_DS, SET_DEPTH, DRAW, QUERY) and the draw.
	want := uint64(start + 2000 + 11*40 + 12*4 + 116*1)
	if got := binary.LittleEndian.Uint64(r.mem(q+8, 8)); got != want {
		t.Errorf("timestamp = %d, want %d", got, want)
	}
}

// TestConcurrentUse calls the GPU from real goroutines while buffers run, as
// the free-threaded D3D11 entry points may (run it with -race).
func TestConcurrentUse(t *testing.T) {
	r := newRig(t)
	rt := r.target(32, 32, isa.FmtRGBA8)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m := r.g.Memory()
			a := ApertureBase + uint64(i)<<20
			for k := 0; ; k++ {
				select {
				case <-done:
					return
				default:
				}
				if err := m.Commit(a, 4096); err != nil {
					t.Error(err)
					return
				}
				m.Bytes(a, 16)
				m.Committed()
				r.g.Stats()
				r.g.Faults()
				r.g.CompletedFence(0)
				r.g.Busy(1)
				if err := m.Decommit(a); err != nil {
					t.Error(err)
					return
				}
			}
		}(i)
	}
	for i := 0; i < 20; i++ {
		b := r.scene(rt, "ps_vertexcolor", quadVerts(0, 0, 32, 32, 32, 32, white))
		b.Draw(6, 0)
		b.SetTopology(99) // a fault too
		r.exec(b)
	}
	close(done)
	wg.Wait()
}

func TestOcclusionBeginEndAddresses(t *testing.T) {
	// An end at another address than its begin matches the latest open
	// begin; an end at a begin's address matches that one (nested queries).
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	q := r.alloc(64)
	draw := func(b *isa.Builder, n float32) { // an n x n pixel quad
		b.SetVB(0, r.buffer(vbytes(quadVerts(0, 0, n, n, 16, 16, white)...)), 6*vertexBytes, vertexBytes, 0)
		b.Draw(6, 0)
	}
	b := r.scene(rt, "ps_vertexcolor", nil)
	b.Query(isa.QueryOcclusionBegin, q+8) // outer: begin at +8, end at +0
	draw(b, 2)
	b.Query(isa.QueryOcclusionBegin, q+16) // inner: same address
	draw(b, 3)
	b.Query(isa.QueryOcclusionEnd, q+16)
	b.Query(isa.QueryOcclusionEnd, q)
	r.mustExec(b)
	if got := binary.LittleEndian.Uint64(r.mem(q, 8)); got != 4+9 {
		t.Errorf("outer query %d, want 13", got)
	}
	if got := binary.LittleEndian.Uint64(r.mem(q+16, 8)); got != 9 {
		t.Errorf("inner query %d, want 9", got)
	}
}
