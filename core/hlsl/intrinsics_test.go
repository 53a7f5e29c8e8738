package hlsl

import (
	"math"
	"testing"
)

// The reference computations below redo, in Go float32, the instruction
// sequence each intrinsic is defined to expand to, rounding after each
// step and never fusing a multiply into an add.

func rsq(x float32) float32  { return float32(1 / math.Sqrt(float64(x))) }
func sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }
func dp(a, b [4]float32, n int) float32 {
	acc := float32(a[0] * b[0])
	for i := 1; i < n; i++ {
		acc = acc + float32(a[i]*b[i])
	}
	return acc
}
func each(f func(x float32) float32, a [4]float32) [4]float32 {
	var r [4]float32
	for i := range a {
		r[i] = f(a[i])
	}
	return r
}
func each2(f func(x, y float32) float32, a, b [4]float32) [4]float32 {
	var r [4]float32
	for i := range a {
		r[i] = f(a[i], b[i])
	}
	return r
}
func splat(x float32) [4]float32 { return [4]float32{x, x, x, x} }
func sat(x float32) float32 {
	if x != x || x < 0 {
		return 0
	}
	return min(x, 1)
}
func floor32(x float32) float32 { return float32(math.Floor(float64(x))) }

// intrinsicCase is one pixel-shader body (reading a, b, c) and the Go
// float32 computation it must match.
type intrinsicCase struct {
	desc string
	body string
	ref  func(a, b, c [4]float32) [4]float32
	ulps float64 // 0: bit exact
	pos  bool    // feed |a| (for sqrt, log, pow)
}

var intrinsicCases = []intrinsicCase{
	{"add", "return a + b;", func(a, b, c [4]float32) [4]float32 { return each2(func(x, y float32) float32 { return x + y }, a, b) }, 0, false},
	{"sub mul div", "return (a - b) * c / b;", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			r[i] = float32(float32(a[i]-b[i])*c[i]) / b[i]
		}
		return r
	}, 0, false},
	{"dot", "return dot(a.xyz, b.xyz);", func(a, b, c [4]float32) [4]float32 { return splat(dp(a, b, 3)) }, 0, false},
	{"dot4", "return dot(a, b);", func(a, b, c [4]float32) [4]float32 { return splat(dp(a, b, 4)) }, 0, false},
	{"dot2", "return dot(a.xy, b.xy);", func(a, b, c [4]float32) [4]float32 { return splat(dp(a, b, 2)) }, 0, false},
	{"transpose of a scalar", "return transpose(a.y);", func(a, b, c [4]float32) [4]float32 {
		return [4]float32{a[1], a[1], a[1], a[1]}
	}, 1, false},
	{"cross of a float4 and a scalar (truncated, splatted)", "return float4(cross(a, 4), 0);", func(a, b, c [4]float32) [4]float32 {
		return [4]float32{a[1]*4 - a[2]*4, a[2]*4 - a[0]*4, a[0]*4 - a[1]*4, 0}
	}, 1, false},
	{"cross", "return float4(cross(a.xyz, b.xyz), 0);", func(a, b, c [4]float32) [4]float32 {
		return [4]float32{
			float32(a[1]*b[2]) - float32(a[2]*b[1]),
			float32(a[2]*b[0]) - float32(a[0]*b[2]),
			float32(a[0]*b[1]) - float32(a[1]*b[0]), 0}
	}, 1, false},
	{"normalize", "return float4(normalize(a.xyz), 1);", func(a, b, c [4]float32) [4]float32 {
		r := rsq(dp(a, a, 3))
		return [4]float32{r * a[0], r * a[1], r * a[2], 1}
	}, 0, false},
	{"length", "return length(a);", func(a, b, c [4]float32) [4]float32 { return splat(sqrt(dp(a, a, 4))) }, 0, false},
	{"distance", "return distance(a.xyz, b.xyz);", func(a, b, c [4]float32) [4]float32 {
		d := each2(func(x, y float32) float32 { return x - y }, a, b)
		return splat(sqrt(dp(d, d, 3)))
	}, 0, false},
	{"lerp", "return lerp(a, b, c);", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			r[i] = float32(c[i]*float32(b[i]-a[i])) + a[i]
		}
		return r
	}, 0, false},
	{"saturate", "return saturate(a);", func(a, b, c [4]float32) [4]float32 { return each(sat, a) }, 0, false},
	{"clamp", "return clamp(a, -0.5, b);", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 { return min(max(x, -0.5), y) }, a, b)
	}, 0, false},
	{"min max", "return min(a, b) + max(a, c);", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			r[i] = min(a[i], b[i]) + max(a[i], c[i])
		}
		return r
	}, 0, false},
	{"abs", "return abs(a);", func(a, b, c [4]float32) [4]float32 {
		return each(func(x float32) float32 { return float32(math.Abs(float64(x))) }, a)
	}, 0, false},
	{"sign", "return sign(a);", func(a, b, c [4]float32) [4]float32 {
		return each(func(x float32) float32 {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		}, a)
	}, 0, false},
	{"floor ceil", "return floor(a) + ceil(b);", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 { return floor32(x) + float32(math.Ceil(float64(y))) }, a, b)
	}, 0, false},
	{"frac", "return frac(a);", func(a, b, c [4]float32) [4]float32 { return each(func(x float32) float32 { return x - floor32(x) }, a) }, 0, false},
	{"step", "return step(a, b);", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 {
			if y >= x {
				return 1
			}
			return 0
		}, a, b)
	}, 0, false},
	{"smoothstep", "return smoothstep(a, a + 2, b);", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			hi := a[i] + 2
			inv := 1 / float32(-a[i]+hi)
			s := sat(inv * float32(-a[i]+b[i]))
			k := float32(s*-2) + 3
			r[i] = float32(s*s) * k
		}
		return r
	}, 0, false},
	{"sqrt rsqrt", "return sqrt(a) + rsqrt(a);", func(a, b, c [4]float32) [4]float32 {
		return each(func(x float32) float32 { return sqrt(x) + rsq(x) }, a)
	}, 0, true},
	{"pow", "return pow(a, c);", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 { return float32(math.Pow(float64(x), float64(y))) }, a, c)
	}, 64, true},
	{"exp exp2", "return exp(c) + exp2(b);", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 { return float32(math.Exp(float64(x)) + math.Exp2(float64(y))) }, c, b)
	}, 16, false},
	{"log log2", "return log(a) + log2(a);", func(a, b, c [4]float32) [4]float32 {
		return each(func(x float32) float32 { return float32(math.Log(float64(x)) + math.Log2(float64(x))) }, a)
	}, 64, true},
	{"sin cos", "return sin(a) * cos(b);", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 { return float32(math.Sin(float64(x)) * math.Cos(float64(y))) }, a, b)
	}, 4, false},
	{"reflect", "return float4(reflect(a.xyz, normalize(b.xyz)), 0);", func(a, b, c [4]float32) [4]float32 {
		r := rsq(dp(b, b, 3))
		n := [4]float32{r * b[0], r * b[1], r * b[2], 0}
		d := dp(n, a, 3)
		d2 := d + d
		return [4]float32{float32(-d2*n[0]) + a[0], float32(-d2*n[1]) + a[1], float32(-d2*n[2]) + a[2], 0}
	}, 0, false},
	{"mul vector matrix", "float4x4 m = float4x4(a, b, c, a + b); return mul(c, m);", func(a, b, c [4]float32) [4]float32 {
		m := [4][4]float32{a, b, c, each2(func(x, y float32) float32 { return x + y }, a, b)}
		var r [4]float32
		for j := 0; j < 4; j++ {
			acc := float32(c[0] * m[0][j])
			for k := 1; k < 4; k++ {
				acc = float32(c[k]*m[k][j]) + acc
			}
			r[j] = acc
		}
		return r
	}, 0, false},
	{"mul matrix vector", "float4x4 m = float4x4(a, b, c, a + b); return mul(m, c);", func(a, b, c [4]float32) [4]float32 {
		m := [4][4]float32{a, b, c, each2(func(x, y float32) float32 { return x + y }, a, b)}
		var r [4]float32
		for i := 0; i < 4; i++ {
			r[i] = dp(m[i], c, 4)
		}
		return r
	}, 0, false},
	{"ternary comparison", "return a > b ? a : c;", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			if a[i] > b[i] {
				r[i] = a[i]
			} else {
				r[i] = c[i]
			}
		}
		return r
	}, 0, false},
	{"swizzle and write mask", "float4 r = a; r.zx = b.yw; r.w = c.r; return r.wzyx;", func(a, b, c [4]float32) [4]float32 {
		r := a
		r[2], r[0] = b[1], b[3]
		r[3] = c[0]
		return [4]float32{r[3], r[2], r[1], r[0]}
	}, 0, false},
	{"compound assign", "float4 r = a; r += b; r *= 2; r -= c; r /= 4; return r;", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			r[i] = float32(float32(float32(a[i]+b[i])*2)-c[i]) / 4
		}
		return r
	}, 0, false},
	{"float to int truncation", "int4 i = (int4)(a * 3); return i;", func(a, b, c [4]float32) [4]float32 {
		return each(func(x float32) float32 { return float32(int32(x * 3)) }, a)
	}, 0, false},
	{"logical", "return (a > 0 && b > 0) || c > 0.5 ? 1 : 0;", func(a, b, c [4]float32) [4]float32 {
		var r [4]float32
		for i := range r {
			if a[i] > 0 && b[i] > 0 || c[i] > 0.5 {
				r[i] = 1
			}
		}
		return r
	}, 0, false},
	{"float modulus", "return a % b;", func(a, b, c [4]float32) [4]float32 {
		return each2(func(x, y float32) float32 {
			q := x / y
			f := float32(math.Abs(float64(q)))
			f = f - floor32(f)
			if q < -q {
				f = -f
			}
			return f * y
		}, a, b)
	}, 0, false},
	{"for loop", "float4 s = 0; for (int i = 0; i < 4; i++) { s += a * (float)i; } return s;", func(a, b, c [4]float32) [4]float32 {
		var s [4]float32
		for i := 0; i < 4; i++ {
			for k := range s {
				s[k] += a[k] * float32(i)
			}
		}
		return s
	}, 0, false},
	{"while break continue", "float4 s = 0; int i = 0; while (true) { i++; if (i > 5) break; if (i == 2) continue; s += b; } return s;", func(a, b, c [4]float32) [4]float32 {
		var s [4]float32
		for i := 1; i <= 5; i++ {
			if i == 2 {
				continue
			}
			for k := range s {
				s[k] += b[k]
			}
		}
		return s
	}, 0, false},
	{"if else", "float4 r; if (a.x > b.x) r = a; else { r = b; r.y = 7; } return r;", func(a, b, c [4]float32) [4]float32 {
		if a[0] > b[0] {
			return a
		}
		r := b
		r[1] = 7
		return r
	}, 0, false},
}

func TestIntrinsicsMatchGo(t *testing.T) {
	inputs := [][3][4]float32{
		{{0.5, -1.25, 2, 3.5}, {1.5, 0.25, -2, 0.75}, {0.3, 0.6, 0.9, 0.1}},
		{{-0.7, 4, 0.01, -3}, {2, -1, 0.5, 8}, {0.5, 0.5, 0.25, 1}},
		{{1e-3, 100, -0.5, 0.999}, {-7, 3, 3, -0.001}, {0, 1, 0.75, 0.5}},
	}
	for _, tc := range intrinsicCases {
		t.Run(tc.desc, func(t *testing.T) {
			for _, in := range inputs {
				a, b, c := in[0], in[1], in[2]
				if tc.pos {
					a = each(func(x float32) float32 { return float32(math.Abs(float64(x))) + 0.125 }, a)
				}
				got := runPS(t, tc.body, a, b, c)
				want := tc.ref(a, b, c)
				for i := range got {
					if !closeULP(got[i], want[i], tc.ulps) {
						t.Errorf("%s with a=%v b=%v c=%v: lane %d = %v (%#08x), want %v (%#08x)", tc.body, a, b, c, i,
							got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		})
	}
}

// closeULP compares bit-exactly when ulps is 0, else within that many
// units in the last place (for exp/log/sin, which the IR computes through
// exp2/log2 and which Go's math rounds differently).
func closeULP(a, b float32, ulps float64) bool {
	if math.Float32bits(a) == math.Float32bits(b) {
		return true
	}
	if ulps == 0 {
		return false
	}
	if a != a || b != b {
		return false
	}
	d := math.Abs(float64(a) - float64(b))
	scale := math.Max(math.Abs(float64(a)), math.Abs(float64(b)))
	ulp := math.Max(scale*math.Pow(2, -23), 1e-30)
	return d <= ulps*ulp || d < 1e-6
}
