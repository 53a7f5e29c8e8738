package umd

import (
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
)

// clipWord is SET_CLIP_DIST's word for a shader's clip and cull distances
// on stream (the translator refused more than the GPU takes, so the error
// cannot happen for a shader it made).
func clipWord(prog *translate.Shader, stream uint8) uint32 {
	cc, err := prog.ClipCull(stream)
	if err != nil {
		return 0
	}
	return isa.ClipDistWord(cc.Regs, cc.Clip, cc.Cull)
}

// emitClipDist tells the rasterizer where the last stage before it (the
// geometry shader, else the domain shader, else the vertex shader) writes
// SV_ClipDistance and SV_CullDistance; a buffer that never draws with
// them never carries SET_CLIP_DIST.
func (c *context) emitClipDist(vs, gs, hs, ds *shader) {
	last := vs
	switch {
	case gs != nil:
		last = gs
	case hs != nil && ds != nil:
		last = ds
	}
	var w uint32
	if last != nil {
		w = last.clip
	}
	g := &c.onGPU
	if w != 0 || g.clip {
		c.cmd.SetClipDist(w)
		g.clip = w != 0
	}
}
