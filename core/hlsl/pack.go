package hlsl

// Constant-buffer layout, as fxc lays it out ("Packing Rules for Constant
// Variables"): variables pack into 16-byte registers and never straddle
// one; arrays, structs and matrices start a register; every array element
// but the last takes a whole register; a struct is as long as its members
// (the next variable may pack into its last register). Matrices are column_major unless declared row_major (or packed
// so by #pragma pack_matrix): a column_major floatRxC takes C registers of
// R components. The packing is the matrix type's (Type.RowMajor): a struct
// member keeps the packing in effect where the struct is declared.

func roundUp16(n int) int { return (n + 15) &^ 15 }

// sizeOf is the bytes a variable of type t covers, the unused tail of its
// last register excluded (fxc reports sizes this way).
func sizeOf(t *Type) int {
	switch t.Kind {
	case KScalar, KVector:
		return 4 * t.Cols
	case KMatrix:
		if t.RowMajor {
			return 16*(t.Rows-1) + 4*t.Cols
		}
		return 16*(t.Cols-1) + 4*t.Rows
	case KArray:
		return roundUp16(sizeOf(t.Elem))*(t.Len-1) + sizeOf(t.Elem)
	case KStruct:
		// Unpadded: the variable after a struct may share its last
		// register (vkd3d's cbuffer tests, run against native Direct3D).
		off := 0
		for i, f := range structLayout(t) {
			off = f + sizeOf(t.Fields[i].Type)
		}
		return off
	}
	return 0
}

// startsRegister reports whether a variable of type t must begin a new
// 16-byte register.
func startsRegister(t *Type) bool {
	return t.Kind == KArray || t.Kind == KStruct || t.Kind == KMatrix
}

// place returns the offset of the next variable of type t after off, with
// afterStruct set when the previous variable was a struct.
func place(off int, t *Type, afterStruct bool) int {
	size := sizeOf(t)
	if startsRegister(t) || off%16+size > 16 {
		return roundUp16(off)
	}
	return off
}

// structLayout gives each field's offset inside a struct.
func structLayout(t *Type) []int {
	offs := make([]int, len(t.Fields))
	off := 0
	prevStruct := false
	for i, f := range t.Fields {
		o := place(off, f.Type, prevStruct)
		offs[i] = o
		off = o + sizeOf(f.Type)
		prevStruct = f.Type.Kind == KStruct
	}
	return offs
}

// rowMajorType reports a row_major matrix, or an array of them (what
// CBVar.RowMajor says of a variable).
func rowMajorType(t *Type) bool {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t.Kind == KMatrix && t.RowMajor
}
