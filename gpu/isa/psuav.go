package isa

// The output merger's unordered access views. D3D11 binds a pixel shader's
// u# registers with OMSetRenderTargetsAndUnorderedAccessViews, apart from
// the compute stage's: SET_UAV's slot word says which. Its bits 0-15 are
// the slot, bits 16-23 the stage plus one, 0 there being the compute
// stage (so a stream that binds only compute views reads as before):
//
//	SET_UAV UAVStageSlot(StagePS, slot) addr(2) ...
//
// binds u# slot of the pixel stage.

// UAVStageSlot is SET_UAV's slot word for a view of stage (StageCS or
// StagePS).
func UAVStageSlot(stage, slot uint32) uint32 {
	if stage == StageCS {
		return slot
	}
	return slot | (stage+1)<<16
}

// SplitUAVStageSlot undoes UAVStageSlot.
func SplitUAVStageSlot(w uint32) (stage, slot uint32) {
	if s := w >> 16; s != 0 {
		return s - 1, w & 0xFFFF
	}
	return StageCS, w & 0xFFFF
}
