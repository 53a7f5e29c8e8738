package d3d11

import (
	"strings"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

// fill creates event queries on dev until one fails; it returns them and
// the error.
func fill(dev *Device, max int) ([]*Query, error) {
	var qs []*Query
	for range max {
		q, err := dev.CreateQuery("q", ddi.QueryEvent)
		if err != nil {
			return qs, err
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// A device's budget (Config.MaxAllocBytes, option sysmem) bounds its
// objects' runtime and driver memory with its allocations: past it a
// creation fails with E_OUTOFMEMORY before any DDI, and the debug layer
// names the limit. A Release makes room again; the count goes back to 0.
func TestDeviceMemoryBudget(t *testing.T) {
	const budget = 1 << 20
	f := mustStack(t, fakeOpts{debug: true, maxAllocBytes: budget})
	qs, err := fill(f.dev, 10_000)
	if hresult.Of(err) != hresult.E_OUTOFMEMORY {
		t.Fatalf("after %d queries: %v, want E_OUTOFMEMORY", len(qs), err)
	}
	// The fake's private size; the context-local handles' size is
	// counted by the allocator's pools, when a deferred context opens one.
	per := int64(ObjectOverhead + 64)
	if want := int(budget / per); len(qs) != want {
		t.Errorf("%d queries before the limit, want %d", len(qs), want)
	}
	if got := f.dev.ObjectBytes(); got != int64(len(qs))*per || got > budget {
		t.Errorf("ObjectBytes %d, want %d", got, int64(len(qs))*per)
	}
	if !strings.Contains(err.Error(), "memory limit of 1048576 bytes (option sysmem=SIZE)") {
		t.Errorf("error %q does not name the limit", err)
	}
	from := f.seq()
	f.log.reset()
	_, err = f.dev.CreateBuffer("vb", vbDesc(), nil)
	if hresult.Of(err) != hresult.E_OUTOFMEMORY {
		t.Fatalf("CreateBuffer at the limit: %v", err)
	}
	if slices := f.log.names(""); len(slices) != 1 || slices[0] != "CalcPrivateResourceSize" {
		t.Errorf("DDIs of a creation past the limit: %q, want only CalcPrivateResourceSize", slices)
	}
	if m := f.messages(from); len(m) != 1 || !strings.Contains(m[0].Msg, "option sysmem") || !strings.Contains(m[0].Msg, "CreateResource(vb)") {
		t.Errorf("debug messages %v, want one naming the limit", m)
	}
	qs[0].Release()
	if _, err := f.dev.CreateQuery("again", ddi.QueryEvent); err != nil {
		t.Errorf("after a Release: %v", err)
	}
	for _, q := range qs {
		q.Release()
	}
	if got, rt := f.dev.ObjectBytes(), f.rt.ObjectBytes(); got != per || rt != per {
		t.Errorf("after the Releases: device %d, runtime %d bytes, want %d", got, rt, per)
	}
}

// The runtime's budget (Config.MaxRuntimeObjectBytes) bounds all its
// devices' objects together: a second device cannot get round it.
func TestRuntimeMemoryBudget(t *testing.T) {
	const budget = 1 << 20
	f := mustStack(t, fakeOpts{debug: true, maxRuntimeBytes: budget, commandLists: true})
	qs, err := fill(f.dev, 10_000)
	if hresult.Of(err) != hresult.E_OUTOFMEMORY || !strings.Contains(err.Error(), "the runtime's limit of 1048576 bytes") {
		t.Fatalf("after %d queries: %v, want E_OUTOFMEMORY naming the runtime's limit", len(qs), err)
	}
	d2, _, err := f.rt.D3D11CreateDevice("dev2", CreateDeviceDebug)
	if err != nil {
		t.Fatal(err)
	}
	from := f.seq()
	if _, err := createBuiltin(d2, "vs", "vs_passthrough"); hresult.Of(err) != hresult.E_OUTOFMEMORY {
		t.Fatalf("a second device: %v, want E_OUTOFMEMORY", err)
	}
	if _, err := d2.CreateDeferredContext("dc"); hresult.Of(err) != hresult.E_OUTOFMEMORY {
		t.Fatalf("a deferred context: %v, want E_OUTOFMEMORY", err)
	}
	if m := f.messages(from); len(m) != 2 || !strings.Contains(m[0].Msg, "the runtime's limit") {
		t.Errorf("debug messages %v, want two naming the runtime's limit", m)
	}
	if got := f.rt.ObjectBytes(); got > budget {
		t.Errorf("the runtime counts %d bytes, past its limit", got)
	}
	for _, q := range qs[:10] {
		q.Release()
	}
	if _, err := createBuiltin(d2, "vs", "vs_passthrough"); err != nil {
		t.Errorf("after Releases on the first device: %v", err)
	}
}

// Every kind of object is counted while it lives and given back with it.
func TestObjectBytesCounted(t *testing.T) {
	for _, cl := range []bool{true, false} {
		f := mustStack(t, fakeOpts{commandLists: cl})
		tex, _ := f.dev.CreateTexture2D("t", Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget}, nil)
		rtv, _ := f.dev.CreateView("rtv", ddi.ViewRTV, tex)
		vs, _ := createBuiltin(f.dev, "vs", "vs_passthrough")
		bs, _ := f.dev.CreateBlendState("bs", ddi.DefaultBlendDesc())
		q, _ := f.dev.CreateQuery("q", ddi.QueryEvent)
		sc, _ := f.dev.CreateSwapChain("sc", 4, 4, 1)
		dc, _ := f.dev.CreateDeferredContext("dc")
		dc.ClearRenderTargetView(rtv, [4]float32{})
		l, err := dc.FinishCommandList("l", false)
		if err != nil {
			t.Fatal(err)
		}
		if n := f.dev.ObjectBytes(); n < 9*ObjectOverhead {
			t.Errorf("commandlists=%v: %d bytes for 9 objects", cl, n)
		}
		for _, o := range []Object{l, rtv, tex, vs, bs, q, sc} {
			o.Release()
		}
		dc.Release()
		// The context-local handle allocator keeps its slots (the fake's
		// 16 bytes each) until the amortized processing trims it.
		if n, pools := f.dev.ObjectBytes(), f.dev.CLSBytes(); n != pools || cl && pools != 2*16 {
			t.Errorf("commandlists=%v: %d bytes left after every Release, the allocator holds %d", cl, n, pools)
		}
		(*callbacks)(f.dev).PfnPerformAmortizedProcessingCb(ddi.HRTCORELAYER(f.dev.hrt))
		if n := f.dev.ObjectBytes(); n != 0 {
			t.Errorf("commandlists=%v: %d bytes left after the trim", cl, n)
		}
	}
}
