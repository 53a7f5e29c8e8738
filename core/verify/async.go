package verify

import (
	"d3dsim/core/rules"
	"strings"

	"d3dsim/core/trace"
)

// Rules ASYNC-SAME and ERR-ASYNC (the SamBookshelf article on asynchronous Draw), as far as a trace shows them.
//
// ASYNC-SAME: asynchronous and out-of-order execution must give what
// synchronous execution gives. A trace cannot compare two runs (the
// property test TestAsyncSame does that); what it can show is the
// scheduler's own promise: every dependency edge (kind dep, DmaDependency,
// args "from=P to=C") means C may start only after P has finished. A
// DmaBufferStart of C before the GPU's Interrupt for P (or P being dropped)
// is a violation.
//
// ERR-ASYNC: an error found at call time comes back from that call, and
// after a TDR removes a device (DeviceRemoved), the next call on that device
// that can return DXGI_ERROR_DEVICE_REMOVED (Present, Map, GetData,
// FinishCommandList) does. A call whose own kernel calls reported the
// removal yet returns success is a violation too. Which device a call is
// on is learned from its call tree: the pfn*Cb callbacks name the device,
// CreateResource says dev=, Dxgkrnl's DDIs say device=.

type asyncState struct {
	// ASYNC-SAME
	preds    map[uint64][]uint64 // DMA buffer -> the buffers it must follow
	finished map[uint64]bool     // DMA buffers the GPU finished or Dxgkrnl dropped

	// ERR-ASYNC
	kdev     map[string]string // kernel device handle -> device name
	devices  map[string]bool   // device names
	objDev   map[string]string // object name -> its device
	emptyKey bool              // kdev or devices has the key ""
	removed  map[string]bool   // devices removed whose removal no call has reported yet
	sawRm    map[uint64]bool   // API calls in whose tree a removal was reported
	// (per thread: thState.openRoot, the API call in progress)
}

// canReportRemoval says whether an API call returns an HRESULT and must
// return DXGI_ERROR_DEVICE_REMOVED on a removed device: a Map only when its
// type allows CPU reads ("ID3D11DeviceContext::Map method": it "returns
// DXGI_ERROR_DEVICE_REMOVED if MapType allows any CPU read access and the
// video card has been removed").
func canReportRemoval(e *trace.Event) bool {
	switch e.Name {
	case "Present", "GetData", "FinishCommandList":
		return true
	case "Map":
		t := e.Args.Str(trace.KeyType)
		return t == "READ" || t == "READ_WRITE"
	}
	return false
}

// asInit makes the state's tables once.
func (v *Verifier) asInit() {
	if s := &v.as; s.preds == nil {
		*s = asyncState{preds: map[uint64][]uint64{}, finished: map[uint64]bool{}, kdev: map[string]string{},
			devices: map[string]bool{}, objDev: map[string]string{}, removed: map[string]bool{},
			sawRm: map[uint64]bool{}}
	}
}

func (v *Verifier) async(e *trace.Event) []Violation {
	v.asInit()
	s := &v.as
	var out []Violation
	switch {
	// ASYNC-SAME
	case e.Kind == trace.Dep && e.Name == "DmaDependency":
		from, to := argUint(e.Args, trace.KeyFrom), argUint(e.Args, trace.KeyTo)
		if from != 0 && to != 0 {
			s.preds[to] = append(s.preds[to], from)
		}
	case e.Layer == trace.GPU && e.Kind == trace.Interrupt && e.DMA != 0,
		e.Name == "DmaBufferDropped" && e.DMA != 0:
		s.finished[e.DMA] = true
	case e.Layer == trace.GPU && e.Kind == trace.Exec && e.Name == "DmaBufferStart":
		for _, p := range s.preds[e.DMA] {
			if !s.finished[p] {
				out = append(out, v.violation(rules.AsyncSame, e, "DMA buffer %d started on %s before DMA buffer %d, which it depends on (a RAW/WAR/WAW edge), finished: out-of-order execution must give the in-order result", e.DMA, e.Thread, p))
				break
			}
		}
		delete(s.preds, e.DMA)

	// ERR-ASYNC
	case e.Kind == trace.Call && e.Name == "DxgkDdiCreateDevice":
		s.kdev[e.Handle], s.devices[e.Obj] = e.Obj, true
		s.emptyKey = s.emptyKey || e.Handle == "" || e.Obj == ""
	case e.Kind == trace.Message && e.Name == "DeviceRemoved":
		s.removed[e.Obj] = true
	}
	if e.Parent == 0 && e.From == trace.App && e.Layer == trace.Runtime {
		switch e.Kind {
		case trace.Call:
			v.ths.of(e.Thread).openRoot = e.Seq
		case trace.Return:
			t := v.ths.of(e.Thread)
			root := t.openRoot
			t.openRoot = 0
			saw := false
			if len(s.sawRm) > 0 {
				saw = s.sawRm[root]
				delete(s.sawRm, root)
			}
			if !canReportRemoval(e) {
				break
			}
			ok := e.HR == "S_OK" || e.HR == "S_FALSE"
			dev := s.objDev[e.Obj]
			switch {
			case saw && ok:
				out = append(out, v.violation(rules.ErrAsync, e, "%s(%s) returned %s although the kernel reported the device removed during the call: the error must come back from the call", e.Name, e.Obj, e.HR))
			case dev != "" && s.removed[dev] && ok:
				out = append(out, v.violation(rules.ErrAsync, e, "%s(%s) returned %s after a TDR removed device %s: the next call that can return DXGI_ERROR_DEVICE_REMOVED must", e.Name, e.Obj, e.HR, dev))
			}
			if dev != "" && !ok {
				delete(s.removed, dev)
			}
		}
		return out
	}
	if e.Parent != 0 {
		if e.Kind == trace.Return && (e.HR == "D3DDDIERR_DEVICEREMOVED" || e.HR == "STATUS_DEVICE_REMOVED") {
			s.sawRm[v.ths.of(e.Thread).openRoot] = true
		}
		dev := ""
		switch {
		case e.Layer == trace.Runtime && strings.HasPrefix(e.Name, "pfn") && s.devices[e.Obj]:
			dev = e.Obj
		case e.Args.IsZero():
			// No dev= or device= argument: Arg says "", a name only a
			// DxgkDdiCreateDevice without handle or name can have given.
			if s.emptyKey && !s.devices[""] {
				dev = s.kdev[""]
			}
		case s.devices[e.Args.Str(trace.KeyDev)]:
			dev = strings.Clone(e.Args.Str(trace.KeyDev))
		case s.kdev[e.Args.Str(trace.KeyDevice)] != "":
			dev = s.kdev[e.Args.Str(trace.KeyDevice)]
		}
		if dev != "" {
			if root := v.rootCall(e); root != nil && root.From == trace.App && root.Obj != "" {
				s.objDev[root.Obj] = dev
			}
		}
	}
	return out
}
