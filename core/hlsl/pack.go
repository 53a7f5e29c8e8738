package hlsl

// Constant-buffer layout, as fxc lays it out ("Packing Rules for Constant
// Variables"): variables pack into 16-byte registers and never straddle
// one; arrays, structs and matrices start a register; every array element
// but the last takes a whole register; a struct is as long as its members
// (the next variable may pack into its last register). Matrices are
// column_major unless declared row_major (or packed so by #pragma
// pack_matrix): a column_major floatRxC takes C registers of R components.
// The packing is the matrix type's (Type.RowMajor): a struct member keeps
// the packing in effect where the struct is declared.

func roundUp16(n int) int { return (n + 15) &^ 15 }

// sizeOf is the bytes a variable of type t covers, the unused tail of its
// last register excluded (fxc reports sizes this way). It is saturated far
// above any constant buffer's size, and linear in the number of distinct
// types: a struct nesting two of the previous one at each of 16 levels
// used to be laid out 5^16 times over.
func sizeOf(t *Type) int {
	switch t.Kind {
	case KArray, KStruct:
		return layoutSize(t, map[*Type]int{})
	}
	return layoutSize(t, nil)
}

// maxLayout saturates layout sizes (a 4096x4096x4096 array of structs
// would overflow).
const maxLayout = 1 << 40

func layoutSize(t *Type, memo map[*Type]int) int {
	switch t.Kind {
	case KScalar, KVector:
		if t.Base == Double {
			return 8 * t.Cols
		}
		return 4 * t.Cols
	case KMatrix:
		if t.RowMajor {
			return 16*(t.Rows-1) + 4*t.Cols
		}
		return 16*(t.Cols-1) + 4*t.Rows
	case KArray:
		if n, ok := memo[t]; ok {
			return n
		}
		e := layoutSize(t.Elem, memo)
		n := min(roundUp16(e)*min(t.Len-1, maxLayout)+e, maxLayout)
		memo[t] = n
		return n
	case KStruct:
		// Unpadded: the variable after a struct may share its last
		// register (vkd3d's cbuffer tests, run against native Direct3D).
		if n, ok := memo[t]; ok {
			return n
		}
		// Unpadded: the variable after a struct may share its last
		// register (vkd3d's cbuffer tests, run against native Direct3D).
		_, end := fieldOffsets(t, memo, false)
		n := min(end, maxLayout)
		memo[t] = n
		return n
	}
	return 0
}

// startsRegister reports whether a variable of type t must begin a new
// 16-byte register.
func startsRegister(t *Type) bool {
	return t.Kind == KArray || t.Kind == KStruct || t.Kind == KMatrix
}

// place returns the offset of the next variable of type t after off.
func place(off int, t *Type, afterStruct bool) int {
	size := sizeOf(t)
	off = alignDouble(off, t)
	if startsRegister(t) || off%16+size > 16 {
		return roundUp16(off)
	}
	return off
}

// structLayout gives each field's offset inside a struct.
func structLayout(t *Type) []int {
	offs, _ := fieldOffsets(t, map[*Type]int{}, true)
	return offs
}

// fieldOffsets lays out a struct's fields, each sized once: their offsets
// (when list is set) and where the last one ends.
func fieldOffsets(t *Type, memo map[*Type]int, list bool) ([]int, int) {
	var offs []int
	if list {
		offs = make([]int, len(t.Fields))
	}
	off := 0
	for i, f := range t.Fields {
		size := layoutSize(f.Type, memo)
		o := alignDouble(off, f.Type)
		if startsRegister(f.Type) || off%16+size > 16 {
			o = roundUp16(off)
		}
		if list {
			offs[i] = o
		}
		off = min(o+size, maxLayout)
	}
	return offs, off
}

// rowMajorType reports a row_major matrix, or an array of them (what
// CBVar.RowMajor says of a variable).
func rowMajorType(t *Type) bool {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t.Kind == KMatrix && t.RowMajor
}
