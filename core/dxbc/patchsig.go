package dxbc

// BuildShaderPatch lays out a domain shader as fxc does: RDEF, ISGN (the
// control points), PCSG (the patch constants), OSGN and SHEX.
func BuildShaderPatch(p *Program, inputs, outputs, patch *Signature, rdef *Reflection) ([]byte, error) {
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
	}{{"ISGN", inputs}, {"PCSG", patch}, {"OSGN", outputs}} {
		if s.sig == nil {
			s.sig = &Signature{}
		}
		c.Chunks = append(c.Chunks, Chunk{FourCC: s.cc, Data: s.sig.Bytes()})
	}
	c.Chunks = append(c.Chunks, Chunk{FourCC: p.FourCC(), Data: code})
	return c.Build()
}

// BuildShaderHull lays out a hull shader as fxc does: RDEF, ISGN, OSGN
// (the output control points), PCSG (the patch constants) and SHEX.
func BuildShaderHull(p *Program, inputs, outputs, patch *Signature, rdef *Reflection) ([]byte, error) {
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
	}{{"ISGN", inputs}, {"OSGN", outputs}, {"PCSG", patch}} {
		if s.sig == nil {
			s.sig = &Signature{}
		}
		c.Chunks = append(c.Chunks, Chunk{FourCC: s.cc, Data: s.sig.Bytes()})
	}
	c.Chunks = append(c.Chunks, Chunk{FourCC: p.FourCC(), Data: code})
	return c.Build()
}
