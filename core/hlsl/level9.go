package hlsl

import (
	"fmt"
	"strings"
)

// The _level_9_x profiles: vertex and pixel shaders for Direct3D 11 on
// feature level 9 hardware ("Specifying Compiler Targets"). fxc compiles
// them to shader model 4 bytecode, which a device of feature level 10_0 and
// up runs, plus the same shader for shader model 2 hardware (the Aon9
// chunk), which this compiler leaves out: a feature level 11_0 device never
// reads it. The shader model 4 code must still be one that shader model 2
// can express, so fxc refuses what vs_2_0/ps_2_0 (9_1) and vs_2_a/ps_2_x
// (9_3) have no instruction or register for. The rules checked here are the
// ones that page and the shader model 2 instruction sets state exactly;
// docs/shaders.md lists the ones left unchecked (instruction slots,
// temporary registers, dependent reads, flow-control depth: counts of the
// Direct3D 9 code, which is not generated).

// level9Levels are the levels a _level_9_x profile names: 9_1 (9.1 and 9.2
// hardware; fxc also takes 9_0, as Nuklear's build does, and this
// compiler applies 9_1's rules to it) and 9_3.
var level9Levels = map[string]string{"9_0": "9_1", "9_1": "9_1", "9_3": "9_3"}

// level9Target splits a _level_9_x profile into its shader model 4 base
// (vs_4_0) and its level ("9_1" or "9_3"); another target comes back
// whole with level "". msg is a refusal: a stage or level fxc does not
// take.
func level9Target(target string) (base, level, msg string) {
	base, lv, ok := strings.Cut(target, "_level_")
	if !ok {
		return target, "", ""
	}
	norm, known := level9Levels[lv]
	switch {
	case lv == "9_2":
		return "", "", fmt.Sprintf("unsupported target '%s': feature level 9_2 hardware runs %s_level_9_1 shaders", clean(target), clean(base))
	case !known:
		return "", "", fmt.Sprintf("unsupported target '%s' (the levels are 9_1, for 9.1 and 9.2 hardware, and 9_3)", clean(target))
	case base != "vs_4_0" && base != "ps_4_0":
		return "", "", fmt.Sprintf("unsupported target '%s': feature level 9 hardware has vertex and pixel shaders only (vs_4_0_level_9_x, ps_4_0_level_9_x)", clean(target))
	}
	return base, norm, ""
}

// eBitwise is fxc's error for a bitwise operator on a target whose
// integers are floats (shader model 2 and the _level_9_x profiles).
const eBitwise = 3535

// level9Bitwise refuses a bitwise operator (&, |, ^, ~, <<, >>, and their
// assignments) on a _level_9_x profile, in fxc's words; it reports
// whether it did.
func (g *gen) level9Bitwise(p pos) bool {
	if g.level9 == "" {
		return false
	}
	g.errorf(p, eBitwise, "Bitwise operations not supported on legacy targets.")
	return true
}

// eLevel9Semantic is fxc's number for a semantic the profile has no
// register for.
const eLevel9Semantic = 4502

// level9NoSysVal are the system values shader model 2 has no register
// for: no vertex, instance or primitive id, no samples, no clip or cull
// distances (feature level 9 takes user clip planes through the
// clipplanes attribute, "User clip planes on feature level 9 hardware"),
// no render target array or viewport index.
var level9NoSysVal = []string{"SV_VERTEXID", "SV_INSTANCEID", "SV_PRIMITIVEID", "SV_SAMPLEINDEX", "SV_COVERAGE",
	"SV_CLIPDISTANCE", "SV_CULLDISTANCE", "SV_RENDERTARGETARRAYINDEX", "SV_VIEWPORTARRAYINDEX"}

// level9Targets is how many render targets a pixel shader of the level
// writes ("Direct3D feature levels": 1 on 9_1 and 9_2, 4 on 9_3).
var level9Targets = map[string]int{"9_1": 1, "9_3": 4}

// level9Slots is how many textures and samplers a feature level 9 pixel
// shader binds: shader model 2's sixteen samplers, s0-s15, each with its
// texture.
const level9Slots = 16

// level9Check reports what a _level_9_x program does that shader model 2
// cannot: its signatures, then its code after optimisation, as fxc checks
// it (a texture read the optimiser removed is no read).
func (g *gen) level9Check(p *Program, profile string, entry pos, ins, outs []SigElement) {
	if g.level9 == "" {
		return
	}
	at := func(line int) pos {
		if line > 0 {
			return pos{line, 1}
		}
		return entry
	}
	for i, sig := range [2][]SigElement{ins, outs} {
		dir := [2]string{"input", "output"}[i]
		for _, e := range sig {
			up := strings.ToUpper(e.Semantic)
			for _, sv := range level9NoSysVal {
				if up == sv {
					g.errorf(entry, eLevel9Semantic, "invalid %s %s semantic '%s': feature level 9 hardware has no register for it", profile, dir, e.Semantic)
				}
			}
			if p.Stage == Pixel && i == 1 && up == "SV_TARGET" && e.Index >= level9Targets[g.level9] {
				g.errorf(entry, eLevel9Semantic, "invalid %s output semantic 'SV_Target%d': feature level %s writes %d render target(s)", profile, e.Index, strings.Replace(g.level9, "_", ".", 1), level9Targets[g.level9])
			}
		}
	}
	if len(g.errs) > 0 {
		return
	}
	if len(p.UAVs) > 0 {
		g.errorf(entry, eNotImplemented, "u%d: %s has no unordered access views", p.UAVs[0].Slot, profile)
		return
	}
	for _, t := range p.Textures {
		switch {
		case t.Buf != BufNone:
			g.errorf(entry, eNotImplemented, "t%d: %s reads no structured or byte-address buffers", t.Slot, profile)
		case t.Dim != Tex2D && t.Dim != Tex1D && t.Dim != Tex3D && t.Dim != TexCube:
			g.errorf(entry, eNotImplemented, "t%d: %s samples 1D, 2D, 3D and cube textures only (a %s needs shader model 4)", t.Slot, profile, t.Dim)
		case t.Slot >= level9Slots:
			g.errorf(entry, eNotImplemented, "t%d: %s binds %d textures, t0-t%d", t.Slot, profile, level9Slots, level9Slots-1)
		}
	}
	for _, s := range p.Samplers {
		if s.Slot >= level9Slots {
			g.errorf(entry, eNotImplemented, "s%d: %s binds %d samplers, s0-s%d", s.Slot, profile, level9Slots, level9Slots-1)
		}
	}
	if len(g.errs) > 0 {
		return
	}
	for _, in := range p.Code {
		if msg := level9Instr(in.Op, p.Stage, g.level9); msg != "" {
			g.errorf(at(in.Line), eNotImplemented, "%s: not available on %s, %s", in.Op.level9Name(), profile, msg)
			return
		}
	}
}

// level9Instr says why shader model 2 has no instruction for op in a
// shader of the stage at the level ("" when it has one).
func level9Instr(op Op, st Stage, level string) string {
	switch {
	case op >= OpDadd && op <= OpDfma:
		return "which has no doubles"
	case op == OpLd || op == OpLdMS || op == OpResinfo || op == OpBufinfo || op == OpSampleInfo || op == OpSamplePos || op == OpLod:
		return "whose textures are read through a sampler only (no Load, GetDimensions, CalculateLevelOfDetail or sample positions)"
	case op >= OpGather4 && op <= OpGather4PoC:
		return "which has no Gather (shader model 4.1)"
	case st == Vertex && (op == OpSample || op == OpSampleL || op == OpSampleB || op == OpSampleD || op == OpSampleC || op == OpSampleCLz):
		return "whose vertex shaders read no textures (vertex texture fetch is shader model 3)"
	case level == "9_1" && (op == OpSampleD || op >= OpDerivRtx && op <= OpDerivRtyFine):
		return "whose pixel shaders (ps_2_0) have no gradient instructions: ddx, ddy, fwidth and SampleGrad need ps_4_0_level_9_3"
	case op >= OpDerivRtxCoarse && op <= OpDerivRtyFine:
		return "which has no coarse or fine derivatives (shader model 5)"
	}
	return ""
}

// level9Name is the instruction's name in a level 9 refusal: the HLSL
// that makes it.
func (op Op) level9Name() string {
	switch {
	case op >= OpDadd && op <= OpDfma:
		return "double"
	case op == OpLd || op == OpLdMS:
		return "Load"
	case op == OpResinfo || op == OpBufinfo:
		return "GetDimensions"
	case op == OpSampleInfo:
		return "GetSampleCount"
	case op == OpSamplePos:
		return "GetSamplePosition"
	case op == OpLod:
		return "CalculateLevelOfDetail"
	case op >= OpGather4 && op <= OpGather4PoC:
		return "Gather"
	case op == OpSample, op == OpSampleB, op == OpSampleC:
		return "Sample"
	case op == OpSampleL, op == OpSampleCLz:
		return "SampleLevel"
	case op == OpSampleD:
		return "SampleGrad"
	case op == OpDerivRtx || op == OpDerivRtxCoarse || op == OpDerivRtxFine:
		return "ddx"
	case op == OpDerivRty || op == OpDerivRtyCoarse || op == OpDerivRtyFine:
		return "ddy"
	}
	return "this instruction"
}
