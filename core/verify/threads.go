package verify

import (
	"strings"

	"d3dsim/core/trace"
)

// Thread rules of seed 000 for the callbacks, and ERR-APP.

// rootCall is the outermost call enclosing e (nil when e is at top level).
func (v *Verifier) rootCall(e *trace.Event) *trace.Event {
	var root *trace.Event
	for p := v.parent(e); p != nil; p = v.parent(p) {
		root = p
	}
	return root
}

func (v *Verifier) callbacks(e *trace.Event) []Violation {
	if v.blame == nil {
		v.blame = map[string]string{}
	}
	var out []Violation
	switch {
	// FT-PRESENT: pfnPresentCb only during PresentDXGI.
	case e.Kind == trace.Call && e.Name == "pfnPresentCb":
		if p := v.parent(e); p == nil || p.Name != "PresentDXGI" {
			where := "outside any DDI"
			if p != nil {
				where = "inside " + p.Name
			}
			out = append(out, v.violation("FT-PRESENT", e, "pfnPresentCb called %s: only during PresentDXGI", where))
		}
	// FT-MODE: pfnSetDisplayModeCb only during SetDisplayModeDXGI.
	case e.Kind == trace.Call && e.Name == "pfnSetDisplayModeCb":
		if p := v.parent(e); p == nil || p.Name != "SetDisplayModeDXGI" {
			where := "outside any DDI"
			if p != nil {
				where = "inside " + p.Name
			}
			out = append(out, v.violation("FT-MODE", e, "pfnSetDisplayModeCb called %s: only during SetDisplayModeDXGI", where))
		}
	// FT-RENDER: pfnRenderCb only on the immediate context's thread, from a
	// call on the immediate context (Flush, or a buffer filling up).
	case e.Kind == trace.Call && e.Name == "pfnRenderCb":
		if r := v.rootCall(e); r != nil && r.Layer == trace.Runtime && r.From == trace.App && r.Ctx != "IC" &&
			r.Name != "DestroyDevice" && r.Name != "D3D11CreateDevice" {
			out = append(out, v.violation("FT-RENDER", e, "pfnRenderCb inside %s on thread %s: only the immediate context's thread, which calls Flush, may submit", r.Name, e.Thread))
		}
	// ERR-APP: who the debug layer blames.
	case e.Kind == trace.Return && e.Layer == trace.UMD && (e.HR == "D3DDDIERR_APPLICATIONERROR" || e.HR == "E_INVALIDARG"):
		v.blame[e.Thread] = e.HR
	case e.Kind == trace.Message && e.Layer == trace.Runtime && v.blame[e.Thread] != "":
		hr := v.blame[e.Thread]
		delete(v.blame, e.Thread)
		app := strings.HasPrefix(e.Msg, "D3D11 ERROR")
		if hr == "D3DDDIERR_APPLICATIONERROR" && !app {
			out = append(out, v.violation("ERR-APP", e, "the driver returned D3DDDIERR_APPLICATIONERROR but the debug layer did not blame the application: %q", e.Msg))
		}
		if hr == "E_INVALIDARG" && app {
			out = append(out, v.violation("ERR-APP", e, "the driver returned E_INVALIDARG (its own error) but the debug layer blamed the application: %q", e.Msg))
		}
	case e.Kind == trace.Return && e.Layer == trace.Runtime && e.From == trace.App:
		delete(v.blame, e.Thread)
	}
	return out
}
