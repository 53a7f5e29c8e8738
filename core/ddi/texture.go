package ddi

// Textures of more than one subresource (1D, 2D and 3D textures, arrays,
// cubes, mip chains), buffer shader-resource views and the rest of
// D3D11_SAMPLER_DESC: what the runtime passes the driver for them.

// ResourceMisc flags beyond SHARED ("D3D11_RESOURCE_MISC_FLAG
// enumeration").
const (
	ResourceMiscGenerateMips        ResourceMisc = 0x1  // GenerateMips may fill the levels (a render target and shader resource)
	ResourceMiscTextureCube         ResourceMisc = 0x4  // a 2D array of 6n slices viewable as cubes
	ResourceMiscBufferAllowRawViews ResourceMisc = 0x20 // a buffer viewable as a ByteAddressBuffer
	ResourceMiscBufferStructured    ResourceMisc = 0x40 // a StructuredBuffer of StructureByteStride
)

// SRVDimension mirrors D3D11_SRV_DIMENSION.
type SRVDimension uint32

const (
	SRVDimUnknown          SRVDimension = 0 // the resource's own kind, whole (a NULL view description)
	SRVDimBuffer           SRVDimension = 1
	SRVDimTexture1D        SRVDimension = 2
	SRVDimTexture1DArray   SRVDimension = 3
	SRVDimTexture2D        SRVDimension = 4
	SRVDimTexture2DArray   SRVDimension = 5
	SRVDimTexture2DMS      SRVDimension = 6
	SRVDimTexture2DMSArray SRVDimension = 7
	SRVDimTexture3D        SRVDimension = 8
	SRVDimTextureCube      SRVDimension = 9
	SRVDimTextureCubeArray SRVDimension = 10
	SRVDimBufferEx         SRVDimension = 11
)

// SRVDesc is a shader-resource view's description beyond its format
// (D3D11_SHADER_RESOURCE_VIEW_DESC's union, flattened): a texture view's
// mip range (MipLevels ^uint32(0): every level from MostDetailedMip, as
// D3D11's -1) and array range (FirstArraySlice, ArraySize: for a cube
// array First2DArrayFace and NumCubes), a buffer view's elements
// (FirstElement, NumElements) and BUFFEREX's RAW flag.
type SRVDesc struct {
	Dimension       SRVDimension
	MostDetailedMip uint32
	MipLevels       uint32
	FirstArraySlice uint32
	ArraySize       uint32
	FirstElement    uint32
	NumElements     uint32
	Raw             bool
}

// AllMips is a view's MipLevels of D3D11's -1: every level from
// MostDetailedMip.
const AllMips = ^uint32(0)

// Box mirrors D3D11_BOX: a region of a subresource, right, bottom and
// back exclusive.
type Box struct {
	Left, Top, Front, Right, Bottom, Back uint32
}

// CalcSubresource is D3D11CalcSubresource: the subresource number of a
// mip level of an array slice.
func CalcSubresource(mipSlice, arraySlice, mipLevels uint32) uint32 {
	return mipSlice + arraySlice*mipLevels
}

// D3D11_FILTER's encoding ("D3D11_FILTER enumeration"): the mip filter in
// bit 0, magnification in bit 2, minification in bit 4, anisotropic in bit
// 6, comparison in bit 7 (and the 11.1 minimum/maximum reductions in bits
// 7-8, which this device does not have).
const (
	FilterMipLinearBit  Filter = 0x01
	FilterMagLinearBit  Filter = 0x04
	FilterMinLinearBit  Filter = 0x10
	FilterAnisotropic   Filter = 0x55
	FilterComparisonBit Filter = 0x80
)

// AddressMirrorOnce is D3D11_TEXTURE_ADDRESS_MIRROR_ONCE.
const AddressMirrorOnce AddressMode = 5

func init() {
	for k, v := range map[string]uint32{"GENERATE_MIPS": 0x1, "TEXTURECUBE": 0x4, "BUFFER_ALLOW_RAW_VIEWS": 0x20, "BUFFER_STRUCTURED": 0x40} {
		Enums["MiscFlags"][k] = v
	}
	for k, v := range map[string]uint32{
		"MIN_MAG_POINT_MIP_LINEAR": 0x1, "MIN_POINT_MAG_LINEAR_MIP_POINT": 0x4, "MIN_POINT_MAG_MIP_LINEAR": 0x5,
		"MIN_LINEAR_MAG_MIP_POINT": 0x10, "MIN_LINEAR_MAG_POINT_MIP_LINEAR": 0x11, "MIN_MAG_LINEAR_MIP_POINT": 0x14,
		"ANISOTROPIC": 0x55, "COMPARISON_MIN_MAG_MIP_POINT": 0x80, "COMPARISON_MIN_MAG_POINT_MIP_LINEAR": 0x81,
		"COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT": 0x84, "COMPARISON_MIN_POINT_MAG_MIP_LINEAR": 0x85,
		"COMPARISON_MIN_LINEAR_MAG_MIP_POINT": 0x90, "COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR": 0x91,
		"COMPARISON_MIN_MAG_LINEAR_MIP_POINT": 0x94, "COMPARISON_MIN_MAG_MIP_LINEAR": 0x95, "COMPARISON_ANISOTROPIC": 0xD5,
	} {
		Enums["Filter"][k] = v
	}
	Enums["Address"]["MIRROR_ONCE"] = uint32(AddressMirrorOnce)
	Enums["BufferExFlags"] = map[string]uint32{"RAW": 1} // D3D11_BUFFEREX_SRV_FLAG
	Enums["SRVDimension"] = map[string]uint32{"UNKNOWN": 0, "BUFFER": 1, "TEXTURE1D": 2, "TEXTURE1DARRAY": 3, "TEXTURE2D": 4,
		"TEXTURE2DARRAY": 5, "TEXTURE2DMS": 6, "TEXTURE2DMSARRAY": 7, "TEXTURE3D": 8, "TEXTURECUBE": 9,
		"TEXTURECUBEARRAY": 10, "BUFFEREX": 11}
}
