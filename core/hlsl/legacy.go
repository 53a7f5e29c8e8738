package hlsl

import (
	"sort"
	"strings"
)

// Shader model 1-3 texture sampling in shader model 4 and 5 (fxc's
// backwards compatibility): tex1D, tex2D, tex3D and texCUBE, with their
// lod, bias, grad and proj forms, read a sampler (sampler, sampler2D,
// ...), which a Direct3D 10+ shader binds apart from its texture. fxc makes
// a texture of the sampler's name for each sampler these functions read,
// bound at t# before the shader's own textures (in the order of first
// use), an array of as many as the sampler array has; tex2D(s, uv) is then
// t.Sample(s, uv). ("tex2D (DirectX HLSL)" and its siblings in the HLSL
// reference.)

var legacyTex = map[string]bool{}

func init() {
	for _, d := range []string{"1D", "2D", "3D", "CUBE"} {
		for _, f := range []string{"", "bias", "grad", "lod", "proj"} {
			legacyTex["tex"+d+f] = true
		}
	}
}

// sortCombined orders the textures made for samplers as fxc allocates
// them: by decreasing bind count, then by first use.
func sortCombined(list []*resource) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].count > list[j].count })
}

// texLegacy lowers tex1D .. texCUBEproj.
func (g *gen) texLegacy(e *callExpr, args []*value) *value {
	p := e.pos
	if !g.backCompat() {
		g.errorf(p, eSyntax, "'%s': shader model 1-3 sampling: use a Texture object's Sample with a SamplerState, or %s", e.name, backCompatHint)
		return poison
	}
	noMatch := func() *value {
		g.errorf(p, eNoOverload, "'%s': no matching %d parameter intrinsic function", e.name, len(args))
		return poison
	}
	rest := strings.TrimPrefix(e.name, "tex")
	var dim TexDim
	switch {
	case strings.HasPrefix(rest, "1D"):
		dim, rest = Tex1D, rest[2:]
	case strings.HasPrefix(rest, "2D"):
		dim, rest = Tex2D, rest[2:]
	case strings.HasPrefix(rest, "3D"):
		dim, rest = Tex3D, rest[2:]
	case strings.HasPrefix(rest, "CUBE"):
		dim, rest = TexCube, rest[4:]
	}
	if len(args) < 2 || args[0].t.Kind != KSampler || args[0].t.Cmp {
		return noMatch()
	}
	sv := args[0]
	if sd := sv.t.SampDim; sd != 0 && sd-1 != dim {
		return noMatch() // tex3D of a sampler2D
	}
	if sv.res == nil {
		g.errorf(p, eSyntax, "syntax error: the sampler is used before it is given a sampler")
		return poison
	}
	n := dim.coords()
	tv := g.combinedTex(p, sv, dim)
	if tv == poison {
		return poison
	}
	if tv.t.Dim == Tex2D && dim == Tex1D {
		n = 1 // tex1D of a sampler tex2D also reads: (u, 0)
	}
	coord := func(k, c int) *value {
		return g.convert(e.args[k].at(), args[k], vecT(Float, c), true)
	}
	var uv *value
	var name string
	var margs []*value
	var mexprs []Expr
	switch rest {
	case "":
		if len(args) != 2 && !(len(args) == 4 && dim != Tex1D) {
			return noMatch()
		}
		if uv = coord(1, n); uv == poison {
			return poison
		}
		name, margs, mexprs = "Sample", []*value{sv, uv}, e.args[:2]
		if len(args) == 4 {
			name, margs, mexprs = "SampleGrad", append(margs, args[2], args[3]), e.args
		}
	case "grad":
		if len(args) != 4 {
			return noMatch()
		}
		if uv = coord(1, n); uv == poison {
			return poison
		}
		name, margs, mexprs = "SampleGrad", []*value{sv, uv, args[2], args[3]}, e.args
	case "lod", "bias", "proj":
		// The coordinates in the first components of a float4, the
		// level of detail or bias in w (proj: divided by w).
		if len(args) != 2 {
			return noMatch()
		}
		t := coord(1, 4)
		if t == poison {
			return poison
		}
		uv = &value{t: vecT(Float, n), c: t.c[:n], ro: true}
		w := &value{t: scalarT(Float), c: t.c[3:], ro: true}
		switch rest {
		case "lod":
			name, margs, mexprs = "SampleLevel", []*value{sv, uv, w}, []Expr{e.args[0], e.args[1], e.args[1]}
		case "bias":
			name, margs, mexprs = "SampleBias", []*value{sv, uv, w}, []Expr{e.args[0], e.args[1], e.args[1]}
		default:
			q := g.op(OpDiv, n, uv.c, []Operand{w.c[0]})
			name, margs, mexprs = "Sample", []*value{sv, {t: uv.t, c: q, ro: true}}, e.args[:2]
		}
	default:
		return noMatch()
	}
	if n == 1 && tv.t.Dim == Tex2D {
		// (u, 0) on the 2D texture.
		c := margs[1].c[0]
		margs[1] = &value{t: vecT(Float, 2), c: []Operand{c, immU(0)}, ro: true}
	}
	return g.methodOn(&callExpr{pos: p, name: name, args: mexprs}, tv, margs)
}

// combinedTex is the texture made for sampler value sv (its element of an
// array of samplers) as a texture of dimension dim: made at its first
// use. tex1D and tex2D share one 2D texture; other dimensions cannot
// share a sampler.
func (g *gen) combinedTex(p pos, sv *value, dim TexDim) *value {
	if g.combined == nil {
		g.combined = map[*resource]*resource{}
	}
	r := g.combined[sv.res]
	if r == nil {
		r = &resource{name: sv.res.name, kind: KTexture, elem: &Type{Kind: KTexture, Dim: dim, Base: Float, Cols: 4},
			line: sv.res.line, comps: 4}
		g.combined[sv.res] = r
		g.combinedList = append(g.combinedList, r)
	}
	d := r.elem.Dim
	switch {
	case d == dim:
	case d == Tex1D && dim == Tex2D:
		// The earlier tex1D read x alone: a 2D texture's (x, y) it
		// would misread; refused rather than guessed.
		g.errorf(p, eNotImplemented, "not supported by this compiler: sampler '%s' read by tex1D before tex2D (read it by tex2D first)", sv.res.name)
		return poison
	case d == Tex2D && dim == Tex1D:
	default:
		g.errorf(p, eTypeMismatch, "sampler '%s' is read as a %s and as a %s", sv.res.name, d, dim)
		return poison
	}
	// As many textures as the highest element read needs (fxc's bind
	// count: sam[1] alone binds two).
	r.count = max(r.count, sv.resIdx+1)
	return &value{t: r.elem, res: r, resIdx: sv.resIdx, ro: true}
}
