package verify

import (
	"strings"

	"d3dsim/core/trace"
)

// Dispatch: each event goes only to the checks that can do
// something with it. A check's mask says which events those are: a superset
// of the conditions under which it reads or changes its state or reports a
// violation — by the event's name (names, once per distinct name) and by its
// other fields (generic). A check that is not called for an event would
// have done nothing with it; TestDispatchSame runs every scenario and every
// bug switch both ways and compares the violations.

const (
	ckFlow      = 1 << iota // event's switch, WDDM-FULL, WDDM-ISOLATE
	ckClose                 // closeCall (returns)
	ckMapHazard             // mapHazard
	ckDangling              // dangling
	ckCL2                   // commandLists2
	ckCLExec                // commandListExec
	ckSizes                 // sizes
	ckCL                    // commandLists
	ckAm                    // amortize, amortizeDC
	ckDestroy               // destruction
	ckCallbacks             // callbacks
	ckAsync                 // async
	ckFT                    // freeThreading
	ckSync                  // syncDestroy
	ckAll       = 1<<iota - 1
)

// byName lists the names each check tests for.
var byName = map[string]uint32{
	"D3D11CreateDevice":       ckFlow,
	"DxgkDdiCreateDevice":     ckFlow | ckAsync,
	"CreateDevice":            ckFlow | ckCL,
	"pfnCreateContextCb":      ckFlow,
	"CreateResource":          ckFlow | ckClose | ckMapHazard | ckDestroy,
	"pfnAllocateCb":           ckFlow | ckClose,
	"DxgkDdiCreateAllocation": ckFlow,
	"DxgkDdiRender":           ckFlow | ckClose | ckMapHazard,
	"DxgkDdiPresent":          ckFlow | ckClose | ckMapHazard,
	"DxgkDdiPatch":            ckFlow,
	"DxgkDdiSubmitCommand":    ckFlow,
	"DxgkDdiInterruptRoutine": ckFlow | ckClose,
	"DxgkCbNotifyInterrupt":   ckFlow,
	"DxgkCbQueueDpc":          ckFlow,
	"DxgkDdiDpcRoutine":       ckFlow | ckClose,
	"DxgkCbNotifyDpc":         ckFlow,
	"GpuFault":                ckFlow,
	"NonResidentAccess":       ckFlow,
	"PatchOutsideAllocation":  ckFlow,
	"pfnRenderCb":             ckFlow | ckAm | ckCallbacks,
	"pfnPresentCb":            ckFlow | ckAm | ckCallbacks,
	"PresentDXGI":             ckFlow | ckClose,

	"ResourceMap":                     ckMapHazard,
	"DynamicIABufferMapDiscard":       ckMapHazard,
	"DynamicIABufferMapNoOverwrite":   ckMapHazard,
	"DynamicConstantBufferMapDiscard": ckMapHazard,
	"DynamicResourceMapDiscard":       ckMapHazard,
	"StagingResourceMap":              ckMapHazard,
	"FenceSignaled":                   ckMapHazard,
	"FenceCancelled":                  ckMapHazard,
	"DmaBufferDropped":                ckMapHazard | ckAsync,
	"pfnLockCb":                       ckMapHazard,

	"pfnSetErrorCb":                ckCL2 | ckCL,
	"AbandonCommandList":           ckCL2,
	"RecycleCreateDeferredContext": ckCL2 | ckCL,
	"CreateDeferredContext":        ckCL2,
	"CreateCommandList":            ckCL2 | ckCL,
	"RecycleCreateCommandList":     ckCL2 | ckCL,
	"DestroyCommandList":           ckCL2 | ckCL,
	"RecycleDestroyCommandList":    ckCL2 | ckCL,

	"Release":               ckCL2, // a deferred context's end (CL-DESTROY)
	"DeferredContextState":  ckCL2, // a released deferred context kept for recycling (CL-CLOSE, CL-ABANDON)
	"CommandListExecute":    ckCLExec | ckCL | ckAm,
	"IaSetVertexBuffers":    ckCLExec,
	"pfnStateIaVertexBufCb": ckCLExec,

	"CheckDeferredContextHandleSizes": ckSizes | ckCL,
	"CalcDeferredContextHandleSize":   ckSizes | ckCL,
	"CalcPrivateCommandListSize":      ckSizes,

	"FinishCommandList":  ckCL | ckAm,
	"RecycleCommandList": ckCL,
	"QueryBegin":         ckCL,
	"QueryEnd":           ckCL,
	"DriverCaps":         ckCL | ckFT,

	"pfnPerformAmortizedProcessingCb": ckAm,

	"DestroyResource": ckDestroy,
	"pfnDeallocateCb": ckDestroy,
	"Flush":           ckDestroy,
	"DestroyDevice":   ckDestroy,

	"pfnSetDisplayModeCb": ckCallbacks,

	"DmaBufferStart": ckAsync,
	"DeviceRemoved":  ckAsync,

	"DeviceFuncsWrite": ckFT,

	"ReleasedWhileBound":        ckSync | ckDangling,
	"StateShared":               ckDangling | ckSync,
	"DxgkDdiDestroyAllocation":  ckSync,
	"DestroyAllocationDeferred": ckSync,
	"ClearState":                ckSync,
}

// nameChecks is the mask of the checks that test for this name, exactly or
// by its prefix.
func nameChecks(name string) uint32 {
	m := byName[name]
	if strings.HasPrefix(name, "Create") || strings.HasPrefix(name, "Recycle") {
		m |= ckCL
	}
	if strings.HasPrefix(name, "Destroy") {
		m |= ckCL | ckSync
	}
	if strings.HasPrefix(name, "pfn") {
		m |= ckAsync // a callback names its device
	}
	if refreshOf[name] != "" || isRefresh(name) {
		m |= ckCLExec // CL-EXEC follows every state refresh and what it refreshes
	}
	return m
}

// names caches nameChecks per distinct name; most events repeat the last
// name (the same interned string: a pointer compare).
type names struct {
	m        map[string]uint32
	lastName string
	last     uint32
	ok       bool
}

func (n *names) of(name string) uint32 {
	if n.ok && name == n.lastName {
		return n.last
	}
	m, ok := n.m[name]
	if !ok {
		if n.m == nil {
			n.m = map[string]uint32{}
		}
		m = nameChecks(name)
		n.m[name] = m
	}
	n.lastName, n.last, n.ok = name, m, true
	return m
}

// checks is the mask of the checks e goes to.
func (v *Verifier) checks(e *trace.Event) uint32 {
	if v.all {
		return ckAll
	}
	m := v.names.of(e.Name)
	call, ret := e.Kind == trace.Call, e.Kind == trace.Return
	switch e.Layer {
	case trace.UMD:
		m |= ckAm // every DDI call, immediate-context Draw returns
		if e.From == trace.Runtime && (call || ret) {
			m |= ckFT // FT-CAP: the open DDIs per thread
		}
		if call || ret && e.Handle != "" && createFailed(e) {
			if e.Handle != "" {
				m |= ckDangling
			}
			if isDC(e.Ctx) {
				m |= ckCL2 | ckCL
			}
			if len(v.cl.finishing) > 0 {
				m |= ckCL // CL-FINISH collects the DDIs inside FinishCommandList
			}
		}
	case trace.Runtime:
		if e.From == trace.UMD && (call || ret) {
			m |= ckFT // a callback: FT-HCTX, FT-CALC, FT-ALLOC
		}
		if e.Kind == trace.Message || ret && e.From == trace.App || call && e.Name == "pfnSetErrorCb" {
			m |= ckCallbacks // ERR-APP
		}
		if e.From == trace.App && e.Ctx == "IC" && v.sync.stage != 0 {
			m |= ckSync // DD-SYNC's pattern in progress
		}
	case trace.GPU:
		if e.Kind == trace.Interrupt {
			m |= ckAsync
		}
	}
	switch e.Kind {
	case trace.Wait:
		m |= ckMapHazard
	case trace.Dep:
		m |= ckAsync
	}
	if e.Parent == 0 {
		if e.From == trace.App && e.Layer == trace.Runtime {
			m |= ckAsync // the API call in progress
		}
	} else if !e.Args.IsZero() || v.as.emptyKey || ret && (e.HR == "D3DDDIERR_DEVICEREMOVED" || e.HR == "STATUS_DEVICE_REMOVED") {
		m |= ckAsync // dev=, device=, a removal reported
	}
	return m
}
