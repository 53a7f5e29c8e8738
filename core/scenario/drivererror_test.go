package scenario

import (
	"os"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestDriverErrorsAsTheDDIPageSays: "Changes from Direct3D 10" (New DDI
// error code): D3DDDIERR_APPLICATIONERROR from the driver makes the debug
// layer find the application at fault; E_INVALIDARG from the driver makes the
// API raise an exception, the debug layer reporting an internal error of the
// driver. The simulator returns the E_INVALIDARG the exception carries; the
// call's Return says it was raised.
func TestDriverErrorsAsTheDDIPageSays(t *testing.T) {
	src, err := os.ReadFile("testdata/async/driver-errors.d3ds")
	if err != nil {
		t.Fatal(err)
	}
	r := runSource(t, string(src))
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%v", s.Failures)
	}
	tests := []struct {
		obj, kind, name, want string
	}{
		{"rgb", "message", "CreateResource", "D3DDDIERR_APPLICATIONERROR): the application is at fault"},
		{"huge", "message", "CreateResource", "internal error (E_INVALIDARG), a bug in the driver"},
		{"huge", "return", "CreateTexture2D", "the API raised an exception"},
		{"rgb", "return", "CreateTexture2D", ""},
	}
	for _, tt := range tests {
		found := false
		for _, e := range r.Events() {
			if e.Obj != tt.obj || e.Name != tt.name || (tt.kind == "message") != (e.Kind == trace.Message) || (tt.kind == "return") != (e.Kind == trace.Return && e.Layer == trace.Runtime) {
				continue
			}
			found = true
			if tt.want == "" && strings.Contains(e.Msg, "exception") {
				t.Errorf("%s %s of %s: %q: an application error raises no exception", tt.kind, tt.name, tt.obj, e.Msg)
			}
			if !strings.Contains(e.Msg, tt.want) {
				t.Errorf("%s %s of %s: %q, want %q", tt.kind, tt.name, tt.obj, e.Msg, tt.want)
			}
		}
		if !found {
			t.Errorf("no %s %s of %s", tt.kind, tt.name, tt.obj)
		}
	}
}
