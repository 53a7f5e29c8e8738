package scenario

import "d3dsim/core/d3d11"

// The calls and parameters of textures of several subresources, buffer
// views and full samplers: CreateTexture1D and CreateTexture3D,
// CreateTexture2D's MipLevels and ArraySize, CreateBuffer's
// StructureByteStride, CreateShaderResourceView's dimension and ranges,
// CreateSamplerState's every field, UpdateSubresource's DstSubresource and
// GenerateMips. MipLevels=0 is D3D11's: the whole chain.

func textureCommon() []param {
	return []param{{name: "Format", kind: pEnum, enum: "Format"}, {name: "MipLevels", kind: pUint, opt: true, def: 1},
		{name: "Usage", kind: pEnum, enum: "Usage", opt: true}, {name: "BindFlags", kind: pFlags, enum: "BindFlags", opt: true},
		{name: "CPUAccessFlags", kind: pFlags, enum: "CPUAccessFlags", opt: true}, {name: "MiscFlags", kind: pFlags, enum: "MiscFlags", opt: true},
		{name: "Data", kind: pData, opt: true}}
}

func texture1DNamed() []param {
	return append([]param{{name: "Width", kind: pUint}, {name: "ArraySize", kind: pUint, opt: true, def: 1}}, textureCommon()...)
}

func texture3DNamed() []param {
	return append([]param{{name: "Width", kind: pUint}, {name: "Height", kind: pUint}, {name: "Depth", kind: pUint}}, textureCommon()...)
}

// srvNamed are a shader-resource view's: its Format, then
// D3D11_SHADER_RESOURCE_VIEW_DESC's dimension and the fields of its
// union (MipLevels -1: every level; ArraySize, NumCubes and NumElements
// left out: the rest of the resource).
func srvNamed() []param {
	return []param{{name: "Format", kind: pEnum, enum: "Format", opt: true}, {name: "ViewDimension", kind: pEnum, enum: "SRVDimension", opt: true},
		{name: "MostDetailedMip", kind: pUint, opt: true}, {name: "MipLevels", kind: pInt, opt: true, def: -1},
		{name: "FirstArraySlice", kind: pUint, opt: true}, {name: "ArraySize", kind: pUint, opt: true},
		{name: "First2DArrayFace", kind: pUint, opt: true}, {name: "NumCubes", kind: pUint, opt: true},
		{name: "FirstElement", kind: pUint, opt: true}, {name: "NumElements", kind: pUint, opt: true},
		{name: "Flags", kind: pFlags, enum: "BufferExFlags", opt: true}}
}

// mipLevels is a descriptor's MipLevels: 0 is the whole chain.
func (x *call) mipLevels() uint32 {
	if m := x.uintNamed("MipLevels"); m != 0 {
		return m
	}
	return d3d11.MipLevelsFull
}

func (x *call) optData() []byte {
	if x.hasNamed("Data") {
		return x.data("Data")
	}
	return nil
}

func execCreateTexture1D(x *call) error {
	desc := d3d11.Texture1DDesc{Width: x.uintNamed("Width"), MipLevels: x.mipLevels(), ArraySize: x.uintNamed("ArraySize"),
		Format: d3d11.Format(x.enumNamed("Format", 0)), Usage: d3d11.Usage(x.enumNamed("Usage", 0)), BindFlags: d3d11.BindFlag(x.enumNamed("BindFlags", 0)),
		CPUAccessFlags: d3d11.CPUAccess(x.enumNamed("CPUAccessFlags", 0)), MiscFlags: d3d11.ResourceMisc(x.enumNamed("MiscFlags", 0))}
	r, err := x.dev().CreateTexture1D(x.result(0), desc, x.optData())
	if err == nil {
		x.bind(0, r)
	}
	return err
}

func execCreateTexture3D(x *call) error {
	desc := d3d11.Texture3DDesc{Width: x.uintNamed("Width"), Height: x.uintNamed("Height"), Depth: x.uintNamed("Depth"), MipLevels: x.mipLevels(),
		Format: d3d11.Format(x.enumNamed("Format", 0)), Usage: d3d11.Usage(x.enumNamed("Usage", 0)), BindFlags: d3d11.BindFlag(x.enumNamed("BindFlags", 0)),
		CPUAccessFlags: d3d11.CPUAccess(x.enumNamed("CPUAccessFlags", 0)), MiscFlags: d3d11.ResourceMisc(x.enumNamed("MiscFlags", 0))}
	r, err := x.dev().CreateTexture3D(x.result(0), desc, x.optData())
	if err == nil {
		x.bind(0, r)
	}
	return err
}

// srvDesc reads a shader-resource view's dimension and ranges.
func (x *call) srvDesc(res *d3d11.Resource) d3d11.SRVDesc {
	s := d3d11.SRVDesc{Dimension: d3d11.SRVDimension(x.enumNamed("ViewDimension", 0)), MostDetailedMip: x.uintNamed("MostDetailedMip"),
		MipLevels: uint32(int32(x.numNamed("MipLevels"))), FirstArraySlice: x.uintNamed("FirstArraySlice"), ArraySize: x.uintNamed("ArraySize"),
		FirstElement: x.uintNamed("FirstElement"), NumElements: x.uintNamed("NumElements"), Raw: x.enumNamed("Flags", 0)&1 != 0}
	slices := res.ArraySlices()
	switch s.Dimension {
	case d3d11.SRVDimTextureCubeArray:
		s.FirstArraySlice = x.uintNamed("First2DArrayFace")
		s.ArraySize = x.uintNamed("NumCubes")
		if !x.hasNamed("NumCubes") && slices > s.FirstArraySlice {
			s.ArraySize = (slices - s.FirstArraySlice) / 6
		}
	case d3d11.SRVDimTexture1DArray, d3d11.SRVDimTexture2DArray:
		if !x.hasNamed("ArraySize") && slices > s.FirstArraySlice {
			s.ArraySize = slices - s.FirstArraySlice
		}
	case d3d11.SRVDimBuffer, d3d11.SRVDimBufferEx:
		if n := res.BufferElements(d3d11.Format(x.enumNamed("Format", 0)), s.Raw); !x.hasNamed("NumElements") && n > s.FirstElement {
			s.NumElements = n - s.FirstElement
		}
	}
	return s
}

func execUpdateSubresource(x *call) error {
	if !x.hasNamed("DstSubresource") {
		return x.ctx().UpdateSubresource(x.res(0), x.data("Data"))
	}
	return x.ctx().UpdateSubresourceRegion(x.res(0), x.uintNamed("DstSubresource"), nil, x.data("Data"), 0, 0)
}
