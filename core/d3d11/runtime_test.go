package d3d11

import (
	"slices"
	"strings"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

func mustStack(t *testing.T, o fakeOpts) *fakeStack {
	t.Helper()
	f, err := newFakeStack(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func vbDesc() BufferDesc {
	return BufferDesc{ByteWidth: 36, Usage: ddi.UsageDefault, BindFlags: ddi.BindVertexBuffer}
}

// names keeps the DDI names of ddiEvents' lines ("ctx Name ...").
func names(events []string) []string {
	out := make([]string, len(events))
	for i, e := range events {
		f := strings.Fields(e)
		out[i] = f[0] + " " + f[1]
	}
	return out
}

// Bad descriptors fail with E_INVALIDARG before any DDI reaches the driver.
func TestCreateValidation(t *testing.T) {
	tests := []struct {
		desc string
		buf  *BufferDesc
		tex  *Texture2DDesc
		data []byte
		want hresult.HRESULT
	}{
		{"vertex buffer", &BufferDesc{ByteWidth: 36, BindFlags: ddi.BindVertexBuffer}, nil, nil, hresult.S_OK},
		{"ByteWidth 0", &BufferDesc{BindFlags: ddi.BindVertexBuffer}, nil, nil, hresult.E_INVALIDARG},
		{"unbound DEFAULT", &BufferDesc{ByteWidth: 16}, nil, nil, hresult.E_INVALIDARG},
		{"constant buffer not a multiple of 16", &BufferDesc{ByteWidth: 20, BindFlags: ddi.BindConstantBuffer}, nil, nil, hresult.E_INVALIDARG},
		{"constant buffer with other flags", &BufferDesc{ByteWidth: 16, BindFlags: ddi.BindConstantBuffer | ddi.BindVertexBuffer}, nil, nil, hresult.E_INVALIDARG},
		{"IMMUTABLE without data", &BufferDesc{ByteWidth: 16, Usage: ddi.UsageImmutable, BindFlags: ddi.BindVertexBuffer}, nil, nil, hresult.E_INVALIDARG},
		{"IMMUTABLE with data", &BufferDesc{ByteWidth: 16, Usage: ddi.UsageImmutable, BindFlags: ddi.BindVertexBuffer}, nil, []byte{1}, hresult.S_OK},
		{"DYNAMIC without CPU write", &BufferDesc{ByteWidth: 16, Usage: ddi.UsageDynamic, BindFlags: ddi.BindVertexBuffer}, nil, nil, hresult.E_INVALIDARG},
		{"DEFAULT with CPU access", &BufferDesc{ByteWidth: 16, BindFlags: ddi.BindVertexBuffer, CPUAccessFlags: ddi.CPUAccessWrite}, nil, nil, hresult.E_INVALIDARG},
		{"buffer as depth stencil", &BufferDesc{ByteWidth: 16, BindFlags: ddi.BindDepthStencil}, nil, nil, hresult.E_INVALIDARG},
		{"buffer as render target", &BufferDesc{ByteWidth: 16, BindFlags: ddi.BindRenderTarget}, nil, nil, hresult.S_OK},
		{"render target", nil, &Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindRenderTarget}, nil, hresult.S_OK},
		{"texture 0x4", nil, &Texture2DDesc{Height: 4, Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindRenderTarget}, nil, hresult.E_INVALIDARG},
		{"depth format without DEPTH_STENCIL", nil, &Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatD32Float, BindFlags: ddi.BindShaderResource}, nil, hresult.E_INVALIDARG},
		{"texture as vertex buffer", nil, &Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindVertexBuffer}, nil, hresult.E_INVALIDARG},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			f := mustStack(t, fakeOpts{})
			f.log.reset()
			var err error
			if tc.buf != nil {
				_, err = f.dev.CreateBuffer("r", *tc.buf, tc.data)
			} else {
				_, err = f.dev.CreateTexture2D("r", *tc.tex, tc.data)
			}
			if got := hresult.Of(err); got != tc.want {
				t.Fatalf("got %v (%v), want %v", got, err, tc.want)
			}
			reached := slices.Contains(f.log.names("IC"), "CreateResource")
			if reached != (tc.want == hresult.S_OK) {
				t.Errorf("CreateResource reached the driver: %v, want %v", reached, tc.want == hresult.S_OK)
			}
		})
	}
}

// A driver without D3D11DDICAPS_FREETHREADED has its DDIs serialised by the
// runtime's DDI lock, but for the CalcPrivate* ones (rules FT-CAP, FT-CALC).
func TestDDILock(t *testing.T) {
	tests := []struct {
		desc string
		o    fakeOpts
		want map[string]bool // DDI -> lock held while the driver ran it
	}{
		{"free-threaded", fakeOpts{},
			map[string]bool{"CalcPrivateResourceSize": false, "CreateResource": false, "IaSetVertexBuffers": false, "Draw": false}},
		// (without FREETHREADED no command lists, so no
		// CalcDeferredContextHandleSize: "D3D11DDI_THREADING_CAPS structure")
		{"not free-threaded", fakeOpts{notFreeThreaded: true, commandLists: true},
			map[string]bool{"CalcPrivateResourceSize": false, "CreateResource": true, "IaSetVertexBuffers": true, "Draw": true}},
		{"not free-threaded, bug=FT-CAP", fakeOpts{notFreeThreaded: true, bugs: rules.Set{rules.FTCap: true}},
			map[string]bool{"CreateResource": false, "Draw": false}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			f := mustStack(t, tc.o)
			vb, err := f.dev.CreateBuffer("vb", vbDesc(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.ic.IASetVertexBuffers(0, vb, 12, 0); err != nil {
				t.Fatal(err)
			}
			if err := f.ic.Draw(3, 0); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, c := range f.log.calls {
				want, ok := tc.want[c.name]
				if !ok {
					continue
				}
				seen[c.name] = true
				if c.held != want {
					t.Errorf("%s: lock held %v, want %v", c.name, c.held, want)
				}
			}
			for name := range tc.want {
				if !seen[name] {
					t.Errorf("%s never reached the driver", name)
				}
			}
			if f.dev.ddiHeld.Load() != 0 {
				t.Errorf("the DDI lock is still held")
			}
		})
	}
}

// FinishCommandList's DDIs in the order "Supporting command lists" gives:
// the command list is created on the immediate context, then the
// context-local handles are closed and the deferred context recycled -- by
// Recycle* DDIs with D3D11DDICAPS_COMMANDLISTS_BUILD_2, else by destroying
// and creating it again.
func TestFinishCommandListOrder(t *testing.T) {
	tests := []struct {
		desc    string
		recycle bool
		want    []string
	}{
		{"without recycling", false, []string{
			"IC CalcPrivateCommandListSize", "IC CreateCommandList", "IC CalcDeferredContextHandleSize",
			"DC1 DestroyResource", "DC1 DestroyDevice", "IC CalcPrivateDeferredContextSize", "IC CreateDeferredContext"}},
		{"with recycling", true, []string{
			"IC CalcPrivateCommandListSize", "IC CreateCommandList", "IC CalcDeferredContextHandleSize",
			"DC1 DestroyResource", "IC RecycleCreateDeferredContext"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			f := mustStack(t, fakeOpts{commandLists: true, recycle: tc.recycle})
			vb, _ := f.dev.CreateBuffer("vb", vbDesc(), nil)
			dc, err := f.dev.CreateDeferredContext("dc")
			if err != nil {
				t.Fatal(err)
			}
			dc.IASetVertexBuffers(0, vb, 12, 0)
			dc.Draw(3, 0)
			from := f.seq()
			l, err := dc.FinishCommandList("cl", false)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(f.ddiEvents(from)); !slices.Equal(got, tc.want) {
				t.Errorf("FinishCommandList's DDIs:\n got %q\nwant %q", got, tc.want)
			}
			if l.State() != "valid" {
				t.Errorf("the list is %s, want valid", l.State())
			}
			if !tc.recycle {
				return
			}
			// The second list reuses the first one's handle: destroyed
			// lightly, folded back into the cache on the deferred context's
			// thread, created again from the cache.
			l.Release()
			if l.State() != "retired" {
				t.Errorf("a released list is %s, want retired", l.State())
			}
			dc.Draw(3, 0)
			from = f.seq()
			if _, err := dc.FinishCommandList("cl2", false); err != nil {
				t.Fatal(err)
			}
			want := []string{"DC1 RecycleCommandList", "IC RecycleCreateCommandList", "IC RecycleCreateDeferredContext"}
			if got := names(f.ddiEvents(from)); !slices.Equal(got, want) {
				t.Errorf("the second FinishCommandList's DDIs:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// A deferred context opens its own handle for an object on first use, a
// resource's before its views' ("Using context-local DDI handles"), with
// the immediate handle as rt and the resource's local handle as the view's
// dependency.
func TestContextLocalHandles(t *testing.T) {
	tests := []struct {
		desc string
		bugs rules.Set
		want []string // the DDIs of OMSetRenderTargets
	}{
		{"resource first", nil, []string{"DC1 CreateResource", "DC1 CreateRenderTargetView", "DC1 SetRenderTargets"}},
		{"bug=CLS-DEP: the view alone", rules.Set{rules.CLSDep: true}, []string{"DC1 CreateRenderTargetView", "DC1 SetRenderTargets"}},
		{"bug=CLS-OPEN: the immediate handles", rules.Set{rules.CLSOpen: true}, []string{"DC1 SetRenderTargets"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			f := mustStack(t, fakeOpts{commandLists: true, recycle: true, bugs: tc.bugs})
			tex, err := f.dev.CreateTexture2D("rt", Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindRenderTarget}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rtv, err := f.dev.CreateView("rtv", ddi.ViewRTV, tex)
			if err != nil {
				t.Fatal(err)
			}
			dc, _ := f.dev.CreateDeferredContext("dc")
			from := f.seq()
			if err := dc.OMSetRenderTargets([]*View{rtv}, nil); err != nil {
				t.Fatal(err)
			}
			ev := f.ddiEvents(from)
			if got := names(ev); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.bugs != nil {
				return
			}
			// DC1 CreateResource hL rt=hT; DC1 CreateRenderTargetView hV rt=hR dep=hL
			res, view := strings.Fields(ev[0]), strings.Fields(ev[1])
			if res[3] != "rt="+handleName(uint32(tex.h)) {
				t.Errorf("the resource's local handle names %s, want rt=%s", res[3], handleName(uint32(tex.h)))
			}
			if view[4] != "dep="+res[2] {
				t.Errorf("the view depends on %s, want dep=%s", view[4], res[2])
			}
			// A second bind in the same command list reuses the handles.
			from = f.seq()
			dc.OMSetRenderTargets([]*View{rtv}, nil)
			if got := names(f.ddiEvents(from)); !slices.Equal(got, []string{"DC1 SetRenderTargets"}) {
				t.Errorf("rebinding: got %q, want the DDI alone", got)
			}
		})
	}
}

// Reference counts: an object released while the immediate context binds it
// lives until unbound, then waits in the runtime's destruction queue until
// Flush; the device goes with its last child.
func TestDeferredDestruction(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	vb, _ := f.dev.CreateBuffer("vb", vbDesc(), nil)
	f.ic.IASetVertexBuffers(0, vb, 12, 0)
	destroyed := func() bool { return slices.Contains(f.log.names("IC"), "DestroyResource") }
	steps := []struct {
		desc      string
		do        func()
		alive     bool
		queued    int
		destroyed bool
	}{
		{"final Release while bound", func() { vb.Release() }, true, 0, false},
		{"unbound: queued", func() { f.ic.IASetVertexBuffers(0, nil, 0, 0) }, false, 1, false},
		{"Flush drains the queue", func() { f.ic.Flush() }, false, 0, true},
	}
	for _, s := range steps {
		s.do()
		if vb.Alive() != s.alive || f.dev.QueuedDestroys() != s.queued || destroyed() != s.destroyed {
			t.Errorf("%s: alive %v queued %d destroyed %v, want %v %d %v", s.desc, vb.Alive(), f.dev.QueuedDestroys(), destroyed(), s.alive, s.queued, s.destroyed)
		}
	}

	// The device outlives its release while a child lives.
	q, _ := f.dev.CreateQuery("q", ddi.QueryEvent)
	if n := f.dev.Release(); n != 0 || !f.dev.Alive() {
		t.Fatalf("Release: %d refs, alive %v; want 0 and alive (a child holds it)", n, f.dev.Alive())
	}
	q.Release()
	if f.dev.Alive() {
		t.Errorf("the device outlived its last child")
	}
	if got := f.log.names("IC"); got[len(got)-1] != "DestroyDevice" {
		t.Errorf("the last DDI is %s, want DestroyDevice", got[len(got)-1])
	}
}

// A released object a deferred context bound keeps its immediate handle
// until the context's handle onto it is closed (rule CLS-FIRST), and, since
// the command list holds a reference on what it recorded, until the list
// goes.
func TestDeferredContextReleasedWhileBound(t *testing.T) {
	f := mustStack(t, fakeOpts{commandLists: true, recycle: true})
	vb, _ := f.dev.CreateBuffer("vb", vbDesc(), nil)
	dc, _ := f.dev.CreateDeferredContext("dc")
	dc.IASetVertexBuffers(0, vb, 12, 0)
	vb.Release()
	from := f.seq()
	dc.IASetVertexBuffers(0, nil, 0, 0)
	if slices.Contains(names(f.ddiEvents(from)), "IC DestroyResource") {
		t.Fatalf("destroyed while the deferred context's handle is open")
	}
	cl, err := dc.FinishCommandList("cl", false)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(names(f.ddiEvents(from)), "IC DestroyResource") {
		t.Fatalf("destroyed while the command list holds it")
	}
	cl.Release()
	got := names(f.ddiEvents(from))
	local, imm := slices.Index(got, "DC1 DestroyResource"), slices.Index(got, "IC DestroyResource")
	if local < 0 || imm < 0 || local > imm {
		t.Errorf("want the local handle closed before the immediate one is destroyed: %q", got)
	}
}

// Without driver command lists the runtime records the calls and replays
// them on the immediate context: nothing reaches the driver before
// ExecuteCommandList.
func TestEmulatedCommandList(t *testing.T) {
	f := mustStack(t, fakeOpts{commandLists: false})
	vb, _ := f.dev.CreateBuffer("vb", vbDesc(), nil)
	dc, err := f.dev.CreateDeferredContext("dc")
	if err != nil {
		t.Fatal(err)
	}
	if !dc.Deferred() || dc.UMD() != nil {
		t.Fatalf("an emulated deferred context: Deferred %v, table %v", dc.Deferred(), dc.UMD())
	}
	f.log.reset()
	dc.IASetVertexBuffers(0, vb, 12, 0)
	dc.Draw(3, 0)
	l, err := dc.FinishCommandList("cl", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.log.names(""); len(got) != 0 {
		t.Fatalf("recording reached the driver: %q", got)
	}
	vb.Release() // the list holds it
	if !vb.Alive() {
		t.Fatalf("the recorded list did not hold its buffer")
	}
	if err := f.ic.ExecuteCommandList(l, false); err != nil {
		t.Fatal(err)
	}
	got := f.log.names("IC")
	if i, j := slices.Index(got, "IaSetVertexBuffers"), slices.Index(got, "Draw"); i < 0 || j < i {
		t.Errorf("replay: got %q, want IaSetVertexBuffers then Draw", got)
	}
	// Calls only the immediate context has fail on a deferred one
	// (ExecuteCommandList does not: a deferred context records the list).
	for _, tc := range []struct {
		desc string
		err  error
	}{
		{"Flush", dc.Flush()},
	} {
		if hresult.Of(tc.err) != hresult.E_INVALIDARG {
			t.Errorf("%s on a deferred context: %v, want E_INVALIDARG", tc.desc, tc.err)
		}
	}
	if _, err := f.ic.FinishCommandList("x", false); hresult.Of(err) != hresult.E_INVALIDARG {
		t.Errorf("FinishCommandList on the immediate context: %v, want E_INVALIDARG", err)
	}
}

// Map follows D3D11's usage rules, stricter on a deferred context.
func TestMapRules(t *testing.T) {
	dyn := BufferDesc{ByteWidth: 16, Usage: ddi.UsageDynamic, BindFlags: ddi.BindVertexBuffer, CPUAccessFlags: ddi.CPUAccessWrite}
	staging := BufferDesc{ByteWidth: 16, Usage: ddi.UsageStaging, CPUAccessFlags: ddi.CPUAccessRead}
	tests := []struct {
		desc     string
		deferred bool
		buf      BufferDesc
		mt       ddi.MapType
		want     hresult.HRESULT
	}{
		{"DYNAMIC WRITE_DISCARD", false, dyn, ddi.MapWriteDiscard, hresult.S_OK},
		{"DYNAMIC READ", false, dyn, ddi.MapRead, hresult.E_INVALIDARG},
		{"DEFAULT", false, vbDesc(), ddi.MapWriteDiscard, hresult.E_INVALIDARG},
		{"STAGING READ", false, staging, ddi.MapRead, hresult.S_OK},
		{"STAGING WRITE without CPU write", false, staging, ddi.MapWrite, hresult.E_INVALIDARG},
		{"deferred DYNAMIC WRITE_DISCARD", true, dyn, ddi.MapWriteDiscard, hresult.S_OK},
		{"deferred DYNAMIC WRITE_NO_OVERWRITE first", true, dyn, ddi.MapWriteNoOverwrite, hresult.D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD},
		{"deferred STAGING", true, staging, ddi.MapRead, hresult.E_INVALIDARG},
	}
	for _, kind := range []struct {
		desc string
		cl   bool
	}{{"driver command lists", true}, {"emulated", false}} {
		for _, tc := range tests {
			t.Run(kind.desc+"/"+tc.desc, func(t *testing.T) {
				f := mustStack(t, fakeOpts{commandLists: kind.cl})
				r, err := f.dev.CreateBuffer("r", tc.buf, nil)
				if err != nil {
					t.Fatal(err)
				}
				ctx := f.ic
				if tc.deferred {
					ctx, _ = f.dev.CreateDeferredContext("dc")
				}
				_, err = ctx.Map(r, tc.mt, 0)
				if got := hresult.Of(err); got != tc.want {
					t.Fatalf("Map: %v (%v), want %v", got, err, tc.want)
				}
				if err == nil {
					if err := ctx.Unmap(r); err != nil {
						t.Errorf("Unmap: %v", err)
					}
				}
			})
		}
	}
}

// The boundary wrapper: each DDI is a Call event nested in its API call's
// and a Return event with the DDI's HRESULT; a failing DDI's error reaches
// the application.
func TestDDITrace(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	f.log.fail["CreateResource"] = hresult.E_OUTOFMEMORY
	from := f.seq()
	if _, err := f.dev.CreateBuffer("vb", vbDesc(), nil); hresult.Of(err) != hresult.E_OUTOFMEMORY {
		t.Fatalf("CreateBuffer: %v, want E_OUTOFMEMORY", err)
	}
	var api, call, ret *trace.Event
	f.rec.ViewSince(from, func(held []trace.Event) {
		for i := range held {
			e := held[i]
			switch {
			case e.Name == "CreateBuffer" && e.Kind == trace.Call:
				api = &e
			case e.Name == "CreateResource" && e.Kind == trace.Call:
				call = &e
			case e.Name == "CreateResource" && e.Kind == trace.Return:
				ret = &e
			}
		}
	})
	if api == nil || call == nil || ret == nil {
		t.Fatalf("missing events: API %v, DDI call %v, return %v", api, call, ret)
	}
	if call.Parent != api.Seq || call.Ctx != "IC" || call.Obj != "vb" || !strings.HasPrefix(call.Args.String(), "usage=DEFAULT dev=dev") || call.Args.Str(trace.KeyUsage) != "DEFAULT" {
		t.Errorf("DDI call: parent %d ctx %q obj %q args %q; want parent %d, IC, vb, usage=DEFAULT dev=dev", call.Parent, call.Ctx, call.Obj, call.Args, api.Seq)
	}
	// CreateResource is void: no HR on its return, the error is the one the
	// driver reported through pfnSetErrorCb, named in the message.
	if ret.HR != "" || !strings.Contains(ret.Msg, "E_OUTOFMEMORY") || ret.Handle != call.Handle {
		t.Errorf("DDI return: HR %q msg %q handle %q, want no HR, E_OUTOFMEMORY in the message, %q", ret.HR, ret.Msg, ret.Handle, call.Handle)
	}
}

// TestNoCommandListDDIsWithoutTheCap: a driver that does not report
// D3D11DDICAPS_COMMANDLISTS_BUILD_2 gets no command-list or deferred-context
// DDI at all ("D3D11DDI_THREADING_CAPS structure"; the runtime emulates
// command lists, "D3D11_FEATURE_DATA_THREADING structure"): not the handle
// size polls at device creation, not CalcDeferredContextHandleSize after a
// creation, not CreateDeferredContext.
func TestNoCommandListDDIsWithoutTheCap(t *testing.T) {
	for _, withCap := range []bool{false, true} {
		f := mustStack(t, fakeOpts{commandLists: withCap})
		if _, err := f.dev.CreateBuffer("vb", vbDesc(), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := f.dev.CreateDeferredContext("dc"); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range f.log.calls {
			switch c.name {
			case "CheckDeferredContextHandleSizes", "CalcDeferredContextHandleSize", "CalcPrivateDeferredContextSize", "CreateDeferredContext":
				got = append(got, c.name)
			}
		}
		if withCap != (len(got) > 0) {
			t.Errorf("cap %v: command-list DDIs %v", withCap, got)
		}
	}
}

// TestFormatBindValidation: the runtime checks a texture's format against
// its bind flags itself ("Format support for Direct3D Feature Level 11.0
// hardware"): a depth format is no shader resource (a depth buffer shaders
// read is created typeless) and no render target, a colour format no depth
// stencil. E_INVALIDARG before the driver sees the resource, and the debug
// layer's message names the format and the flag.
func TestFormatBindValidation(t *testing.T) {
	tests := []struct {
		desc       string
		format     ddi.Format
		binds      ddi.BindFlag
		ok         bool
		name, flag string
	}{
		{"depth buffer", ddi.FormatD32Float, ddi.BindDepthStencil, true, "", ""},
		{"D32_FLOAT read by shaders", ddi.FormatD32Float, ddi.BindDepthStencil | ddi.BindShaderResource, false, "D32_FLOAT", "D3D11_BIND_SHADER_RESOURCE"},
		{"D24_UNORM_S8_UINT read by shaders", ddi.FormatD24UnormS8Uint, ddi.BindDepthStencil | ddi.BindShaderResource, false, "D24_UNORM_S8_UINT", "D3D11_BIND_SHADER_RESOURCE"},
		{"D32_FLOAT as render target", ddi.FormatD32Float, ddi.BindDepthStencil | ddi.BindRenderTarget, false, "D32_FLOAT", "D3D11_BIND_RENDER_TARGET"},
		{"R8G8B8A8_UNORM as depth stencil", ddi.FormatR8G8B8A8Unorm, ddi.BindDepthStencil, false, "R8G8B8A8_UNORM", "D3D11_BIND_DEPTH_STENCIL"},
		{"R32_FLOAT render target and shader resource", ddi.FormatR32Float, ddi.BindRenderTarget | ddi.BindShaderResource, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			f := mustStack(t, fakeOpts{debug: true})
			f.log.reset()
			_, err := f.dev.CreateTexture2D("tex", Texture2DDesc{Width: 4, Height: 4, Format: tt.format, BindFlags: tt.binds}, nil)
			if tt.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if hresult.Of(err) != hresult.E_INVALIDARG {
				t.Fatalf("got %v, want E_INVALIDARG", err)
			}
			if slices.Contains(f.log.names("IC"), "CreateResource") {
				t.Error("the driver saw the resource")
			}
			if msg := err.Error(); !strings.Contains(msg, tt.name) || !strings.Contains(msg, tt.flag) {
				t.Errorf("message %q does not name %s and %s", msg, tt.name, tt.flag)
			}
		})
	}
}
