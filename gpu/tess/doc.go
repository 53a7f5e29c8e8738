// Package tess is the GPU's fixed-function tessellator: the stage between the
// hull shader and the domain shader that turns a patch's tess factors into
// domain points (u, v, and w = 1-u-v on a triangle) and the primitives that
// join them.
//
// It follows the D3D11 tessellator as the Direct3D 11 functional
// specification describes it and as Microsoft's reference tessellator (the
// MIT-licensed one of the D3D12 translation layer) computes it, so that the
// points and indices are the ones a D3D11 device produces:
//
//   - Culling: a patch with an edge factor that is not greater than 0 (NaN
//     included) produces nothing.
//   - Clamping and rounding per partitioning: integer and pow2 clamp to
//     [1, 64] and round up to the next integer (the hardware does not tell
//     pow2 from integer); fractional_odd clamps to [1, 63], fractional_even
//     to [2, 64]; isoline density clamps to [1, 64] and always rounds up.
//     A NaN factor becomes the lower bound. With fractional_odd partitioning
//     an inside factor is raised above 1 whenever any factor is, so that the
//     patch keeps a "picture frame" ring.
//   - Parity: under integer partitioning an edge's parity is that of its
//     rounded factor (an inside factor of 1 counts as even); fractional
//     partitioning fixes it (odd or even).
//   - Fixed point: factors and locations are 16.16 fixed-point numbers, so
//     the placement of a point is exact and repeatable, and points are
//     placed symmetrically from both ends of an edge, the second half the
//     mirror of the first: the points of an edge depend only on that edge's
//     factor, so neighbouring patches join without cracks.
//   - Fractional factors: the points of a half edge move between the
//     positions for the floor and the ceiling of half the factor, the new
//     point splitting in at the place the ruler function gives (the order
//     in which a binary subdivision adds points), so a point grows smoothly
//     out of its neighbour as the factor rises.
//   - Rings: the outer ring carries the edge factors; the inner rings the
//     inside factor(s). The outer ring is stitched to the first inner ring
//     by walking both half edges in ruler-function order (so transitions
//     of any two factors are watertight); inner rings are stitched
//     regularly with mirrored diagonals; the centre is one triangle (odd
//     triangle), a point (even triangle), or a strip of quads (quad).
//
// Output primitives: point (every domain point once), line (isoline
// domain: each line's segments) and triangle_cw / triangle_ccw (tri and
// quad domains: the index list's winding in domain space).
//
// At the maximum factors a patch has at most 65*65 = 4,225 points and
// 8,192 triangles (a quad at 64), which bounds the work one patch can ask
// of the GPU.
package tess
