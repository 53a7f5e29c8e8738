package main

import (
	"d3dsim/core/trace"
)

// Synthetic traces load the panel with as many events as a test wants (the
// timeline must stay smooth with 1,000,000 events) without running a
// scenario for minutes. Events are made on demand from their index, so a
// million of them never sit in Go memory at once: only the batch being sent.
// The pattern is one frame of a real run (a Draw, a Present whose
// PresentDXGI submits it with pfnRenderCb down to DxgkDdiRender, the
// kernel's patch and submit, the GPU's DMA buffer, the
// interrupt, the DPC, a Map waiting for the fence, a dependency edge),
// repeated, alternating between two GPU engines.

// synthFrame is one frame's events; seq and parent are relative to the
// frame's first event (1-based), t to its start.
var synthFrame = []trace.Event{
	{T: 0, Thread: "main", From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: "Draw", Ctx: "IC", Line: 10},
	{T: 80, Thread: "main", From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: "Draw", Ctx: "IC", Line: 10, Parent: 1},
	{T: 400, Thread: "main", From: trace.Runtime, Layer: trace.UMD, Kind: trace.Return, Name: "Draw", Ctx: "IC", HR: "S_OK", Line: 10},
	{T: 450, Thread: "main", From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: "Draw", Ctx: "IC", HR: "S_OK", Line: 10},
	{T: 600, Thread: "main", From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: "Present", Ctx: "IC", Obj: "sc", Line: 11},
	{T: 680, Thread: "main", From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: "PresentDXGI", Ctx: "IC", Obj: "sc", Line: 11, Parent: 5},
	{T: 1080, Thread: "main", From: trace.UMD, Layer: trace.Runtime, Kind: trace.Call, Name: "pfnRenderCb", Ctx: "IC", Line: 11, Parent: 6},
	{T: 2080, Thread: "main", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiRender", Handle: "kc1", Line: 11, Parent: 7},
	{T: 2380, Thread: "main", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiRender", Handle: "kc1", HR: "STATUS_SUCCESS", Line: 11, Parent: 7},
	{T: 2400, Thread: "main", From: trace.UMD, Layer: trace.Runtime, Kind: trace.Return, Name: "pfnRenderCb", Ctx: "IC", HR: "S_OK", Line: 11, Parent: 6},
	{T: 2480, Thread: "main", From: trace.Runtime, Layer: trace.UMD, Kind: trace.Return, Name: "PresentDXGI", Ctx: "IC", HR: "S_OK", Line: 11, Parent: 5},
	{T: 2500, Thread: "main", From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: "Present", Ctx: "IC", HR: "S_OK", Line: 11},
	{T: 2550, Thread: "main", From: trace.Dxgkrnl, Layer: trace.Dxgkrnl, Kind: trace.Wait, Name: "WaitForFence", Obj: "vb", Msg: "Map(READ) waits for the GPU's write (RAW)", Line: 12},
	{T: 2600, Thread: "kernel", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiPatch", Handle: "kc1", Line: 11},
	{T: 2900, Thread: "kernel", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiPatch", Handle: "kc1", HR: "STATUS_SUCCESS", Line: 11},
	{T: 2950, Thread: "kernel", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiSubmitCommand", Handle: "kc1", Line: 11},
	{T: 3250, Thread: "kernel", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiSubmitCommand", Handle: "kc1", HR: "STATUS_SUCCESS", Line: 11},
	{T: 3300, Thread: "kernel", From: trace.Dxgkrnl, Layer: trace.Dxgkrnl, Kind: trace.Dep, Name: "Dependency", Args: synthHazard, Line: 11},
	{T: 3400, Thread: "gpu0", From: trace.KMD, Layer: trace.GPU, Kind: trace.Exec, Name: "DmaBufferStart", Args: trace.IntArg(trace.KeyPackets, 14), Line: 11},
	{T: 9400, Thread: "gpu0", From: trace.KMD, Layer: trace.GPU, Kind: trace.Fence, Name: "FenceWrite", Line: 11},
	{T: 9400, Thread: "gpu0", From: trace.KMD, Layer: trace.GPU, Kind: trace.Interrupt, Name: "Interrupt", Line: 11},
	{T: 9600, Thread: "isr", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiInterruptRoutine", Args: trace.IntArg(trace.KeyEngine, 0), Line: 11},
	{T: 9950, Thread: "isr", From: trace.KMD, Layer: trace.Dxgkrnl, Kind: trace.Call, Name: "DxgkCbNotifyInterrupt", Line: 11, Parent: 22},
	{T: 9950, Thread: "isr", From: trace.KMD, Layer: trace.Dxgkrnl, Kind: trace.Return, Name: "DxgkCbNotifyInterrupt", HR: "STATUS_SUCCESS", Line: 11, Parent: 22},
	{T: 10000, Thread: "isr", From: trace.KMD, Layer: trace.Dxgkrnl, Kind: trace.Call, Name: "DxgkCbQueueDpc", Line: 11, Parent: 22},
	{T: 10000, Thread: "isr", From: trace.KMD, Layer: trace.Dxgkrnl, Kind: trace.Return, Name: "DxgkCbQueueDpc", HR: "STATUS_SUCCESS", Line: 11, Parent: 22},
	{T: 10000, Thread: "isr", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiInterruptRoutine", HR: "STATUS_SUCCESS", Line: 11},
	{T: 10800, Thread: "dpc", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiDpcRoutine", Line: 11},
	{T: 11100, Thread: "dpc", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiDpcRoutine", HR: "STATUS_SUCCESS", Line: 11},
	{T: 11100, Thread: "dpc", From: trace.Dxgkrnl, Layer: trace.Dxgkrnl, Kind: trace.Fence, Name: "FenceSignaled", Handle: "kc1", Line: 11},
	{T: 11200, Thread: "main", From: trace.Dxgkrnl, Layer: trace.Dxgkrnl, Kind: trace.Wait, Name: "WaitForFence", Obj: "vb", Args: trace.FlagArgs(trace.KeyDone), Line: 12},
}

// synthPeriod is the virtual time of one synthetic frame: the GPU work of
// consecutive frames overlaps a little across the two engines.
const synthPeriod = 12000

// syntheticEvents returns events [from, from+n) of a synthetic trace of total
// events (fewer at the end).
func syntheticEvents(from, n, total int) []trace.Event {
	if from < 0 {
		from = 0
	}
	end := min(from+n, total)
	if end <= from {
		return nil
	}
	out := make([]trace.Event, 0, end-from)
	k := len(synthFrame)
	for i := from; i < end; i++ {
		f, j := i/k, i%k
		e := synthFrame[j]
		base := uint64(f * k)
		e.Seq = base + uint64(j) + 1
		if e.Parent != 0 {
			e.Parent += base
		}
		e.T += int64(f) * synthPeriod
		dma, fence := uint64(f+1), uint64(f+1)
		switch e.Name {
		case "DxgkDdiRender", "DxgkDdiPatch", "DxgkDdiSubmitCommand", "DmaBufferStart", "FenceWrite", "Interrupt", "DxgkCbNotifyInterrupt", "FenceSignaled":
			e.DMA = dma
			if e.Name != "DxgkDdiRender" {
				e.Fence = fence
			}
		case "WaitForFence":
			e.Fence = fence
		case "Dependency":
			e.DMA = dma
			if f > 0 {
				var b trace.ArgBuilder
				e.Args = b.Str(trace.KeyHazard, "RAW").Int(trace.KeyAfter, int64(f)).Args()
			}
		}
		if f%2 == 1 && e.Thread == "gpu0" {
			e.Thread = "gpu1"
		}
		out = append(out, e)
	}
	return out
}

// synthHazard is the synthetic dependency's payload.
var synthHazard = func() trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyHazard, "RAW").Args()
}()
