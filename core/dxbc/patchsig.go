package dxbc

// BuildShaderPatch lays out a domain shader as fxc does: RDEF, ISGN (the
// control points), PCSG (the patch constants), OSGN and SHEX.
func BuildShaderPatch(p *Program, inputs, outputs, patch *Signature, rdef *Reflection) ([]byte, error) {
	return buildSigned(p, rdef, "ISGN", inputs, "PCSG", patch, "OSGN", outputs)
}

// BuildShaderHull lays out a hull shader as fxc does: RDEF, ISGN, OSGN
// (the output control points), PCSG (the patch constants) and SHEX.
func BuildShaderHull(p *Program, inputs, outputs, patch *Signature, rdef *Reflection) ([]byte, error) {
	return buildSigned(p, rdef, "ISGN", inputs, "OSGN", outputs, "PCSG", patch)
}

// buildSigned writes RDEF (if any), the three signature chunks in the order
// given (a nil signature as an empty one) and the program.
func buildSigned(p *Program, rdef *Reflection, cc1 string, s1 *Signature, cc2 string, s2 *Signature, cc3 string, s3 *Signature) ([]byte, error) {
	code, err := p.Bytes()
	if err != nil {
		return nil, err
	}
	c := &Container{}
	if rdef != nil {
		c.Chunks = append(c.Chunks, Chunk{FourCC: "RDEF", Data: rdef.Bytes()})
	}
	for _, s := range []struct {
		cc  string
		sig *Signature
	}{{cc1, s1}, {cc2, s2}, {cc3, s3}} {
		if s.sig == nil {
			s.sig = &Signature{}
		}
		c.Chunks = append(c.Chunks, Chunk{FourCC: s.cc, Data: s.sig.Bytes()})
	}
	c.Chunks = append(c.Chunks, Chunk{FourCC: p.FourCC(), Data: code})
	return c.Build()
}
