package ddi

// Device features the runtime asks the driver about (pfnGetCaps of
// D3D10_2DDI_ADAPTERFUNCS) to answer ID3D11Device::CheckFeatureSupport.

// Feature is D3D11_FEATURE, CheckFeatureSupport's first parameter.
type Feature uint32

// The D3D11_FEATURE values of the Direct3D 11.0 runtime, and the 11.1
// ones a program may ask (the 11.0 runtime refuses those: E_INVALIDARG).
const (
	FeatureThreading             Feature = 0
	FeatureDoubles               Feature = 1
	FeatureFormatSupport         Feature = 2
	FeatureFormatSupport2        Feature = 3
	FeatureD3D10XHardwareOptions Feature = 4
	FeatureD3D11Options          Feature = 5
	FeatureArchitectureInfo      Feature = 6
	FeatureD3D9Options           Feature = 7
	FeatureShaderMinPrecision    Feature = 8
	FeatureD3D9ShadowSupport     Feature = 9
	FeatureD3D11Options1         Feature = 10
	FeatureD3D9SimpleInstancing  Feature = 11
	FeatureMarkerSupport         Feature = 12
	FeatureD3D9Options1          Feature = 13
	FeatureD3D11Options2         Feature = 14
	FeatureD3D11Options3         Feature = 15
	FeatureGPUVirtualAddress     Feature = 16
	FeatureD3D11Options4         Feature = 17
	FeatureShaderCache           Feature = 18
	FeatureD3D11Options5         Feature = 19
	numFeatures                  Feature = 20
)

var featureNames = [numFeatures]string{"THREADING", "DOUBLES", "FORMAT_SUPPORT", "FORMAT_SUPPORT2",
	"D3D10_X_HARDWARE_OPTIONS", "D3D11_OPTIONS", "ARCHITECTURE_INFO", "D3D9_OPTIONS", "SHADER_MIN_PRECISION_SUPPORT",
	"D3D9_SHADOW_SUPPORT", "D3D11_OPTIONS1", "D3D9_SIMPLE_INSTANCING_SUPPORT", "MARKER_SUPPORT", "D3D9_OPTIONS1",
	"D3D11_OPTIONS2", "D3D11_OPTIONS3", "GPU_VIRTUAL_ADDRESS_SUPPORT", "D3D11_OPTIONS4", "SHADER_CACHE", "D3D11_OPTIONS5"}

// String is the scenario spelling (D3D11_FEATURE_ without the prefix).
func (f Feature) String() string {
	if f < numFeatures {
		return featureNames[f]
	}
	return "?"
}

func init() {
	m := map[string]uint32{}
	for i, n := range featureNames {
		m[n] = uint32(i)
	}
	Enums["Feature"] = m
}

// ShaderCaps is D3D11DDI_SHADER_CAPS' Caps: what the driver's shader
// units do beyond the feature level's minimum, the answer to pfnGetCaps
// with D3D11DDICAPS_SHADER.
type ShaderCaps uint32

const (
	// ShaderCapsDoubles is D3D11DDICAPS_SHADER_DOUBLES: the shader model
	// 5 double-precision instructions (dadd ... ftod), which the runtime
	// reports as D3D11_FEATURE_DATA_DOUBLES' DoublePrecisionFloatShaderOps.
	ShaderCapsDoubles ShaderCaps = 0x1
	// ShaderCapsComputePlusRawStructured4x is
	// D3D11DDICAPS_SHADER_COMPUTE_PLUS_RAW_AND_STRUCTURED_BUFFERS_IN_SHADER_4_X:
	// cs_4_x with raw and structured buffers
	// (D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS).
	ShaderCapsComputePlusRawStructured4x ShaderCaps = 0x2
)

// ShaderCapsReporter is the adapter's pfnGetCaps for D3D11DDICAPS_SHADER.
// A driver without it reports none of the caps.
type ShaderCapsReporter interface {
	ShaderCaps() ShaderCaps
}
