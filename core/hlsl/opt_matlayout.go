package hlsl

// matrixTemps lays a local matrix out in temps as the constant buffers lay
// out its type: a register per row for a row_major matrix, a register per
// column (of Rows components) otherwise. fxc keeps a column_major local so,
// and so a value read from a column_major constant matrix (a skinning
// effect's float4x3 bones, summed with weights) goes from register to
// register in whole columns, with no lane shuffled into a row.
func matrixTemps(g *gen, t *Type) []Operand {
	c := make([]Operand, t.Rows*t.Cols)
	if t.RowMajor {
		for r := 0; r < t.Rows; r++ {
			copy(c[r*t.Cols:], regComps(FileTemp, g.alloc(), t.Cols))
		}
		return c
	}
	for j := 0; j < t.Cols; j++ {
		reg := g.alloc()
		for r := 0; r < t.Rows; r++ {
			c[r*t.Cols+j] = comp(FileTemp, reg, r)
		}
	}
	return c
}
