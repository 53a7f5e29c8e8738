package verify

import (
	"testing"

	"d3dsim/core/trace"
)

// Hand-made traces for the free-threading rules: each step is one event;
// the recorder nests calls per thread, as it does in a run.
type step struct {
	thread string
	kind   trace.Kind
	layer  trace.Layer // UMD: a DDI (from the runtime); Runtime: a callback (from the UMD)
	name   string
	obj    string
	handle string
	args   string
}

func call(th string, l trace.Layer, name, obj, handle, args string) step {
	return step{th, trace.Call, l, name, obj, handle, args}
}

func ret(th string, l trace.Layer, name, obj string) step {
	return step{thread: th, kind: trace.Return, layer: l, name: name, obj: obj}
}

func brokenRules(steps []step) []string {
	rec := trace.NewRecorder(nil, nil)
	for _, s := range steps {
		from := trace.Runtime
		if s.layer == trace.Runtime {
			from = trace.UMD
		}
		if s.kind == trace.Message {
			from = s.layer
		}
		rec.Emit(trace.Event{Thread: s.thread, Kind: s.kind, Layer: s.layer, From: from, Name: s.name, Obj: s.obj, Handle: s.handle, Args: trace.TextArgs(s.args), Ctx: "IC"})
	}
	v := New(rec)
	v.Poll()
	var out []string
	for _, x := range v.Violations() {
		out = append(out, x.Rule)
	}
	return out
}

func TestFreeThreadingRules(t *testing.T) {
	const U, R = trace.UMD, trace.Runtime
	notFree := step{thread: "main", kind: trace.Message, layer: R, name: "DriverCaps", args: "commandlists=1 recycle=1 freethreaded=0"}
	tests := []struct {
		desc  string
		steps []step
		want  string // the one rule broken ("" for none)
	}{
		{"FT-CAP: two DDIs at once without the cap", []step{notFree,
			call("main", U, "Flush", "", "", ""), call("loader", U, "CreateResource", "t", "h3", ""), ret("loader", U, "CreateResource", "t"), ret("main", U, "Flush", "")}, "FT-CAP"},
		{"FT-CAP: the same with the cap", []step{
			call("main", U, "Flush", "", "", ""), call("loader", U, "CreateResource", "t", "h3", ""), ret("loader", U, "CreateResource", "t"), ret("main", U, "Flush", "")}, ""},
		{"FT-CAP: a CalcPrivate DDI beside another is fine", []step{notFree,
			call("main", U, "CalcPrivateBlendStateSize", "", "", ""), call("loader", U, "CreateResource", "t", "h3", ""), ret("loader", U, "CreateResource", "t"), ret("main", U, "CalcPrivateBlendStateSize", "")}, ""},
		{"FT-CAP: one after the other", []step{notFree,
			call("main", U, "Flush", "", "", ""), ret("main", U, "Flush", ""), call("loader", U, "CreateResource", "t", "h3", ""), ret("loader", U, "CreateResource", "t")}, ""},
		{"FT-CALC: a callback inside CalcPrivate", []step{
			call("loader", U, "CalcPrivateResourceSize", "t", "", ""), call("loader", R, "pfnDeallocateCb", "old", "", "res=h2"), ret("loader", R, "pfnDeallocateCb", "old"), ret("loader", U, "CalcPrivateResourceSize", "t")}, "FT-CALC"},
		{"FT-HCTX: escape on the context inside another thread's render", []step{
			call("main", R, "pfnRenderCb", "dev", "", ""), call("loader", R, "pfnEscapeCb", "dev", "", "hctx=c1 code=1"), ret("loader", R, "pfnEscapeCb", "dev"), ret("main", R, "pfnRenderCb", "dev")}, "FT-HCTX"},
		{"FT-HCTX: a device-wide escape names no context", []step{
			call("main", R, "pfnRenderCb", "dev", "", ""), call("loader", R, "pfnEscapeCb", "dev", "", "hctx=0 code=1"), ret("loader", R, "pfnEscapeCb", "dev"), ret("main", R, "pfnRenderCb", "dev")}, ""},
		{"FT-HCTX: another device's context", []step{
			call("main", R, "pfnRenderCb", "dev", "", ""), call("loader", R, "pfnWaitForSynchronizationObjectCb", "dev2", "", ""), ret("loader", R, "pfnWaitForSynchronizationObjectCb", "dev2"), ret("main", R, "pfnRenderCb", "dev")}, ""},
		{"FT-ALLOC: shared allocation inside its CreateResource", []step{
			call("loader", U, "CreateResource", "t", "h3", "shared=1"), call("loader", R, "pfnAllocateCb", "t", "", "res=h3 shared=1"), ret("loader", R, "pfnAllocateCb", "t"), ret("loader", U, "CreateResource", "t")}, ""},
		{"FT-ALLOC: shared allocation from the immediate context", []step{
			call("main", U, "ClearRenderTargetView", "v", "h4", ""), call("main", R, "pfnAllocateCb", "t", "", "res=h3 shared=1"), ret("main", R, "pfnAllocateCb", "t"), ret("main", U, "ClearRenderTargetView", "v")}, "FT-ALLOC"},
		{"FT-TABLE: an immediate-context entry swapped inside a DDI", []step{
			call("main", U, "SetDisplayModeDXGI", "sc", "h2", ""), {thread: "main", kind: trace.Message, layer: U, name: "DeviceFuncsWrite", args: "entry=pfnDraw impl=DrawFullscreen"}, ret("main", U, "SetDisplayModeDXGI", "sc")}, ""},
		{"FT-TABLE: a create entry swapped", []step{
			call("main", U, "SetDisplayModeDXGI", "sc", "h2", ""), {thread: "main", kind: trace.Message, layer: U, name: "DeviceFuncsWrite", args: "entry=pfnCreateResource impl=X"}, ret("main", U, "SetDisplayModeDXGI", "sc")}, "FT-TABLE"},
		{"FT-TABLE: an immediate-context entry swapped outside any DDI", []step{
			{thread: "loader", kind: trace.Message, layer: U, name: "DeviceFuncsWrite", args: "entry=pfnDraw impl=X"}}, "FT-TABLE"},
	}
	for _, tt := range tests {
		got := brokenRules(tt.steps)
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("%s: violations %v, want none", tt.desc, got)
		case tt.want != "" && (len(got) != 1 || got[0] != tt.want):
			t.Errorf("%s: violations %v, want one %s", tt.desc, got, tt.want)
		}
	}
}
