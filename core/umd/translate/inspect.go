package translate

// DXBCText is the text of each DXBC instruction the shader was translated
// from, declarations included, in bytecode order: Source's indices name
// them (for a debugger showing the DXBC instruction beside the ISA one).
func (sh *Shader) DXBCText() []string {
	if sh.dxbc == nil {
		return nil
	}
	out := make([]string, len(sh.dxbc.Instructions))
	for i := range sh.dxbc.Instructions {
		out[i] = sh.dxbc.Instructions[i].String()
	}
	return out
}
