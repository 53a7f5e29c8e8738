package hlsl

// Texture methods ("Texture2D" and its siblings in the HLSL reference,
// each method's page): Sample, SampleLevel, SampleBias, SampleGrad,
// SampleCmp, SampleCmpLevelZero, Gather (and GatherRed ... GatherAlpha,
// GatherCmp*), Load (with the mip level, a sample index for multisampled
// textures, a texel offset), CalculateLevelOfDetail(Unclamped) and
// GetDimensions, on Texture1D/1DArray/2D/2DArray/2DMS/2DMSArray/3D/Cube/
// CubeArray and Buffer; t[i] reads a texel as Load does. The address of
// each instruction has the texture's coordinates (the array slice last)
// and, for ld, the mip level in w, as "Shader Model 4 Assembly" lays them.

func (g *gen) method(e *callExpr) *value {
	tv := g.expr(e.recv)
	if tv == poison {
		return poison
	}
	args := make([]*value, len(e.args))
	for i, a := range e.args {
		args[i] = g.expr(a)
		if args[i] == poison {
			return poison
		}
	}
	if tv.t.Stream != 0 {
		return g.streamMethod(e, tv, args) // (gs.go)
	}
	return g.methodOn(e, tv, args)
}

// methodOn is method e of texture tv, its arguments lowered.
func (g *gen) methodOn(e *callExpr, tv *value, args []*value) *value {
	if tv.t.Kind != KTexture {
		g.errorf(e.pos, eSubscript, "invalid subscript '%s'", e.name)
		return poison
	}
	if tv.t.Buf != BufNone {
		return g.bufMethod(e, tv, args)
	}
	if tv.t.UAV {
		return g.uavMethod(e, tv, args)
	}
	slot, ok := g.objSlot(e.pos, tv)
	if !ok {
		return poison
	}
	tt := tv.t
	dim := tt.Dim
	noMatch := func() *value {
		g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic method", e.name, len(args))
		return poison
	}
	tex := Operand{File: FileTex, Index: slot, Swz: [4]uint8{0, 1, 2, 3}}
	// sampler checks the sampler argument (a comparison sampler for the
	// Cmp methods) and returns its operand.
	sampler := func(a *value, cmp bool) (Operand, bool) {
		if a.t.Kind != KSampler || a.t.Cmp != cmp {
			return Operand{}, false
		}
		s, ok := g.objSlot(e.pos, a)
		return Operand{File: FileSamp, Index: s}, ok
	}
	coords := func(k, n int, b Base) []Operand {
		v := g.convert(e.args[k].at(), args[k], vecT(b, n), true)
		if v == poison {
			return nil
		}
		return v.c
	}
	offset := func(k int, in *Instr) bool {
		n := dim.offs()
		if n == 0 || k >= len(args) {
			return false
		}
		v := g.convert(e.args[k].at(), args[k], vecT(Int, n), true)
		if v != poison && !allImm(v.c) {
			v = g.constValue(v)
		}
		if v == poison || !allImm(v.c) {
			g.errorf(e.args[k].at(), eNotImplemented, "not supported by this compiler: a texel offset that is not a constant")
			return false
		}
		for i, c := range v.c {
			o := int32(c.Imm[0])
			if o < -8 || o > 7 {
				g.errorf(e.args[k].at(), eSyntax, "syntax error: texel offset %d outside -8..7", o)
				return false
			}
			in.Offs[i] = int8(o)
		}
		in.HasOffs = true
		return true
	}
	r := g.alloc()
	dst := Operand{File: FileTemp, Index: r, Mask: 0xf}
	result := func(b Base, n int) *value {
		return &value{t: vecT(b, n), c: regComps(FileTemp, r, 4)[:n]}
	}
	elem := func() *value { return result(tt.Base, max(min(tt.Cols, 4), 1)) }
	cube := dim == TexCube || dim == TexCubeArray
	switch e.name {
	case "Sample", "SampleLevel", "SampleBias", "SampleGrad", "SampleCmp", "SampleCmpLevelZero":
		if dim == TexBuffer || dim == Tex2DMS || dim == Tex2DMSArray {
			return noMatch()
		}
		fixed := map[string]int{"Sample": 2, "SampleLevel": 3, "SampleBias": 3, "SampleGrad": 4, "SampleCmp": 3, "SampleCmpLevelZero": 3}[e.name]
		if len(args) < fixed || len(args) > fixed+1 || len(args) == fixed+1 && cube {
			return noMatch()
		}
		cmp := e.name == "SampleCmp" || e.name == "SampleCmpLevelZero"
		s, ok := sampler(args[0], cmp)
		if !ok {
			return noMatch()
		}
		if tt.Base != Float {
			g.errorf(e.pos, eNoOverload, "'%s': a %s of integers cannot be sampled", e.name, tt)
			return poison
		}
		if g.stage != Pixel && (e.name == "Sample" || e.name == "SampleBias" || e.name == "SampleCmp") {
			g.errorf(e.pos, eNotImplemented, "%s needs derivatives: use SampleLevel or SampleGrad outside a pixel shader", e.name)
			return poison
		}
		c := coords(1, dim.coords(), Float)
		if c == nil {
			return poison
		}
		in := Instr{Op: OpSample, Dim: dim, Dst: []Operand{dst}, Src: []Operand{g.srcOp(c), tex, s}}
		switch e.name {
		case "SampleLevel", "SampleBias", "SampleCmp", "SampleCmpLevelZero":
			x := g.convert(e.args[2].at(), args[2], scalarT(Float), true)
			if x == poison {
				return poison
			}
			in.Op = map[string]Op{"SampleLevel": OpSampleL, "SampleBias": OpSampleB, "SampleCmp": OpSampleC, "SampleCmpLevelZero": OpSampleCLz}[e.name]
			in.Src = append(in.Src, g.srcOp(x.c))
		case "SampleGrad":
			in.Op = OpSampleD
			n := dim.offs()
			if cube {
				n = 3
			}
			for k := 2; k < 4; k++ {
				d := coords(k, n, Float)
				if d == nil {
					return poison
				}
				in.Src = append(in.Src, g.srcOp(d))
			}
		}
		if len(args) == fixed+1 && !offset(fixed, &in) {
			return poison
		}
		g.emit(in)
		if cmp {
			return result(Float, 1)
		}
		return elem()
	case "Gather", "GatherRed", "GatherGreen", "GatherBlue", "GatherAlpha", "GatherCmp", "GatherCmpRed", "GatherCmpGreen",
		"GatherCmpBlue", "GatherCmpAlpha":
		if dim != Tex2D && dim != Tex2DArray && !cube {
			return noMatch()
		}
		cmp := len(e.name) > 9 && e.name[:9] == "GatherCmp"
		ch := map[string]uint8{"Gather": 0, "GatherRed": 0, "GatherGreen": 1, "GatherBlue": 2, "GatherAlpha": 3, "GatherCmp": 0,
			"GatherCmpRed": 0, "GatherCmpGreen": 1, "GatherCmpBlue": 2, "GatherCmpAlpha": 3}[e.name]
		if (ch != 0 || cmp) && g.major < 5 {
			g.errorf(e.pos, eNotImplemented, "'%s' needs shader model 5", e.name)
			return poison
		}
		if g.major == 4 && g.minor < 1 {
			g.errorf(e.pos, eNotImplemented, "'%s' needs shader model 4.1", e.name)
			return poison
		}
		fixed := 2
		if cmp {
			fixed = 3
		}
		// One offset for the four texels, or one each (shader model 5:
		// a gather per texel, each writing its component).
		nOffs := len(args) - fixed
		if nOffs != 0 && nOffs != 1 && (nOffs != 4 || g.major < 5) {
			return noMatch()
		}
		s, ok := sampler(args[0], cmp)
		if !ok {
			return noMatch()
		}
		s.Swz = [4]uint8{ch, ch, ch, ch}
		c := coords(1, dim.coords(), Float)
		if c == nil {
			return poison
		}
		in := Instr{Op: OpGather4, Dim: dim, Dst: []Operand{dst}, Src: []Operand{g.srcOp(c), tex, s}}
		if cmp {
			ref := g.convert(e.args[2].at(), args[2], scalarT(Float), true)
			if ref == poison {
				return poison
			}
			in.Op = OpGather4C
			in.Src = append(in.Src, g.srcOp(ref.c))
		}
		if nOffs > 0 && cube {
			return noMatch()
		}
		if nOffs == 0 {
			g.emit(in)
		}
		for k := 0; k < nOffs; k++ {
			one := in
			one.Src = append([]Operand(nil), in.Src...)
			if nOffs == 4 {
				one.Dst = []Operand{{File: FileTemp, Index: r, Mask: 1 << k}}
			}
			v := g.convert(e.args[fixed+k].at(), args[fixed+k], vecT(Int, 2), true)
			if v == poison {
				return poison
			}
			if allImm(v.c) && int32(v.c[0].Imm[0]) >= -8 && int32(v.c[0].Imm[0]) <= 7 && int32(v.c[1].Imm[0]) >= -8 && int32(v.c[1].Imm[0]) <= 7 {
				offset(fixed+k, &one)
			} else {
				if g.major < 5 {
					g.errorf(e.pos, eNotImplemented, "a gather offset that is not a constant -8..7 needs shader model 5")
					return poison
				}
				// gather4_po: the offset is an operand.
				po := []Operand{one.Src[0], g.srcOp(v.c), tex, s}
				one.Op, one.Src = OpGather4Po, po
				if cmp {
					one.Op, one.Src = OpGather4PoC, append(po, g.srcOp(g.convert(e.args[2].at(), args[2], scalarT(Float), true).c))
				}
			}
			g.emit(one)
		}
		if cmp {
			return result(Float, 4)
		}
		return result(tt.Base, 4)
	case "CalculateLevelOfDetail", "CalculateLevelOfDetailUnclamped":
		if len(args) != 2 || dim == TexBuffer || dim == Tex2DMS || dim == Tex2DMSArray {
			return noMatch()
		}
		s, ok := sampler(args[0], false)
		if !ok {
			return noMatch()
		}
		if g.stage != Pixel {
			g.errorf(e.pos, eNotImplemented, "%s needs derivatives: it is only valid in a pixel shader", e.name)
			return poison
		}
		n := dim.coords()
		if dim.array() {
			n--
		}
		c := coords(1, n, Float)
		if c == nil {
			return poison
		}
		g.emit(Instr{Op: OpLod, Dim: dim, Dst: []Operand{dst}, Src: []Operand{g.srcOp(c), tex, s}})
		k := uint8(0) // the clamped level
		if e.name == "CalculateLevelOfDetailUnclamped" {
			k = 1
		}
		return &value{t: scalarT(Float), c: []Operand{comp(FileTemp, r, int(k))}}
	case "Load":
		return g.texLoad(e, args, tv, tex, dst, r)
	case "GetDimensions":
		return g.getDimensions(e, args, tt, tex, r)
	case "GetSamplePosition":
		if dim != Tex2DMS && dim != Tex2DMSArray {
			break
		}
		return g.samplePos(e, args, tex) // (samplepos.go)
	}
	g.errorf(e.pos, eSubscript, "invalid subscript '%s'", e.name)
	return poison
}

// texLoad lowers Load: ld with the mip level in w (none for a buffer),
// ld_ms with the sample index for a multisampled texture, an optional
// constant texel offset.
func (g *gen) texLoad(e *callExpr, args []*value, tv *value, tex, dst Operand, r int) *value {
	tt := tv.t
	dim := tt.Dim
	noMatch := func() *value {
		g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic method", e.name, len(args))
		return poison
	}
	if dim == TexCube || dim == TexCubeArray {
		return noMatch()
	}
	ms := dim == Tex2DMS || dim == Tex2DMSArray
	n := dim.coords()
	fixed := 1
	if ms {
		fixed = 2
	} else if dim != TexBuffer {
		n++ // the mip level
	}
	if len(args) < fixed || len(args) > fixed+1 || dim == TexBuffer && len(args) != 1 {
		return noMatch()
	}
	loc := g.convert(e.args[0].at(), args[0], vecT(Int, n), true)
	if loc == poison {
		return poison
	}
	c := loc.c
	var addr Operand
	switch {
	case dim == TexBuffer:
		addr = g.srcOp([]Operand{c[0], c[0], c[0], c[0]})
	case ms:
		addr = g.srcOp(c)
	default:
		// The coordinates, the mip level in w.
		lanes := make([]Operand, 4)
		for i := 0; i < 4; i++ {
			lanes[i] = c[min(i, n-2)]
		}
		lanes[3] = c[n-1]
		addr = g.srcOp(lanes)
	}
	in := Instr{Op: OpLd, Dim: dim, Dst: []Operand{dst}, Src: []Operand{addr, tex}}
	if ms {
		si := g.convert(e.args[1].at(), args[1], scalarT(Int), true)
		if si == poison {
			return poison
		}
		in.Op = OpLdMS
		in.Src = append(in.Src, g.srcOp(si.c))
	}
	if len(args) == fixed+1 {
		k := fixed
		v := g.convert(e.args[k].at(), args[k], vecT(Int, dim.offs()), true)
		if v != poison && !allImm(v.c) {
			v = g.constValue(v)
		}
		if v == poison || !allImm(v.c) {
			g.errorf(e.args[k].at(), eNotImplemented, "not supported by this compiler: a texel offset that is not a constant")
			return poison
		}
		for i, o := range v.c {
			x := int32(o.Imm[0])
			if x < -8 || x > 7 {
				g.errorf(e.args[k].at(), eSyntax, "syntax error: texel offset %d outside -8..7", x)
				return poison
			}
			in.Offs[i] = int8(x)
		}
		in.HasOffs = true
	}
	g.emit(in)
	return &value{t: vecT(tt.Base, max(min(tt.Cols, 4), 1)), c: regComps(FileTemp, r, 4)[:max(min(tt.Cols, 4), 1)]}
}

// texIndex is t[i]: Load at mip 0.
func (g *gen) texIndex(p pos, tv *value, iv *value) *value {
	if tv.t.Buf != BufNone {
		return g.bufIndex(p, tv, iv)
	}
	slot, ok := g.objSlot(p, tv)
	if !ok {
		return poison
	}
	dim := tv.t.Dim
	if dim == TexCube || dim == TexCubeArray || dim == Tex2DMS || dim == Tex2DMSArray {
		g.errorf(p, eNotImplemented, "not supported by this compiler: indexing a %s", tv.t)
		return poison
	}
	if tv.t.UAV {
		return g.uavIndex(p, tv, iv, slot)
	}
	n := dim.coords()
	if iv.t.comps() != n || !iv.t.numeric() {
		// fxc converts a float address (t[pos.yx]) to uint.
		g.errorf(p, eSubscript, "invalid subscript: %s is indexed by %d integer coordinates, not %s", tv.t, n, iv.t)
		return poison
	}
	loc := g.convert(p, iv, vecT(Uint, n), true)
	if loc == poison {
		return poison
	}
	lanes := make([]Operand, 4)
	for i := 0; i < 4; i++ {
		lanes[i] = loc.c[min(i, n-1)]
	}
	if dim != TexBuffer {
		lanes[3] = immU(0)
	}
	r := g.alloc()
	tex := Operand{File: FileTex, Index: slot, Swz: [4]uint8{0, 1, 2, 3}}
	g.emit(Instr{Op: OpLd, Dim: dim, Dst: []Operand{{File: FileTemp, Index: r, Mask: 0xf}}, Src: []Operand{g.srcOp(lanes), tex}})
	k := max(min(tv.t.Cols, 4), 1)
	return &value{t: vecT(tv.t.Base, k), c: regComps(FileTemp, r, 4)[:k], ro: true}
}

// getDimensions lowers GetDimensions([uint mip,] out width[, out height or
// elements[, out depth or elements]][, out levels]) to resinfo (_uint when
// the first out is an integer), a buffer's to bufinfo, a multisampled
// texture's sample count to sample_info.
func (g *gen) getDimensions(e *callExpr, args []*value, tt *Type, tex Operand, r int) *value {
	dim := tt.Dim
	// sizes is how many size outs the texture has (width, height or array
	// size, depth or array size).
	sizes := map[TexDim]int{Tex1D: 1, Tex1DArray: 2, Tex2D: 2, Tex2DArray: 3, Tex2DMS: 2, Tex2DMSArray: 3, Tex3D: 3, TexCube: 2,
		TexCubeArray: 3, TexBuffer: 1}[dim]
	noMatch := func() *value {
		g.errorf(e.pos, eNoOverload, "'GetDimensions': no matching %d parameter intrinsic method", len(args))
		return poison
	}
	var mip Operand = immU(0)
	outs := args
	withLevels := false
	switch {
	case dim == TexBuffer:
		if len(args) != 1 {
			return noMatch()
		}
	case dim == Tex2DMS || dim == Tex2DMSArray:
		if len(args) != sizes+1 {
			return noMatch()
		}
	case len(args) == sizes:
	case len(args) == sizes+2:
		m := g.convert(e.args[0].at(), args[0], scalarT(Uint), true)
		if m == poison {
			return poison
		}
		mip, outs, withLevels = m.c[0], args[1:], true
	default:
		return noMatch()
	}
	for i, a := range outs {
		if a.ro {
			g.errorf(e.args[len(args)-len(outs)+i].at(), eConst, "out parameters require l-value arguments")
			return poison
		}
		if a.t.Kind != KScalar || a.t.Base == Bool {
			return noMatch()
		}
	}
	base := Float
	if outs[0].t.Base != Float {
		base = Uint
	}
	// The resinfo component of each out.
	var comps []int
	switch dim {
	case Tex1D, TexBuffer:
		comps = []int{0}
	case Tex1DArray:
		comps = []int{0, 2} // resinfo puts a 1D array's size in z
	case Tex2D, TexCube, Tex2DMS:
		comps = []int{0, 1}
	default:
		comps = []int{0, 1, 2}
	}
	if withLevels {
		comps = append(comps, 3)
	}
	var mask uint8
	for _, c := range comps {
		mask |= 1 << c
	}
	switch dim {
	case TexBuffer:
		g.emit(Instr{Op: OpBufinfo, Dim: dim, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{tex}})
		base = Uint
	default:
		g.emit(Instr{Op: OpResinfo, Dim: dim, Uint: base == Uint, Dst: []Operand{{File: FileTemp, Index: r, Mask: mask}},
			Src: []Operand{g.srcOp([]Operand{mip}), tex}})
	}
	for i, c := range comps {
		v := &value{t: scalarT(base), c: []Operand{comp(FileTemp, r, c)}}
		if dim == TexBuffer && base != outs[0].t.Base {
			v = g.convert(e.pos, v, outs[0].t, false)
		}
		g.store(e.pos, outs[i], g.convert(e.pos, v, outs[i].t, true), false)
	}
	if dim == Tex2DMS || dim == Tex2DMSArray {
		s := g.alloc()
		g.emit(Instr{Op: OpSampleInfo, Uint: base == Uint, Dim: dim, Dst: []Operand{{File: FileTemp, Index: s, Mask: 1}}, Src: []Operand{tex}})
		v := &value{t: scalarT(base), c: []Operand{comp(FileTemp, s, 0)}}
		last := outs[len(outs)-1]
		g.store(e.pos, last, g.convert(e.pos, v, last.t, true), false)
	}
	return &value{t: tVoid, ro: true}
}
