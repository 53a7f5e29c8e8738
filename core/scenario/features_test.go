package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestCheckFeatureSupport: the BOOL features of the 11.0 runtime answer
// from the driver's caps (the threading ones follow the driver options),
// the return event carries the members, the DOUBLES answer comes from the
// driver's pfnGetCaps, and a later runtime's feature is E_INVALIDARG with
// the debug layer naming it.
func TestCheckFeatureSupport(t *testing.T) {
	for _, tc := range []struct{ opts, threading string }{
		{"", "TRUE TRUE"},
		{"option driver.commandlists=false\n", "TRUE FALSE"},
		{"option driver.freethreaded=false\n", "FALSE FALSE"},
	} {
		r := runSource(t, tc.opts+`dev = D3D11CreateDevice Flags=DEBUG
dev.CheckFeatureSupport DOUBLES
expect got == TRUE
dev.CheckFeatureSupport THREADING
expect got == `+tc.threading+`
dev.CheckFeatureSupport D3D10_X_HARDWARE_OPTIONS
expect got == TRUE
dev.CheckFeatureSupport D3D11_OPTIONS
expect hr == E_INVALIDARG
dev.CheckFeatureSupport FORMAT_SUPPORT
expect hr == E_INVALIDARG
`)
		if f := r.Summary().Failures; len(f) > 0 {
			t.Fatalf("%q: %q", tc.opts, f)
		}
		var rets []string
		getCaps, named := 0, false
		for _, e := range r.Events() {
			switch {
			case e.Kind == trace.Return && e.Name == "CheckFeatureSupport" && e.From == trace.App:
				rets = append(rets, e.Args.String())
			case e.Kind == trace.Call && e.Name == "GetCaps":
				getCaps++
			case e.Kind == trace.Message && strings.Contains(e.Msg, "D3D11_FEATURE_D3D11_OPTIONS belongs to a later runtime"):
				named = true
			}
		}
		th := strings.Fields(tc.threading)
		want := []string{"type=DOUBLES support=DoublePrecisionFloatShaderOps=TRUE",
			"type=THREADING support=DriverConcurrentCreates=" + th[0] + " DriverCommandLists=" + th[1],
			"type=D3D10_X_HARDWARE_OPTIONS support=ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x=TRUE",
			"type=D3D11_OPTIONS", "type=FORMAT_SUPPORT"}
		if strings.Join(rets, "|") != strings.Join(want, "|") {
			t.Errorf("%q: returns\n got %q\nwant %q", tc.opts, rets, want)
		}
		if getCaps != 2 || !named {
			t.Errorf("%q: %d GetCaps calls (want 2), debug message naming the feature %v", tc.opts, getCaps, named)
		}
	}
}
