package d3d11

import "d3dsim/core/dxbc"

// checkPosition is the draw's check that the stage before the rasterizer
// writes SV_Position (D3D11's debug layer: DEVICE_DRAW_POSITION_NOT_PRESENT).
// A vertex shader written for a hull shader, or for stream output, may
// leave it out; drawn with no stage after it, the rasterizer would have no
// position, so the runtime drops the draw and says why rather than hand the
// GPU a triangle it cannot place. A geometry shader is the geometry stage's
// own check (it may only stream out).
func (c driverContext) checkPosition(call string) error {
	last := c.vs
	if c.ds != nil {
		last = c.ds
	}
	if last == nil || c.gs != nil || last.Outputs == nil || last == c.positioned {
		return nil
	}
	for _, e := range last.Outputs.Elements {
		if e.SystemValue == dxbc.SVPosition {
			c.positioned = last
			return nil
		}
	}
	return c.invalidCall(call, "", "%s shader %s writes no SV_Position and no geometry shader follows it: the rasterizer has no position (DEVICE_DRAW_POSITION_NOT_PRESENT)", stageLong(last.Stage), last.name)
}
