package d3d11

import (
	"fmt"

	"d3dsim/core/dxbc"
)

// The sample count a shader declares for a multisampled texture
// (dcl_resource_texture2dms(N): Texture2DMS<T, N>; N 0 for Texture2DMS<T>,
// which takes any count) against the bound view's. Direct3D 11 reads the
// count from the bound resource -- Load(xy, s), GetSamplePosition and
// GetDimensions see the view's samples, which is what this GPU does
// (SET_VIEW carries them) -- and its debug layer reports a declared count
// that differs from the bound view's at the draw or dispatch that uses
// them (D3D11_MESSAGE_ID_DEVICE_DRAW_RESOURCE_SAMPLE_COUNT_MISMATCH, an
// execution error: invalid if the shader reads the view). The draw itself
// goes on, as on Direct3D 11: the message is the debug layer's, not a
// reason to drop the call.

// msDecl is a multisampled texture declaration with its count.
type msDecl struct {
	slot, samples uint32
	array         bool // Texture2DMSArray
}

// msDecls lists a program's multisampled texture declarations that name a
// count (a count of 0 agrees with every view).
func msDecls(p *dxbc.Program) []msDecl {
	var out []msDecl
	for i := range p.Instructions {
		in := &p.Instructions[i]
		if in.Op != dxbc.OpDclResource || len(in.Operands) == 0 || len(in.Operands[0].Indices) == 0 {
			continue
		}
		dim := dxbc.ResourceDimension(in.Controls & 0x1F)
		if n := in.Controls >> 5 & 0x7F; n != 0 && (dim == dxbc.DimTexture2DMS || dim == dxbc.DimTexture2DMSArray) {
			out = append(out, msDecl{slot: uint32(in.Operands[0].Indices[0].Imm), samples: n, array: dim == dxbc.DimTexture2DMSArray})
		}
	}
	return out
}

// checkSampleCounts is the debug layer's draw-time (dispatch-time) check of
// the shaders of stages against the shader-resource views bound to the
// slots they declare multisampled: one message per slot whose view's
// resource has another count, naming the stage, the slot, the view, the
// shader and both counts. Without the debug layer it does nothing.
func (c driverContext) checkSampleCounts(call string, stages ...Stage) {
	if !c.dev.debug {
		return
	}
	for _, st := range stages {
		s := c.shaderOf(st)
		if s == nil {
			continue
		}
		for _, d := range s.ms {
			if int(d.slot) >= len(c.stages[st].srv) {
				continue
			}
			v := c.stages[st].srv[d.slot]
			if v == nil || v.Res == nil || v.Res.samples() == 1 || v.Res.samples() == d.samples {
				continue // (a view of one sample is a TEXTURE2D one: not this check's)
			}
			ty := "Texture2DMS"
			if d.array {
				ty = "Texture2DMSArray"
			}
			c.dev.message(call, v.name, fmt.Sprintf("D3D11 ERROR: %s: the shader resource view %s in slot %d of the %s shader stage has a sample count of %d, "+
				"but %s shader %s declares t%d a %s of %d samples (dcl_resource_%s(%d)): invalid if the shader reads the view, whose %d samples the GPU uses "+
				"[ EXECUTION ERROR #421: DEVICE_DRAW_RESOURCE_SAMPLE_COUNT_MISMATCH ]",
				call, v.name, d.slot, stageLongNames[st], v.Res.samples(), stageLongNames[st], s.name, d.slot, ty, d.samples,
				map[bool]string{false: "texture2dms", true: "texture2dmsarray"}[d.array], d.samples, v.Res.samples()))
		}
	}
}

// shaderOf is the shader bound to stage st.
func (c *slots) shaderOf(st Stage) *Shader {
	switch st {
	case StageVS:
		return c.vs
	case StagePS:
		return c.ps
	case StageGS:
		return c.gs
	case StageHS:
		return c.hs
	case StageDS:
		return c.ds
	case StageCS:
		return c.cs
	}
	return nil
}
