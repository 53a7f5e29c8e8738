package scenario

import "d3dsim/core/d3d11"

// uavSlices fills a texture view's dimension and slices: by default the
// resource's own kind, an array view of every slice for an array, a 3D
// view of every depth slice (WSize -1).
func uavSlices(x *call, res *d3d11.Resource, u *d3d11.UAVDesc) {
	u.FirstArraySlice, u.ArraySize = x.uintNamed("FirstArraySlice"), x.uintNamed("ArraySize")
	u.FirstWSlice, u.WSize = x.uintNamed("FirstWSlice"), uint32(int32(x.numNamed("WSize")))
	slices := max(res.Desc.ArraySize, 1)
	if u.Dimension == 0 {
		switch res.Kind {
		case d3d11.KindBuffer:
			u.Dimension = d3d11.UAVDimBuffer
		case d3d11.KindTexture1D:
			u.Dimension = d3d11.UAVDimTexture1D
			if slices > 1 {
				u.Dimension = d3d11.UAVDimTexture1DArray
			}
		case d3d11.KindTexture3D:
			u.Dimension = d3d11.UAVDimTexture3D
		default:
			u.Dimension = d3d11.UAVDimTexture2D
			if slices > 1 {
				u.Dimension = d3d11.UAVDimTexture2DArray
			}
		}
	}
	switch u.Dimension {
	case d3d11.UAVDimTexture1DArray, d3d11.UAVDimTexture2DArray:
		if !x.hasNamed("ArraySize") {
			u.ArraySize = slices - min(u.FirstArraySlice, slices)
		}
	case d3d11.UAVDimTexture3D:
		if !x.hasNamed("WSize") {
			u.WSize = d3d11.UAVAllSlices
		}
	}
}
