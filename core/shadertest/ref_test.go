package shadertest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/hlsl"
)

// The reference engine of these tests: a case's probes computed with the
// compiler's own reference evaluator (hlsl.Run) and a small rasteriser,
// with no driver and no GPU. It tells what the compiled code computes
// apart from what the stack does with it, and measures the compiler on
// cases whose render-target formats the device does not have.

type refTarget struct {
	w, h   int
	format string
}

type refDraw struct {
	vs, ps   *hlsl.Result
	cb       [][4]uint32
	topology string
	verts    [][][4]uint32 // each vertex's VS outputs by register, computed lazily
	vsIn     [][][4]uint32
	n        int
	tex      map[int]*Resource
	samplers map[int]*Sampler
	w, h     int
}

type refOp struct {
	clear *[4]uint32
	draw  *refDraw
	probe *Cmd
}

// refRun computes a run case's probes; skip is why it cannot.
func refRun(c *Case) (outcome, reason string) {
	if c.NotApplicable != "" {
		return NotApplicable, c.NotApplicable
	}
	res := map[string]*hlsl.Result{}
	for _, sh := range c.Shaders {
		if sh.Stage != "vs" && sh.Stage != "ps" {
			return Skip, "stage " + sh.Stage
		}
		r, err := hlsl.Compile([]byte(c.sourceFor(sh)), c.File, "main", sh.Profile(c.Model))
		if err != nil {
			return CompileFail, firstLine(err.Error())
		}
		res[sh.Stage] = r
	}
	if c.Kind != KindRun {
		return Pass, ""
	}
	if why := c.unsupported(); why != "" {
		return Skip, why
	}
	var rt *Resource
	for _, r := range c.Resources {
		if r.Kind == "rtv" && r.Slot == 0 {
			rt = r
		}
		if r.Kind == "dsv" {
			return Skip, "ref: depth"
		}
	}
	if rt == nil || res["ps"] == nil || res["vs"] == nil {
		return Skip, "ref: no target or shaders"
	}
	tex := map[int]*Resource{}
	for _, r := range c.Resources {
		if r.Kind == "srv" {
			tex[r.Slot] = r
		}
	}
	samp := map[int]*Sampler{}
	for _, s := range c.Samplers {
		samp[s.Slot] = s
	}
	uniforms := c.Uniforms
	var ops []refOp
	for _, cmd := range c.Cmds {
		switch cmd.Op {
		case "uniform":
			uniforms = cmd.Uniforms
		case "clear":
			v := [4]uint32{}
			for i := range v {
				v[i] = math.Float32bits(cmd.Value[i])
			}
			ops = append(ops, refOp{clear: &v})
		case "draw":
			if cmd.Instances != 1 || cmd.Topology == "POINTLIST" {
				return Skip, "ref: instancing or points"
			}
			d := &refDraw{vs: res["vs"], ps: res["ps"], topology: cmd.Topology, n: cmd.Vertices, tex: tex, samplers: samp, w: rt.Width, h: rt.Height}
			for i := 0; i+3 < len(uniforms)+3; i += 4 {
				var r [4]uint32
				copy(r[:], uniforms[i:min(i+4, len(uniforms))])
				d.cb = append(d.cb, r)
			}
			if err := d.fetch(c); err != nil {
				return Skip, "ref: " + err.Error()
			}
			ops = append(ops, refOp{draw: d})
		case "probe":
			ops = append(ops, refOp{probe: &cmd})
		}
	}
	for i, op := range ops {
		if op.probe == nil {
			continue
		}
		p := op.probe.Probe
		if p.Res != "rtv" {
			return Skip, "ref: probe " + p.Res
		}
		for _, xy := range probePoints(p) {
			got, err := refPixel(ops[:i], xy[0], xy[1], rt)
			if err != nil {
				return Failed, fmt.Sprintf("line %d: %v", op.probe.Line, err)
			}
			if !refMatches(p, got) {
				return Wrong, fmt.Sprintf("probe of line %d at (%d, %d): got %s", op.probe.Line, xy[0], xy[1], refString(p, got))
			}
		}
	}
	return Pass, ""
}

// probePoints samples a probe's rectangle: its corners, centre and a few
// points between.
func probePoints(p *Probe) [][2]int {
	xs := []int{p.X0, (p.X0 + p.X1) / 2, p.X1 - 1, p.X0 + (p.X1-p.X0)/5}
	ys := []int{p.Y0, (p.Y0 + p.Y1) / 2, p.Y1 - 1, p.Y0 + (p.Y1-p.Y0)/3}
	seen := map[[2]int]bool{}
	var out [][2]int
	for _, x := range xs {
		for _, y := range ys {
			k := [2]int{x, y}
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

func refMatches(p *Probe, got [4]uint32) bool {
	for i, want := range p.Values {
		switch p.Kind {
		case "rgba", "rg", "r":
			a, b := ulpKey(got[i]), ulpKey(want)
			if d := a - b; d > int64(p.Ulps) || -d > int64(p.Ulps) {
				return false
			}
		default:
			if got[i] != want {
				return false
			}
		}
	}
	return true
}

func ulpKey(u uint32) int64 {
	if int32(u) < 0 {
		return -int64(u & 0x7fffffff)
	}
	return int64(u)
}

func refString(p *Probe, v [4]uint32) string {
	var parts []string
	for i := range p.Values {
		switch p.Kind {
		case "rgba", "rg", "r":
			parts = append(parts, fmt.Sprint(math.Float32frombits(v[i])))
		case "rgbai", "ri":
			parts = append(parts, fmt.Sprint(int32(v[i])))
		default:
			parts = append(parts, fmt.Sprint(v[i]))
		}
	}
	var want []string
	for _, x := range p.Values {
		switch p.Kind {
		case "rgba", "rg", "r":
			want = append(want, fmt.Sprint(math.Float32frombits(x)))
		default:
			want = append(want, fmt.Sprint(int32(x)))
		}
	}
	return "(" + strings.Join(parts, ", ") + "), want (" + strings.Join(want, ", ") + ")"
}

// fetch reads the draw's vertices through the input layout.
func (d *refDraw) fetch(c *Case) error {
	vbs := map[int][]uint32{}
	for _, r := range c.Resources {
		if r.Kind == "vb" {
			vbs[r.Slot] = r.Data
		}
	}
	strides := map[int]int{}
	offs := make([]int, len(c.Layout))
	for i, e := range c.Layout {
		offs[i] = strides[e.Slot]
		strides[e.Slot] += e.TexelSize
	}
	for v := 0; v < d.n; v++ {
		in := make([][4]uint32, 32)
		for _, el := range d.vs.Inputs {
			switch el.SysVal {
			case hlsl.SysVertexID:
				in[el.Register] = [4]uint32{uint32(v)}
				continue
			case hlsl.SysInstanceID:
				continue
			}
			found := false
			for i, e := range c.Layout {
				if !strings.EqualFold(e.Name, el.Semantic) || e.Index != el.Index {
					continue
				}
				found = true
				data := vbs[e.Slot]
				base := (v*strides[e.Slot] + offs[i]) / 4
				reg := [4]uint32{0, 0, 0, 0}
				if strings.HasSuffix(e.Format, "FLOAT") {
					reg[3] = math.Float32bits(1)
				} else {
					reg[3] = 1
				}
				for k := 0; k < e.TexelSize/4; k++ {
					if base+k < len(data) {
						reg[k] = data[base+k]
					} else {
						reg[k] = 0
					}
				}
				in[el.Register] = reg
			}
			if !found {
				return fmt.Errorf("no element for %s%d", el.Semantic, el.Index)
			}
		}
		d.vsIn = append(d.vsIn, in)
	}
	return nil
}

func (d *refDraw) env(inputs [][4]uint32) *hlsl.Env {
	e := &hlsl.Env{Inputs: inputs, CB: [][][4]uint32{d.cb}, MaxSteps: 1 << 22}
	e.Load = func(t int, x, y, mip int32) [4]uint32 {
		r := d.tex[t]
		if r == nil || mip != 0 || x < 0 || y < 0 || int(x) >= r.Width || int(y) >= r.Height {
			return [4]uint32{}
		}
		return texel(r, int(x), int(y))
	}
	e.Sample = func(t, s int, u, v, lod float32) [4]float32 {
		r := d.tex[t]
		if r == nil {
			return [4]float32{}
		}
		sm := d.samplers[s]
		linear := sm != nil && strings.HasPrefix(sm.Filter, "linear")
		fx, fy := u*float32(r.Width), v*float32(r.Height)
		at := func(x, y int) [4]float32 {
			x = max(0, min(x, r.Width-1))
			y = max(0, min(y, r.Height-1))
			t := texel(r, x, y)
			var f [4]float32
			for i := range f {
				f[i] = math.Float32frombits(t[i])
			}
			return f
		}
		if !linear {
			return at(int(math.Floor(float64(fx))), int(math.Floor(float64(fy))))
		}
		fx, fy = fx-0.5, fy-0.5
		x0, y0 := int(math.Floor(float64(fx))), int(math.Floor(float64(fy)))
		ax, ay := fx-float32(x0), fy-float32(y0)
		a, b, cc, dd := at(x0, y0), at(x0+1, y0), at(x0, y0+1), at(x0+1, y0+1)
		var out [4]float32
		for i := range out {
			top := a[i] + (b[i]-a[i])*ax
			bot := cc[i] + (dd[i]-cc[i])*ax
			out[i] = top + (bot-top)*ay
		}
		return out
	}
	e.Info = func(t int) (uint32, uint32, uint32) {
		r := d.tex[t]
		if r == nil {
			return 0, 0, 0
		}
		return uint32(r.Width), uint32(r.Height), uint32(r.Levels)
	}
	return e
}

// texel reads a texture's texel (x, y) as four 32-bit values.
func texel(r *Resource, x, y int) [4]uint32 {
	n := r.TexelSize / 4
	base := (y*r.Width + x) * n
	var t [4]uint32
	if strings.HasSuffix(r.Format, "FLOAT") {
		t[3] = math.Float32bits(1)
	} else {
		t[3] = 1
	}
	for k := 0; k < n && k < 4; k++ {
		if base+k < len(r.Data) {
			t[k] = r.Data[base+k]
		} else {
			t[k] = 0
		}
	}
	return t
}

// vertex runs the vertex shader on vertex v once.
func (d *refDraw) vertex(v int) ([][4]uint32, error) {
	if d.verts == nil {
		d.verts = make([][][4]uint32, d.n)
	}
	if d.verts[v] != nil {
		return d.verts[v], nil
	}
	out, err := hlsl.Run(d.vs.Program, d.env(d.vsIn[v]))
	if err != nil {
		return nil, err
	}
	d.verts[v] = out.Regs
	return out.Regs, nil
}

// refPixel replays the operations before a probe at one pixel.
func refPixel(ops []refOp, px, py int, rt *Resource) ([4]uint32, error) {
	var cur [4]uint32
	for _, op := range ops {
		switch {
		case op.clear != nil:
			cur = *op.clear
			if !strings.HasSuffix(rt.Format, "FLOAT") && !strings.HasSuffix(rt.Format, "UNORM") {
				for i := range cur {
					cur[i] = uint32(math.Float32frombits(cur[i]))
				}
			}
		case op.draw != nil:
			v, ok, err := op.draw.shade(px, py)
			if err != nil {
				return cur, err
			}
			if ok {
				cur = v
				if strings.HasSuffix(rt.Format, "UNORM") {
					for i := range cur {
						f := math.Float32frombits(cur[i])
						f = float32(math.Max(0, math.Min(1, float64(f))))
						cur[i] = math.Float32bits(float32(math.Round(float64(f)*255)) / 255)
					}
				}
			}
		}
	}
	return cur, nil
}

// shade finds the last triangle of the draw covering the pixel's centre
// and runs the pixel shader there.
func (d *refDraw) shade(px, py int) ([4]uint32, bool, error) {
	var tris [][3]int
	switch d.topology {
	case "TRIANGLESTRIP":
		for i := 0; i+2 < d.n; i++ {
			if i%2 == 0 {
				tris = append(tris, [3]int{i, i + 1, i + 2})
			} else {
				tris = append(tris, [3]int{i + 1, i, i + 2})
			}
		}
	default:
		for i := 0; i+2 < d.n; i += 3 {
			tris = append(tris, [3]int{i, i + 1, i + 2})
		}
	}
	posReg := -1
	for _, o := range d.vs.Outputs {
		if o.SysVal == hlsl.SysPosition {
			posReg = o.Register
		}
	}
	if posReg < 0 {
		return [4]uint32{}, false, fmt.Errorf("no SV_Position output")
	}
	var result [4]uint32
	hit := false
	for _, t := range tris {
		var regs [3][][4]uint32
		var sx, sy, z, w [3]float64
		for k := 0; k < 3; k++ {
			r, err := d.vertex(t[k])
			if err != nil {
				return result, false, err
			}
			regs[k] = r
			p := r[posReg]
			x, y, zz, ww := f(p[0]), f(p[1]), f(p[2]), f(p[3])
			if ww == 0 {
				ww = 1e-30
			}
			sx[k] = (x/ww + 1) / 2 * float64(d.w)
			sy[k] = (1 - y/ww) / 2 * float64(d.h)
			z[k], w[k] = zz/ww, ww
		}
		area := (sx[1]-sx[0])*(sy[2]-sy[0]) - (sx[2]-sx[0])*(sy[1]-sy[0])
		if area == 0 {
			continue
		}
		bary := func(cx, cy float64) [3]float64 {
			b0 := ((sx[1]-cx)*(sy[2]-cy) - (sx[2]-cx)*(sy[1]-cy)) / area
			b1 := ((sx[2]-cx)*(sy[0]-cy) - (sx[0]-cx)*(sy[2]-cy)) / area
			return [3]float64{b0, b1, 1 - b0 - b1}
		}
		bs := bary(float64(px)+0.5, float64(py)+0.5)
		if bs[0] < 0 || bs[1] < 0 || bs[2] < 0 {
			continue
		}
		inputs := func(cx, cy float64) ([][4]uint32, error) {
			bs := bary(cx, cy)
			var pw [3]float64
			sum := 0.0
			for k := range pw {
				pw[k] = bs[k] / w[k]
				sum += pw[k]
			}
			for k := range pw {
				pw[k] /= sum
			}
			in := make([][4]uint32, 32)
			for _, el := range d.ps.Inputs {
				if el.SysVal == hlsl.SysPosition {
					zz := bs[0]*z[0] + bs[1]*z[1] + bs[2]*z[2]
					in[el.Register] = [4]uint32{fb(cx), fb(cy), fb(zz), fb(1 / (bs[0]*w[0] + bs[1]*w[1] + bs[2]*w[2]))}
					continue
				}
				src := -1
				for _, o := range d.vs.Outputs {
					if strings.EqualFold(o.Semantic, el.Semantic) && o.Index == el.Index {
						src = o.Register
					}
				}
				if src < 0 {
					return nil, fmt.Errorf("pixel input %s%d not written by the vertex shader", el.Semantic, el.Index)
				}
				mode := "linear"
				for _, decl := range d.ps.Program.Inputs {
					if decl.Reg == el.Register {
						mode = decl.Interp
					}
				}
				var reg [4]uint32
				for c := 0; c < 4; c++ {
					switch {
					case mode == "constant" || el.Type != hlsl.CompFloat32:
						reg[c] = regs[0][src][c]
					case strings.Contains(mode, "noperspective"):
						reg[c] = fb(bs[0]*f(regs[0][src][c]) + bs[1]*f(regs[1][src][c]) + bs[2]*f(regs[2][src][c]))
					default:
						reg[c] = fb(pw[0]*f(regs[0][src][c]) + pw[1]*f(regs[1][src][c]) + pw[2]*f(regs[2][src][c]))
					}
				}
				in[el.Register] = reg
			}
			return in, nil
		}
		var out *hlsl.Output
		if usesDerivatives(d.ps.Program) {
			// The 2x2 quad the pixel is in, its other pixels helpers.
			var envs [4]*hlsl.Env
			qx, qy := px&^1, py&^1
			for lane := 0; lane < 4; lane++ {
				in, err := inputs(float64(qx+lane%2)+0.5, float64(qy+lane/2)+0.5)
				if err != nil {
					return result, false, err
				}
				envs[lane] = d.env(in)
			}
			outs, errs := hlsl.RunQuad(d.ps.Program, envs)
			me := (py-qy)*2 + (px - qx)
			if errs[me] != nil {
				return result, false, errs[me]
			}
			out = outs[me]
		} else {
			in, err := inputs(float64(px)+0.5, float64(py)+0.5)
			if err != nil {
				return result, false, err
			}
			if out, err = hlsl.Run(d.ps.Program, d.env(in)); err != nil {
				return result, false, err
			}
		}
		if out.Discarded {
			continue
		}
		if len(out.Regs) > 0 {
			result, hit = out.Regs[0], true
		}
	}
	return result, hit, nil
}

func usesDerivatives(p *hlsl.Program) bool {
	for _, in := range p.Code {
		if strings.HasPrefix(in.Op.String(), "deriv_") {
			return true
		}
	}
	return false
}

func f(u uint32) float64  { return float64(math.Float32frombits(u)) }
func fb(x float64) uint32 { return math.Float32bits(float32(x)) }

// TestPublicSuiteRef measures the compiler on the public suite with the
// reference engine (D3DSIM_SHADERTEST as for TestPublicSuite).
func TestPublicSuiteRef(t *testing.T) {
	dir := os.Getenv("D3DSIM_SHADERTEST")
	if dir == "" || os.Getenv("D3DSIM_SHADERTEST_REF") == "" {
		t.Skip("set D3DSIM_SHADERTEST and D3DSIM_SHADERTEST_REF=1")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	rep := &Report{}
	for _, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		file, err := Parse(filepath.Base(fn), src)
		if err != nil {
			rep.Errors = append(rep.Errors, err.Error())
			continue
		}
		cases, err := file.Cases()
		if err != nil {
			rep.Errors = append(rep.Errors, err.Error())
			continue
		}
		for _, c := range cases {
			r := Run(c, Options{})
			if c.Kind == KindRun && (r.Outcome == Skip && strings.Contains(r.Reason, "refused the default render target") || r.Outcome == Skip && strings.Contains(r.Reason, "refused [rtv")) {
				r.Outcome, r.Reason = refRun(c)
				r.Reason = "[ref] " + r.Reason
			}
			rep.Results = append(rep.Results, r)
		}
	}
	if out := os.Getenv("D3DSIM_SHADERTEST_JSON"); out != "" {
		fh, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		rep.WriteJSON(fh)
	}
	var b strings.Builder
	rep.WriteTable(&b, false)
	t.Log("\n" + b.String())
}
