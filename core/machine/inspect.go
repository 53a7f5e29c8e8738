package machine

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/umd"
	"d3dsim/gpu"
	"d3dsim/gpu/isa"
)

// The inspector's door (core/inspect): what it reads below the API and the
// hooks it sets. None of it changes the run: the reads take no lock the
// application would see and write no event; the hooks only watch.

// DMAInfo is a DMA buffer as the KMD wrote it (ObserveDMA).
type DMAInfo = dxgk.DMAInfo

// AllocationInfo is where an allocation lives (Allocation).
type AllocationInfo = dxgk.AllocationInfo

// Pixel watch types (SetPixelWatch).
type (
	PixelWatch  = gpu.PixelWatch
	PixelEvent  = gpu.PixelEvent
	Fragment    = gpu.Fragment
	BlendRecord = gpu.BlendRecord
)

// ObserveDMA has fn see every DMA buffer DxgkDdiRender and DxgkDdiPresent
// write, on the submitting thread (nil: none).
func (m *Machine) ObserveDMA(fn func(DMAInfo)) { m.kernel.ObserveDMA(fn) }

// Allocations are the kernel allocations behind a resource, the newest
// last (a resource renamed by Map(WRITE_DISCARD) has its instances on its
// allocation's renaming list, AllocationInfo.Instances).
func (m *Machine) Allocations(res *d3d11.Resource) []uint32 {
	var out []uint32
	for _, a := range res.Device().Allocations(res) {
		out = append(out, uint32(a))
	}
	return out
}

// Allocation answers where kernel allocation h lives now.
func (m *Machine) Allocation(h uint32) (AllocationInfo, bool) {
	return m.kernel.AllocationInfo(dxgk.HAllocation(h))
}

// Peek copies n bytes of GPU memory at addr as they are now, without a
// lock or a wait (false: not committed).
func (m *Machine) Peek(addr, n uint64) ([]byte, bool) { return m.kernel.Peek(addr, n) }

// ShaderTrace is one quad's record through a program (a Fragment's, a
// ShaderWatch's).
type ShaderTrace = gpu.ShaderTrace

// ShaderWatch is the GPU's request to trace one vertex or compute thread
// (SetShaderWatch).
type ShaderWatch = gpu.ShaderWatch

// SetShaderWatch sets the GPU's shader watch (nil: none).
func (m *Machine) SetShaderWatch(w *ShaderWatch) { m.gpu.SetShaderWatch(w) }

// SetPixelWatch sets the GPU's pixel watch (nil: none).
func (m *Machine) SetPixelWatch(w *PixelWatch) { m.gpu.SetPixelWatch(w) }

// DrawCharge is what a draw charged for its pixels (SetDrawLog).
type DrawCharge = gpu.DrawCharge

// SetDrawLog has the GPU hand every draw's charge, by DMA buffer and
// packet word, to f (nil: none): what a clipped pixel watch replays.
func (m *Machine) SetDrawLog(f func(dma uint64, word int, c DrawCharge)) { m.gpu.SetDrawLog(f) }

// Recording is where dev's immediate context stands in its command
// buffers (umd.Device.Recording): the kernel context it submits to, the
// buffers submitted and the words of the one being filled. ok is false
// for a driver that does not say.
func Recording(dev *d3d11.Device) (hctx uint32, submits uint64, words int, ok bool) {
	u, ok := dev.UMD().(interface {
		Recording() (ddi.HCONTEXT, uint64, int)
	})
	if !ok {
		return 0, 0, 0, false
	}
	h, s, w := u.Recording()
	return uint32(h), s, w, true
}

// GPUFormat is the GPU's surface format of a DXGI format (the one the
// driver gives its surfaces and views).
func GPUFormat(f d3d11.Format) isa.Format { return umd.GPUFormat(f) }

// AllocationEntry is one entry of a UMD command buffer's allocation list.
type AllocationEntry = ddi.AllocationListEntry

// Pending is a copy of dev's immediate context's command buffer as it
// stands (not yet submitted) and its allocation list (nil: the driver does
// not say).
func Pending(dev *d3d11.Device) ([]uint32, []AllocationEntry) {
	u, ok := dev.UMD().(interface {
		Pending() ([]uint32, []ddi.AllocationListEntry)
	})
	if !ok {
		return nil, nil
	}
	return u.Pending()
}
