package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// rig is a GPU with its simulation and recorder, and a bump allocator over
// committed VRAM, for tests.
type rig struct {
	t    testing.TB
	sim  *sim.Sim
	rec  *trace.Recorder
	g    *GPU
	next uint64
	id   uint64

	progs map[string][2]uint64 // reference programs in memory (bind): address, words
}

func newRig(t testing.TB) *rig {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	// PaintPageFaults: these tests watch the command processor finish every
	// buffer, faults included; pagefault_test.go tests the engine stopping.
	g := New(Config{VRAM: 256 << 20, Aperture: 64 << 20, Engines: 2, PaintPageFaults: true, PaintEndlessLoops: true}, s, rec)
	checkKeptPipes(t, g)
	// every replayed draw's inputs are the draw's it replays (drawmemo.go)
	g.ex.draw.memo.verify = func(what string) { t.Errorf("a replayed draw's %s are not the kept draw's", what) }
	return &rig{t: t, sim: s, rec: rec, g: g, next: VRAMBase}
}

// alloc commits size bytes (rounded up to 4 KiB) of VRAM.
func (r *rig) alloc(size int) uint64 {
	r.t.Helper()
	n := (uint64(size) + 4095) &^ 4095
	if n == 0 {
		n = 4096
	}
	a := r.next
	if err := r.g.Memory().Commit(a, n); err != nil {
		r.t.Fatal(err)
	}
	r.next += n
	return a
}

func (r *rig) mem(addr uint64, n int) []byte {
	r.t.Helper()
	b, ok := r.g.Memory().Bytes(addr, uint64(n))
	if !ok {
		r.t.Fatalf("no memory at %#x+%d", addr, n)
	}
	return b
}

// buffer commits and fills a buffer with data.
func (r *rig) buffer(data []byte) uint64 {
	a := r.alloc(len(data))
	copy(r.mem(a, len(data)), data)
	return a
}

// exec submits the words with a fence on engine 0 and runs the simulation
// until the fence is written. It returns the faults the buffer produced.
func (r *rig) exec(b *isa.Builder) []Fault {
	r.t.Helper()
	before := len(r.g.Faults())
	r.id++
	id := r.id
	b.Fence(id)
	r.g.Submit(0, id, b.Words)
	if !r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= id }) {
		r.t.Fatalf("buffer %d never completed", id)
	}
	return r.g.Faults()[before:]
}

// mustExec is exec that fails on any fault.
func (r *rig) mustExec(b *isa.Builder) {
	r.t.Helper()
	for _, f := range r.exec(b) {
		r.t.Errorf("unexpected fault: %v", f)
	}
}

// target is a render target (or any 2D surface) in VRAM.
type target struct {
	addr  uint64
	w, h  int
	pitch int
	fmt   isa.Format
}

func (r *rig) target(w, h int, fm isa.Format) target {
	t := target{w: w, h: h, pitch: 4 * w, fmt: fm}
	t.addr = r.alloc(t.pitch * h)
	return t
}

func (t target) set(b *isa.Builder) {
	b.SetRT(t.addr, uint32(t.w), uint32(t.h), uint32(t.pitch), t.fmt)
}

func (t target) setDS(b *isa.Builder) {
	b.SetDS(t.addr, uint32(t.w), uint32(t.h), uint32(t.pitch), t.fmt)
}

func (t target) clear(b *isa.Builder, c [4]float32) {
	b.ClearRT(t.addr, uint32(t.w), uint32(t.h), uint32(t.pitch), t.fmt, c)
}

// px returns the 4 bytes of pixel (x, y).
func (r *rig) px(t target, x, y int) [4]byte {
	b := r.mem(t.addr+uint64(y*t.pitch+4*x), 4)
	return [4]byte{b[0], b[1], b[2], b[3]}
}

// rgba returns the target's pixels as tightly packed RGBA8.
func (r *rig) rgba(t target) []byte {
	out := make([]byte, 4*t.w*t.h)
	for y := 0; y < t.h; y++ {
		copy(out[4*t.w*y:], r.mem(t.addr+uint64(y*t.pitch), 4*t.w))
	}
	if t.fmt == isa.FmtBGRA8 {
		for i := 0; i < len(out); i += 4 {
			out[i], out[i+2] = out[i+2], out[i]
		}
	}
	return out
}

// vtx is the built-in vertex: x y z, r g b a, u v.
type vtx [9]float32

func vbytes(vs ...vtx) []byte {
	b := make([]byte, 0, len(vs)*vertexBytes)
	for _, v := range vs {
		for _, f := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	return b
}

func f32bytes(fs ...float32) []byte {
	var b []byte
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// pxv makes a vertex from pixel coordinates of a w x h viewport at (0, 0).
func pxv(x, y float32, w, h int, c [4]float32) vtx {
	return vtx{2*x/float32(w) - 1, 1 - 2*y/float32(h), 0.5, c[0], c[1], c[2], c[3], 0, 0}
}

// bind binds the reference program name (builtins.go: vs_passthrough,
// ps_vertexcolor, ...) to its stage with SET_PROGRAM, SV_Position in
// register 0; the rig assembles each into memory once.
func (r *rig) bind(b *isa.Builder, name string) {
	r.t.Helper()
	src := BuiltinSource(name)
	if src == "" {
		r.t.Fatalf("no reference program %q", name)
	}
	pr, ok := r.progs[name]
	if !ok {
		a, n := r.program(src)
		pr = [2]uint64{a, uint64(n)}
		if r.progs == nil {
			r.progs = map[string][2]uint64{}
		}
		r.progs[name] = pr
	}
	stage := uint32(isa.StagePS)
	if strings.HasPrefix(name, "vs_") {
		stage = isa.StageVS
	}
	b.SetProgram(stage, pr[0], uint32(pr[1]), 0)
}

// builtins sets the built-in vertex's layout and binds the reference
// programs vs and ps ("" for no pixel program: a depth-only draw).
func (r *rig) builtins(b *isa.Builder, vs, ps string) {
	r.t.Helper()
	b.SetLayout(isa.BuiltinLayout())
	r.bind(b, vs)
	if ps != "" {
		r.bind(b, ps)
	}
}

// scene starts a buffer that draws into t with vs_passthrough and the
// reference pixel program ps ("" for none), full-target viewport, culling
// off, vertices vs in VB slot 0.
func (r *rig) scene(t target, ps string, vs []vtx) *isa.Builder {
	r.t.Helper()
	b := &isa.Builder{}
	t.set(b)
	b.SetViewport(0, 0, float32(t.w), float32(t.h), 0, 1)
	r.builtins(b, "vs_passthrough", ps)
	b.SetRaster(isa.CullNone, false, true)
	if len(vs) > 0 {
		data := vbytes(vs...)
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	}
	return b
}

// counter sets up additive blending of a solid 1/255 so every write adds one
// to the red channel.
func (r *rig) counter(b *isa.Builder) {
	cb := r.buffer(f32bytes(1.0/255, 0, 0, 0))
	b.SetCB(isa.StagePS, 0, cb, 16)
	r.bind(b, "ps_solid")
	b.SetBlend(true, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
}

func hasFault(fs []Fault, sub string) bool {
	for _, f := range fs {
		if strings.Contains(f.Reason, sub) {
			return true
		}
	}
	return false
}

// rightTriangle is a random triangle in subpixel units, inside 64x64
// pixels: a right one with legs along x and y of at most legs pixels (so
// its weights go per row and per column), in any orientation and vertex
// order, or, one time in anyEvery, one with a vertex anywhere.
func rightTriangle(r *rand.Rand, legs, anyEvery int) [][2]int64 {
	x0, y0 := int64(r.IntN(40<<subBits)), int64(r.IntN(40<<subBits))
	dx, dy := int64(r.IntN(legs<<subBits)+1), int64(r.IntN(legs<<subBits)+1)
	pts := [][2]int64{{x0, y0}, {x0 + dx, y0}, {x0, y0 + dy}}
	if r.IntN(2) == 0 {
		pts[1], pts[2] = pts[2], pts[1]
	}
	if r.IntN(anyEvery) == 0 {
		pts[2] = [2]int64{int64(r.IntN(64 << subBits)), int64(r.IntN(64 << subBits))}
	}
	k := r.IntN(3)
	pts[0], pts[k] = pts[k], pts[0]
	return pts
}
