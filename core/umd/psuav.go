package umd

import (
	"encoding/binary"
	"math/bits"

	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
)

// The output merger's unordered access views (ddi.OutputMergerUAVs,
// pfnSetRenderTargets with its UAVs): the render targets and depth-stencil
// view as SetRenderTargets binds them, and the pixel stage's views, sent
// with the draw's state as SET_UAV of stage isa.StagePS (a view's bytes
// and its hidden counter, laid out as the compute stage's: compute.go).
// They are later state (gpuBindings.psUAV): a command list starts without
// them, and a context unsets them before it splices one in. An initial
// count other than ddi.NoInitialCount is written to the view's counter in
// the stream, so the draws after it start from it.

var (
	_ ddi.OutputMergerUAVs = (*immediateContext)(nil)
	_ ddi.OutputMergerUAVs = (*deferredContext)(nil)
)

// uavPacketWords is SET_UAV's size, its header and 12 words, and
// SET_UAV_SLICES' after it (4).
const uavPacketWords = 13 + 4

// pixelUAVWords is what the pixel stage's SET_UAVs take: the slots st
// binds (with st) and those g holds, two allocations each (the view's and
// its counter's).
func pixelUAVWords(g *gpuBindings, st *state) (words, allocs int) {
	m := g.psUAV
	if st != nil {
		m |= st.uavs
	}
	n := bits.OnesCount8(m)
	return n * uavPacketWords, 2 * n
}

func (d *immediateContext) SetRenderTargetsAndUAVs(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW, start uint32, uavs []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	d.busy()
	d.SetRenderTargets(h, rtvs, dsv)
	d.omSetUAVs(d, start, uavs, uavs, counts)
}

func (c *deferredContext) SetRenderTargetsAndUAVs(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW, start uint32, uavs []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	if c.stopped("SetRenderTargets") {
		return
	}
	c.context.SetRenderTargets(h, rtvs, dsv)
	ic := make([]ddi.HUNORDEREDACCESSVIEW, len(uavs))
	for i, v := range uavs {
		ic[i] = ddi.HUNORDEREDACCESSVIEW(c.icHandle(uint32(v)))
	}
	c.omSetUAVs(c, start, uavs, ic, counts)
}

// omSetUAVs binds views (the context's handles; ic the immediate
// context's, for their counters) from start, every other slot unbound.
func (c *context) omSetUAVs(rec recorder, start uint32, views, ic []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	c.st.uav, c.st.uavs = [isa.MaxUAVSlots]ddi.HUNORDEREDACCESSVIEW{}, 0
	for i, v := range views {
		k := int(start) + i
		if k >= isa.MaxUAVSlots {
			break
		}
		c.st.uav[k] = v
		if v != 0 {
			c.st.uavs |= 1 << k
		}
		if i >= len(counts) || counts[i] == ddi.NoInitialCount {
			continue
		}
		if vw, _ := c.viewRes(uint32(ic[i])); vw != nil && vw.uav != nil && vw.uav.counter != nil {
			rec.ensure(8, 1)
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], counts[i])
			c.cmd.Write(rec.ref(vw.uav.counter, true, 0), b[:])
		}
	}
	c.st.dirty = true
}

// emitPixelUAVs sends the pixel stage's views of st (the immediate
// context's handles) and unsets those the GPU holds that st does not bind.
func (c *context) emitPixelUAVs(rec recorder, st *state) {
	g := &c.onGPU
	if st.uavs == 0 && g.psUAV == 0 {
		return
	}
	b := &c.cmd
	for i := range isa.MaxUAVSlots {
		bit := uint8(1) << i
		v, r := c.viewRes(uint32(st.uav[i]))
		if v == nil || r == nil || v.uav == nil {
			if g.psUAV&bit != 0 {
				b.SetUAV(isa.UAVStageSlot(isa.StagePS, uint32(i)), isa.NullAddress, 0, 0, 0, 0, 0, 0, 0, isa.NullAddress)
				g.psUAV &^= bit
			}
			continue
		}
		u := v.uav
		counter := isa.NullAddress
		if u.counter != nil {
			counter = rec.ref(u.counter, true, 0)
		}
		b.SetUAV(isa.UAVStageSlot(isa.StagePS, uint32(i)), rec.ref(r, true, u.offset), u.kind, u.fm, u.bytes, u.stride, u.elements, u.height, u.pitch, counter)
		c.sendSlices(isa.UAVStageSlot(isa.StagePS, uint32(i)), u)
		g.psUAV |= bit
	}
}

// unsetPixelUAVs unbinds the pixel stage's views the GPU holds (room made
// by the caller: laterBindings counts them).
func (c *context) unsetPixelUAVs() {
	g := &c.onGPU
	for m := g.psUAV; m != 0; m &= m - 1 {
		i := uint32(bits.TrailingZeros8(m))
		c.cmd.SetUAV(isa.UAVStageSlot(isa.StagePS, i), isa.NullAddress, 0, 0, 0, 0, 0, 0, 0, isa.NullAddress)
	}
	g.psUAV = 0
}
