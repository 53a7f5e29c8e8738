package translate

// Stepping data: what a debugger needs to step through a shader at the
// three levels the inspector shows side by side (HLSL line, DXBC
// instruction, ISA instruction). The GPU reports the ISA program counter
// (an instruction index, shader.Fault.PC and the executor's trace); Step
// maps it to the DXBC instruction it came from, which a compiler's debug
// information maps on to the HLSL line. The mapping is the translation's
// metadata: it is never in the words the GPU runs.

// Step is one ISA instruction of a translated shader.
type Step struct {
	PC   int    // the ISA instruction's index: the GPU's program counter
	ISA  string // the instruction in the ISA's assembly
	Word int    // its first word in Shader.Code
	// DXBC is the index of the DXBC instruction it came from in the
	// shader's program (dxbc.Program.Instructions, declarations
	// included), DXBCWord that instruction's opcode token's word offset in
	// the SHDR/SHEX chunk, DXBCText the instruction as fxc lists it.
	DXBC     int
	DXBCWord int
	DXBCText string
}

// Steps lists the shader's ISA instructions with their DXBC sources, in
// program order. Made on demand (the texts cost more than the mapping).
func (sh *Shader) Steps() []Step {
	if sh == nil || sh.Program == nil {
		return nil
	}
	p := sh.dxbc
	var words []int // the DXBC instructions' word offsets
	if p != nil {
		words = make([]int, len(p.Instructions))
		off := 2 // the version and length tokens
		var buf []uint32
		for i := range p.Instructions {
			words[i] = off
			buf, _ = p.Instructions[i].Encode(buf[:0])
			off += len(buf)
		}
	}
	out := make([]Step, len(sh.Program.Code))
	word := sh.Program.HeaderLen()
	for pc := range sh.Program.Code {
		in := &sh.Program.Code[pc]
		s := Step{PC: pc, ISA: in.String(), Word: word, DXBC: -1, DXBCWord: -1}
		if word < len(sh.Code) {
			word += int(sh.Code[word] >> 8 & 0xFF) // the opcode token's length
		}
		if pc < len(sh.Source) {
			s.DXBC = sh.Source[pc]
		}
		if p != nil && s.DXBC >= 0 && s.DXBC < len(p.Instructions) {
			s.DXBCWord = words[s.DXBC]
			s.DXBCText = p.Instructions[s.DXBC].String()
		}
		out[pc] = s
	}
	return out
}

// SourceOf is the DXBC instruction index ISA instruction pc came from, -1
// for none (a pc past the program).
func (sh *Shader) SourceOf(pc int) int {
	if sh == nil || pc < 0 || pc >= len(sh.Source) {
		return -1
	}
	return sh.Source[pc]
}
