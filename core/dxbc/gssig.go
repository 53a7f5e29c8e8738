package dxbc

// Bytes5 writes the signature as an OSG5 chunk body, the output signature
// of a gs_5_0 geometry shader: each 28-byte row led by the stream its
// element goes to, then the fields of an OSGN row.
func (s *Signature) Bytes5() []byte {
	w := &writer{}
	w.put32(uint32(len(s.Elements)))
	w.put32(8)
	for _, e := range s.Elements {
		w.put32(e.Stream)
		w.put32(0) // name offset, patched below
		w.put32(e.Index)
		w.put32(uint32(e.SystemValue))
		w.put32(uint32(e.ComponentType))
		w.put32(e.Register)
		w.b = append(w.b, e.Mask, e.ReadWrite, 0, 0)
	}
	for i, e := range s.Elements {
		w.set32(8+28*i+4, w.str(e.Name))
	}
	w.align()
	return w.b
}

// BuildShaderGeometry lays out a geometry shader as fxc does: RDEF, ISGN,
// the output signature (OSG5 with the elements' streams at shader model
// 5, OSGN before) and the program.
func BuildShaderGeometry(p *Program, inputs, outputs *Signature, rdef *Reflection) ([]byte, error) {
	if p.Major < 5 {
		return BuildShader(p, inputs, outputs, rdef)
	}
	return buildShader(p, inputs, outputs, rdef, true)
}
