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
	args   trace.Args
}

func call(th string, l trace.Layer, name, obj, handle string, args trace.Args) step {
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
		rec.Emit(trace.Event{Thread: s.thread, Kind: s.kind, Layer: s.layer, From: from, Name: s.name, Obj: s.obj, Handle: s.handle, Args: s.args, Ctx: "IC"})
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
	notFree := step{thread: "main", kind: trace.Message, layer: R, name: "DriverCaps", args: kv(trace.KeyCommandLists, 1, trace.KeyRecycle, 1, trace.KeyFreeThreaded, 0)}
	tests := []struct {
		desc  string
		steps []step
		want  string // the one rule broken ("" for none)
	}{
		{"FT-CAP: two DDIs at once without the cap", []step{notFree,
			call("main", U, "Flush", "", "", trace.Args{}), call("loader", U, "CreateBlendState", "t", "h3", trace.Args{}), ret("loader", U, "CreateBlendState", "t"), ret("main", U, "Flush", "")}, "FT-CAP"},
		{"FT-CAP: the same with the cap", []step{
			call("main", U, "Flush", "", "", trace.Args{}), call("loader", U, "CreateBlendState", "t", "h3", trace.Args{}), ret("loader", U, "CreateBlendState", "t"), ret("main", U, "Flush", "")}, ""},
		{"FT-CAP: a CalcPrivate DDI beside another is fine", []step{notFree,
			call("main", U, "CalcPrivateBlendStateSize", "", "", trace.Args{}), call("loader", U, "CreateBlendState", "t", "h3", trace.Args{}), ret("loader", U, "CreateBlendState", "t"), ret("main", U, "CalcPrivateBlendStateSize", "")}, ""},
		{"FT-CAP: one after the other", []step{notFree,
			call("main", U, "Flush", "", "", trace.Args{}), ret("main", U, "Flush", ""), call("loader", U, "CreateBlendState", "t", "h3", trace.Args{}), ret("loader", U, "CreateBlendState", "t")}, ""},
		{"FT-CALC: a callback inside CalcPrivate", []step{
			call("loader", U, "CalcPrivateResourceSize", "t", "", trace.Args{}), call("loader", R, "pfnDeallocateCb", "old", "", kv(trace.KeyRes, "h2")), ret("loader", R, "pfnDeallocateCb", "old"), ret("loader", U, "CalcPrivateResourceSize", "t")}, "FT-CALC"},
		{"FT-HCTX: escape on the context inside another thread's render", []step{
			call("main", R, "pfnRenderCb", "dev", "", trace.Args{}), call("loader", R, "pfnEscapeCb", "dev", "", kv(trace.KeyHctx, "c1", trace.KeyCode, 1)), ret("loader", R, "pfnEscapeCb", "dev"), ret("main", R, "pfnRenderCb", "dev")}, "FT-HCTX"},
		{"FT-HCTX: a device-wide escape names no context", []step{
			call("main", R, "pfnRenderCb", "dev", "", trace.Args{}), call("loader", R, "pfnEscapeCb", "dev", "", kv(trace.KeyHctx, "0", trace.KeyCode, 1)), ret("loader", R, "pfnEscapeCb", "dev"), ret("main", R, "pfnRenderCb", "dev")}, ""},
		{"FT-HCTX: a signal on the context inside another thread's render", []step{
			call("main", R, "pfnRenderCb", "dev", "", trace.Args{}), call("presenter", R, "pfnSignalSynchronizationObjectCb", "s1", "", kv(trace.KeyDev, "dev", trace.KeyHctx, "c1")), ret("presenter", R, "pfnSignalSynchronizationObjectCb", "s1"), ret("main", R, "pfnRenderCb", "dev")}, "FT-HCTX"},
		{"FT-HCTX: a signal after the render returned", []step{
			call("main", R, "pfnRenderCb", "dev", "", trace.Args{}), ret("main", R, "pfnRenderCb", "dev"), call("presenter", R, "pfnSignalSynchronizationObjectCb", "s1", "", kv(trace.KeyDev, "dev", trace.KeyHctx, "c1")), ret("presenter", R, "pfnSignalSynchronizationObjectCb", "s1")}, ""},
		{"FT-HCTX: another device's context", []step{
			call("main", R, "pfnRenderCb", "dev", "", trace.Args{}), call("loader", R, "pfnWaitForSynchronizationObjectCb", "dev2", "", trace.Args{}), ret("loader", R, "pfnWaitForSynchronizationObjectCb", "dev2"), ret("main", R, "pfnRenderCb", "dev")}, ""},
		{"FT-ALLOC: shared allocation inside its CreateResource", []step{
			call("loader", U, "CreateResource", "t", "h3", kv(trace.KeyShared, 1)), call("loader", R, "pfnAllocateCb", "t", "", kv(trace.KeyRes, "h3", trace.KeyShared, 1)), ret("loader", R, "pfnAllocateCb", "t"), ret("loader", U, "CreateResource", "t")}, ""},
		{"FT-ALLOC: shared allocation from the immediate context", []step{
			call("main", U, "ClearRenderTargetView", "v", "h4", trace.Args{}), call("main", R, "pfnAllocateCb", "t", "", kv(trace.KeyRes, "h3", trace.KeyShared, 1)), ret("main", R, "pfnAllocateCb", "t"), ret("main", U, "ClearRenderTargetView", "v")}, "FT-ALLOC"},
		{"FT-TABLE: an immediate-context entry swapped inside a DDI", []step{
			call("main", U, "SetDisplayModeDXGI", "sc", "h2", trace.Args{}), {thread: "main", kind: trace.Message, layer: U, name: "DeviceFuncsWrite", args: kv(trace.KeyEntry, "pfnDraw", trace.KeyImpl, "DrawFullscreen")}, ret("main", U, "SetDisplayModeDXGI", "sc")}, ""},
		{"FT-TABLE: a create entry swapped", []step{
			call("main", U, "SetDisplayModeDXGI", "sc", "h2", trace.Args{}), {thread: "main", kind: trace.Message, layer: U, name: "DeviceFuncsWrite", args: kv(trace.KeyEntry, "pfnCreateResource", trace.KeyImpl, "X")}, ret("main", U, "SetDisplayModeDXGI", "sc")}, "FT-TABLE"},
		{"FT-TABLE: an immediate-context entry swapped outside any DDI", []step{
			{thread: "loader", kind: trace.Message, layer: U, name: "DeviceFuncsWrite", args: kv(trace.KeyEntry, "pfnDraw", trace.KeyImpl, "X")}}, "FT-TABLE"},
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

// kv is a payload of key, value pairs: string values as strings, int values
// as integers.
func kv(pairs ...any) trace.Args {
	var b trace.ArgBuilder
	for i := 0; i+1 < len(pairs); i += 2 {
		switch v := pairs[i+1].(type) {
		case string:
			b.Str(pairs[i].(trace.Key), v)
		case int:
			b.Int(pairs[i].(trace.Key), int64(v))
		}
	}
	return b.Args()
}
