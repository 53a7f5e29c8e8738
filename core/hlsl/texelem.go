package hlsl

import "strings"

// The element type of a typed view or texture is a scalar or vector in
// every use this compiler makes of it. fxc also takes, in a declaration,
// any element of at most four 32-bit components: a matrix (float2x2), a
// struct of numbers (struct s { float3 a; }) or two doubles (double2), and
// refuses more (double3, a struct of five components) and arrays. Such a
// view is declared here, and refused by name where it is read or written
// (objSlot).

// texElemOther is the view type t of such an element b (spelled arg), nil
// when b is a scalar or vector or takes the usual checks.
func texElemOther(t, b *Type, arg string) *Type {
	if t.Buf != BufNone {
		return nil
	}
	if b != nil && b.Base == Double {
		b = nil // a double element: as the 64-bit integers'
	}
	if b == nil {
		n := wideComps(arg)
		if n == 0 || 2*n > 4 {
			return nil
		}
		c := *t
		c.Base, c.Cols, c.BufElem = Uint, 2*n, &Type{Kind: KEffect, Name: arg} // spelled as written
		return &c
	}
	if b.Kind != KMatrix && b.Kind != KStruct || !flatNumbers(b) || memSize(b) > 16 {
		return nil
	}
	c := *t
	c.Base, c.Cols, c.BufElem = firstBase(b), memSize(b)/4, b
	return &c
}

// wideComps is how many components a 64-bit type name has (double2: 2),
// 0 for other names.
func wideComps(name string) int {
	if !doubleTypeName(name) && unsupportedType(name) == "" {
		return 0
	}
	for _, p := range []string{"double", "uint64_t", "int64_t"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			switch {
			case rest == "":
				return 1
			case len(rest) == 1:
				return int(rest[0] - '0')
			case len(rest) == 3:
				return int(rest[0]-'0') * int(rest[2]-'0')
			}
		}
	}
	return 0
}

// flatNumbers reports numbers and structs of them, no bools and no arrays.
func flatNumbers(t *Type) bool {
	switch t.Kind {
	case KScalar, KVector, KMatrix:
		return t.Base != Bool
	case KStruct:
		for _, f := range t.Fields {
			if !flatNumbers(f.Type) {
				return false
			}
		}
		return len(t.Fields) > 0
	}
	return false
}

func firstBase(t *Type) Base {
	if t.Kind == KStruct {
		return firstBase(t.Fields[0].Type)
	}
	return t.Base
}

// viewTypeName spells a rasterizer-ordered view or one of such elements.
func viewTypeName(t *Type) string {
	s := t.Dim.String()
	switch {
	case t.ROV:
		s = "RasterizerOrdered" + s
	case t.UAV:
		s = "RW" + s
	}
	el := vecT(t.Base, max(t.Cols, 1)).String()
	if t.BufElem != nil {
		el = t.BufElem.String()
	}
	return s + "<" + el + ">"
}
