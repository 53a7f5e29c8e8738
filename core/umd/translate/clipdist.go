package translate

import (
	"fmt"
	"slices"

	"d3dsim/core/dxbc"
)

// ClipCull is where a shader's clip and cull distances are
// ("Semantics": SV_ClipDistance, SV_CullDistance): at most eight, in at
// most two output registers. Distance 4k+c is component c of Regs[k]
// (-1: none); Clip and Cull have bit 4k+c set for each.
type ClipCull struct {
	Regs       [2]int
	Clip, Cull uint8
}

// isClipCull reports SV_ClipDistance and SV_CullDistance.
func isClipCull(sv dxbc.SystemValue) bool {
	return sv == dxbc.SVClipDistance || sv == dxbc.SVCullDistance
}

// passedOn reports the system values a geometry, hull or domain shader
// reads as the previous stage wrote them: ordinary values to it.
func passedOn(sv dxbc.SystemValue) bool {
	return sv == dxbc.SVUndefined || sv == dxbc.SVPosition || isClipCull(sv)
}

// ClipCull returns the distances the shader writes for the rasterizer on
// stream (0 but for a geometry shader's other streams), in its ISA
// registers, lowest register first.
func (s *Shader) ClipCull(stream uint8) (ClipCull, error) {
	cc := ClipCull{Regs: [2]int{-1, -1}}
	var regs []int
	for _, o := range s.Outputs {
		if isClipCull(o.SystemValue) && o.Stream == stream && !slices.Contains(regs, int(o.ISA)) {
			regs = append(regs, int(o.ISA))
		}
	}
	if len(regs) > 2 {
		return cc, fmt.Errorf("SV_ClipDistance and SV_CullDistance in %d output registers: the rasterizer takes 8 distances in 2 registers", len(regs))
	}
	slices.Sort(regs)
	copy(cc.Regs[:], regs)
	for _, o := range s.Outputs {
		if !isClipCull(o.SystemValue) || o.Stream != stream {
			continue
		}
		k := slices.Index(regs, int(o.ISA))
		bits := o.Mask & 0xF << (4 * k)
		if (cc.Clip|cc.Cull)&bits != 0 {
			return cc, fmt.Errorf("o%d: a component declared twice as a clip or cull distance", o.Reg)
		}
		if o.SystemValue == dxbc.SVClipDistance {
			cc.Clip |= bits
		} else {
			cc.Cull |= bits
		}
	}
	return cc, nil
}
