package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"encoding/binary"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// isaPrograms assembles the built-in programs (builtins.go) into memory:
// their address and size in words, by stage and built-in program.
func (r *rig) isaPrograms() map[[2]uint32][2]uint64 {
	r.t.Helper()
	out := map[[2]uint32][2]uint64{}
	for k, src := range builtinSource {
		p, err := shader.Assemble(src)
		if err != nil {
			r.t.Fatalf("%v: %v", k, err)
		}
		w := p.Encode()
		b := make([]byte, 4*len(w))
		for i, x := range w {
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
		out[k] = [2]uint64{r.buffer(b), uint64(len(w))}
	}
	return out
}

// toISA rewrites a buffer of built-in-program draws into one that draws
// with the built-in programs in the ISA: every SET_SHADER becomes a
// SET_PROGRAM of the same program from memory (ProgPSFault stays built in:
// its warning colour is the fixed-function pipeline's), and the buffer
// starts with the built-in vertex's layout.
func (r *rig) toISA(words []uint32) []uint32 {
	r.t.Helper()
	progs := r.isaPrograms()
	pkts, err := isa.Decode(words)
	if err != nil {
		r.t.Fatal(err)
	}
	b := &isa.Builder{}
	b.SetLayout(isa.BuiltinLayout())
	for _, p := range pkts {
		if p.Op == isa.OpSetShader && !(p.Args[0] == isa.StagePS && p.Args[1] == isa.ProgPSFault) {
			pr, ok := progs[[2]uint32{p.Args[0], p.Args[1]}]
			if !ok {
				r.t.Fatalf("no ISA program for %v", p)
			}
			sys := uint32(0)
			b.SetProgram(p.Args[0], pr[0], uint32(pr[1]), sys)
			continue
		}
		b.Words = append(b.Words, words[p.At:p.At+1+len(p.Args)]...)
	}
	return b.Words
}

// TestGoldenISA draws every golden scene with the built-in programs written
// in the ISA, bound from memory with SET_PROGRAM and fetched through
// SET_LAYOUT, and wants the golden images' pixels, bit for bit.
func TestGoldenISA(t *testing.T) {
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
			b.SetShader(isa.StageVS, isa.ProgVSPassthrough)
			b.SetShader(isa.StagePS, isa.ProgPSVertexColor)
			b.SetRaster(isa.CullNone, false, true)
			gd.draw(r, rt, b)
			b.Words = r.toISA(b.Words)
			for _, f := range r.exec(b) {
				if !strings.Contains(gd.name, "fault") {
					t.Errorf("fault: %v", f)
				}
			}
			pix := r.rgba(rt)
			want, err := os.ReadFile(filepath.Join("testdata", gd.name+".sha256"))
			if err != nil {
				t.Fatal(err)
			}
			if got := pixHash(pix); got != strings.TrimSpace(string(want)) {
				n, first := diffGolden(t, gd.name, pix)
				t.Errorf("ISA draw differs from the golden image in %d pixels, first %v", n, first)
			}
		})
	}
}

// diffGolden counts the pixels of pix that differ from testdata/NAME.png.
func diffGolden(t *testing.T, name string, pix []byte) (int, [2]int) {
	t.Helper()
	img := readPNG(t, filepath.Join("testdata", name+".png"))
	n, first := 0, [2]int{-1, -1}
	w := img.Rect.Dx()
	for i := 0; i+4 <= len(pix) && i+4 <= len(img.Pix); i += 4 {
		if string(pix[i:i+4]) != string(img.Pix[i:i+4]) {
			if n == 0 {
				first = [2]int{i / 4 % w, i / 4 / w}
				t.Logf("pixel %v: ISA %v, golden %v", first, pix[i:i+4], img.Pix[i:i+4])
			}
			n++
		}
	}
	return n, first
}

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gi, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	gr := image.NewRGBA(gi.Bounds())
	draw.Draw(gr, gr.Rect, gi, gi.Bounds().Min, draw.Src)
	return gr
}
