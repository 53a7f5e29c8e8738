package d3d11

import "d3dsim/core/ddi"

// restoreLater sets again what restore's older calls leave out: the
// compute shader and its unordered access views (their hidden counters
// kept, UAVInitialCounts -1) and the stream-output targets, appending at
// each buffer's filled size (offset -1: SOGetTargets gives no offsets, and
// the targets go on where the context's stream left them), as
// ExecuteCommandList's RestoreContextState and FinishCommandList's
// RestoreDeferredContextState keep the whole state.
func (c *DeviceContext) restoreLater(b binding) {
	if b.cs != nil && b.cs.Alive() {
		c.CSSetShader(b.cs)
	}
	for i, v := range b.uav {
		if v != nil && v.Alive() {
			c.CSSetUnorderedAccessViews(uint32(i), []*View{v}, []uint32{ddi.NoInitialCount})
		}
	}
	n := 0
	for i, r := range b.so {
		if r != nil && r.Alive() {
			n = i + 1
		}
	}
	if n == 0 {
		return
	}
	bufs, offs := make([]*Resource, n), make([]uint32, n)
	for i := range n {
		if r := b.so[i]; r != nil && r.Alive() {
			bufs[i] = r
		}
		offs[i] = ^uint32(0)
	}
	c.SOSetTargets(bufs, offs)
}
