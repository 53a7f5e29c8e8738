package hlsl

import "fmt"

// cs_4_0 and cs_4_1: compute shaders for Direct3D 10.x hardware, which a
// Direct3D 11 device runs too. The limits are those of "Compute Shader
// Overview" (its section on Direct3D 10.x hardware) and of "numthreads":
// at most 768 threads a group, X and Y at most 768, Z 1; one unordered
// access view (u0), a RWStructuredBuffer or RWByteAddressBuffer (no typed
// views, no hidden counters); no atomic instructions; 16 KB of
// groupshared memory, which a thread writes only in its own region (at
// most 256 bytes, addressed by SV_GroupIndex or SV_DispatchThreadID).

// The limits of cs_4_x: threads a group (D3D11_CS_4_X_THREAD_GROUP_MAX_*),
// groupshared bytes, and the bytes of it one thread may write.
const (
	cs4MaxThreads = 768
	cs4TGSMBytes  = 16 << 10
	cs4TGSMRegion = 256
)

// numThreadsLimits are X's and Y's, Z's and the group's limits for the
// shader model (D3D11_CS_THREAD_GROUP_MAX_*, D3D11_CS_4_X_*).
func numThreadsLimits(major int) (xy, z, all int) {
	if major < 5 {
		return cs4MaxThreads, 1, cs4MaxThreads
	}
	return 1024, 64, 1024
}

// cs4Check reports what a cs_4_x program does that Direct3D 10.x hardware
// cannot: after optimisation, as fxc checks it (a groupshared store
// indexed by a copy of SV_GroupIndex is one indexed by SV_GroupIndex).
func (g *gen) cs4Check(p *Program, entry pos) {
	at := func(line int) pos {
		if line > 0 {
			return pos{line, 1}
		}
		return entry
	}
	firstUse := func(slot int) int {
		for _, in := range p.Code {
			for _, o := range append(in.Dst[:len(in.Dst):len(in.Dst)], in.Src...) {
				if o.File == FileUAV && o.Index == slot {
					return in.Line
				}
			}
		}
		return 0
	}
	for _, in := range p.Code {
		if in.Op >= OpAtomicIadd && in.Op <= OpImmAtomicCmpExch {
			g.errorf(at(in.Line), eNotImplemented, "%s has no atomic instructions (Interlocked* need cs_5_0)", p.Target)
			return
		}
	}
	for _, u := range p.UAVs {
		where := at(firstUse(u.Slot))
		switch {
		case u.Buf == BufNone:
			g.errorf(where, eNotImplemented, "u%d: a typed unordered access view needs cs_5_0 (%s binds RWStructuredBuffer and RWByteAddressBuffer only)", u.Slot, p.Target)
		case u.Counter:
			g.errorf(where, eNotImplemented, "u%d: a structured buffer's hidden counter (IncrementCounter, DecrementCounter, Append, Consume) needs cs_5_0", u.Slot)
		case u.Slot != 0:
			g.errorf(where, eNotImplemented, "u%d: %s binds one unordered access view, u0 (D3D11_CS_4_X_UAV_REGISTER_COUNT)", u.Slot, p.Target)
		}
	}
	total := 0
	for _, t := range p.TGSM {
		total += t.Stride * t.Count
	}
	if total > cs4TGSMBytes {
		g.errorf(entry, eSyntax, "the groupshared variables take %d bytes: %s has %d", total, p.Target, cs4TGSMBytes)
	}
	for _, in := range p.Code {
		if (in.Op == OpStoreStructured || in.Op == OpStoreRaw) && len(in.Dst) > 0 && in.Dst[0].File == FileTGSM {
			if msg := cs4TGSMWrite(p, in); msg != "" {
				g.errorf(at(in.Line), eNotImplemented, "%s", msg)
				return
			}
		}
	}
}

// cs4TGSMWrite says what is wrong with a groupshared store of a cs_4_x
// program, or "".
func cs4TGSMWrite(p *Program, in Instr) string {
	g := in.Dst[0].Index
	if g < len(p.TGSM) && p.TGSM[g].Stride > cs4TGSMRegion {
		return fmt.Sprintf("groupshared g%d: each thread writes its own region of at most %d bytes on %s, and an element takes %d", g, cs4TGSMRegion, p.Target, p.TGSM[g].Stride)
	}
	if in.Op == OpStoreRaw || len(in.Src) == 0 {
		return fmt.Sprintf("groupshared g%d: %s writes groupshared memory by element, indexed by SV_GroupIndex or SV_DispatchThreadID", g, p.Target)
	}
	idx := in.Src[0]
	if idx.File == FileInput && idx.Rel == nil && !idx.Neg && !idx.Abs &&
		(idx.Index == computeInputs["SV_GROUPINDEX"].reg || idx.Index == computeInputs["SV_DISPATCHTHREADID"].reg) {
		return ""
	}
	return fmt.Sprintf("groupshared g%d: on %s a thread writes only its own element, indexed by SV_GroupIndex or SV_DispatchThreadID (not a value computed from them)", g, p.Target)
}
