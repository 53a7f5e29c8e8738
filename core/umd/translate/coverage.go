package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// SV_Coverage ("Semantics", HLSL reference: SV_Coverage). As a pixel
// shader's input (dcl_input vCoverage) it is the pixel's covered samples, a
// bit a sample; the GPU gives it in the y of the rasterizer's register, the
// input past the declared ones that also holds the render target's sample
// count (Shader.SampleCountReg: x). As an output (dcl_output oMask) the
// program writes a mask to ISA output shaderisa.CoverageOutput, which the
// output merger ANDs with the pixel's coverage and the sample mask: a
// sample whose bit is clear is not written (at one sample, bit 0 clear
// discards the pixel).

// rastReg is the ISA input register of the rasterizer's values, given one
// past the declared inputs at its first use (instructions follow every
// declaration).
func (t *translator) rastReg(what string) (uint32, error) {
	if t.out.SampleCountReg == 0 {
		if t.inputs >= shaderisa.MaxInputs {
			return 0, t.fail("%s: the rasterizer's values need an input register past the %d the shader declares", what, t.inputs)
		}
		t.out.SampleCountReg = t.inputs + 1
		t.inputs++
	}
	return t.out.SampleCountReg - 1, nil
}

// declCoverageIn is dcl_input vCoverage.
func (t *translator) declCoverageIn(in *dxbc.Instruction) error {
	if t.out.Stage != shaderisa.StagePixel {
		return t.fail("%s of vCoverage in a %s shader: SV_Coverage is a pixel shader's", in.Op, t.out.Stage)
	}
	t.covIn = true
	return nil
}

// coverageSrc reads vCoverage: the rasterizer's register (its y, the
// caller's swizzle).
func (t *translator) coverageSrc() (shaderisa.Operand, error) {
	if !t.covIn {
		return shaderisa.Operand{}, t.fail("vCoverage is not declared")
	}
	reg, err := t.rastReg("vCoverage")
	if err != nil {
		return shaderisa.Operand{}, err
	}
	return shaderisa.V(reg), nil
}

// declCoverageOut is a pixel shader's dcl_output oMask.
func (t *translator) declCoverageOut() error {
	const o = shaderisa.CoverageOutput
	t.outs[o] = true
	t.outputs = max(t.outputs, o+1)
	t.out.Outputs = append(t.out.Outputs, Output{Reg: o, ISA: o, Mask: 1, SystemValue: dxbc.SVCoverage})
	return nil
}

// coverageDst writes oMask: CoverageOutput.x.
func (t *translator) coverageDst() (shaderisa.Operand, bool, error) {
	if !t.outs[shaderisa.CoverageOutput] || t.out.Stage != shaderisa.StagePixel {
		return shaderisa.Operand{}, false, t.fail("oMask is not declared")
	}
	r := shaderisa.O(shaderisa.CoverageOutput)
	r.Mask = 1
	return r, true, nil
}
