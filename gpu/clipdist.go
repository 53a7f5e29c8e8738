package gpu

import "d3dsim/gpu/isa"

// Clip and cull distances (SET_CLIP_DIST, isa/clipdist.go): the last stage
// before the rasterizer writes up to eight distances per vertex
// ("Semantics": SV_ClipDistance, SV_CullDistance).
//
// Clip distances are clipped geometrically, in homogeneous space, as the
// view volume's planes are: each is one more plane of the clipper
// (clipPoly), its distance the vertex's attribute. Direct3D 11 lets the
// hardware clip either that way or per pixel on the interpolated value;
// the two agree (a distance is linear in clip space over the primitive,
// so where its perspective-correct interpolation is below 0 is exactly
// the part the plane cuts away), and the geometric way reuses the clipper
// that already clips triangles, lines and points, costs nothing per pixel,
// and never runs the pixel program for a pixel that is clipped away, so
// PSInvocations counts only the pixels drawn. A vertex whose clip distance
// is NaN drops its primitive.
//
// Cull distances cull: a primitive whose vertices all have the same cull
// distance below 0 is dropped before clipping. Both are counted as D3D11's
// pipeline statistics document: CInvocations counts the primitive, a
// culled one adds nothing to CPrimitives, a clipped one the triangles it
// became.

// clipDists is the draw's distances: the attribute index (4 x register +
// component) of each clip and each cull distance.
type clipDists struct {
	clip, cull   [isa.MaxClipDistances]uint8
	nclip, ncull int
}

// clipNaN is the outcode bit of a vertex whose clip distance is NaN.
const clipNaN = 1 << 31

// prepareClipDist reads SET_CLIP_DIST against the last stage before the
// rasterizer: each distance in one of its outputs, not its position.
func (ex *executor) prepareClipDist() bool {
	d, w := &ex.draw, ex.st.clipDist
	d.cd = clipDists{}
	if w == 0 {
		return true
	}
	ps := &d.prog
	what, outs, pos := "vertex", ps.vs.prog.Outputs, ps.vsPos
	switch {
	case ps.gs != nil:
		what, outs, pos = "geometry", ps.gs.prog.Outputs, ps.gsPos
	case ps.hs != nil:
		what, outs, pos = "domain", ps.ds.prog.Outputs, ps.ts.dsPos
	}
	clip, cull := uint8(w>>16), uint8(w>>24)
	if clip&cull != 0 {
		ex.fault("SET_CLIP_DIST %#x: distances %#x are both clip and cull distances", w, clip&cull)
		return false
	}
	for i := range isa.MaxClipDistances {
		bit := uint8(1) << i
		if (clip|cull)&bit == 0 {
			continue
		}
		r := int(w>>(8*(i/4))&0xFF) - 1
		if r < 0 || r >= outs || r == pos || r >= isa.MaxVaryings {
			ex.fault("SET_CLIP_DIST %#x: distance %d in o%d, not one of the %s program's %d outputs (SV_Position in o%d)", w, i, r, what, outs, pos)
			return false
		}
		at := uint8(4*r + i%4)
		if clip&bit != 0 {
			d.cd.clip[d.cd.nclip] = at
			d.cd.nclip++
		} else {
			d.cd.cull[d.cd.ncull] = at
			d.cd.ncull++
		}
	}
	return true
}

// dist is plane k's distance of v: a view-volume plane's, or past them
// clip distance k-numPlanes.
func (cd *clipDists) dist(v *cvert, k int) float64 {
	if k < numPlanes {
		return dist(v, k)
	}
	return v.a[cd.clip[(k-numPlanes)&(isa.MaxClipDistances-1)]&(numAttr-1)]
}

// outcode is the clip distances' bits of v's outcode: bit numPlanes+i for
// distance i below 0, and clipNaN for a NaN.
func (cd *clipDists) outcode(v *cvert) uint32 {
	var c uint32
	for i, at := range cd.clip[:cd.nclip] {
		if x := v.a[at&(numAttr-1)]; !(x >= 0) {
			c |= 1 << (numPlanes + i)
			if x != x {
				c |= clipNaN
			}
		}
	}
	return c
}

// culled reports a primitive whose vertices all have one of the cull
// distances below 0.
func (cd *clipDists) culled(vs ...*cvert) bool {
	for _, at := range cd.cull[:cd.ncull] {
		out := true
		for _, v := range vs {
			if !(v.a[at&(numAttr-1)] < 0) {
				out = false
				break
			}
		}
		if out {
			return true
		}
	}
	return false
}
