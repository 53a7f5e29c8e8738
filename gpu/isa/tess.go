package isa

// Patch-list topologies (D3D11_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST
// .. _32_: 33..64, as D3D11 numbers them): every n vertices are one patch
// of n control points for the hull stage; a draw with one needs hull and
// domain programs, and those need one.
const (
	TopoPatchList1  = 33
	TopoPatchList32 = 64
)

// PatchControlPoints is the control points of a patch-list topology, 0
// for another topology.
func PatchControlPoints(topo uint32) uint32 {
	if topo >= TopoPatchList1 && topo <= TopoPatchList32 {
		return topo - TopoPatchList1 + 1
	}
	return 0
}
