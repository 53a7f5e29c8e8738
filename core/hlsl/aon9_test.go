package hlsl

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// d3d9Run executes a Direct3D 9 program of the subset aon9.go writes, as
// the shader model 2 instruction pages define each instruction, and checks
// the rules a Direct3D 9 runtime's validator holds it to on the way: no
// temporary lane read before it is written, ps_2_0's swizzles (.xyzw, a
// replicate, .yzxw, .zxyw or .wzyx), texld's whole r# result and unswizzled coordinate, at most
// one constant register an instruction. in are the t# (pixel) or v#
// (vertex) registers; it returns the output registers by name (oC0, oT0,
// oPos) and whether texkill killed the pixel.
func d3d9Run(code []uint32, in [][4]float32, consts ...[4]float32) (map[string][4]float32, bool, error) {
	ps := code[0]>>16 == 0xffff
	regs := map[string]*[4]float32{}
	written := map[string]uint8{}
	get := func(name string) *[4]float32 {
		if regs[name] == nil {
			regs[name] = &[4]float32{}
		}
		return regs[name]
	}
	for i, v := range consts {
		*get(fmt.Sprintf("c%d", i)) = v
	}
	for i, v := range in {
		*get(fmt.Sprintf("t%d", i)) = v
		*get(fmt.Sprintf("v%d", i)) = v
	}
	name := func(p uint32) string {
		return map[uint32]string{dxbc.D3D9Temp: "r", dxbc.D3D9Input: "v", dxbc.D3D9Const: "c", dxbc.D3D9Texture: "t", dxbc.D3D9TexCrd: "oT",
			dxbc.D3D9ColorOut: "oC", dxbc.D3D9Sampler: "s", dxbc.D3D9RastOut: "oPos", dxbc.D3D9DepthOut: "oDepth"}[p>>28&7|p>>8&0x18] + fmt.Sprint(p&0x7ff)
	}
	killed := false
	var bad error
	read := func(p uint32, lanes uint8) [4]float32 {
		n := name(p)
		if strings.HasPrefix(n, "o") && bad == nil {
			bad = fmt.Errorf("%s read: output registers are written only", n)
		}
		v := *get(n)
		var out [4]float32
		for i := 0; i < 4; i++ {
			c := p >> (16 + 2*i) & 3
			if lanes&(1<<i) != 0 && strings.HasPrefix(n, "r") && written[n]&(1<<c) == 0 && bad == nil {
				bad = fmt.Errorf("%s.%c read before it is written", n, "xyzw"[c])
			}
			out[i] = v[c]
			if p>>24&0xf == 1 {
				out[i] = -out[i]
			}
		}
		s := p >> 16 & 0xff
		if ps && s != 0xe4 && s != 0x00 && s != 0x55 && s != 0xaa && s != 0xff && s != 0xc9 && s != 0xd2 && s != 0x1b && bad == nil {
			bad = fmt.Errorf("%s: swizzle %#x is not one ps_2_0 takes", n, s)
		}
		return out
	}
	var a0 [4]int
	err := walkCode(code, func(op, tok uint32, raw []uint32) {
		// Relative sources, c[a0.c + n]: read the register a0.c picks.
		var prm []uint32
		for i := 0; i < len(raw); i++ {
			p := raw[i]
			if i > 0 && p&(1<<13) != 0 && op != dxbc.D3D9Def {
				i++
				p = p&^(1<<13|0x7ff) | uint32(int(p&0x7ff)+a0[raw[i]>>16&3])&0x7ff
			}
			prm = append(prm, p)
		}
		switch op {
		case dxbc.D3D9Dcl:
			return
		case dxbc.D3D9Def:
			for i := 0; i < 4; i++ {
				get(name(prm[0]))[i] = math.Float32frombits(prm[1+i])
			}
			return
		}
		d := prm[0]
		mask := uint8(d >> 16 & 0xf)
		consts := map[string]bool{}
		for _, p := range prm[1:] {
			if p>>28&7|p>>8&0x18 == dxbc.D3D9Const {
				consts[name(p)] = true
			}
		}
		if len(consts) > 1 && op != 37 && bad == nil {
			bad = fmt.Errorf("opcode %d reads %d constant registers", op, len(consts))
		}
		src := func(i int) [4]float32 { return read(prm[1+i], mask) }
		var r [4]float32
		lane := func(f func(i int) float32) {
			for i := range r {
				r[i] = f(i)
			}
		}
		switch op {
		case dxbc.D3D9Mov:
			a := src(0)
			lane(func(i int) float32 { return a[i] })
		case dxbc.D3D9Abs:
			a := src(0)
			lane(func(i int) float32 { return float32(math.Abs(float64(a[i]))) })
		case dxbc.D3D9Add, dxbc.D3D9Mul, dxbc.D3D9Min, dxbc.D3D9Max, dxbc.D3D9Slt, dxbc.D3D9Sge:
			a, b := src(0), src(1)
			lane(func(i int) float32 {
				switch op {
				case dxbc.D3D9Add:
					return a[i] + b[i]
				case dxbc.D3D9Mul:
					return a[i] * b[i]
				case dxbc.D3D9Min:
					return min(a[i], b[i])
				case dxbc.D3D9Max:
					return max(a[i], b[i])
				case dxbc.D3D9Slt:
					return map[bool]float32{true: 1}[a[i] < b[i]]
				}
				return map[bool]float32{true: 1}[a[i] >= b[i]]
			})
		case dxbc.D3D9Mad:
			a, b, c := src(0), src(1), src(2)
			lane(func(i int) float32 { return a[i]*b[i] + c[i] })
		case dxbc.D3D9Cmp:
			a, b, c := src(0), src(1), src(2)
			lane(func(i int) float32 {
				if a[i] >= 0 {
					return b[i]
				}
				return c[i]
			})
		case dxbc.D3D9Frc:
			a := src(0)
			lane(func(i int) float32 { return a[i] - float32(math.Floor(float64(a[i]))) })
		case dxbc.D3D9Dp3, dxbc.D3D9Dp4, dxbc.D3D9Dp2add:
			n := map[uint32]int{dxbc.D3D9Dp3: 3, dxbc.D3D9Dp4: 4, dxbc.D3D9Dp2add: 2}[op]
			a, b := read(prm[1], 1<<n-1), read(prm[2], 1<<n-1)
			var s float32
			for i := 0; i < n; i++ {
				s += a[i] * b[i]
			}
			if op == dxbc.D3D9Dp2add {
				s += read(prm[3], 1)[0]
			}
			lane(func(int) float32 { return s })
		case dxbc.D3D9Rcp, dxbc.D3D9Rsq, dxbc.D3D9Exp, dxbc.D3D9Log:
			x := float64(read(prm[1], 1)[0])
			if s := prm[1] >> 16 & 0xff; s != 0 && s != 0x55 && s != 0xaa && s != 0xff && bad == nil {
				bad = fmt.Errorf("opcode %d's source is not a replicate", op)
			}
			v := map[uint32]float64{dxbc.D3D9Rcp: 1 / x, dxbc.D3D9Rsq: 1 / math.Sqrt(math.Abs(x)), dxbc.D3D9Exp: math.Exp2(x), dxbc.D3D9Log: math.Log2(math.Abs(x))}[op]
			lane(func(int) float32 { return float32(v) })
		case 37: // sincos: cos in x, sin in y, of an angle in [-pi, pi]
			x := float64(read(prm[1], 1)[0])
			if (x < -math.Pi-1e-6 || x > math.Pi+1e-6) && bad == nil {
				bad = fmt.Errorf("sincos of %v, outside [-pi, pi]", x)
			}
			r = [4]float32{float32(math.Cos(x)), float32(math.Sin(x))}
		case 36: // nrm (fxc's code): xyz over its length
			a := read(prm[1], 0x7)
			l := float32(math.Sqrt(float64(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])))
			lane(func(i int) float32 { return a[i] / l })
		case 32: // pow (fxc's code): |x| to the y, of replicates
			x, y := float64(read(prm[1], 1)[0]), float64(read(prm[2], 1)[0])
			lane(func(int) float32 { return float32(math.Pow(math.Abs(x), y)) })
		case 46: // mova: round to the nearest
			v := read(prm[1], mask)
			for i := 0; i < 4; i++ {
				if mask&(1<<i) != 0 {
					a0[i] = int(math.Floor(float64(v[i]) + 0.5))
				}
			}
			return
		case dxbc.D3D9Texkill:
			v := read(d&^(0xff<<16)|0xe4<<16, 0x7)
			killed = killed || v[0] < 0 || v[1] < 0 || v[2] < 0
			return
		case dxbc.D3D9Texld:
			if mask != 0xf || prm[1]>>16&0xff != 0xe4 || prm[1]>>24&0xf != 0 {
				bad = fmt.Errorf("texld with a masked result or a swizzled coordinate")
			}
			a := read(prm[1], 0x3)
			lane(func(i int) float32 { return [4]float32{a[0], a[1], a[0] * a[1], 1}[i] })
		default:
			bad = fmt.Errorf("opcode %d is not one the test runs", op)
		}
		if d>>20&1 != 0 {
			lane(func(i int) float32 { return min(max(r[i], 0), 1) })
		}
		dst := get(name(d))
		for i := 0; i < 4; i++ {
			if mask&(1<<i) != 0 {
				dst[i] = r[i]
			}
		}
		written[name(d)] |= mask
	})
	if err == nil {
		err = bad
	}
	out := map[string][4]float32{}
	for k, v := range regs {
		if strings.HasPrefix(k, "o") {
			out[k] = *v
		}
	}
	return out, killed, err
}

// walkCode calls f with each instruction after the version token.
func walkCode(code []uint32, f func(op, tok uint32, prm []uint32)) error {
	for i := 1; i < len(code); {
		op := code[i] & 0xffff
		if op == dxbc.D3D9End {
			return nil
		}
		n := int(code[i] >> 24 & 0xf)
		if op == dxbc.D3D9Comment {
			n = int(code[i] >> 16 & 0x7fff)
		}
		if i+1+n > len(code) {
			return fmt.Errorf("truncated instruction at %d", i)
		}
		if op != dxbc.D3D9Comment {
			f(op, code[i], code[i+1:i+1+n])
		}
		i += 1 + n
	}
	return fmt.Errorf("no end token")
}

// aon9Of is the decoded Aon9 chunk of a compiled blob.
func aon9Of(t *testing.T, r *Result) *dxbc.Level9 {
	t.Helper()
	c, err := dxbc.Parse(r.Bytecode)
	if err != nil {
		t.Fatal(err)
	}
	ch := c.Chunk("Aon9")
	if ch == nil {
		t.Fatal("no Aon9 chunk")
	}
	l, err := dxbc.ParseLevel9(ch.Data)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestAon9Runs: the Direct3D 9 code computes what the shader model 4
// program does. Each function body is compiled as a pixel shader and a
// vertex shader of both levels; the SM4 program runs in the compiler's
// evaluator, the Direct3D 9 code in d3d9Run (which also holds it to the
// validator's rules), on the same inputs, and the results agree to a
// float's rounding.
func TestAon9Runs(t *testing.T) {
	bodies := []string{
		"return a * b + c;",
		"return float4(a.zw / b.xy, sqrt(abs(c.xy)));",
		"return a.x < b.x ? c : a;",
		"return float4(a.x >= b.y, a.y == a.y, a.z != c.z, b.w < c.w);",
		"return floor(a) + ceil(b) - frac(c);",
		"return dot(a.xy, b.xy) + dot(a.xyz, c.xyz) + dot(a, b);",
		"return saturate(a) * min(b, c) + max(a, c);",
		"return rsqrt(abs(a) + 1) + exp2(b) + log2(abs(c) + 1);",
		"return a.wzyx * b.yxwz + c.zzxy;",
		"return (a.x > 0 && b.x > 0) || c.x > 0 ? b : c;",
		"return !(a.y > b.y) ? a : b;",
		"return lerp(a, b, c.x) + length(a.xyz) + normalize(b.xyz).xyzz;",
		"return a.x ? b : c;",
		"int3 k = int3(2, 3, 4); return float4(k * 2 + 1, 0) * a;",
		"return -abs(a) * 0.5 + float4(1, 2, 3, 4);",
		"clip(a.x - b.x); return c * 2;",
		"return a.wzyx * b.yzxw + c.zxyw;",
		"return a.x != 0 ? b : c + (a.y == 0);",
		"return log2(abs(a)) + rsqrt(abs(b)) + pow(abs(c), 1.5);",
		"return sin(a.x * 3) + cos(b.wz).xyxy * c;",
		"float s, k; sincos(a.y * 7, s, k); return float4(s, k, sin(b.z), 1);",
		"int4 i = (int4)(a * 3); uint u = (uint)abs(b.x * 5); return float4(i) + u + trunc(c * 2.5);",
		"float4 r = c; for (int i = 0; i < 3; i++) { if (a[i] > 0) r += b * i; } return r;",
		"return saturate(a * b + c);",
		"float4 r = 0; for (int i = 0; i < 4; i++) r += t.Sample(s, a.xy + i * 0.25); return r * c.x;",
		"float4 r = c; if (a.x > b.x) r = t.Sample(s, a.yx); return r;",
	}
	in := [][3][4]float32{
		{{1.5, -2, 0.25, 3}, {0.5, 2, -1.5, 0.75}, {-1, 0.5, 2, -0.25}},
		{{-0.5, 1, 3, -2}, {2, -0.5, 0.5, 1.5}, {0.75, -2, -1, 1}},
		{{2, 2, -3, 0.5}, {1, 2, 3, 4}, {0, 0.5, 1, 1.5}},
	}
	runs := 0
	for _, body := range bodies {
		for _, target := range []string{"ps_4_0_level_9_1", "ps_4_0_level_9_3", "vs_4_0_level_9_1", "vs_4_0_level_9_3"} {
			ps := target[0] == 'p'
			if !ps && (strings.HasPrefix(body, "clip") || strings.Contains(body, "Sample")) {
				continue
			}
			fn := "Texture2D t; SamplerState s;\nfloat4 f(float4 a, float4 b, float4 c) {\n" + body + "\n}\n"
			src := fn + "float4 main(float4 a : TEXCOORD0, float4 b : TEXCOORD1, float4 c : TEXCOORD2) : SV_Target { return f(a, b, c); }"
			if !ps {
				src = fn + "struct O { float4 p : SV_Position; float4 r : TEXCOORD0; };\nO main(float4 a : TEXCOORD0, float4 b : TEXCOORD1, float4 c : TEXCOORD2) { O o; o.p = float4(0, 0, 0, 1); o.r = f(a, b, c); return o; }"
			}
			r, err := Compile([]byte(src), "test.hlsl", "main", target)
			if err != nil {
				t.Errorf("%s %q: %v", target, body, err)
				continue
			}
			l := aon9Of(t, r)
			for _, v := range in {
				// The texture both sides read: (u, v, u*v, 1).
				tex := func(_, _ int, u, v, _ float32) [4]float32 { return [4]float32{u, v, u * v, 1} }
				want, err := Run(r.Program, &Env{Inputs: [][4]uint32{bits4(v[0]), bits4(v[1]), bits4(v[2])}, Sample: tex})
				if err != nil {
					t.Fatal(err)
				}
				got, killed, err := d3d9Run(l.Code, [][4]float32{v[0], v[1], v[2]})
				text, _ := dxbc.DisassembleD3D9(l.Code)
				if err != nil {
					t.Errorf("%s %q: %v\n%s", target, body, err, text)
					break
				}
				runs++
				if killed != want.Discarded {
					t.Errorf("%s %q: killed %v, the SM4 program discarded %v\n%s", target, body, killed, want.Discarded, text)
					continue
				}
				if killed {
					continue
				}
				reg, o := "oC0", 0
				if !ps {
					reg, o = "oT0", 1
				}
				w := floats4(want.Regs[o])
				for i := range w {
					if d := math.Abs(float64(got[reg][i] - w[i])); d > 1e-5*max(1, math.Abs(float64(w[i]))) {
						t.Errorf("%s %q on %v: %s = %v, the SM4 program's %v\n%s", target, body, v, reg, got[reg], w, text)
						break
					}
				}
			}
		}
	}
	t.Logf("%d runs of the Direct3D 9 code agree with the shader model 4 program", runs)
}

// TestAon9Relative: a vertex shader reading a constant-buffer array at an
// index the vertex gives (DirectXTK's skinning) reads it through a0.x in
// the Direct3D 9 code, the buffer mapped from c0 and the position offset
// after it, as fxc maps them; the result is the SM4 program's.
func TestAon9Relative(t *testing.T) {
	src := `cbuffer B { float4 k[6]; float4 m; };
struct O { float4 p : SV_Position; float4 r : TEXCOORD0; };
O main(float4 a : TEXCOORD0, uint4 i : BLENDINDICES) { O o; o.p = a; o.r = k[i.x] * a.x + k[i.y] * m + k[i.z + 1]; return o; }`
	r := compileOK(t, src, "main", "vs_4_0_level_9_1")
	l := aon9Of(t, r)
	if len(l.CBMaps) != 1 || l.CBMaps[0].Target != 0 || l.Runtime[0].Target != 7 {
		t.Errorf("mappings %v, runtime %v: want the buffer at c0 and the position offset at c7", l.CBMaps, l.Runtime)
	}
	text, err := dxbc.DisassembleD3D9(l.Code)
	if err != nil || !strings.Contains(text, "[a0.x]") || !strings.Contains(text, "mova a0.x") {
		t.Fatalf("no relative addressing: %v\n%s", err, text)
	}
	var cb [][4]uint32
	var consts [][4]float32
	for j := 0; j < 7; j++ {
		v := [4]float32{float32(j) + 0.5, float32(-j), 2, float32(j * j)}
		cb, consts = append(cb, bits4(v)), append(consts, v)
	}
	consts = append(consts, [4]float32{}) // the position offset
	for _, idx := range [][4]uint32{{0, 1, 2, 0}, {5, 3, 4, 0}, {2, 2, 0, 0}} {
		a := [4]float32{1.5, -2, 0.5, 1}
		want, err := Run(r.Program, &Env{Inputs: [][4]uint32{bits4(a), idx}, CB: [][][4]uint32{cb}})
		if err != nil {
			t.Fatal(err)
		}
		fi := [4]float32{float32(idx[0]), float32(idx[1]), float32(idx[2]), float32(idx[3])}
		got, _, err := d3d9Run(l.Code, [][4]float32{a, fi}, consts...)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if w := floats4(want.Regs[1]); got["oT0"] != w {
			t.Errorf("indices %v: oT0 = %v, the SM4 program's %v\n%s", idx, got["oT0"], w, text)
		}
	}
}

// TestAon9Rules: the shader model 2 rules that count the Direct3D 9 code,
// one source kept and one refused each, in fxc's form naming the target.
func TestAon9Rules(t *testing.T) {
	const tex = "Texture2D t; SamplerState s;\n"
	// repeat is head, line(i) for i < n, then tail.
	repeat := func(head string, n int, line func(i int) string, tail string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; i < n; i++ {
			b.WriteString(line(i))
		}
		return b.String() + tail
	}
	// a chain of n dependent mads (n+1 arithmetic slots with the move to
	// oC0).
	chain := func(n int) string {
		return repeat("float4 main(float4 a : TEXCOORD0, float4 b : TEXCOORD1, float4 c : TEXCOORD2) : SV_Target {\n", n,
			func(int) string { return " a = a * b + c;\n" }, " return a; }")
	}
	// n texture reads at independent coordinates (a loop, unrolled).
	loopReads := func(n int) string {
		return fmt.Sprintf(tex+"float4 main(float2 uv : TEXCOORD0) : SV_Target { float4 r = 0;\n for (int i = 0; i < %d; i++) r += t.Sample(s, uv + i);\n return r; }", n)
	}
	// n texture reads at independent coordinates.
	reads := func(n int) string {
		return repeat(tex+"float4 main(float2 uv : TEXCOORD0) : SV_Target { float4 r = 0;\n", n,
			func(i int) string { return fmt.Sprintf(" r += t.Sample(s, uv + %d);\n", i) }, " return r; }")
	}
	// a chain of n texture reads, each at the last one's result.
	dependent := func(n int) string {
		return repeat(tex+"float4 main(float2 uv : TEXCOORD0) : SV_Target { float4 r = t.Sample(s, uv);\n", n-1,
			func(int) string { return " r = t.Sample(s, r.xy);\n" }, " return r; }")
	}
	// n values live at once.
	live := func(n int) string {
		return repeat("float4 main(float4 a : TEXCOORD0, float4 b : TEXCOORD1) : SV_Target {\n", n, func(i int) string {
			return fmt.Sprintf(" float4 x%d = a * b.%c + a.%c;\n a = a.yzwx * x%d + b;\n", i, "xyzw"[i%4], "xyzw"[i/4%4], i)
		}, repeat(" float4 r = a;\n", n, func(i int) string { return fmt.Sprintf(" r = r * x%d + r.wzyx;\n", i) }, " return r; }"))
	}
	// n constant registers read (each register of an array).
	consts := func(n int) string {
		return repeat(fmt.Sprintf("float4 k[%d];\nfloat4 main(float4 a : TEXCOORD0) : SV_Target { float4 r = a;\n", n), n,
			func(i int) string { return fmt.Sprintf(" r = r * k[%d];\n", i) }, " return r; }")
	}
	for _, c := range []struct{ name, target, src, want string }{
		{"arithmetic kept", "ps_4_0_level_9_1", chain(63), ""},
		{"arithmetic", "ps_4_0_level_9_1", chain(64), "error X5608: Compiled shader code uses too many arithmetic instruction slots (65). Max. allowed by the target (ps_2_0) is 64."},
		{"arithmetic on 9_3 kept", "ps_4_0_level_9_3", chain(511), ""},
		{"slots on 9_3", "ps_4_0_level_9_3", chain(512), "error X5608: Compiled shader code uses too many instruction slots (513). Max. allowed by the target (ps_2_x) is 512."},
		{"vertex slots kept", "vs_4_0_level_9_1", strings.ReplaceAll(chain(254), "SV_Target", "SV_Position"), ""},
		{"vertex slots", "vs_4_0_level_9_1", strings.ReplaceAll(chain(255), "SV_Target", "SV_Position"), "error X5608: Compiled shader code uses too many instruction slots (257). Max. allowed by the target (vs_2_0) is 256."},
		{"texture kept", "ps_4_0_level_9_1", reads(20), ""},
		{"texture in a loop kept", "ps_4_0_level_9_1", loopReads(32), ""},
		{"texture in a loop", "ps_4_0_level_9_1", loopReads(33), "error X5609: Compiled shader code uses too many texture instruction slots (33)."},
		{"texture", "ps_4_0_level_9_1", reads(33), "error X5609: Compiled shader code uses too many texture instruction slots (33). Max. allowed by the target (ps_2_0) is 32."},
		{"dependent kept", "ps_4_0_level_9_1", dependent(4), ""},
		{"dependent", "ps_4_0_level_9_1", dependent(5), "error X5426: Shader uses texture addressing operations in a dependency chain that is too complex for the target shader model (ps_2_0) to handle."},
		{"dependent on 9_3 kept", "ps_4_0_level_9_3", dependent(5), ""},
		{"temporaries kept", "ps_4_0_level_9_3", live(16), ""},
		{"temporaries", "ps_4_0_level_9_1", live(16), "error X4505: maximum temp register index exceeded: the ps_2_0 code uses"},
		{"constants kept", "ps_4_0_level_9_1", consts(32), ""},
		{"constants", "ps_4_0_level_9_1", consts(33), "error X4507: maximum constant register index exceeded: the ps_2_0 code uses 33 constant registers, ps_2_0 has 32 (c0-c31)"},
		{"vertex constants kept", "vs_4_0_level_9_1", strings.ReplaceAll(consts(100), "SV_Target", "SV_Position"), ""},
		// What this back end does not translate, refused by name.
		{"loop", "ps_4_0_level_9_1", "float n;\nfloat4 main(float4 a : TEXCOORD0) : SV_Target { for (int i = 0; i < n; i++) a = a * a; return a; }",
			"not supported by this compiler for ps_4_0_level_9_1: a loop that is not unrolled (loop; shader model 2 has no dynamic loops"},
		{"loop kept", "vs_4_0_level_9_1", "float4 k[4];\nfloat4 main(float4 a : TEXCOORD0) : SV_Position { for (int i = 0; i < 4; i++) a = a * k[i]; return a; }", ""},
		{"dynamic constant in a pixel shader", "ps_4_0_level_9_3", "float4 k[8];\nfloat4 main(uint4 i : TEXCOORD0) : SV_Target { return k[i.x]; }",
			"not supported by this compiler for ps_4_0_level_9_3: a dynamically indexed constant buffer (ps_2_x has no relative addressing)"},
		{"float to integer kept", "vs_4_0_level_9_3", "float4 k[8];\nfloat4 main(float4 a : TEXCOORD0) : SV_Position { return k[(int)a.x]; }", ""},
		{"round to nearest even", "ps_4_0_level_9_1", "float4 main(float4 a : TEXCOORD0) : SV_Target { return round(a); }",
			"not supported by this compiler for ps_4_0_level_9_1: the conversion round_ne"},
		{"position input", "ps_4_0_level_9_1", "float4 main(float4 p : SV_Position) : SV_Target { return p; }",
			"SV_Position as a pixel shader input (ps_2_0 has no position register)"},
	} {
		keptOrRefused(t, c.name+" ("+c.target+")", c.target, c.src, c.want)
	}
}

// TestAon9PartialOutput: a pixel shader that writes some lanes of its
// target moves the whole register to oC0, the others 0, never a
// temporary's unwritten lanes.
func TestAon9PartialOutput(t *testing.T) {
	r := compileOK(t, "struct O { float4 c : SV_Target; };\nO main(float4 a : TEXCOORD0) { O o; o.c.xy = a.yx * 2; return o; }", "main", "ps_4_0_level_9_1")
	got, _, err := d3d9Run(aon9Of(t, r).Code, [][4]float32{{1, 2, 3, 4}})
	if err != nil || got["oC0"] != [4]float32{4, 2, 0, 0} {
		t.Errorf("oC0 = %v, %v; want [4 2 0 0]", got["oC0"], err)
	}
}

// keptOrRefused compiles src for target: want "" is compiled, else an
// error that contains want.
func keptOrRefused(t *testing.T, name, target, src, want string) {
	t.Helper()
	_, err := Compile([]byte(src), "test.hlsl", "main", target)
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %s\nrefused: %v", name, src, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %s\nerr = %v\nwant %q", name, src, err, want)
	}
}

// TestAon9Fixtures compiles the sources of SDL's and Nuklear's level 9
// shaders, whose fxc blobs are in core/dxbc/testdata, and compares the
// Direct3D 9 code with fxc's: the same sampler and runtime mappings,
// constant registers among fxc's, and its size (fxc's is
// the bound: this back end's code may be as small, never larger by more
// than the position's temporary).
func TestAon9Fixtures(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("../dxbc/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct{ src, entry, target, blob string }{
		{"sdl_D3D11_VertexShader.hlsl", "main", "vs_4_0_level_9_1", "sdl_D3D11_VertexShader.h"},
		{"nuklear_d3d11.hlsl", "vs", "vs_4_0_level_9_0", "nuklear_d3d11_vertex_shader.h"},
		{"nuklear_d3d11.hlsl", "ps", "ps_4_0_level_9_0", "nuklear_d3d11_pixel_shader.h"},
	} {
		r := compileOK(t, string(read(c.src)), c.entry, c.target)
		ours := aon9Of(t, r)
		b, err := dxbc.ParseFxcHeader(string(read(c.blob)))
		if err != nil {
			t.Fatal(err)
		}
		fc, _ := dxbc.Parse(b)
		theirs, err := dxbc.ParseLevel9(fc.Chunk("Aon9").Data)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ours.Samplers, ours.Runtime, ours.Version) != fmt.Sprint(theirs.Samplers, theirs.Runtime, theirs.Version) {
			t.Errorf("%s: mappings %v %v, fxc's %v %v", c.blob, ours.Samplers, ours.Runtime, theirs.Samplers, theirs.Runtime)
		}
		// The constant registers mapped: fxc's, or fewer where the code
		// reads fewer (Nuklear's vertex shader: z = 0 leaves a row unread).
		mapped := func(l *dxbc.Level9) map[[2]uint16]bool {
			m := map[[2]uint16]bool{}
			for _, c := range l.CBMaps {
				for i := uint16(0); i < c.Count; i++ {
					m[[2]uint16{c.Buffer, c.Start + i}] = true
				}
			}
			return m
		}
		for r := range mapped(ours) {
			if !mapped(theirs)[r] {
				t.Errorf("%s: cb%d[%d] mapped, fxc's mappings %v do not have it", c.blob, r[0], r[1], theirs.CBMaps)
			}
		}
		on, _, _ := dxbc.D3D9Slots(ours.Code)
		tn, _, _ := dxbc.D3D9Slots(theirs.Code)
		if on > tn {
			t.Errorf("%s: %d instruction slots, fxc's %d", c.blob, on, tn)
		}
		t.Logf("%s: %d bytes of Direct3D 9 code in %d slots; fxc's %d bytes in %d", c.blob, 4*len(ours.Code), on, 4*len(theirs.Code), tn)
	}
}
