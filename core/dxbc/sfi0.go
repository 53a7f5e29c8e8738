package dxbc

import (
	"encoding/binary"
	"fmt"
)

// ShaderFeatures is the SFI0 chunk ("shader feature info"): the optional
// device features a shader needs beyond its shader model, the
// D3D_SHADER_REQUIRES_* bits of d3dcommon.h, one 64-bit word. fxc writes
// the chunk, after the code, when a bit is set: a shader with doubles has
// 1, one with fma on doubles 0x21 (doubles and the 11.1 double
// extensions), as the fxc blobs of vkd3d's tests carry them. The runtime
// checks the bits against the device when the shader is created.
type ShaderFeatures uint64

// The D3D_SHADER_REQUIRES_* bits.
const (
	RequiresDoubles ShaderFeatures = 1 << iota
	RequiresEarlyDepthStencil
	RequiresUAVsAtEveryStage
	Requires64UAVs
	RequiresMinimumPrecision
	Requires11_1DoubleExtensions
	Requires11_1ShaderExtensions
	RequiresLevel9ComparisonFiltering
	RequiresTiledResources
	RequiresStencilRef
	RequiresInnerCoverage
	RequiresTypedUAVLoadAdditionalFormats
	RequiresROVs
	RequiresViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer
	numShaderFeatures = iota
)

// shaderFeatureNames are each bit's D3D_SHADER_REQUIRES_ name (without the
// prefix) and the words fxc's listing uses for it.
var shaderFeatureNames = [numShaderFeatures][2]string{
	{"DOUBLES", "Double-precision floating point"},
	{"EARLY_DEPTH_STENCIL", "Early depth-stencil"},
	{"UAVS_AT_EVERY_STAGE", "UAVs at every shader stage"},
	{"64_UAVS", "64 UAV slots"},
	{"MINIMUM_PRECISION", "Minimum-precision data types"},
	{"11_1_DOUBLE_EXTENSIONS", "Double-precision extensions for 11.1"},
	{"11_1_SHADER_EXTENSIONS", "Shader extensions for 11.1"},
	{"LEVEL_9_COMPARISON_FILTERING", "Comparison filtering for feature level 9"},
	{"TILED_RESOURCES", "Tiled resources"},
	{"STENCIL_REF", "PS Output Stencil Ref"},
	{"INNER_COVERAGE", "PS Inner Coverage"},
	{"TYPED_UAV_LOAD_ADDITIONAL_FORMATS", "Typed UAV Load Additional Formats"},
	{"ROVS", "Raster Ordered UAVs"},
	{"VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER", "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer"},
}

// Names lists the set bits by their D3D_SHADER_REQUIRES_ names; a bit no
// Direct3D version defines is named by its value.
func (f ShaderFeatures) Names() []string {
	var s []string
	for i := 0; i < 64; i++ {
		if f&(1<<i) == 0 {
			continue
		}
		if i < numShaderFeatures {
			s = append(s, "D3D_SHADER_REQUIRES_"+shaderFeatureNames[i][0])
		} else {
			s = append(s, fmt.Sprintf("0x%x", uint64(1)<<i))
		}
	}
	return s
}

// Describe lists the set bits in the words of fxc's listing.
func (f ShaderFeatures) Describe() []string {
	var s []string
	for i := 0; i < 64; i++ {
		if f&(1<<i) == 0 {
			continue
		}
		if i < numShaderFeatures {
			s = append(s, shaderFeatureNames[i][1])
		} else {
			s = append(s, fmt.Sprintf("unknown feature 0x%x", uint64(1)<<i))
		}
	}
	return s
}

// ParseSFI0 reads an SFI0 chunk: the 64-bit feature word.
func ParseSFI0(data []byte) (ShaderFeatures, error) {
	if len(data) != 8 {
		return 0, fmt.Errorf("dxbc: the SFI0 chunk is %d bytes, not 8 (one 64-bit word of D3D_SHADER_REQUIRES_* bits)", len(data))
	}
	return ShaderFeatures(binary.LittleEndian.Uint64(data)), nil
}

// ShaderFeatures reads the container's SFI0 chunk (0 without one).
func (c *Container) ShaderFeatures() (ShaderFeatures, error) {
	ch := c.Chunk("SFI0")
	if ch == nil {
		return 0, nil
	}
	return ParseSFI0(ch.Data)
}

// WithShaderFeatures adds an SFI0 chunk of f after the code (SHDR or
// SHEX), where fxc writes it, and returns the rebuilt container; f 0 adds
// nothing.
func WithShaderFeatures(bytecode []byte, f ShaderFeatures) ([]byte, error) {
	if f == 0 {
		return bytecode, nil
	}
	c, err := Parse(bytecode)
	if err != nil {
		return nil, err
	}
	var data [8]byte
	binary.LittleEndian.PutUint64(data[:], uint64(f))
	at := len(c.Chunks)
	for i, ch := range c.Chunks {
		if ch.FourCC == "SHDR" || ch.FourCC == "SHEX" {
			at = i + 1
		}
	}
	c.Chunks = append(c.Chunks[:at], append([]Chunk{{FourCC: "SFI0", Data: data[:]}}, c.Chunks[at:]...)...)
	return c.Build()
}
