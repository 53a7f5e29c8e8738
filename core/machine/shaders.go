package machine

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/umd"
)

// ShaderCode is what the UMD made of shader s of device dev (its built-in
// program or its translation to the GPU's ISA), false when the driver has
// no such shader any more (destroyed) or is not the simulator's UMD. For
// the page's Shaders view: a read of the driver's table, no DDI call.
func ShaderCode(dev *d3d11.Device, s *d3d11.Shader) (umd.ShaderCode, bool) {
	// The UMD's device, or the wrapper that serialises its DDIs.
	u, ok := dev.UMD().(interface {
		ShaderCode(ddi.HSHADER) (umd.ShaderCode, bool)
	})
	if !ok {
		return umd.ShaderCode{}, false
	}
	return u.ShaderCode(s.DDIHandle())
}
