package hlsl

// One-component vectors. float1 and int1 compute as scalars (a value of
// one component in one register), but HLSL keeps them apart from float
// where fxc does (vkd3d's suite and fxc agree on each):
//
//   - mul(float1, float4x4) is a row vector times the matrix, truncated to
//     its first row (float4), where mul(float, float4x4) scales the matrix;
//   - a float1 is indexed (v[0]), a scalar is not ((c ? a : b)[0][0] of
//     float1 operands is refused);
//   - an int1 is no index (vec[i] wants a scalar, shader model 4 and 5);
//   - a float1 does not broadcast to a matrix in an intrinsic's arguments
//     (step(float2x2, float1), ldexp(float2x2, float1)), and is no matrix
//     to determinant and no float4 to dst.

// oneVecT is the type float1 (int1, uint1, bool1) names.
func oneVecT(b Base) *Type {
	t := scalarT(b)
	t.One = true
	return t
}

// rowT is the type of a matrix's row: a float1 for a matrix of one
// column, so that m[0][0] of a float1x1 indexes it.
func rowT(m *Type) *Type {
	if m.Cols == 1 {
		return oneVecT(m.Base)
	}
	return vecT(m.Base, m.Cols)
}

// mulOne gives mul a float1 next to a matrix as a vector of one
// component, so that the product is the vector's.
func mulOne(v, other *value) *value {
	if !v.t.One || other.t.Kind != KMatrix {
		return v
	}
	return &value{t: &Type{Kind: KVector, Base: v.t.Base, Rows: 1, Cols: 1}, c: v.c, ro: true}
}

// oneWithMatrix reports an intrinsic's arguments mixing a float1 and a
// matrix, which fxc refuses (a scalar would broadcast).
func oneWithMatrix(args []*value) bool {
	one, mat := false, false
	for _, a := range args {
		one = one || a.t.One
		mat = mat || a.t.Kind == KMatrix
	}
	return one && mat
}

// indexable checks that x may be indexed by i: a scalar is not (a float1
// is), and an index is a scalar, not an int1.
func (g *gen) indexable(p pos, x, i *value) bool {
	if i.t.One {
		g.errorf(p, eTypeMismatch, "an index of type '%s1' (a one-component vector): an index is a scalar", i.t.Base)
		return false
	}
	if x.t.Kind == KScalar && !x.t.One {
		g.errorf(p, eSubscript, "invalid subscript: a scalar of type '%s' is not indexed", x.t)
		return false
	}
	return true
}
