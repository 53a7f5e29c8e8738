package hlsl

// Constant-buffer layout, as fxc lays it out ("Packing Rules for Constant
// Variables"): variables pack into 16-byte registers and never straddle
// one; arrays, structs and matrices start a register; every array element
// but the last takes a whole register; the variable after a struct starts a
// register. Matrices are column_major unless declared row_major: a
// column_major floatRxC takes C registers of R components.

func roundUp16(n int) int { return (n + 15) &^ 15 }

// sizeOf is the bytes a variable of type t covers, the unused tail of its
// last register excluded (fxc reports sizes this way).
func sizeOf(t *Type, rowMajor bool) int {
	switch t.Kind {
	case KScalar, KVector:
		return 4 * t.Cols
	case KMatrix:
		if rowMajor {
			return 16*(t.Rows-1) + 4*t.Cols
		}
		return 16*(t.Cols-1) + 4*t.Rows
	case KArray:
		return roundUp16(sizeOf(t.Elem, rowMajor))*(t.Len-1) + sizeOf(t.Elem, rowMajor)
	case KStruct:
		off := 0
		for i, f := range structLayout(t, rowMajor) {
			off = f + sizeOf(t.Fields[i].Type, rowMajor)
		}
		return roundUp16(off)
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
func place(off int, t *Type, rowMajor, afterStruct bool) int {
	size := sizeOf(t, rowMajor)
	if startsRegister(t) || afterStruct || off%16+size > 16 {
		return roundUp16(off)
	}
	return off
}

// structLayout gives each field's offset inside a struct.
func structLayout(t *Type, rowMajor bool) []int {
	offs := make([]int, len(t.Fields))
	off := 0
	prevStruct := false
	for i, f := range t.Fields {
		o := place(off, f.Type, rowMajor, prevStruct)
		offs[i] = o
		off = o + sizeOf(f.Type, rowMajor)
		prevStruct = f.Type.Kind == KStruct
	}
	return offs
}
