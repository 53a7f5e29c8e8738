package d3d11

import (
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// Feature mirrors D3D11_FEATURE.
type Feature = ddi.Feature

// FeatureField is one BOOL member of a D3D11_FEATURE_DATA_* structure.
type FeatureField struct {
	Name  string // the member, as d3d11.h names it
	Value bool
}

// CheckFeatureSupport is ID3D11Device::CheckFeatureSupport for the
// features of the Direct3D 11.0 runtime that are BOOLs
// ("D3D11_FEATURE enumeration"):
//
//   - THREADING (D3D11_FEATURE_DATA_THREADING): DriverConcurrentCreates,
//     the driver reports D3D11DDICAPS_FREETHREADED; DriverCommandLists,
//     it reports D3D11DDICAPS_COMMANDLISTS_BUILD_2 (runtime.go).
//   - DOUBLES (D3D11_FEATURE_DATA_DOUBLES): DoublePrecisionFloatShaderOps,
//     the driver's D3D11DDICAPS_SHADER_DOUBLES, which pfnGetCaps
//     (D3D11DDICAPS_SHADER) reports.
//   - D3D10_X_HARDWARE_OPTIONS: ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x,
//     the driver's D3D11DDICAPS_SHADER_COMPUTE_PLUS_RAW_AND_STRUCTURED_BUFFERS_IN_SHADER_4_X.
//
// FORMAT_SUPPORT is CheckFormatSupport's answer (ask that); the later
// features belong to the 11.1 and newer runtimes, which this device's
// 11.0 runtime refuses as it does any value it does not know:
// E_INVALIDARG.
func (d *Device) CheckFeatureSupport(f Feature) (data []FeatureField, err error) {
	done := d.api("CheckFeatureSupport", d.name, "")
	defer func() {
		var b trace.ArgBuilder
		b.Str(trace.KeyType, f.String())
		if err == nil {
			b.Str(trace.KeySupport, featureString(data))
		}
		done.ev.Args = b.Args()
		done.end(err)
	}()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	switch f {
	case ddi.FeatureThreading:
		return []FeatureField{{"DriverConcurrentCreates", d.rt.cfg.FreeThreaded}, {"DriverCommandLists", d.driverLists()}}, nil
	case ddi.FeatureDoubles, ddi.FeatureD3D10XHardwareOptions:
		caps := d.ddiIC().with(d.name, handleName(uint32(d.hDev)), strArg(trace.KeyType, "D3D11DDICAPS_SHADER")).GetCaps(d.rt.cfg.Adapter)
		if f == ddi.FeatureDoubles {
			return []FeatureField{{"DoublePrecisionFloatShaderOps", caps&ddi.ShaderCapsDoubles != 0}}, nil
		}
		return []FeatureField{{"ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x", caps&ddi.ShaderCapsComputePlusRawStructured4x != 0}}, nil
	case ddi.FeatureFormatSupport, ddi.FeatureFormatSupport2:
		return nil, d.invalid("CheckFeatureSupport", d.name, "Feature D3D11_FEATURE_%s: this runtime answers format support through CheckFormatSupport", f)
	}
	if f.String() == "?" {
		return nil, d.invalid("CheckFeatureSupport", d.name, "Feature %d is not a D3D11_FEATURE value", uint32(f))
	}
	return nil, d.invalid("CheckFeatureSupport", d.name, "Feature D3D11_FEATURE_%s belongs to a later runtime (Direct3D 11.1 or newer) than this device's 11.0 one", f)
}

// featureString is data as `expect got` and the trace read it: the
// members' values, TRUE or FALSE, in order.
func featureString(data []FeatureField) string {
	s := make([]string, len(data))
	for i, v := range data {
		s[i] = v.Name + "=" + boolName(v.Value)
	}
	return strings.Join(s, " ")
}

func boolName(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// GetCaps is the adapter's pfnGetCaps with D3D11DDICAPS_SHADER: the
// driver's shader caps, none from a driver that does not report them.
func (w ddiCall) GetCaps(a ddi.Adapter) ddi.ShaderCaps {
	sp := w.enter("GetCaps")
	var c ddi.ShaderCaps
	if r, ok := a.(ddi.ShaderCapsReporter); ok {
		c = r.ShaderCaps()
	}
	sp.end(nil)
	return c
}
