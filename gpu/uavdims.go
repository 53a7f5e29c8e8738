package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
)

// setUAVSlices runs SET_UAV_SLICES: the view bound at the slot (an array
// or 3D texture view) has depth slices slicePitch bytes apart.
func (ex *executor) setUAVSlices(p isa.Packet) {
	a := p.Args
	stage, slot := isa.SplitUAVStageSlot(a[0])
	if slot >= isa.MaxUAVSlots || (stage != isa.StageCS && stage != isa.StagePS) {
		ex.fault("slot %d of stage %d: u0..u%d of the compute or the pixel stage", slot, stage, isa.MaxUAVSlots-1)
		return
	}
	u := &ex.st.uav[slot]
	if stage == isa.StagePS {
		u = &ex.st.psUAV[slot]
	}
	if !u.bound {
		ex.fault("u%d is not bound", slot)
		return
	}
	ex.uavSlices(&u.view, a[1], a[2])
}

// uavSlices gives v depth slices slicePitch apart, inside its memory; a
// fault (and v unchanged) otherwise.
func (ex *executor) uavSlices(v *shader.UAV, depth, slicePitch uint32) bool {
	switch {
	case depth <= 1 && slicePitch == 0:
		return true
	case v.Kind != isa.ViewTex1DArray && v.Kind != isa.ViewTex2DArray && v.Kind != isa.ViewTex3D:
		ex.fault("%d slices of a %s view: slices are an array's or a 3D texture's", depth, isa.ViewKindName(v.Kind))
		return false
	case depth == 0 || depth > maxDim:
		ex.fault("%d slices: 1..%d", depth, maxDim)
		return false
	}
	one := uint64(v.Pitch)*uint64(v.Height-1) + uint64(v.Width)*uint64(v.Stride)
	if uint64(slicePitch) < one || uint64(slicePitch)*uint64(depth-1)+one > uint64(len(v.Mem)) {
		ex.fault("%d slices %d bytes apart, each of %d bytes, in a view of %d bytes", depth, slicePitch, one, len(v.Mem))
		return false
	}
	v.Depth, v.SlicePitch = depth, slicePitch
	return true
}
