package scenario

import (
	"runtime"
	"strings"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/machine"
	"d3dsim/core/trace"
)

// A hostile application: 100 devices, each creating up to 100,000 distinct
// objects (what once took 17 GB). With the scenario's default limits
// (option maxobjects=100000, sysmem=512MiB) the runtime's budget for all
// devices' objects (d3d11.DefaultMaxRuntimeObjectBytes) stops it with
// E_OUTOFMEMORY and a debug message naming the limit, and the Go heap grows
// by less than heapCeiling.
func TestManyDevicesManyObjects(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		// Native only, as TestSoak and TestShaderRoundsFlatHeap.
		t.Skip("creates some 230,000 objects")
	}
	const heapCeiling = 640 << 20
	m := machine.New(machine.Config{Seed: 1, VRAM: 256 << 20, Engines: 1, CommandBuffer: 64 << 10,
		Recycle: true, CommandLists: true, FreeThreaded: true, MaxAllocBytes: 512 << 20, MaxObjects: 100_000})
	m.Recorder().SetLimit(10_000)
	var messages []string
	m.Recorder().Subscribe(func(e *trace.Event) {
		if e.Kind == trace.Message && strings.HasPrefix(e.Msg, "D3D11 ERROR") && len(messages) < 10 {
			messages = append(messages, e.Msg)
		}
	})
	rt := m.Runtime()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	var keep []*d3d11.Query
	var failed error
	devices := 0
	for range 100 {
		dev, _, err := rt.D3D11CreateDevice("dev", d3d11.CreateDeviceDebug)
		if err != nil {
			t.Fatal(err)
		}
		devices++
		for range 100_000 {
			q, err := dev.CreateQuery("q", d3d11.QueryEvent)
			if err != nil {
				failed = err
				break
			}
			keep = append(keep, q)
		}
		if failed != nil {
			break
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	grew := int64(ms.HeapAlloc) - int64(before)
	t.Logf("%d devices, %d objects, %d bytes counted, heap grew %d MiB", devices, len(keep), rt.ObjectBytes(), grew>>20)
	if hresult.Of(failed) != hresult.E_OUTOFMEMORY || !strings.Contains(failed.Error(), "the runtime's limit") {
		t.Fatalf("stopped with %v after %d objects, want E_OUTOFMEMORY naming the runtime's limit", failed, len(keep))
	}
	if len(messages) != 1 || !strings.Contains(messages[0], "the runtime's limit of 536870912 bytes") {
		t.Errorf("debug messages %q, want one naming the limit", messages)
	}
	if grew > heapCeiling {
		t.Errorf("the heap grew by %d MiB, more than its ceiling of %d MiB", grew>>20, heapCeiling>>20)
	}
	runtime.KeepAlive(keep)
	runtime.KeepAlive(m)
}
