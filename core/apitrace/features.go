package apitrace

import (
	"d3dsim/core/ddi"
	"d3dsim/core/scenario"
)

// CheckFeatureSupport both ways, with d3d11.h's signature: the feature,
// then pFeatureSupportData, the D3D11_FEATURE_DATA_* structure of that
// feature (a polymorphic output, as apitrace's spec has it), and its
// size. The run's answer is the record's Data, bit i for the structure's
// i-th BOOL.

var (
	fnCheckFeature = method("ID3D11Device", "CheckFeatureSupport", "Feature", "pFeatureSupportData", "FeatureSupportDataSize")
	sigFeature     = func() *EnumSig {
		var names []string
		for f := ddi.Feature(0); f.String() != "?"; f++ {
			names = append(names, f.String())
		}
		return seqEnum("D3D11_FEATURE_", 0, names...)
	}()
	// featureData are the structures of the features the runtime answers.
	featureData = map[ddi.Feature]*StructSig{
		ddi.FeatureThreading: structSig("D3D11_FEATURE_DATA_THREADING", "DriverConcurrentCreates", "DriverCommandLists"),
		ddi.FeatureDoubles:   structSig("D3D11_FEATURE_DATA_DOUBLES", "DoublePrecisionFloatShaderOps"),
		ddi.FeatureD3D10XHardwareOptions: structSig("D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS",
			"ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x"),
	}
)

func featureRows() []*row {
	return []*row{custom(dev, "CheckFeatureSupport", "device", "CheckFeatureSupport", fnCheckFeature, expCheckFeature, impCheckFeature)}
}

func expCheckFeature(e *Exporter, th uint64, r *scenario.CallRecord) {
	f := ddi.Feature(bitsArg(r, "FEATURE", 0))
	var out []Arg
	size := uint64(4)
	if sig := featureData[f]; sig != nil {
		size = uint64(4 * len(sig.Members))
		if succeeded(r) {
			m := make([]Value, len(sig.Members))
			for i := range m {
				m[i] = EnumV(sigBOOL, int64(r.Data>>i&1))
			}
			out = []Arg{{2, ArrayV(StructV(sig, m...))}}
		}
	}
	e.write(th, fnCheckFeature, []Arg{e.this(r), {1, EnumV(sigFeature, int64(f))}, {3, UintV(size)}}, out, hr(r), 0)
}

func impCheckFeature(m *importer, c *Call, d *object) error {
	f, _, err := m.scenarioEnumArg(c.Arg("Feature"), sigFeature, "Feature", "Feature")
	if err != nil {
		return err
	}
	m.emit(c, m.ref(d)+".CheckFeatureSupport "+f, hrOf(c))
	return nil
}
