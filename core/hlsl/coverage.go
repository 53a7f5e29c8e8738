package hlsl

import "d3dsim/core/dxbc"

// SV_Coverage ("Semantics", HLSL reference): a pixel shader's uint input is
// the pixel's covered samples (vCoverage), its uint output a mask ANDed with
// them (oMask). Neither is a v# or o#: the IR names both register
// coverageReg of the input and output files, past the 32 registers a
// signature has, and the encoder writes them as DXBC's vCoverage and oMask
// (one component each), declared with dcl_input vCoverage and dcl_output
// oMask. fxc lists the output in the output signature with no register and
// the input in no signature; so does this compiler.

// coverageReg is the IR register of vCoverage and oMask.
const coverageReg = 48

// coverageOperand is vCoverage (in) or oMask.
func coverageOperand(in bool) dxbc.Operand {
	if in {
		return dxbc.Operand{Type: dxbc.RegInputCoverageMask, Components: 1}
	}
	return dxbc.Operand{Type: dxbc.RegOutputCoverageMask, Components: 1}
}

// coverageSig is SV_Coverage's signature value: a pixel shader's scalar
// uint (or int) input or output.
func (g *gen) coverageSig(p pos, t *Type, el SigElement, file File, input bool) (*value, []SigElement) {
	if g.stage != Pixel || t.Cols != 1 || t.Kind != KScalar && t.Kind != KVector || t.Base == Float {
		g.errorf(p, eNotImplemented, "SV_Coverage is a pixel shader's input or output of type uint")
		return poison, nil
	}
	el.SysVal, el.Register, el.Mask = SysCoverage, coverageReg, 1
	v := &value{t: t, c: regComps(file, coverageReg, 1), ro: input}
	return v, []SigElement{el}
}
