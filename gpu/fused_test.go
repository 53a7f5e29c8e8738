package gpu

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// The fused texture × colour block against the machine running the same
// program: every word of the target must be the same.

// randFusedProgram is a random program of the fused pattern: sample into a
// temp (all of it, or the components the mul reads), mul by an input in
// either order, straight into o0 or into a temp moved to o0, any swizzles,
// texture and sampler slots, and now and then _sat on the mul.
func randFusedProgram(r *rand.Rand) string {
	swz := func() string {
		s := ""
		for range 4 {
			s += string("xyzw"[r.IntN(4)])
		}
		return s
	}
	tsw := "xyzw"
	if r.IntN(2) == 0 {
		tsw = swz()
	}
	mask := "xyzw"
	if r.IntN(3) == 0 {
		mask = ""
		for _, c := range "xyzw" {
			if strings.ContainsRune(tsw, c) || r.IntN(2) == 0 {
				mask += string(c)
			}
		}
	}
	coord := fmt.Sprintf("v%d.%s", r.IntN(4), swz())
	if r.IntN(3) == 0 {
		coord = "v2.xyxx"
	}
	sample := fmt.Sprintf("sample r0.%s, %s, t%d.%s, s%d", mask, coord, r.IntN(numTex), swz(), r.IntN(numSamplers))
	ops := [2]string{"r0." + tsw, fmt.Sprintf("v%d.%s", r.IntN(4), swz())}
	if r.IntN(2) == 0 {
		ops[0], ops[1] = ops[1], ops[0]
	}
	mul := "mul"
	if r.IntN(4) == 0 {
		mul = "mul_sat"
	}
	if r.IntN(3) == 0 {
		return fmt.Sprintf("ps inputs=4 outputs=1 temps=2\n%s\n%s r1, %s, %s\nmov o0, r1.%s", sample, mul, ops[0], ops[1], swz())
	}
	return fmt.Sprintf("ps inputs=4 outputs=1 temps=1\n%s\n%s o0, %s, %s", sample, mul, ops[0], ops[1])
}

// fusedTexture is a random 8-bit texture (sizes down to one texel, rows
// padded or not, either byte order) and sampler (both filters, any
// address modes, a border of any floats).
func fusedTexture(r *rand.Rand) (surface, sampler) {
	sizes := [][2]int{{1, 1}, {1, 5}, {7, 3}, {2, 2}, {64, 64}, {13, 8}, {5, 40}, {256, 3}}
	sz := sizes[r.IntN(len(sizes))]
	w, h := sz[0], sz[1]
	pitch := 4*w + 4*r.IntN(3)
	tex := surface{mem: make([]byte, pitch*h), w: w, h: h, pitch: pitch, fmt: isa.FmtRGBA8, bpp: 4}
	if r.IntN(2) == 0 {
		tex.fmt = isa.FmtBGRA8
	}
	for i := range tex.mem {
		tex.mem[i] = byte(r.Uint32())
	}
	sm := sampler{filter: uint32(r.IntN(2)), u: uint32(r.IntN(4)), v: uint32(r.IntN(4))}
	for k := range sm.border {
		sm.border[k] = r.Float32()
		if r.IntN(4) == 0 {
			sm.border[k] = oddFloats[r.IntN(len(oddFloats))]
		}
	}
	return tex, sm
}

func TestFusedMatchesProgram(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 4))
	const tw, th = 72, 72 // the target, in words
	var routes [2][2]int  // [route][weights per row and column]
	partial, point := 0, 0
	iters := 10000
	if testing.Short() {
		iters = 1000 // make race
	}
	for iter := range iters {
		src := randFusedProgram(r)
		prog, err := shaderisa.Assemble(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		ps := &progState{psPos: -1, psIn: prog.Inputs}
		e := ps.program(progBytes(prog.Encode()))
		if e.err != nil || !e.fused.ok {
			t.Fatalf("%s: not the fused pattern (%v)", src, e.err)
		}
		st := &state{}
		tex, sm := fusedTexture(r)
		st.tex[isa.StagePS][e.fused.tex], st.smp[isa.StagePS][e.fused.smp] = tex, sm
		ps.ps, ps.tex[isa.StagePS], ps.consts[isa.StagePS] = e, texUnit{st: st, stage: isa.StagePS}, cbView{bufs: &st.cb[isa.StagePS]}
		if err := e.m.Bind(&ps.consts[isa.StagePS], &ps.tex[isa.StagePS]); err != nil {
			t.Fatal(err)
		}
		p := &pipe{sx1: tw, sy1: th, lo: 0, hi: 4 * prog.Inputs, color: true, kind: spanProgram, prog: ps}
		p.rt.fmt = isa.FmtRGBA8
		if r.IntN(2) == 0 {
			p.rt.fmt = isa.FmtBGRA8
		}
		p.blk, p.m = &ps.block, e.m
		blk := p.blk
		words := make([]uint32, tw*th)
		blk.words, blk.wp = words, tw
		for l := range blk.off {
			blk.off[l] = laneXY[l][1]*tw + laneXY[l][0]
		}

		// A triangle: a right one with legs along x and y (weights per
		// row and column) or any, its coordinates anything, linear in x
		// and y, or constant, its colours in [0, 1] or not.
		pts := rightTriangle(r, 24, 4)
		uvMode, odd := r.IntN(5), r.IntN(4) == 0
		su, sv := r.Float64()*3, r.Float64()*3
		ou, ov := r.Float64()*2-1, r.Float64()*2-1
		var vs [3]svert
		for i := range vs {
			vs[i] = svert{x: pts[i][0], y: pts[i][1], z: 0.5, w: 1}
			if r.IntN(40) == 0 {
				vs[i].w = 0.5 + r.Float64() // perspective: not fused
			}
			for a := range 16 {
				switch {
				case odd && r.IntN(5) == 0:
					vs[i].a[a] = float64(oddFloats[r.IntN(len(oddFloats))])
				case odd:
					vs[i].a[a] = r.Float64()*3 - 1
				default:
					vs[i].a[a] = r.Float64()
				}
				if a%4 < 2 {
					switch uvMode {
					case 1: // u along x, v along y
						fx, fy := float64(pts[i][0])/(64<<subBits), float64(pts[i][1])/(64<<subBits)
						if a%4 == 0 {
							vs[i].a[a] = ou + su*fx
						} else {
							vs[i].a[a] = ov + sv*fy
						}
					case 2: // constant
						vs[i].a[a] = []float64{ou, ov}[a%4]
					case 3: // zero: the lanes' coordinates zeros of either sign
						vs[i].a[a] = 0
					}
				}
			}
		}
		tr := planedTri()
		if !tr.setup(&vs[0], &vs[1], &vs[2], isa.CullNone, false, p) {
			continue
		}
		tx := (tr.x0 + r.IntN(max(tr.x1-tr.x0, 1))) &^ 7
		ty := (tr.y0 + r.IntN(max(tr.y1-tr.y0, 1))) &^ 7
		if tx+8 > tw || ty+8 > th {
			continue
		}
		mask := randMask(r) | 1<<r.IntN(shader.Lanes)
		blk.lazy = r.IntN(4) != 0

		for i := range words {
			words[i] = uint32(i) * 0x9E3779B9
		}
		blk.fused.on = false
		p.shaded, p.passed = 0, 0
		p.shadeBlock(&tr, tx, ty, mask)
		want := append([]uint32(nil), words...)
		wantShaded, wantPassed := p.shaded, p.passed

		for i := range words {
			words[i] = uint32(i) * 0x9E3779B9
		}
		blk.fused = fusedBlock{}
		blk.fused.bind(&e.fused, &st.tex[isa.StagePS][e.fused.tex], &st.smp[isa.StagePS][e.fused.smp])
		p.shaded, p.passed = 0, 0
		p.shadeBlock(&tr, tx, ty, mask)
		if p.shaded != wantShaded || p.passed != wantPassed {
			t.Fatalf("iteration %d: shaded %d passed %d, the program %d and %d", iter, p.shaded, p.passed, wantShaded, wantPassed)
		}
		for i := range words {
			if words[i] != want[i] {
				x, y := i%tw, i/tw
				l := -1
				if x >= tx && x < tx+8 && y >= ty && y < ty+8 {
					l = shader.QuadLane(x-tx, y-ty)
				}
				t.Fatalf("iteration %d, %s\ntexture %dx%d pitch %d format %d, sampler %+v, triangle %v, block (%d, %d) mask %#x (kinds %v): pixel (%d, %d), lane %d: %#08x, the program %#08x",
					iter, src, tex.w, tex.h, tex.pitch, tex.fmt, sm, pts, tx, ty, mask, blk.kind, x, y, l, words[i], want[i])
			}
		}
		if !tr.persp {
			ri, _ := p.order()
			sep := 0
			if blk.kind[0] != perLane {
				sep = 1
			}
			routes[p.fusedRun(&tr, tx, ty, mask, ri)][sep]++
			if mask != shader.AllLanes {
				partial++
			}
			if sm.filter == isa.FilterPoint {
				point++
			}
		}
	}
	t.Logf("blocks: texels per column and row %v, lane by lane %v (weights per lane, per row and column); %d partial, %d point",
		routes[fusedSeparable], routes[fusedPerLane], partial, point)
	for _, n := range [...]int{routes[0][0], routes[0][1], routes[1][0], routes[1][1], partial / 10, point / 10} {
		if n < 100*iters/10000 {
			t.Fatalf("too few blocks of a kind: %v, %d partial, %d point", routes, partial, point)
		}
	}
}

// The pattern is recognised from the decoded program's structure, whatever
// the registers, slots and swizzles, and nothing else is taken for it.
func TestFusedProgram(t *testing.T) {
	head := "ps inputs=4 outputs=2 temps=2\n"
	yes := []struct {
		src  string
		want fusedPattern
	}{
		{"sample r0, v2.xyxx, t0, s0\nmul o0, r0, v1", fusedPattern{ok: true, coord: 2, uv: [2]uint8{0, 1}, color: 1, colSw: [4]uint8{0, 1, 2, 3}, texSw: [4]uint8{0, 1, 2, 3}}},
		{"sample r1, v3.zw, t5.zyxw, s9\nmul o0, v0.wzyx, r1", fusedPattern{ok: true, coord: 3, uv: [2]uint8{2, 3}, color: 0, colSw: [4]uint8{3, 2, 1, 0}, texSw: [4]uint8{2, 1, 0, 3}, tex: 5, smp: 9}},
		{"sample r0.xw, v2, t1, s0\nmul_sat o0, r0.xxxw, v1", fusedPattern{ok: true, coord: 2, uv: [2]uint8{0, 1}, color: 1, colSw: [4]uint8{0, 1, 2, 3}, texSw: [4]uint8{0, 0, 0, 3}, tex: 1}},
		{"sample r0, v2, t0, s0\nmul r1, r0, v1.x\nmov o0, r1.wzyx", fusedPattern{ok: true, coord: 2, uv: [2]uint8{0, 1}, color: 1, texSw: [4]uint8{3, 2, 1, 0}}},
		{"sample r0, v2, t0, s0\nmul r0, r0.yyyy, v1\nmov o0, r0", fusedPattern{ok: true, coord: 2, uv: [2]uint8{0, 1}, color: 1, colSw: [4]uint8{0, 1, 2, 3}, texSw: [4]uint8{1, 1, 1, 1}}},
		{"sample r0, v2.xyxx, t0, s0\nmul o0, r0, v1\nret", fusedPattern{ok: true, coord: 2, uv: [2]uint8{0, 1}, color: 1, colSw: [4]uint8{0, 1, 2, 3}, texSw: [4]uint8{0, 1, 2, 3}}},
		{"sample r0, v2, t0, s0\nmul r1, r0, v1.x\nmov o0, r1.wzyx\nret", fusedPattern{ok: true, coord: 2, uv: [2]uint8{0, 1}, color: 1, texSw: [4]uint8{3, 2, 1, 0}}},
	}
	no := []string{
		"sample r0, v2, t0, s0\nmul o1, r0, v1",                  // not o0
		"sample r0, v2, t0, s0\nmul o0.xyz, r0, v1",              // not all of o0
		"sample r0.xyz, v2, t0, s0\nmul o0, r0, v1",              // reads r0.w, not sampled
		"sample r0, v2, t0, s0\nmul o0, -r0, v1",                 // a modifier
		"sample r0, v2, t0, s0\nmul o0, r0, |v1|",                // a modifier
		"sample r0, -v2, t0, s0\nmul o0, r0, v1",                 // a modifier on the coordinates
		"sample r0, v2, t0, s0\nmul o0, r1, v1",                  // another temp
		"sample r0, v2, t0, s0\nmul o0, r0, r0",                  // no input
		"sample r0, v2, t0, s0\nmul o0, r0, cb0[0]",              // a constant
		"sample r0, v2, t0, s0\nadd o0, r0, v1",                  // not mul
		"sample_l r0, v2, t0, s0, l(0, 0, 0, 0)\nmul o0, r0, v1", // not sample
		"sample_sat r0, v2, t0, s0\nmul o0, r0, v1",              // saturated texels
		"mov r0, v2\nsample r1, r0, t0, s0\nmul o0, r1, v1",      // coordinates from a temp
		"sample r0, v2, t0, s0\nmov r1, v1\nmul o0, r0, r1",      // the colour through a temp
		"sample r0, v2, t0, s0\nmul r1, r0, v1\nmov o0, r0",      // moves the texels, not the product
		"sample r0, v2, t0, s0\nmul r1, r0, v1\nmov_sat o0, r1",  // saturate on the mov
		"sample r0, v2, t0, s0\nmul r1, r0, v1\nmov o0, -r1",     // a modifier on the mov
		"sample r0, v2, t0, s0\nmul r1.xyz, r0, v1\nmov o0, r1",  // r1.w not written
		"sample r0, v2, t0, s0\nmul o0, r0, v1\nmov o1, v0",      // more
		"sample o0, v2, t0, s0\nmul o0, r0, v1",
		"sample r0, v2, t0, s0\nret\nmul o0, r0, v1",          // a ret before the end
		"sample r0, v2, t0, s0\nmul o0, r0, v1\nretc_nz v0.x", // a conditional ret
		"sample r0, v2, t0, s0\nmul o0, r0, v1\nret\nret",     // two
	}
	for _, c := range yes {
		p, err := shaderisa.Assemble(head + c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := fusedProgram(p); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.src, got, c.want)
		}
	}
	for _, src := range no {
		p, err := shaderisa.Assemble(head + src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if got := fusedProgram(p); got.ok {
			t.Errorf("%q taken for the pattern: %+v", src, got)
		}
	}
}

// Draws of the fused pattern give the pixels of the same product through
// the machine (the colour moved through a temp, which is not the pattern),
// for sprites and glyph-sized quads with coordinates in and out of [0, 1],
// any triangles, colours in [0, 1] and odd ones, both filters, every
// address mode, textures of one texel, padded rows and either byte order,
// targets of either byte order; the draws that may not be fused (blending,
// a texture that is the target) are not.
func TestFusedDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 5))
	const w, h = 61, 47
	// fused is the pattern, every other draw as the HLSL shader through
	// D3D11 gives it, with a ret after (then the same three instructions
	// a pixel as plain).
	fused, withRet := TexturedColorPS, TexturedColorPS+"\nret"
	plain := "ps inputs=3 outputs=1 temps=2\nsample r0, v2.xyxx, t0, s0\nmov r1, v1\nmul o0, r0, r1"
	value := func() float32 {
		switch r.IntN(12) {
		case 0:
			return oddFloats[r.IntN(len(oddFloats))]
		case 1:
			return r.Float32()*3 - 1
		}
		return r.Float32()
	}
	on := 0
	for iter := range 40 {
		fm := isa.FmtRGBA8
		if iter%2 == 1 {
			fm = isa.FmtBGRA8
		}
		var verts []vtx
		for range 10 {
			c := [4]float32{value(), value(), value(), value()}
			u0, v0 := r.Float32()*1.4-0.2, r.Float32()*1.4-0.2
			u1, v1 := u0+r.Float32()*1.2-0.2, v0+r.Float32()*1.2-0.2
			switch r.IntN(3) {
			case 0: // a sprite or glyph: an axis-aligned quad, u along x, v along y
				x0, y0 := float32(r.IntN(w+8)-4)+r.Float32(), float32(r.IntN(h+8)-4)+r.Float32()
				x1, y1 := x0+1+float32(r.IntN(30))*r.Float32(), y0+1+float32(r.IntN(30))*r.Float32()
				q := quadVerts(x0, y0, x1, y1, w, h, c)
				for i := range q {
					q[i][7], q[i][8] = u0, v0
					if q[i][0] > q[0][0] {
						q[i][7] = u1
					}
					if q[i][1] < q[0][1] {
						q[i][8] = v1
					}
				}
				verts = append(verts, q...)
			case 1: // a triangle of one texel (ImGui's shapes)
				for range 3 {
					verts = append(verts, vtx{r.Float32()*2.4 - 1.2, r.Float32()*2.4 - 1.2, 0.5, value(), value(), value(), value(), u0, v0})
				}
			default:
				for range 3 {
					verts = append(verts, vtx{r.Float32()*2.4 - 1.2, r.Float32()*2.4 - 1.2, 0.5, value(), value(), value(), value(), value()*2 - 0.5, value()*2 - 0.5})
				}
			}
		}
		tw, th := 1+r.IntN(20), 1+r.IntN(20)
		if r.IntN(5) == 0 {
			tw, th = 1, 1
		}
		pitch := 4*tw + 4*r.IntN(3)
		texels := make([]byte, pitch*th)
		for i := range texels {
			texels[i] = byte(r.Uint32())
		}
		tfm := isa.FmtRGBA8
		if r.IntN(2) == 0 {
			tfm = isa.FmtBGRA8
		}
		filter, au, av, border := uint32(r.IntN(2)), uint32(r.IntN(4)), uint32(r.IntN(4)), r.Uint32()
		blend, alias := iter%8 == 3, iter%8 == 5
		var got [2][]byte
		var instrs [2]uint64
		first := fused
		if iter%4 >= 2 {
			first = withRet
		}
		for i, ps := range []string{first, plain} {
			rg := newRig(t)
			rt := rg.target(w, h, fm)
			b := rg.isaScene(rt, vsPass, ps, verts)
			rt.clear(b, [4]float32{0.25, 0.5, 0.75, 1})
			if alias {
				b.SetTex(0, rt.addr, w, h, uint32(rt.pitch), fm)
			} else {
				b.SetTex(0, rg.buffer(texels), uint32(tw), uint32(th), uint32(pitch), tfm)
			}
			b.SetSampler(0, filter, au, av, border)
			if blend {
				b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
			}
			b.Draw(uint32(len(verts)), 0)
			rg.mustExec(b)
			got[i], instrs[i] = rg.rgba(rt), rg.g.Stats().Instructions
			if f := rg.g.ex.draw.prog.block.fused.on; i == 0 && f != !(blend || alias) || i == 1 && f {
				t.Fatalf("iteration %d, %q: fused %v (blending %v, the target as texture %v)", iter, ps, f, blend, alias)
			}
			if i == 0 && !(blend || alias) {
				on++
			}
		}
		if first == withRet && instrs[0] != instrs[1] {
			t.Fatalf("iteration %d: %d instructions, through the machine %d", iter, instrs[0], instrs[1])
		}
		for i := 0; i < len(got[0]); i += 4 {
			if string(got[0][i:i+4]) != string(got[1][i:i+4]) {
				t.Fatalf("iteration %d (texture %dx%d pitch %d format %d, sampler %d %d %d), pixel (%d, %d): %v, through the machine %v",
					iter, tw, th, pitch, tfm, filter, au, av, i/4%w, i/4/w, got[0][i:i+4], got[1][i:i+4])
			}
		}
	}
	if on < 20 {
		t.Fatalf("only %d draws fused", on)
	}
}
