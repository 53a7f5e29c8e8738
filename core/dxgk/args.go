package dxgk

import (
	"strconv"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// The payloads of Dxgkrnl's events, written typed (trace.ArgBuilder): the
// verifier and the scenario runner read them by key.

// pagingFor is a paging buffer's payload: paging for=<the DMA buffer it
// was built for>.
func pagingFor(dma uint64) trace.Args {
	var b trace.ArgBuilder
	return b.Flag(trace.KeyPaging).Uint(trace.KeyFor, dma).Args()
}

// deviceEngine is DxgkDdiCreateContext's payload.
func deviceEngine(dev dxgkddi.HDevice, node int) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyDevice, dev.String()).Int(trace.KeyEngine, int64(node)).Args()
}

// depArgs is a dependency edge's payload.
func depArgs(h hazard, from, to uint64, res string) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyHazard, h.String()).Uint(trace.KeyFrom, from).Uint(trace.KeyTo, to).Str(trace.KeyRes, res).Args()
}

// args is the reason as a wait's payload, "res=a7 hazard=RAW fence=4 dma=6"
// (no scenario names: the name goes in the event's obj), opened by the flag
// done at the wait's end.
func (w WaitReason) args(fence, dma uint64, done bool) trace.Args {
	var b trace.ArgBuilder
	if done {
		b.Flag(trace.KeyDone)
	}
	if w != (WaitReason{}) {
		b.Str(trace.KeyRes, w.Allocation.String()).Str(trace.KeyHazard, w.Hazard).Uint(trace.KeyFence, fence).Uint(trace.KeyDMA, dma)
	}
	return b.Args()
}

// allocArgs is DxgkDdiCreateAllocation's payload.
func allocArgs(dev dxgkddi.HDevice, d *AllocationDesc) trace.Args {
	var b trace.ArgBuilder
	b.Str(trace.KeyDevice, dev.String()).Uint(trace.KeySize, d.Size).Bool(trace.KeyCPU, d.CPUVisible).Bool(trace.KeyPrimary, d.Primary)
	if s := d.Surface; !s.Empty() {
		b.Str(trace.KeySurface, strconv.FormatUint(uint64(s.Width), 10)+"x"+strconv.FormatUint(uint64(s.Height), 10)).Uint(trace.KeyPitch, uint64(s.Pitch)).Uint(trace.KeyFmt, uint64(s.Format))
	}
	return b.Args()
}

// pagingArgs is DxgkDdiBuildPagingBuffer's payload: the operation as text
// (people read it) and for=<the DMA buffer>.
func pagingArgs(a *dxgkddi.BuildPagingBufferArgs, dma uint64) trace.Args {
	var b trace.ArgBuilder
	return b.Text(a.String()).Uint(trace.KeyFor, dma).Args()
}

// doneArgs is the payload of a wait's end.
var doneArgs = trace.FlagArgs(trace.KeyDone)
