package gpu

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"d3dsim/gpu/isa"
)

// A run of draws in one buffer reuses the pipe while nothing between them
// changes the state, and prepares it again after every state packet: the
// pictures are those of the same draws with the cache off (every draw
// prepares its pipe), state changes between them included.
func TestPipeCacheFollowsState(t *testing.T) {
	red, green := [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 0.5}
	tri := func(x0, y0 float32, c [4]float32) []vtx {
		return []vtx{pxv(x0, y0, 32, 32, c), pxv(x0+12, y0, 32, 32, c), pxv(x0, y0+12, 32, 32, c)}
	}
	var vs []vtx
	vs = append(vs, tri(1, 1, red)...)
	vs = append(vs, tri(10, 4, green)...)
	vs = append(vs, tri(18, 18, red)...)
	// steps are the packets between the draws of the three triangles, drawn
	// twice each: none, a viewport, a blend, another target.
	type step func(b *isa.Builder, a, c target)
	steps := []step{
		func(b *isa.Builder, a, c target) {},
		func(b *isa.Builder, a, c target) { b.SetViewport(4, 2, 24, 24, 0, 1) },
		func(b *isa.Builder, a, c target) {
			b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
		},
		func(b *isa.Builder, a, c target) { c.set(b) },
		func(b *isa.Builder, a, c target) { b.SetScissor(0, 0, 0, 20, 30) },
	}
	draw := func(cache bool) (pics [2][]byte, hits uint64) {
		r := newRig(t)
		r.g.ex.draw.pipeCache.off = !cache
		a, c := r.target(32, 32, isa.FmtRGBA8), r.target(32, 32, isa.FmtBGRA8)
		b := r.scene(a, "ps_vertexcolor", vs)
		c.clear(b, [4]float32{0, 0, 0.25, 1})
		a.clear(b, [4]float32{0, 0, 0.25, 1})
		for _, st := range steps {
			st(b, a, c)
			for k := range 3 {
				b.Draw(3, uint32(3*k))
				b.Draw(3, uint32(3*k))
			}
		}
		r.mustExec(b)
		return [2][]byte{r.rgba(a), r.rgba(c)}, r.g.ex.draw.pipeCache.hits
	}
	got, hits := draw(true)
	want, none := draw(false)
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("target %d: the draws differ from the same draws with every pipe prepared", i)
		}
	}
	if none != 0 {
		t.Errorf("the cache off, %d draws took the last draw's pipe", none)
	}
	// Each step's six draws: the first prepares the pipe, the other five
	// take the copy.
	if want := uint64(5 * len(steps)); hits != want {
		t.Errorf("%d draws took the last draw's pipe, want %d", hits, want)
	}
}

// A draw that follows another with the same programs and no packet between
// them takes what prepareProgram set for the last one (preparedProgs); a
// packet between them — here the same programs bound again with other
// system values, the position in another register, another pixel program —
// makes it prepare in full. The pictures are those of the same draws with
// every draw preparing its programs.
func TestPreparedProgramsFollowState(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	vs := []vtx{pxv(1, 1, 32, 32, red), pxv(20, 2, 32, 32, red), pxv(3, 25, 32, 32, red)}
	got, want, hits, none := drawOnOff(t, vs, func(r *rig, on bool) { r.g.ex.draw.pipeCache.off = !on },
		// (a draw of a triangle of one point replays the last one:
		// drawmemo.go; it would have taken the preparation)
		func(r *rig) uint64 { return r.g.ex.draw.prog.prepared.hits + r.g.ex.draw.memo.hits },
		func(r *rig, b *isa.Builder) []func() {
			// The same code read two ways: its SV_Position in o0 (the
			// triangle where the vertices say, coloured by their texture
			// coordinates), or in o1 (the colour taken for the position).
			prog, n := r.program("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1\nmov o2, v2")
			return []func(){
				func() {},
				func() { b.SetProgram(isa.StageVS, prog, n, 0) },
				func() { b.SetProgram(isa.StageVS, prog, n, 1) },
				func() { r.bind(b, "ps_solid") },
				func() { b.SetProgram(isa.StageVS, prog, n, 0) },
			}
		},
		func(b *isa.Builder) {
			for range 3 {
				b.Draw(3, 0)
			}
		})
	if !bytes.Equal(got, want) {
		t.Error("the draws differ from the same draws with every draw's programs prepared")
	}
	if none != 0 {
		t.Errorf("the cache off, %d draws took the last draw's preparation", none)
	}
	if hits != 2*5 {
		t.Errorf("%d draws took the last draw's preparation, want 10 (two of each step's three)", hits)
	}
}

// drawOnOff draws, on a 32x32 target with vs (ps_vertexcolor), each of
// steps' state changes followed by draws, twice: with a path on and off
// (set); it returns the two pictures and what hits counted in each.
func drawOnOff(t *testing.T, vs []vtx, set func(r *rig, on bool), hits func(r *rig) uint64,
	steps func(r *rig, b *isa.Builder) []func(), draws func(b *isa.Builder)) (got, want []byte, on, off uint64) {
	draw := func(path bool) ([]byte, uint64) {
		r := newRig(t)
		set(r, path)
		a := r.target(32, 32, isa.FmtRGBA8)
		b := r.scene(a, "ps_vertexcolor", vs)
		a.clear(b, [4]float32{0, 0, 0.25, 1})
		for _, st := range steps(r, b) {
			st()
			draws(b)
		}
		r.mustExec(b)
		return r.rgba(a), hits(r)
	}
	got, on = draw(true)
	want, off = draw(false)
	return got, want, on, off
}

// ptrWord is a pointer word of a type: its offset and where it is.
type ptrWord struct {
	off  uintptr
	path string
}

// pointerWords lists the words of t (at base) that the collector reads as
// pointers.
func pointerWords(t reflect.Type, base uintptr, path string, out *[]ptrWord) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Chan, reflect.UnsafePointer, reflect.Slice, reflect.String:
		*out = append(*out, ptrWord{base, path})
	case reflect.Interface:
		*out = append(*out, ptrWord{base, path + ".type"}, ptrWord{base + unsafe.Sizeof(uintptr(0)), path + ".data"})
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			pointerWords(f.Type, base+f.Offset, path+"."+f.Name, out)
		}
	case reflect.Array:
		for i := range t.Len() {
			pointerWords(t.Elem(), base+uintptr(i)*t.Elem().Size(), fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

// TestAlignPipePtrs: alignPipePtrs gives dst every pointer word of src (a
// pointer, a slice's array, the check func), so that setPipe's copy of the
// bytes writes no pointer the collector has not seen. A pointer field added
// to pipe, or to a struct inside it, without its line in alignPipePtrs
// fails here, by name.
func TestAlignPipePtrs(t *testing.T) {
	var words []ptrWord
	pointerWords(reflect.TypeFor[pipe](), 0, "pipe", &words)
	if len(words) < 20 {
		t.Fatalf("found %d pointer words in a pipe: the walk is broken", len(words))
	}
	// Each of src's pointer words points somewhere distinct in one
	// allocation (the collector sees valid pointers; nothing calls or
	// reads through them).
	backing := make([]byte, len(words)+1)
	src, dst := new(pipe), new(pipe)
	for i, w := range words {
		*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(src), w.off)) = unsafe.Pointer(&backing[i])
	}
	alignPipePtrs(dst, src)
	for _, w := range words {
		got := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(dst), w.off))
		want := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(src), w.off))
		if got != want {
			t.Errorf("%s (offset %d) not assigned by alignPipePtrs", w.path, w.off)
		}
	}
	runtime.KeepAlive(backing)
	// Scalars too, through setPipe.
	src = &pipe{sx1: 64, sy1: 48, hi: 8, depthOut: 3, cols: new(colTerms), zmax: 1, tileable: true}
	src.ms.pos[1][0] = 7
	dst = &pipe{pv: new([numAttr]float64), nrt: 2}
	setPipe(dst, src)
	if !reflect.DeepEqual(dst, src) {
		t.Fatalf("setPipe: %+v, want %+v", dst, src)
	}
}

// checkKeptPipes makes every draw of g that keeps its pipe (pipeCache.kept)
// compare it, once keepPipe has reset it, with the copy it did not make,
// and fail t naming the first field that differs: a field a draw changes
// that keepPipe leaves. newRig installs it in every test of the package.
func checkKeptPipes(t testing.TB, g *GPU) {
	if _, ok := t.(*testing.T); !ok {
		return // (benchmarks time the draws as they run)
	}
	c := &g.ex.draw.pipeCache
	failed := false
	c.check = func(kept *pipe) {
		if failed {
			return
		}
		if f := keptDiff(kept, &c.pipe); f != "" {
			failed = true
			t.Errorf("a draw kept the pipe with %s changed since its copy (keepPipe does not reset it)", f)
		}
	}
}

// keptDiff names the field in which a kept pipe, once keepPipe has reset
// it, differs from the copy of the pipe it stands for (the scratch rows and
// earlyPass left out), or "".
func keptDiff(kept, copied *pipe) string {
	a, b := *kept, *copied
	keepPipe(&a, &b)
	a.rows, b.rows = [blk]rowSpan{}, [blk]rowSpan{}
	clear(a.earlyPass[:])
	clear(b.earlyPass[:])
	return pipeDiff(&a, &b)
}

// pipeDiff names the field of a pipe in which a and b differ, byte by
// byte, or "".
func pipeDiff(a, b *pipe) string {
	ab := (*[unsafe.Sizeof(pipe{})]byte)(unsafe.Pointer(a))
	bb := (*[unsafe.Sizeof(pipe{})]byte)(unsafe.Pointer(b))
	for i := range ab {
		if ab[i] != bb[i] {
			return fieldAt(reflect.TypeFor[pipe](), uintptr(i), "pipe")
		}
	}
	return ""
}

// fieldAt names the field of t at byte off.
func fieldAt(t reflect.Type, off uintptr, path string) string {
	if t.Kind() != reflect.Struct {
		return path
	}
	for i := range t.NumField() {
		if f := t.Field(i); off >= f.Offset && off < f.Offset+f.Type.Size() {
			return fieldAt(f.Type, off-f.Offset, path+"."+f.Name)
		}
	}
	return path + " (padding)"
}

// TestKeptPipe: the check newRig installs fails for a field a draw changes
// that keepPipe does not reset (here the fast flag, changed behind the
// cache's back between two draws of one generation), and the draws scene's kind of
// draw — the same state draw after draw — keeps the pipe.
func TestKeptPipe(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	vs := []vtx{pxv(1, 1, 32, 32, red), pxv(20, 2, 32, 32, red), pxv(3, 25, 32, 32, red)}
	r := newRig(t)
	a := r.target(32, 32, isa.FmtRGBA8)
	b := r.scene(a, "ps_vertexcolor", vs)
	for range 4 {
		b.Draw(3, 0)
	}
	r.mustExec(b)
	if c := &r.g.ex.draw.pipeCache; c.kepts != 3 {
		t.Errorf("%d draws kept the pipe, want 3 (all but the first, which made it)", c.kepts)
	}

	c := &r.g.ex.draw.pipeCache
	var found string
	c.check = func(kept *pipe) {
		if found == "" {
			kept.fast = !kept.fast // what a draw that changed the pipe would leave
			found = keptDiff(kept, &c.pipe)
		}
	}
	b = r.scene(a, "ps_vertexcolor", vs)
	for range 3 {
		b.Draw(3, 0)
	}
	r.mustExec(b)
	if found != "pipe.fast" {
		t.Errorf("a kept pipe with its fast flag changed: pipeDiff found %q, want pipe.fast", found)
	}
}
