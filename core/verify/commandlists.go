package verify

import (
	"d3dsim/core/rules"
	"slices"
	"strconv"
	"strings"

	"d3dsim/core/trace"
)

// Rules of "Using context-local DDI handles" and "Supporting command lists": context-local handles and command lists.

type clState struct {
	polls      int               // CheckDeferredContextHandleSizes calls since the last CreateDevice
	sized      bool              // CalcDeferredContextHandleSize asked since then
	icAlive    map[string]bool   // immediate-context handles created and not destroyed
	dcOpen     map[string]dcOpen // "DCn/hL" -> what the open deferred handle stands for
	dcByRT     map[string]int    // IC handle -> open deferred handles onto it
	clHandles  map[string]string // command-list handle -> state
	clLocal    map[string]string // "DCn/hL" -> the immediate handle of the command list a deferred context executes
	dcFailed   map[string]bool   // deferred contexts that reported E_OUTOFMEMORY
	finishing  map[uint64][]string
	recycleDDI map[uint64]bool            // open RecycleCreate* calls
	noRecycle  bool                       // the last device created lacks D3D11DDICAPS_COMMANDLISTS_BUILD_2
	begun      map[string]map[string]bool // deferred context -> queries begun and not ended
	clDC       map[string]string          // command-list handle -> its deferred context
	dcAlive    map[string]bool            // deferred context -> not destroyed
	abandoning map[string]bool            // deferred context -> AbandonCommandList seen, not yet recycled
	announced  map[[2]uint64]bool         // (type, size) pairs from CheckDeferredContextHandleSizes
	clSize     string                     // CalcPrivateCommandListSize's answer
}

type dcOpen struct {
	rt, dep string
	view    bool
}

func (v *Verifier) clInit() {
	if v.cl.icAlive != nil {
		return
	}
	v.cl = clState{icAlive: map[string]bool{}, dcOpen: map[string]dcOpen{},
		dcByRT: map[string]int{}, clHandles: map[string]string{}, dcFailed: map[string]bool{}, finishing: map[uint64][]string{},
		recycleDDI: map[uint64]bool{}, begun: map[string]map[string]bool{}, clLocal: map[string]string{}}
}

func isDC(ctx string) bool { return strings.HasPrefix(ctx, "DC") }

func (v *Verifier) commandLists(e *trace.Event) []Violation {
	v.clInit()
	c := &v.cl
	var out []Violation
	call, ret := e.Kind == trace.Call, e.Kind == trace.Return
	umd := e.Layer == trace.UMD

	// CL-FINISH: collect the DDIs inside each FinishCommandList. (Only
	// while one is open: its Call put it in finishing, and its Return,
	// which follows every event inside it, takes it out.)
	if call && umd && len(c.finishing) > 0 {
		for p := v.parent(e); p != nil; p = v.parent(p) {
			if p.Name == "FinishCommandList" && p.Layer == trace.Runtime && p.Kind == trace.Call {
				// (an immediate-context Destroy* here frees an object the
				// application released while bound: not part of the sequence)
				if !strings.HasPrefix(e.Name, "Destroy") || isDC(e.Ctx) {
					c.finishing[p.Seq] = append(c.finishing[p.Seq], e.Name)
				}
				break
			}
		}
	}
	switch {
	case call && e.Name == "FinishCommandList" && e.Layer == trace.Runtime:
		c.finishing[e.Seq] = nil
	case ret && e.Name == "FinishCommandList" && e.Layer == trace.Runtime:
		for seq, names := range c.finishing {
			if v.threadOf(seq) != e.Thread {
				continue
			}
			delete(c.finishing, seq)
			if e.HR == "S_OK" {
				if msg := finishOrder(names); msg != "" {
					out = append(out, v.violation(rules.CLFinish, e, "FinishCommandList of %s: %s (its DDIs: %s)", e.Ctx, msg, strings.Join(names, " ")))
				}
				if c.dcFailed[e.Ctx] {
					out = append(out, v.violation(rules.ErrDC, e, "FinishCommandList on %s succeeded after the deferred context reported E_OUTOFMEMORY through pfnSetErrorCb", e.Ctx))
				}
			}
			delete(c.dcFailed, e.Ctx)
		}

	// CLS-SIZES: two polls before the first size question.
	case call && umd && e.Name == "CheckDeferredContextHandleSizes":
		c.polls++
	case call && umd && e.Name == "CreateDevice":
		c.polls, c.sized = 0, false
	case call && umd && e.Name == "CalcDeferredContextHandleSize" && !isDC(e.Ctx):
		if !c.sized && c.polls < 2 {
			out = append(out, v.violation(rules.CLSSizes, e, "CalcDeferredContextHandleSize before the runtime polled CheckDeferredContextHandleSizes twice (count, then array): %d poll(s)", c.polls))
		}
		c.sized = true

	// CL-STATE: follow each command-list handle.
	case call && umd && isDC(e.Ctx) && e.Name == "CreateCommandList":
		c.clLocal[e.Ctx+"/"+e.Handle] = strings.Clone(e.Args.Str(trace.KeyRT)) // a deferred context's handle onto a list it executes
	case call && umd && isDC(e.Ctx) && e.Name == "DestroyCommandList":
		delete(c.clLocal, e.Ctx+"/"+e.Handle)
	case call && umd && (e.Name == "CreateCommandList" || e.Name == "RecycleCreateCommandList"):
		c.clHandles[e.Handle] = "valid"
	case call && umd && e.Name == "RecycleDestroyCommandList":
		c.clHandles[e.Handle] = "retired"
	case call && umd && e.Name == "RecycleCommandList":
		c.clHandles[e.Handle] = "cached"
	case call && umd && e.Name == "DestroyCommandList":
		c.clHandles[e.Handle] = "freed"
	case call && umd && e.Name == "CommandListExecute":
		h := e.Handle
		if isDC(e.Ctx) {
			h = c.clLocal[e.Ctx+"/"+e.Handle]
		}
		if st := c.clHandles[h]; st != "valid" {
			out = append(out, v.violation(rules.CLState, e, "CommandListExecute with command-list handle %s, which is %s, not valid", e.Handle, st))
		}

	// ERR-DC and CL-OOM: who reports errors how.
	case call && umd && (e.Name == "RecycleCreateCommandList" || e.Name == "RecycleCreateDeferredContext"):
		c.recycleDDI[e.Seq] = true
	case call && e.Name == "pfnSetErrorCb":
		if p := v.parent(e); p != nil && c.recycleDDI[p.Seq] {
			out = append(out, v.violation(rules.CLOOM, e, "%s reported %s through pfnSetErrorCb: it must return it", p.Name, e.HR))
		}
		if p := v.parent(e); isDC(e.Ctx) && e.HR == "E_OUTOFMEMORY" && (p == nil || p.Name != "RecycleCommandList") {
			c.dcFailed[e.Ctx] = true
		}
	}

	// CL-CAPS: no Recycle* DDI without the cap.
	if e.Kind == trace.Message && e.Name == "DriverCaps" {
		c.noRecycle = argIs(e.Args, trace.KeyRecycle, 0)
	}
	if call && umd && strings.HasPrefix(e.Name, "Recycle") && c.noRecycle {
		out = append(out, v.violation(rules.CLCaps, e, "%s used although the driver does not report D3D11DDICAPS_COMMANDLISTS_BUILD_2", e.Name))
	}
	// CL-IMPLICIT: no query left begun when the command list is created.
	if call && umd && isDC(e.Ctx) && (e.Name == "QueryBegin" || e.Name == "QueryEnd") {
		if c.begun[e.Ctx] == nil {
			c.begun[e.Ctx] = map[string]bool{}
		}
		if e.Name == "QueryBegin" {
			c.begun[e.Ctx][e.Handle] = true
		} else {
			delete(c.begun[e.Ctx], e.Handle)
		}
	}
	if call && umd && (e.Name == "CreateCommandList" || e.Name == "RecycleCreateCommandList") {
		if p := v.parent(e); p != nil && p.Name == "FinishCommandList" && len(c.begun[p.Ctx]) > 0 {
			out = append(out, v.violation(rules.CLImplicit, e, "%s while %d query(ies) begun on %s were not ended: FinishCommandList must call QueryEnd first", e.Name, len(c.begun[p.Ctx]), p.Ctx))
		}
		if p := v.parent(e); p != nil {
			delete(c.begun, p.Ctx)
		}
	}
	// CL-RECYCLE-THREAD: RecycleCommandList only inside its context's FinishCommandList.
	if call && umd && e.Name == "RecycleCommandList" {
		p := v.parent(e)
		if p == nil || p.Name != "FinishCommandList" || p.Ctx != e.Ctx {
			where := "outside FinishCommandList"
			if p != nil {
				where = "inside " + p.Name
			}
			out = append(out, v.violation(rules.CLRecycleThread, e, "RecycleCommandList of %s on %s ran %s on thread %s, not on the deferred context's thread", e.Handle, e.Ctx, where, e.Thread))
		}
	}

	// A create DDI that failed through pfnSetErrorCb ("Using context-local
	// DDI handles": create DDIs report errors only that way) made no handle.
	if call && e.Name == "pfnSetErrorCb" {
		if p := v.parent(e); p != nil && p.Layer == trace.UMD && strings.HasPrefix(p.Name, "Create") && p.Handle != "" {
			if !isDC(p.Ctx) {
				delete(c.icAlive, p.Handle)
			} else if o, ok := c.dcOpen[p.Ctx+"/"+p.Handle]; ok {
				c.dcByRT[o.rt]--
				delete(c.dcOpen, p.Ctx+"/"+p.Handle)
			}
		}
	}
	// CLS-FIRST and CLS-DEP: deferred handles open and close around the
	// immediate ones, views inside their resources.
	if umd && call && strings.HasPrefix(e.Name, "Create") && e.Handle != "" {
		if !isDC(e.Ctx) {
			c.icAlive[e.Handle] = true
		} else if rt := e.Args.Str(trace.KeyRT); rt != "" {
			key := e.Ctx + "/" + e.Handle
			o := dcOpen{rt: strings.Clone(rt), dep: strings.Clone(e.Args.Str(trace.KeyDep)), view: strings.HasSuffix(e.Name, "View")}
			if !c.icAlive[rt] {
				out = append(out, v.violation(rules.CLSFirst, e, "%s opened deferred handle %s onto %s, which has no immediate-context handle", e.Name, e.Handle, rt))
			}
			if o.view {
				if _, ok := c.dcOpen[e.Ctx+"/"+o.dep]; !ok {
					out = append(out, v.violation(rules.CLSDep, e, "%s on %s opened view handle %s before the handle of its resource (dependency %q)", e.Name, e.Ctx, e.Handle, o.dep))
				}
			}
			c.dcOpen[key] = o
			c.dcByRT[rt]++
		}
	}
	if umd && call && strings.HasPrefix(e.Name, "Destroy") && e.Handle != "" && e.Name != "DestroyDevice" && (e.Name != "DestroyCommandList" || isDC(e.Ctx)) {
		if !isDC(e.Ctx) {
			if c.dcByRT[e.Handle] > 0 {
				out = append(out, v.violation(rules.CLSFirst, e, "%s destroyed immediate handle %s while %d deferred handle(s) onto it are open", e.Name, e.Handle, c.dcByRT[e.Handle]))
			}
			delete(c.icAlive, e.Handle)
		} else {
			key := e.Ctx + "/" + e.Handle
			if o, ok := c.dcOpen[key]; ok {
				if !o.view {
					for k, other := range c.dcOpen {
						if other.view && other.dep == e.Handle && strings.HasPrefix(k, e.Ctx+"/") {
							out = append(out, v.violation(rules.CLSDep, e, "%s on %s closed resource handle %s while view handle %s onto it is open", e.Name, e.Ctx, e.Handle, strings.TrimPrefix(k, e.Ctx+"/")))
							break
						}
					}
				}
				c.dcByRT[o.rt]--
				delete(c.dcOpen, key)
			}
		}
	}
	return out
}

// finishOrder checks the DDI order of FinishCommandList in "Supporting command lists"
// pseudo-code and returns what is wrong ("" when right).
func finishOrder(names []string) string {
	if len(names) == 0 {
		return "" // the runtime emulates command lists: no DDI is involved
	}
	const (
		recycleLoop = iota
		create
		destroy
		recycleDC
	)
	phase := recycleLoop
	created := false
	for _, n := range names {
		switch {
		case n == "RecycleCommandList":
			if phase > recycleLoop {
				return "RecycleCommandList after the command list was created"
			}
		case n == "RecycleCreateCommandList" || n == "CalcPrivateCommandListSize" || n == "CreateCommandList" || n == "CalcDeferredContextHandleSize":
			if phase > create {
				return n + " after the deferred context's handles were closed"
			}
			phase, created = create, true
		case n == "RecycleCreateDeferredContext" || n == "DestroyDevice" || n == "CalcPrivateDeferredContextSize" || n == "CreateDeferredContext":
			// (without the recycling cap the context is destroyed and created again)
			if !created {
				return n + " before the command list was created"
			}
			phase = recycleDC
		case strings.HasPrefix(n, "Destroy"):
			if phase > destroy {
				return n + " (closing a context-local handle) after RecycleCreateDeferredContext"
			}
			if !created {
				return n + " before the command list was created"
			}
			phase = destroy
		}
	}
	if !created {
		return "no command list was created"
	}
	if phase != recycleDC {
		return "the deferred context was not recycled (RecycleCreateDeferredContext)"
	}
	return ""
}

// More rules of "Using context-local DDI handles" and "Supporting command lists", on handle identity and on the
// close/abandon/destroy sequences.
func (v *Verifier) commandLists2(e *trace.Event) []Violation {
	c := &v.cl
	v.clInit()
	if c.clDC == nil {
		c.clDC, c.dcAlive, c.abandoning = map[string]string{}, map[string]bool{}, map[string]bool{}
	}
	var out []Violation
	call, umd := e.Kind == trace.Call, e.Layer == trace.UMD
	if call && e.Name == "pfnSetErrorCb" {
		// CL-RECYCLE-ERR: RecycleCommandList reports only device removal.
		if p := v.parent(e); p != nil && p.Name == "RecycleCommandList" && e.HR != "D3DDDIERR_DEVICEREMOVED" {
			out = append(out, v.violation(rules.CLRecycleErr, e, "RecycleCommandList reported %s through pfnSetErrorCb: it may report only D3DDDIERR_DEVICEREMOVED", e.HR))
		}
	}
	if e.Kind == trace.Message && e.Name == "DeferredContextState" {
		// A released deferred context's driver handle is kept for recycling:
		// it is recycled, as far as CL-CLOSE and CL-ABANDON go.
		out = append(out, v.contextEnds(e, e.Ctx)...)
	}
	if e.Kind == trace.Return && e.Layer == trace.Runtime && e.Name == "Release" && isDC(e.Obj) {
		// The application released the deferred context: its driver handle
		// may be kept for recycling, but command lists it made are now
		// destroyed outright (CL-DESTROY).
		c.dcAlive[e.Obj] = false
	}
	if !call || !umd {
		return out
	}
	switch {
	// CLS-ONE: one handle per object per deferred context.
	case isDC(e.Ctx) && strings.HasPrefix(e.Name, "Create") && e.Args.Str(trace.KeyRT) != "":
		rt := e.Args.Str(trace.KeyRT)
		var dup []string
		for k, o := range c.dcOpen {
			if o.rt == rt && strings.HasPrefix(k, e.Ctx+"/") && k != e.Ctx+"/"+e.Handle {
				dup = append(dup, strings.TrimPrefix(k, e.Ctx+"/"))
			}
		}
		if len(dup) > 0 {
			slices.Sort(dup)
			out = append(out, v.violation(rules.CLSOne, e, "%s opened a second handle %s on %s for the object of %s (already %s)", e.Name, e.Handle, e.Ctx, rt, strings.Join(dup, " ")))
		}
	// CLS-OPEN: a deferred context's DDIs name its own open handles.
	case isDC(e.Ctx) && e.Handle != "" && !strings.HasPrefix(e.Name, "Create") && !strings.HasPrefix(e.Name, "Destroy") &&
		!strings.HasPrefix(e.Name, "Recycle") && e.Name != "AbandonCommandList":
		if _, ok := c.dcOpen[e.Ctx+"/"+e.Handle]; !ok {
			out = append(out, v.violation(rules.CLSOpen, e, "%s on %s names %s, which is no handle opened on that deferred context (first bind must open one, with the immediate handle as hRT)", e.Name, e.Ctx, e.Handle))
		}
	// CL-CLOSE and CL-ABANDON: no handle left open when the context is recycled or destroyed.
	case e.Name == "AbandonCommandList":
		c.abandoning[e.Ctx] = true
	case e.Name == "RecycleCreateDeferredContext" || (isDC(e.Ctx) && e.Name == "DestroyDevice"):
		dc := e.Ctx
		if e.Name == "RecycleCreateDeferredContext" {
			dc = e.Obj
		}
		out = append(out, v.contextEnds(e, dc)...)
		if e.Name == "DestroyDevice" {
			c.dcAlive[dc] = false
		}
		if e.Name == "RecycleCreateDeferredContext" && e.Args.Str(trace.KeyDC) != "" {
			c.dcAlive[strings.Clone(e.Args.Str(trace.KeyDC))] = true // a kept handle made a new deferred context
		}
	// CL-DESTROY: light destruction while the deferred context lives.
	case e.Name == "CreateDeferredContext":
		c.dcAlive[strings.Clone(e.Args.Str(trace.KeyDC))] = true
	case e.Name == "CreateCommandList" || e.Name == "RecycleCreateCommandList":
		if p := v.parent(e); p != nil {
			c.clDC[e.Handle] = p.Ctx
		}
	case e.Name == "DestroyCommandList":
		// The rule is about CommandList::Destroy. A handle FinishCommandList
		// could not make valid, and the handles a deferred context retired or
		// cached when that context is released, are destroyed outright.
		root := v.rootCall(e)
		cleanup := root != nil && (root.Name == "FinishCommandList" || root.Name == "Release" && root.Obj == c.clDC[e.Handle])
		if dc := c.clDC[e.Handle]; c.dcAlive[dc] && !c.noRecycle && !cleanup {
			// "If DC still alive, almost always recycle": a warning.
			out = append(out, v.warning(rules.CLDestroy, e, "DestroyCommandList of %s while its deferred context %s lives: while the deferred context is alive the runtime almost always recycles (RecycleDestroyCommandList)", e.Handle, dc))
		}
	case e.Name == "RecycleDestroyCommandList":
		if dc := c.clDC[e.Handle]; !c.dcAlive[dc] {
			out = append(out, v.violation(rules.CLDestroy, e, "RecycleDestroyCommandList of %s after its deferred context %s was destroyed: without the deferred context the runtime calls DestroyCommandList", e.Handle, dc))
		}
	}
	return out
}

// contextEnds checks CL-CLOSE and CL-ABANDON where a deferred context is
// recycled or destroyed: no context-local handle may still be open.
func (v *Verifier) contextEnds(e *trace.Event, dc string) []Violation {
	c := &v.cl
	var out []Violation
	var open []string
	for k := range c.dcOpen {
		if strings.HasPrefix(k, dc+"/") {
			open = append(open, strings.TrimPrefix(k, dc+"/"))
		}
	}
	if len(open) > 0 {
		slices.Sort(open)
		rule, what := rules.CLClose, "after the command list was created"
		if c.abandoning[dc] {
			rule, what = rules.CLAbandon, "after AbandonCommandList"
		}
		out = append(out, v.violation(rule, e, "%s of %s with context-local handles still open (%s): the runtime must close them %s", e.Name, dc, strings.Join(open, " "), what))
		for _, h := range open {
			c.dcByRT[c.dcOpen[dc+"/"+h].rt]--
			delete(c.dcOpen, dc+"/"+h) // the driver's context is fresh now
		}
	}
	delete(c.abandoning, dc)
	return out
}

// execState follows CL-EXEC: after CommandListExecute the immediate context
// is cleared, so each state refresh after it (at the driver's next DDI)
// shows nothing bound unless the application bound that part since.
type execState struct {
	expectNone map[string]map[string]bool // context -> refresh callbacks that must show none
}

// refreshOf names, for each state-setting DDI, the state-refresh callback
// that shows what it set.
var refreshOf = map[string]string{
	"IaSetInputLayout":     "pfnStateIaInputLayoutCb",
	"IaSetVertexBuffers":   "pfnStateIaVertexBufCb",
	"IaSetIndexBuffer":     "pfnStateIaIndexBufCb",
	"IaSetTopology":        "pfnStateIaPrimitiveTopologyCb",
	"VsSetShader":          "pfnStateVsShaderCb",
	"VsSetConstantBuffers": "pfnStateVsConstBufCb",
	"VsSetShaderResources": "pfnStateVsSrvCb",
	"VsSetSamplers":        "pfnStateVsSamplerCb",
	"PsSetShader":          "pfnStatePsShaderCb",
	"PsSetConstantBuffers": "pfnStatePsConstBufCb",
	"PsSetShaderResources": "pfnStatePsSrvCb",
	"PsSetSamplers":        "pfnStatePsSamplerCb",
	"SetRenderTargets":     "pfnStateOmRenderTargetsCb",
	"SetBlendState":        "pfnStateOmBlendStateCb",
	"SetDepthStencilState": "pfnStateOmDepthStateCb",
	"SetRasterizerState":   "pfnStateRsRastStateCb",
	"SetViewports":         "pfnStateRsViewportsCb",
	"SetScissorRects":      "pfnStateRsScissorCb",
}

// isRefresh reports a state-refresh callback.
func isRefresh(name string) bool {
	return strings.HasPrefix(name, "pfnState") && strings.HasSuffix(name, "Cb")
}

func (v *Verifier) commandListExec(e *trace.Event) []Violation {
	x := &v.exec
	if x.expectNone == nil {
		x.expectNone = map[string]map[string]bool{}
	}
	switch {
	case e.Kind == trace.Return && e.Layer == trace.UMD && e.Name == "CommandListExecute":
		all := map[string]bool{}
		for _, cb := range refreshOf {
			all[cb] = true
		}
		x.expectNone[e.Ctx] = all
	case e.Kind == trace.Call && e.Layer == trace.UMD && refreshOf[e.Name] != "":
		if p := v.parent(e); p == nil || !isRefresh(p.Name) {
			delete(x.expectNone[e.Ctx], refreshOf[e.Name]) // the application bound something
		}
	case e.Kind == trace.Call && isRefresh(e.Name):
		if p := v.parent(e); p != nil && p.Name == "CommandListExecute" {
			break // inside the call the old bindings still show
		}
		pending := x.expectNone[e.Ctx]
		if pending[e.Name] && e.Args.Str(trace.KeyBound) != "none" {
			delete(pending, e.Name)
			return []Violation{v.violation(rules.CLExec, e, "state refresh %s after CommandListExecute shows %s on %s: the context must be in the cleared state", e.Name, e.Args.Str(trace.KeyBound), e.Ctx)}
		}
		delete(pending, e.Name)
	}
	return nil
}

// sizes follows CLS-SIZES' array and CL-SIZE: the sizes the driver gives for
// handle memory are in the array it announced, and a command-list handle's
// size never changes (its memory is reused by RecycleCreateCommandList).
func (v *Verifier) sizes(e *trace.Event) []Violation {
	c := &v.cl
	if e.Kind != trace.Call || e.Layer != trace.UMD {
		return nil
	}
	switch e.Name {
	case "CheckDeferredContextHandleSizes":
		// (the count poll says sizes=NULL: no pairs)
		announced := map[[2]uint64]bool{}
		for t, n := range e.Args.Pairs(trace.KeySizes) {
			announced[[2]uint64{t, n}] = true
		}
		if len(announced) > 0 {
			c.announced = announced
		}
	case "CalcDeferredContextHandleSize":
		t, _ := e.Args.Uint(trace.KeyType)
		n, _ := e.Args.Uint(trace.KeySize)
		if c.announced != nil && !c.announced[[2]uint64{t, n}] {
			ts := strconv.FormatUint(t, 10) + ":" + strconv.FormatUint(n, 10)
			return []Violation{v.violation(rules.CLSSizes, e, "CalcDeferredContextHandleSize returned type:size %s, which CheckDeferredContextHandleSizes did not announce", ts)}
		}
	case "CalcPrivateCommandListSize":
		n, _ := e.Args.Int(trace.KeySize)
		size := strconv.FormatInt(n, 10)
		if c.clSize != "" && size != c.clSize {
			return []Violation{v.violation(rules.CLSize, e, "CalcPrivateCommandListSize returned %s, earlier %s: the memory behind a command-list handle never changes size", size, c.clSize)}
		}
		c.clSize = size
	}
	return nil
}
