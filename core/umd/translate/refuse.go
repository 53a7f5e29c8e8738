package translate

import "d3dsim/core/dxbc"

// What the GPU cannot run is refused by the instruction's name and the
// feature it belongs to, in the words of the D3D11 documentation, so that
// the message tells the application what to avoid (or which feature to
// ask for first): "dcl_uav_typed: unordered access views ...", never an
// opcode number.

const (
	featUAV = "unordered access views (RWTexture*, RWBuffer, RWStructuredBuffer, RWByteAddressBuffer, " +
		"AppendStructuredBuffer) outside a compute or pixel shader: this GPU binds them to the compute and pixel stages only"
	featCS      = "thread groups, groupshared memory and barriers outside a compute shader"
	featGS      = "geometry-shader instructions (input primitive, streams, emit and cut) outside a geometry shader"
	featTess    = "hull-shader phases and tessellator declarations outside a hull or domain shader"
	featIface   = "dynamic shader linkage (interfaces and class instances): not supported by this GPU's ISA"
	featEval    = "EvaluateAttributeSnapped (eval_snapped, an offset from the pixel's centre): not supported by this GPU"
	featDebug   = "shader debugging instructions (abort, debug_break): not supported by this GPU"
	feat11_1    = "a Direct3D 11.1 instruction: this device is feature level 11_0"
	featUnknown = "not an instruction this GPU's driver knows"
)

// refusals is why each DXBC instruction the translator does not take is
// refused: the feature, and that this GPU lacks it. A compute shader
// takes the featUAV and featCS instructions (computeOps), a geometry
// shader the featGS ones (geometryOps), hull and domain shaders the
// featTess ones (tessOps).
var refusals = map[dxbc.Opcode]string{
	dxbc.OpDclUAVTyped: featUAV, dxbc.OpDclUAVRaw: featUAV, dxbc.OpDclUAVStructured: featUAV,
	dxbc.OpLdUAVTyped: featUAV, dxbc.OpStoreUAVTyped: featUAV, dxbc.OpStoreRaw: featUAV, dxbc.OpStoreStructured: featUAV,
	dxbc.OpAtomicAnd: featUAV, dxbc.OpAtomicOr: featUAV, dxbc.OpAtomicXor: featUAV, dxbc.OpAtomicCmpStore: featUAV,
	dxbc.OpAtomicIadd: featUAV, dxbc.OpAtomicImax: featUAV, dxbc.OpAtomicImin: featUAV, dxbc.OpAtomicUmax: featUAV,
	dxbc.OpAtomicUmin: featUAV, dxbc.OpImmAtomicAlloc: featUAV, dxbc.OpImmAtomicConsume: featUAV,
	dxbc.OpImmAtomicIadd: featUAV, dxbc.OpImmAtomicAnd: featUAV, dxbc.OpImmAtomicOr: featUAV, dxbc.OpImmAtomicXor: featUAV,
	dxbc.OpImmAtomicExch: featUAV, dxbc.OpImmAtomicCmpExch: featUAV, dxbc.OpImmAtomicImax: featUAV,
	dxbc.OpImmAtomicImin: featUAV, dxbc.OpImmAtomicUmax: featUAV, dxbc.OpImmAtomicUmin: featUAV,

	dxbc.OpDclThreadGroup: featCS, dxbc.OpDclTGSMRaw: featCS, dxbc.OpDclTGSMStructured: featCS, dxbc.OpSync: featCS,

	dxbc.OpDclStream: featGS, dxbc.OpDclMaxOutputVertexCount: featGS, dxbc.OpDclInputPrimitive: featGS,
	dxbc.OpDclOutputTopology: featGS, dxbc.OpDclGSInstanceCount: featGS, dxbc.OpEmit: featGS, dxbc.OpCut: featGS,
	dxbc.OpEmitThenCut: featGS, dxbc.OpEmitStream: featGS, dxbc.OpCutStream: featGS, dxbc.OpEmitThenCutStream: featGS,

	dxbc.OpHSDecls: featTess, dxbc.OpHSControlPointPhase: featTess, dxbc.OpHSForkPhase: featTess,
	dxbc.OpHSJoinPhase: featTess, dxbc.OpDclInputControlPointCount: featTess, dxbc.OpDclOutputControlPointCount: featTess,
	dxbc.OpDclTessDomain: featTess, dxbc.OpDclTessPartitioning: featTess, dxbc.OpDclTessOutputPrimitive: featTess,
	dxbc.OpDclHSMaxTessFactor: featTess, dxbc.OpDclHSForkPhaseInstanceCount: featTess,
	dxbc.OpDclHSJoinPhaseInstanceCount: featTess,

	dxbc.OpDdiv: feat11_1, dxbc.OpDfma: feat11_1, dxbc.OpDrcp: feat11_1, dxbc.OpMsad: feat11_1,
	dxbc.OpDtoi: feat11_1, dxbc.OpDtou: feat11_1, dxbc.OpItod: feat11_1, dxbc.OpUtod: feat11_1,

	dxbc.OpDclFunctionBody: featIface, dxbc.OpDclFunctionTable: featIface, dxbc.OpDclInterface: featIface,
	dxbc.OpInterfaceCall: featIface,
	dxbc.OpEvalSnapped:   featEval,
	dxbc.OpAbort:         featDebug, dxbc.OpDebugBreak: featDebug,
}

// refuse fails the current instruction with its feature.
func (t *translator) refuse(op dxbc.Opcode) error {
	why, ok := refusals[op]
	if !ok {
		why = featUnknown
	}
	return t.fail("%s: %s", op, why)
}
