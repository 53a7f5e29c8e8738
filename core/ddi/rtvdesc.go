package ddi

// Render-target and depth-stencil views of one subresource, of a range of
// an array's slices or of a 3D mip's depth slices, and a buffer's
// render-target views ("D3D11_RENDER_TARGET_VIEW_DESC structure",
// "D3D11_DEPTH_STENCIL_VIEW_DESC structure"): what
// D3D11DDIARG_CREATERENDERTARGETVIEW and D3D11DDIARG_CREATEDEPTHSTENCILVIEW
// carry in their unions.

// RTVDimension mirrors D3D11_RTV_DIMENSION.
type RTVDimension uint32

const (
	RTVDimUnknown          RTVDimension = 0 // the whole of mip 0 as the resource's own kind (a NULL view description)
	RTVDimBuffer           RTVDimension = 1
	RTVDimTexture1D        RTVDimension = 2
	RTVDimTexture1DArray   RTVDimension = 3
	RTVDimTexture2D        RTVDimension = 4
	RTVDimTexture2DArray   RTVDimension = 5
	RTVDimTexture2DMS      RTVDimension = 6
	RTVDimTexture2DMSArray RTVDimension = 7
	RTVDimTexture3D        RTVDimension = 8
)

// DSVDimension mirrors D3D11_DSV_DIMENSION: D3D11_RTV_DIMENSION's texture
// values less one, without BUFFER and TEXTURE3D.
type DSVDimension uint32

// RTV is a depth-stencil view dimension's render-target one (0 for an
// unknown value).
func (d DSVDimension) RTV() RTVDimension {
	if d == 0 || d > 6 {
		return RTVDimUnknown
	}
	return RTVDimension(d + 1)
}

// TargetDesc is a render-target or depth-stencil view's description beyond
// its format and flags, with the union flattened: a texture view's mip
// slice, an array view's slices (FirstArraySlice, ArraySize), a 3D view's
// depth slices of its mip (FirstWSlice, WSize: AllSlices for every one from
// FirstWSlice), a buffer view's elements (FirstElement, NumElements).
// Dimension is D3D11_RTV_DIMENSION's value; the runtime turns a
// depth-stencil view's D3D11_DSV_DIMENSION into it (DSVDimension.RTV) and
// resolves an UNKNOWN one, so the driver always sees the view's shape.
type TargetDesc struct {
	Dimension                  RTVDimension
	MipSlice                   uint32
	FirstArraySlice, ArraySize uint32
	FirstWSlice, WSize         uint32
	FirstElement, NumElements  uint32
}

// Slices is how many array or depth slices the view holds (1 for a view of
// one).
func (t *TargetDesc) Slices() uint32 {
	switch t.Dimension {
	case RTVDimTexture1DArray, RTVDimTexture2DArray, RTVDimTexture2DMSArray:
		return max(t.ArraySize, 1)
	case RTVDimTexture3D:
		return max(t.WSize, 1)
	}
	return 1
}

func init() {
	Enums["RTVDimension"] = map[string]uint32{"UNKNOWN": 0, "BUFFER": 1, "TEXTURE1D": 2, "TEXTURE1DARRAY": 3, "TEXTURE2D": 4,
		"TEXTURE2DARRAY": 5, "TEXTURE2DMS": 6, "TEXTURE2DMSARRAY": 7, "TEXTURE3D": 8}
	Enums["DSVDimension"] = map[string]uint32{"UNKNOWN": 0, "TEXTURE1D": 1, "TEXTURE1DARRAY": 2, "TEXTURE2D": 3,
		"TEXTURE2DARRAY": 4, "TEXTURE2DMS": 5, "TEXTURE2DMSARRAY": 6}
}
