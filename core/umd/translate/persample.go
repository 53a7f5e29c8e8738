package translate

import (
	"d3dsim/gpu/shaderisa"
)

// Sample-frequency shading ("Rasterization Rules": a pixel shader that
// reads SV_SampleIndex, or declares an input with the sample
// interpolation modifier, runs once per covered sample of a multisampled
// render target, writing that sample only). The translator marks such a
// shader (Shader.PerSample, SET_PROGRAM's bit 30 in the UMD): the GPU
// then shades a triangle's pixels once a sample. SV_SampleIndex is the z
// of the rasterizer's register (rastReg: x the sample count, y the
// coverage); a linear sample input is interpolated in the ISA's centroid
// mode, which in a sample-frequency program the GPU evaluates at the
// sample being shaded (a linear centroid input of such a shader too: the
// sample is covered, as centroid asks). A noperspective sample input is
// interpolated at the pixel centre. At one sample a pixel nothing
// changes: the sample is the pixel's centre and its index 0.

// declSampleIndex is dcl_input_ps_sgv v#, sampleIndex: the register is
// read from the rasterizer's register, not interpolated.
func (t *translator) declSampleIndex(reg uint32) error {
	t.sampleIdx = reg + 1
	t.out.PerSample = true
	return nil
}

// sampleIndexSrc reads SV_SampleIndex: the rasterizer's register (its z,
// the caller's swizzle).
func (t *translator) sampleIndexSrc() (shaderisa.Operand, error) {
	reg, err := t.rastReg("SV_SampleIndex")
	if err != nil {
		return shaderisa.Operand{}, err
	}
	return shaderisa.V(reg), nil
}

// sampleInput is the ISA's mode of a linear sample input, and makes the
// shader run at sample frequency.
func (t *translator) sampleInput() shaderisa.Interp {
	t.out.PerSample = true
	return shaderisa.InterpCentroid
}
