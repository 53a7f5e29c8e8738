package d3d11

import "d3dsim/core/ddi"

// Read-only views of the runtime's state for tools that show it (the
// page's Shaders view): nothing in the runtime calls them.

// BoundShaders is the vertex and pixel shader the context's next draw
// runs (nil: none bound), as its VSSetShader and PSSetShader calls, its
// ClearState and its command lists left them.
func (c *DeviceContext) BoundShaders() (vs, ps *Shader) { return c.vs, c.ps }

// DDIHandle is the shader's driver handle (HSHADER), the one its
// CreateVertexShader or CreatePixelShader DDI was given.
func (s *Shader) DDIHandle() ddi.HSHADER { return s.h }
