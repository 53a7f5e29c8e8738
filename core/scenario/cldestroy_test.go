package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
	"d3dsim/core/verify"
)

// TestCLDestroyIsAWarning: "Supporting command lists" words the light
// destruction as CommandList::Destroy does it — "If DC still alive, almost
// always recycle" — so a DestroyCommandList while the deferred context lives
// (what bug=CL-DESTROY does) is a warning: listed, traced as "warning: ...",
// but not counted by `expect violations == 0` and failing no run.
func TestCLDestroyIsAWarning(t *testing.T) {
	src := `option bug=CL-DESTROY
dev, imm = D3D11CreateDevice
dc = dev.CreateDeferredContext
cl = dc.FinishCommandList FALSE
cl.Release
expect calls Release DestroyCommandList
expect violations == 0
expect violation CL-DESTROY
`
	r := runSource(t, src)
	if s := r.Summary(); !s.OK() || s.Violations != 0 {
		t.Fatalf("summary %+v: want OK with 0 violations", s)
	}
	vs := r.Violations()
	if len(vs) == 0 {
		t.Fatal("no CL-DESTROY reported")
	}
	for _, v := range vs {
		if v.Rule != "CL-DESTROY" || v.Severity != verify.Warning || !strings.Contains(v.Msg, "almost always") {
			t.Errorf("%s: want a CL-DESTROY warning worded as the page words it", v)
		}
	}
	traced := false
	for _, e := range r.Events() {
		traced = traced || e.Kind == trace.Violation && strings.HasPrefix(e.Msg, "warning: ")
	}
	if !traced {
		t.Error("the warning is not in the trace")
	}
}
