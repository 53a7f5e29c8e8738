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

// Steps is the translation instruction by instruction: per ISA instruction
// its text and the DXBC instruction it came from (an index into dxbc, the
// DXBC instructions' texts, declarations included).
func (d DriverShader) Steps() (isa []string, source []int, dxbc []string) { return d.code.Steps() }
