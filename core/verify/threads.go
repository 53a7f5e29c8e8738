package verify

import (
	"d3dsim/core/rules"
	"strings"

	"d3dsim/core/trace"
)

// Thread rules of "Changes from Direct3D 10" for the callbacks, and ERR-APP.

// rootCall is the outermost call enclosing e (nil when e is at top level).
func (v *Verifier) rootCall(e *trace.Event) *trace.Event {
	var root *trace.Event
	for p := v.parent(e); p != nil; p = v.parent(p) {
		root = p
	}
	return root
}

// inPrimaryDDI reports whether e runs inside CreateResource or
// DestroyResource of a primary: "Changes from Direct3D 10" puts those in the
// immediate context's thread domain, so the driver may submit the immediate
// context's command buffer there, whichever API call (a swap chain's Release)
// led to them.
func (v *Verifier) inPrimaryDDI(e *trace.Event) bool {
	for p := v.parent(e); p != nil; p = v.parent(p) {
		if p.Layer == trace.UMD && (p.Name == "CreateResource" || p.Name == "DestroyResource") {
			return v.dd.primary[p.Handle]
		}
	}
	return false
}

func (v *Verifier) callbacks(e *trace.Event) []Violation {
	var out []Violation
	switch {
	// FT-PRESENT: pfnPresentCb only during PresentDXGI.
	case e.Kind == trace.Call && e.Name == "pfnPresentCb":
		if p := v.parent(e); p == nil || p.Name != "PresentDXGI" {
			where := "outside any DDI"
			if p != nil {
				where = "inside " + p.Name
			}
			out = append(out, v.violation(rules.FTPresent, e, "pfnPresentCb called %s: only during PresentDXGI", where))
		}
	// FT-MODE: pfnSetDisplayModeCb only during SetDisplayModeDXGI.
	case e.Kind == trace.Call && e.Name == "pfnSetDisplayModeCb":
		if p := v.parent(e); p == nil || p.Name != "SetDisplayModeDXGI" {
			where := "outside any DDI"
			if p != nil {
				where = "inside " + p.Name
			}
			out = append(out, v.violation(rules.FTMode, e, "pfnSetDisplayModeCb called %s: only during SetDisplayModeDXGI", where))
		}
	// FT-RENDER: pfnRenderCb only on the immediate context's thread, from a
	// call on the immediate context (Flush, or a buffer filling up).
	case e.Kind == trace.Call && e.Name == "pfnRenderCb":
		if r := v.rootCall(e); r != nil && r.Layer == trace.Runtime && r.From == trace.App && r.Ctx != "IC" &&
			r.Name != "DestroyDevice" && r.Name != "D3D11CreateDevice" && !v.inPrimaryDDI(e) {
			out = append(out, v.violation(rules.FTRender, e, "pfnRenderCb inside %s on thread %s: only the immediate context's thread, which calls Flush, may submit", r.Name, e.Thread))
		}
	// ERR-APP: who the debug layer blames for an error the driver reported
	// through pfnSetErrorCb (its DDIs are void: "Changes from Direct3D 10").
	case e.Kind == trace.Call && e.Name == "pfnSetErrorCb" && (e.HR == "D3DDDIERR_APPLICATIONERROR" || e.HR == "E_INVALIDARG"):
		v.ths.of(e.Thread).blame = e.HR
	case e.Kind == trace.Message && e.Layer == trace.Runtime && v.ths.of(e.Thread).blame != "":
		t := v.ths.of(e.Thread)
		hr := t.blame
		t.blame = ""
		app := strings.HasPrefix(e.Msg, "D3D11 ERROR")
		if hr == "D3DDDIERR_APPLICATIONERROR" && !app {
			out = append(out, v.violation(rules.ErrApp, e, "the driver returned D3DDDIERR_APPLICATIONERROR but the debug layer did not blame the application: %q", e.Msg))
		}
		if hr == "E_INVALIDARG" && app {
			out = append(out, v.violation(rules.ErrApp, e, "the driver returned E_INVALIDARG (its own error) but the debug layer blamed the application: %q", e.Msg))
		}
	case e.Kind == trace.Return && e.Layer == trace.Runtime && e.From == trace.App:
		v.ths.of(e.Thread).blame = ""
	}
	return out
}

// thState is what the rules follow per simulated thread. One struct found
// once per event instead of a map per rule keyed by the thread's name
// (those look-ups were most of the verifier's time per Draw).
type thState struct {
	// AM-SUBMIT, AM-BALANCE, AM-DC (amortize.go)
	submits   int    // immediate-context submissions since the last amortized call
	lastAt    int64  // time of the last amortized call
	work      bool   // immediate-context DDI work since then
	lastWasAm bool   // no DDI since the last amortized call
	drawAt    int64  // entry time of the Draw the thread is in
	busyAt    int64  // entry of the first immediate-context DDI since the last amortized call
	execute   *execN // the CommandListExecute the thread is in
	// ERR-ASYNC (async.go)
	openRoot uint64 // the API call in progress
	// FT-CAP (freethread.go)
	ddis []string // open DDI calls (not CalcPrivate*)
	// ERR-APP (callbacks)
	blame string // the error a DDI just returned
}

// threads finds a thread's state; most events follow one on the same
// thread, whose name is the same interned string (a pointer compare).
type threads struct {
	m        map[string]*thState
	lastName string
	last     *thState
}

func (t *threads) of(name string) *thState {
	if t.last != nil && name == t.lastName {
		return t.last
	}
	s := t.m[name]
	if s == nil {
		if t.m == nil {
			t.m = map[string]*thState{}
		}
		s = &thState{}
		t.m[name] = s
	}
	t.lastName, t.last = name, s
	return s
}
