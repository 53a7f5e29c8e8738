package scenario

import "d3dsim/core/d3d11"

// Render-target and depth-stencil view descriptions
// (D3D11_RENDER_TARGET_VIEW_DESC, D3D11_DEPTH_STENCIL_VIEW_DESC): the
// fields beyond Format and Flags, named as the structures name them.

// targetNamed are CreateRenderTargetView's (dsv false) or
// CreateDepthStencilView's fields after Format and Flags.
func targetNamed(dsv bool) []param {
	if dsv {
		return []param{{name: "ViewDimension", kind: pEnum, enum: "DSVDimension", opt: true}, {name: "MipSlice", kind: pUint, opt: true},
			{name: "FirstArraySlice", kind: pUint, opt: true}, {name: "ArraySize", kind: pUint, opt: true}}
	}
	return []param{{name: "ViewDimension", kind: pEnum, enum: "RTVDimension", opt: true}, {name: "MipSlice", kind: pUint, opt: true},
		{name: "FirstArraySlice", kind: pUint, opt: true}, {name: "ArraySize", kind: pUint, opt: true},
		{name: "FirstWSlice", kind: pUint, opt: true}, {name: "WSize", kind: pInt, opt: true},
		{name: "FirstElement", kind: pUint, opt: true}, {name: "NumElements", kind: pUint, opt: true}}
}

// targetDesc builds the description: an array view's ArraySize left out is
// the rest of the slices from FirstArraySlice, a 3D view's WSize left out
// is -1 (every depth slice from FirstWSlice).
func (x *call) targetDesc(res *d3d11.Resource, dsv bool) d3d11.TargetDesc {
	t := d3d11.TargetDesc{Dimension: d3d11.RTVDimension(x.enumNamed("ViewDimension", 0)), MipSlice: x.uintNamed("MipSlice"),
		FirstArraySlice: x.uintNamed("FirstArraySlice"), ArraySize: x.uintNamed("ArraySize")}
	dim := t.Dimension
	if dsv {
		dim = d3d11.DSVDimension(t.Dimension).RTV()
	} else {
		t.FirstWSlice, t.WSize = x.uintNamed("FirstWSlice"), uint32(int32(x.numNamed("WSize")))
		t.FirstElement, t.NumElements = x.uintNamed("FirstElement"), x.uintNamed("NumElements")
	}
	switch dim {
	case d3d11.RTVDimTexture1DArray, d3d11.RTVDimTexture2DArray, d3d11.RTVDimTexture2DMSArray:
		if slices := res.ArraySlices(); !x.hasNamed("ArraySize") && slices > t.FirstArraySlice {
			t.ArraySize = slices - t.FirstArraySlice
		}
	case d3d11.RTVDimTexture3D:
		if !x.hasNamed("WSize") {
			t.WSize = d3d11.UAVAllSlices
		}
	}
	return t
}
