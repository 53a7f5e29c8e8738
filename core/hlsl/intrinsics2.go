package hlsl

import (
	"fmt"
	"strings"
)

// More intrinsics of shader models 4 and 5 ("Intrinsic Functions (DirectX
// HLSL)"). Those that are one SM4/SM5 instruction (round_ne, countbits,
// firstbit_*, bfrev, f32tof16, f16tof32, deriv_rt*) or a short fixed
// sequence are lowered here; those fxc expands into arithmetic (the
// inverse trigonometric functions' polynomial approximations, refract,
// determinant, lit, ...) are written as HLSL functions, compiled once and
// inlined like user functions, their instructions on the line of the call.

// internalFns are the HLSL texts of the expanded intrinsics; TYPE stands
// for the argument type (float, float3, float2x2, ...).
var internalFns = map[string]string{
	// Abramowitz and Stegun 4.4.45: acos(|x|) is sqrt(1 - |x|) times a
	// cubic; a negative x mirrors it about pi/2 (as fxc computes it).
	"acos": `TYPE acos(TYPE x)
{
    TYPE a = abs(x);
    TYPE poly = ((-0.018729 * a + 0.074261) * a - 0.212114) * a + 1.570729;
    TYPE root = sqrt(1.0 - a);
    TYPE flip = (x < 0.0) * (-2.0 * root * poly + 3.141593);
    return poly * root + flip;
}`,
	"asin": `TYPE asin(TYPE x)
{
    TYPE a = abs(x);
    TYPE poly = ((-0.018729 * a + 0.074261) * a - 0.212114) * a + 1.570729;
    TYPE root = sqrt(1.0 - a);
    TYPE flip = (x < 0.0) * (-2.0 * root * poly + 3.141593);
    return -(poly * root + flip) + 1.570796;
}`,
	// atan on [0, 1] as an odd polynomial, the octants folded in.
	"atan2": `TYPE atan2(TYPE y, TYPE x)
{
    TYPE inv = 1.0 / max(abs(y), abs(x));
    TYPE t = inv * min(abs(y), abs(x));
    TYPE t2 = t * t;
    TYPE r = ((((0.020835 * t2 - 0.085133) * t2 + 0.180141) * t2 - 0.330299) * t2 + 0.999866) * t;
    r += abs(x) < abs(y) ? r * -2.0 + 1.570796 : 0.0;
    r += x < 0.0 ? -3.1415927 : 0.0;
    return (min(x, y) < 0.0 && max(x, y) >= 0.0) ? -r : r;
}`,
	"sinh":        "TYPE sinh(TYPE x) { return (exp(x) - exp(-x)) / 2; }",
	"cosh":        "TYPE cosh(TYPE x) { return (exp(x) + exp(-x)) / 2; }",
	"tanh":        "TYPE tanh(TYPE x) { TYPE p = exp(x); TYPE n = exp(-x); return (p - n) / (p + n); }",
	"faceforward": "TYPE faceforward(TYPE n, TYPE i, TYPE ng) { return dot(i, ng) < 0 ? n : -n; }",
	"modf":        "TYPE modf(TYPE x, out TYPE ip) { ip = trunc(x); return x - ip; }",
	"refract": `TYPE refract(TYPE i, TYPE n, SCALAR eta)
{
    SCALAR d = dot(i, n);
    SCALAR k = 1 - eta * eta * (1 - d * d);
    return k >= 0.0 ? eta * i - (eta * d + sqrt(k)) * n : 0;
}`,
	"lit": `float4 lit(float n_l, float n_h, float m)
{
    float4 r;
    r.xw = 1.0;
    r.y = max(n_l, 0);
    r.z = (n_l < 0 || n_h < 0) ? 0 : pow(n_h, m);
    return r;
}`,
	"dst":            "TYPE4 dst(TYPE a, TYPE b) { TYPE4 x = a, y = b; return TYPE4(1, x.y * y.y, x.z, y.w); }",
	"determinant2x2": "SCALAR determinant(SCALAR2x2 m) { return m._11 * m._22 - m._12 * m._21; }",
	"determinant3x3": `SCALAR determinant(SCALAR3x3 m)
{
    SCALAR2x2 a = { m._22, m._23, m._32, m._33 };
    SCALAR2x2 b = { m._21, m._23, m._31, m._33 };
    SCALAR2x2 c = { m._21, m._22, m._31, m._32 };
    SCALAR3 u = { m._11, -m._12, m._13 };
    SCALAR3 v = { determinant(a), determinant(b), determinant(c) };
    return dot(u, v);
}`,
	"determinant4x4": `SCALAR determinant(SCALAR4x4 m)
{
    SCALAR3x3 a = { m._22, m._23, m._24, m._32, m._33, m._34, m._42, m._43, m._44 };
    SCALAR3x3 b = { m._21, m._23, m._24, m._31, m._33, m._34, m._41, m._43, m._44 };
    SCALAR3x3 c = { m._21, m._22, m._24, m._31, m._32, m._34, m._41, m._42, m._44 };
    SCALAR3x3 d = { m._21, m._22, m._23, m._31, m._32, m._33, m._41, m._42, m._43 };
    SCALAR4 u = { m._11, -m._12, m._13, -m._14 };
    SCALAR4 v = { determinant(a), determinant(b), determinant(c), determinant(d) };
    return dot(u, v);
}`,
}

// internalFn parses an expanded intrinsic's text once per type.
func (g *gen) internalFn(key, src string) *funcDecl {
	if fn, ok := g.internals[key]; ok {
		return fn
	}
	var diags []Diag
	lx := &lexer{file: "<intrinsic>", diags: &diags, lim: DefaultLimits()}
	f := parse(lx.tokenize([]byte(src)), "<intrinsic>", &diags)
	var fn *funcDecl
	if f != nil && len(diags) == 0 && len(f.funcs) > 0 {
		fn = f.funcs[len(f.funcs)-1]
	}
	if g.internals == nil {
		g.internals = map[string]*funcDecl{}
	}
	g.internals[key] = fn
	return fn
}

// callInternal inlines an expanded intrinsic with the given arguments.
// Its instructions carry the line of the call.
func (g *gen) callInternal(e *callExpr, args []*value, name string, repl ...string) *value {
	src := internalFns[name]
	r := strings.NewReplacer(repl...)
	src = r.Replace(src)
	fn := g.internalFn(name+"|"+strings.Join(repl, ","), src)
	if fn == nil {
		g.errorf(e.pos, eNotImplemented, "internal compiler error: intrinsic '%s' for %s", e.name, strings.Join(repl, " "))
		return poison
	}
	saved := g.fixLine
	if saved == 0 {
		g.fixLine = g.line
	}
	// The helper calls (determinant of a 3x3 calls the 2x2's) find their
	// callee among the internal functions.
	at := make([]Expr, len(args))
	for i := range at {
		at[i] = &identExpr{pos: e.pos}
	}
	v := g.userCallArgs(&callExpr{pos: e.pos, name: e.name, args: at}, []*funcDecl{fn}, args)
	g.fixLine = saved
	return v
}

// moreIntrinsic lowers the intrinsics of this file; ok is false for a name
// it does not know.
func (g *gen) moreIntrinsic(e *callExpr, args []*value) (*value, bool) {
	p := e.pos
	noMatch := func() (*value, bool) {
		g.errorf(p, eNoOverload, "'%s': no matching %d parameter intrinsic function", e.name, len(args))
		return poison, true
	}
	// floatArgs converts the arguments to float with their common shape.
	floatArgs := func(n int) (*Type, []*value) {
		if len(args) != n {
			return nil, nil
		}
		t := args[0].t
		for _, a := range args[1:] {
			if t = g.binaryType(p, t, a.t, true); t == nil {
				return nil, nil
			}
		}
		t = t.withBase(Float)
		out := make([]*value, n)
		for i, a := range args {
			out[i] = g.convert(p, a, t, false)
		}
		return t, out
	}
	intArg := func() (*Type, *value) {
		if len(args) != 1 {
			return nil, nil
		}
		a := args[0]
		b := a.t.Base
		if b == Float || b == Bool {
			b = Uint
		}
		return a.t.withBase(b), g.convert(p, a, a.t.withBase(b), false)
	}
	unary := func(o Op) (*value, bool) {
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		return &value{t: t, c: g.op(o, t.comps(), a[0].c)}, true
	}
	scale := func(k float32) (*value, bool) {
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		return &value{t: t, c: g.op(OpMul, t.comps(), a[0].c, []Operand{immF(k)})}, true
	}
	switch e.name {
	case "round":
		return unary(OpRoundNE)
	case "radians":
		return scale(0.0174532924)
	case "degrees":
		return scale(57.2957802)
	case "log10":
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		l := g.op(OpLog, t.comps(), a[0].c)
		return &value{t: t, c: g.op(OpMul, t.comps(), l, []Operand{immF(0.301029996)})}, true
	case "tan":
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		s, c := g.sincos(a[0].c)
		return &value{t: t, c: g.op(OpDiv, t.comps(), s, c)}, true
	case "sincos":
		if len(args) != 3 {
			return noMatch()
		}
		t := args[0].t.withBase(Float)
		x := g.convert(p, args[0], t, false)
		s, c := g.sincos(x.c)
		for i, r := range [][]Operand{s, c} {
			out := args[1+i]
			if out.ro {
				g.errorf(e.args[1+i].at(), eConst, "out parameters require l-value arguments")
				return poison, true
			}
			g.store(p, out, g.convert(p, &value{t: t, c: r}, out.t, true), false)
		}
		return &value{t: tVoid, ro: true}, true
	case "ldexp":
		t, a := floatArgs(2)
		if t == nil || oneWithMatrix(args) {
			return noMatch()
		}
		ex := g.op(OpExp, t.comps(), a[1].c)
		return &value{t: t, c: g.op(OpMul, t.comps(), a[0].c, ex)}, true
	case "fmod":
		t, a := floatArgs(2)
		if t == nil {
			return noMatch()
		}
		return g.binop(p, "%", a[0], a[1]), true
	case "frexp":
		t, a := floatArgs(1)
		if len(args) != 2 || t == nil {
			return noMatch()
		}
		return g.frexp(e, t, a[0], args[1])
	case "isnan", "isinf", "isfinite":
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		n := t.comps()
		var c []Operand
		switch e.name {
		case "isnan":
			c = g.op(OpNe, n, a[0].c, a[0].c)
		case "isinf":
			c = g.op(OpEq, n, absAll(a[0].c), []Operand{immU(0x7f800000)})
		default:
			c = g.op(OpLt, n, absAll(a[0].c), []Operand{immU(0x7f800000)})
		}
		return &value{t: t.withBase(Bool), c: c}, true
	case "countbits", "reversebits", "firstbitlow", "firstbithigh":
		t, a := intArg()
		if t == nil {
			return noMatch()
		}
		n := t.comps()
		switch e.name {
		case "countbits":
			return &value{t: t.withBase(Uint), c: g.op(OpCountbits, n, a.c)}, true
		case "reversebits":
			return &value{t: t.withBase(Uint), c: g.op(OpBfrev, n, a.c)}, true
		case "firstbitlow":
			return &value{t: t.withBase(Uint), c: g.op(OpFirstbitLo, n, a.c)}, true
		}
		// firstbit_hi counts from the top; HLSL's index counts from the
		// bottom: 31 - it, -1 staying -1.
		o := OpFirstbitHi
		if t.Base == Int {
			o = OpFirstbitShi
		}
		hi := g.op(o, n, a.c)
		idx := g.op(OpIadd, n, negAll(hi), []Operand{immU(31)})
		none := g.op(OpIne, n, hi, []Operand{immU(0xffffffff)})
		return &value{t: t.withBase(Uint), c: g.op(OpMovc, n, none, idx, []Operand{immU(0xffffffff)})}, true
	case "f32tof16":
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		return &value{t: t.withBase(Uint), c: g.op(OpF32tof16, t.comps(), a[0].c)}, true
	case "f16tof32":
		t, a := intArg()
		if t == nil {
			return noMatch()
		}
		return &value{t: t.withBase(Float), c: g.op(OpF16tof32, t.comps(), a.c)}, true
	case "ddx", "ddy", "ddx_coarse", "ddy_coarse", "ddx_fine", "ddy_fine", "fwidth":
		if g.stage != Pixel {
			g.errorf(p, eNotImplemented, "'%s': derivatives are only valid in a pixel shader", e.name)
			return poison, true
		}
		if strings.HasSuffix(e.name, "_coarse") || strings.HasSuffix(e.name, "_fine") {
			if g.major < 5 {
				g.errorf(p, eNotImplemented, "'%s' needs shader model 5", e.name)
				return poison, true
			}
		}
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		n := t.comps()
		ops := map[string]Op{"ddx": OpDerivRtx, "ddy": OpDerivRty, "ddx_coarse": OpDerivRtxCoarse, "ddy_coarse": OpDerivRtyCoarse,
			"ddx_fine": OpDerivRtxFine, "ddy_fine": OpDerivRtyFine}
		if e.name == "fwidth" {
			x := g.op(OpDerivRtx, n, a[0].c)
			y := g.op(OpDerivRty, n, a[0].c)
			return &value{t: t, c: g.op(OpAdd, n, absAll(x), absAll(y))}, true
		}
		return &value{t: t, c: g.op(ops[e.name], n, a[0].c)}, true
	case "D3DCOLORtoUBYTE4":
		if len(args) != 1 || !(args[0].t.Kind == KScalar || args[0].t.Kind == KVector && args[0].t.Cols == 4) {
			return noMatch()
		}
		x := g.convert(p, args[0], vecT(Float, 4), false)
		z := []Operand{x.c[2], x.c[1], x.c[0], x.c[3]}
		m := g.op(OpMul, 4, z, []Operand{immF(255.001953)})
		return &value{t: vecT(Int, 4), c: g.op(OpFtoi, 4, m)}, true
	case "asin", "acos", "sinh", "cosh", "tanh":
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		return g.callInternal(e, a, e.name, "TYPE", t.String()), true
	case "atan":
		t, a := floatArgs(1)
		if t == nil {
			return noMatch()
		}
		one := g.splat(p, &value{t: scalarT(Float), c: []Operand{immF(1)}}, t)
		return g.callInternal(e, []*value{a[0], one}, "atan2", "TYPE", t.String()), true
	case "atan2":
		t, a := floatArgs(2)
		if t == nil {
			return noMatch()
		}
		return g.callInternal(e, a, "atan2", "TYPE", t.String()), true
	case "faceforward":
		t, a := floatArgs(3)
		if t == nil || t.Kind == KMatrix {
			return noMatch()
		}
		return g.callInternal(e, a, e.name, "TYPE", t.String()), true
	case "modf":
		if len(args) != 2 {
			return noMatch()
		}
		t := args[0].t
		if t.Base == Bool {
			t = t.withBase(Float)
		}
		x := g.convert(p, args[0], t, false)
		return g.callInternal(e, []*value{x, args[1]}, e.name, "TYPE", t.String()), true
	case "refract":
		if len(args) != 3 || args[0].t.Kind == KMatrix || args[1].t.Kind == KMatrix || args[2].t.Kind == KMatrix {
			return noMatch()
		}
		t := g.binaryType(p, args[0].t, args[1].t, true)
		if t == nil {
			return poison, true
		}
		t = t.withBase(Float)
		eta := g.convert(p, args[2], scalarT(Float), true)
		i, n := g.convert(p, args[0], t, false), g.convert(p, args[1], t, false)
		// fxc's refract of two halves is a half (overloads tell it).
		v := g.callInternal(e, []*value{i, n, eta}, e.name, "SCALAR", "float", "TYPE", t.String())
		return asHalf(v, args[0].t.Half && args[1].t.Half), true
	case "lit":
		if len(args) != 3 {
			return noMatch()
		}
		var a []*value
		for _, x := range args {
			if x.t.Kind != KScalar {
				return noMatch()
			}
			a = append(a, g.convert(p, x, scalarT(Float), false))
		}
		return g.callInternal(e, a, e.name), true
	case "dst":
		if len(args) != 2 || args[0].t.One || args[1].t.One { // fxc takes a scalar or a float4, not a float1
			return noMatch()
		}
		t := g.binaryType(p, args[0].t, args[1].t, true)
		if t == nil || !(t.Kind == KScalar || t.Kind == KVector && t.Cols == 4) {
			return noMatch()
		}
		t = t.withBase(Float)
		a := []*value{g.convert(p, args[0], t, false), g.convert(p, args[1], t, false)}
		return g.callInternal(e, a, e.name, "TYPE4", "float4", "TYPE", t.String()), true
	case "determinant":
		if len(args) != 1 {
			return noMatch()
		}
		// fxc takes the determinant of the leading square of a matrix
		// that is not square (a float3x4's first three columns), and a
		// scalar's or a 1xN matrix's is its (first) value.
		t := args[0].t
		if t.One { // a float1 is no matrix
			return noMatch()
		}
		if t.Kind == KScalar || t.Kind == KMatrix && min(t.Rows, t.Cols) == 1 {
			return g.convert(p, args[0], scalarT(Float), false), true
		}
		if t.Kind != KMatrix {
			return noMatch()
		}
		n := min(t.Rows, t.Cols)
		m := g.convert(p, args[0], matT(Float, n, n), false)
		key := fmt.Sprintf("determinant%dx%d", n, n)
		repl := []string{"SCALAR", "float"}
		return g.callInternal(e, []*value{m}, key, repl...), true
	case "AllMemoryBarrier", "AllMemoryBarrierWithGroupSync", "DeviceMemoryBarrier", "DeviceMemoryBarrierWithGroupSync",
		"GroupMemoryBarrier", "GroupMemoryBarrierWithGroupSync":
		return g.barrier(e, args), true
	case "InterlockedAdd", "InterlockedAnd", "InterlockedCompareExchange", "InterlockedCompareStore", "InterlockedExchange",
		"InterlockedMax", "InterlockedMin", "InterlockedOr", "InterlockedXor":
		return g.interlocked(e, args), true
	case "GetRenderTargetSampleCount":
		return g.rastSampleCount(e, args), true // (samplepos.go)
	case "GetRenderTargetSamplePosition":
		return g.samplePos(e, args, Operand{File: FileRasterizer}), true
	case "noise":
		g.errorf(p, eNotImplemented, "'%s': intrinsic function not supported in shader model %d (a shader model 1 to 3 function)", e.name, g.major)
		return poison, true
	case "abort", "errorf", "printf", "msad4", "mad24", "dot2add", "EvaluateAttributeAtCentroid", "EvaluateAttributeAtSample",
		"EvaluateAttributeSnapped",
		"Process2DQuadTessFactorsAvg", "ProcessIsolineTessFactors", "ProcessTriTessFactorsAvg", "CheckAccessFullyMapped",
		"asdouble", "clip_distance":
		g.errorf(p, eNotImplemented, "not supported by this compiler: the intrinsic '%s'", e.name)
		return poison, true
	}
	return nil, false
}

// sincos emits sincos for up to four components at a time.
func (g *gen) sincos(c []Operand) (s, co []Operand) {
	for base := 0; base < len(c); base += 4 {
		k := min(4, len(c)-base)
		rs, rc := g.alloc(), g.alloc()
		m := uint8(1<<k - 1)
		g.emit(Instr{Op: OpSincos, Dst: []Operand{{File: FileTemp, Index: rs, Mask: m}, {File: FileTemp, Index: rc, Mask: m}},
			Src: []Operand{g.srcOp(c[base : base+k])}})
		s = append(s, regComps(FileTemp, rs, k)...)
		co = append(co, regComps(FileTemp, rc, k)...)
	}
	return s, co
}

// frexp splits x into a mantissa in [0.5, 1) and an exponent, as fxc
// expands it: the exponent from the float's bits, the mantissa with the
// exponent field replaced by 126's; zero gives zero and zero.
func (g *gen) frexp(e *callExpr, t *Type, x, out *value) (*value, bool) {
	p := e.pos
	n := t.comps()
	if out.ro {
		g.errorf(e.args[1].at(), eConst, "out parameters require l-value arguments")
		return poison, true
	}
	bitsE := g.op(OpAnd, n, x.c, []Operand{immU(0x7f800000)})
	sh := g.op(OpUshr, n, bitsE, []Operand{immU(23)})
	ex := g.op(OpIadd, n, sh, []Operand{immU(0xffffff82)}) // - 126
	nz := g.op(OpNe, n, x.c, []Operand{immF(0)})
	exf := g.op(OpItof, n, ex)
	exf = g.op(OpAnd, n, nz, exf)
	g.store(p, out, g.convert(p, &value{t: t, c: exf}, out.t, true), false)
	m := g.op(OpAnd, n, x.c, []Operand{immU(0x807fffff)})
	m = g.op(OpOr, n, m, []Operand{immU(0x3f000000)})
	m = g.op(OpAnd, n, nz, m)
	return &value{t: t, c: m}, true
}

func absAll(c []Operand) []Operand {
	out := make([]Operand, len(c))
	for i, o := range c {
		out[i] = absComp(o)
	}
	return out
}

func negAll(c []Operand) []Operand {
	out := make([]Operand, len(c))
	for i, o := range c {
		if o.File == FileImm {
			o.Imm[0] = -o.Imm[0]
			out[i] = o
			continue
		}
		o.Neg = !o.Neg
		out[i] = o
	}
	return out
}
