package machine

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/umd"
)

// DriverShader is what the UMD made of a shader: its translation to the
// GPU's ISA, for the page's Shaders view.
type DriverShader struct {
	code umd.ShaderCode
}

// ShaderCode reads what the UMD made of shader s of device dev, false when
// the driver has no such shader any more (destroyed) or is not the
// simulator's UMD. A read of the driver's table, no DDI call.
func ShaderCode(dev *d3d11.Device, s *d3d11.Shader) (DriverShader, bool) {
	// The UMD's device, or the wrapper that serialises its DDIs.
	u, ok := dev.UMD().(interface {
		ShaderCode(ddi.HSHADER) (umd.ShaderCode, bool)
	})
	if !ok {
		return DriverShader{}, false
	}
	c, ok := u.ShaderCode(s.DDIHandle())
	return DriverShader{code: c}, ok
}

// ISA is the program in the GPU's assembly: the disassembly of the words
// the UMD placed in its allocation.
func (d DriverShader) ISA() (string, error) { return d.code.ISA() }

// Translation is the UMD's translation listed instruction by instruction:
// each DXBC instruction (as a comment) followed by the ISA instructions it
// became.
func (d DriverShader) Translation() string { return d.code.Translation() }

// Step is one ISA instruction with the DXBC instruction it came from
// (the UMD translator's translate.Step): PC the GPU's program counter,
// ISA its text and Word its first word in the code allocation; DXBC the
// index of the DXBC instruction in the shader's program (declarations
// included; -1: none), DXBCWord its opcode token's word offset in the
// SHDR/SHEX chunk, DXBCText as fxc lists it.
type Step struct {
	PC       int
	ISA      string
	Word     int
	DXBC     int
	DXBCWord int
	DXBCText string
}

// Steps is the stepping data of the translation: per ISA instruction, the
// DXBC instruction it came from, for a debugger that steps the HLSL line,
// the DXBC and the ISA side by side. Not in the GPU's words: the
// translation's metadata.
func (d DriverShader) Steps() []Step {
	src := d.code.Steps()
	out := make([]Step, len(src))
	for i, s := range src {
		out[i] = Step{PC: s.PC, ISA: s.ISA, Word: s.Word, DXBC: s.DXBC, DXBCWord: s.DXBCWord, DXBCText: s.DXBCText}
	}
	return out
}

// StepTexts is the translation instruction by instruction: per ISA instruction
// its text and the DXBC instruction it came from (an index into dxbc, the
// DXBC instructions' texts, declarations included).
func (d DriverShader) StepTexts() (isa []string, source []int, dxbc []string) {
	return d.code.StepTexts()
}
