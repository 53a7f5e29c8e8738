package d3d11

import (
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// sizedUMD is the fake driver answering other sizes: private for every
// CalcPrivate*Size, cls for CalcDeferredContextHandleSize, and sizes for
// CheckDeferredContextHandleSizes.
type sizedUMD struct {
	*fakeUMD
	private, cls int
	sizes        []ddi.HandleSize
}

func (u *sizedUMD) CalcPrivateResourceSize(*ddi.CreateResourceArgs) int { return u.private }
func (u *sizedUMD) CalcPrivateViewSize(*ddi.CreateViewArgs) int         { return u.private }
func (u *sizedUMD) CalcPrivateShaderSize(*ddi.ShaderArgs) int           { return u.private }
func (u *sizedUMD) CalcPrivateBlendStateSize(*ddi.BlendDesc) int        { return u.private }
func (u *sizedUMD) CalcPrivateQuerySize(ddi.QueryType) int              { return u.private }
func (u *sizedUMD) CalcDeferredContextHandleSize(ddi.HDEVICE, ddi.HandleType, uint32) int {
	return u.cls
}
func (u *sizedUMD) CheckDeferredContextHandleSizes(_ ddi.HDEVICE, sizes []ddi.HandleSize) int {
	copy(sizes, u.sizes)
	return len(u.sizes)
}

type sizedAdapter struct {
	fakeAdapter
	u *sizedUMD
}

func (a *sizedAdapter) CreateDevice(h ddi.HDEVICE, args *ddi.CreateDeviceArgs) (ddi.Device, error) {
	u, err := a.fakeAdapter.CreateDevice(h, args)
	a.u.fakeUMD = u.(*fakeUMD)
	return a.u, err
}

func newSizedStack(t *testing.T, u *sizedUMD) *fakeStack {
	t.Helper()
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	log := &fakeLog{fail: map[string]error{}}
	rt := New(Config{Sim: s, Rec: rec, Kernel: &fakeKernel{}, Adapter: &sizedAdapter{fakeAdapter{log: log}, u}, CommandLists: true, Recycle: true, FreeThreaded: true})
	dev, ic, err := rt.D3D11CreateDevice("dev", 0)
	if err != nil {
		t.Fatal(err)
	}
	return &fakeStack{rt: rt, rec: rec, log: log, dev: dev, ic: ic}
}

// TestPrivateSizes: the driver part the runtime allocates for an object is
// the size CalcPrivate*Size answered, counted with the object and traced
// on the DDI's Return ("Using context-local DDI handles": the driver tells
// the API how much memory it needs).
func TestPrivateSizes(t *testing.T) {
	for _, size := range []int{0, 40, 1000} {
		f := newSizedStack(t, &sizedUMD{private: size, cls: 16, sizes: []ddi.HandleSize{{Type: ddi.HTResource, Size: 16}}})
		before := f.dev.ObjectBytes()
		from := f.seq()
		tex, err := f.dev.CreateTexture2D("t", Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rtv, _ := f.dev.CreateView("rtv", ddi.ViewRTV, tex)
		vs, _ := createBuiltin(f.dev, "vs", "vs_passthrough")
		bs, _ := f.dev.CreateBlendState("bs", ddi.DefaultBlendDesc())
		q, _ := f.dev.CreateQuery("q", ddi.QueryEvent)
		for _, o := range []interface{ PrivateSize() int }{tex, rtv, vs, bs, q} {
			if got := o.PrivateSize(); got != size {
				t.Errorf("private %d: %T has a driver part of %d bytes", size, o, got)
			}
		}
		// (a shader counts the bytecode the runtime copied too)
		want := 5*int64(ObjectOverhead+size) + ResourceOverhead + int64(len(builtinCode(t, "vs_passthrough")))
		if got := f.dev.ObjectBytes() - before; got != want {
			t.Errorf("private %d: %d bytes counted, want %d", size, got, want)
		}
		n := 0
		f.rec.ViewSince(from, func(held []trace.Event) {
			for _, e := range held {
				if e.Kind == trace.Return && len(e.Name) > 11 && e.Name[:11] == "CalcPrivate" {
					n++
					if v, _ := e.Args.Int(trace.KeySize); v != int64(size) {
						t.Errorf("private %d: %s returns size=%d", size, e.Name, v)
					}
				}
			}
		})
		if n != 5 {
			t.Errorf("private %d: %d CalcPrivate*Size returns traced, want 5", size, n)
		}
		for _, o := range []Object{rtv, tex, vs, bs, q} {
			o.Release()
		}
		if got := f.dev.ObjectBytes(); got != before {
			t.Errorf("private %d: %d bytes after the Releases, want %d", size, got, before)
		}
	}
}

// TestCLSAllocator: CheckDeferredContextHandleSizes' array sizes the
// context-local handle allocator (one pool per size); a deferred context's
// handle takes a slot of CalcDeferredContextHandleSize's size, kept when
// the handle closes until pfnPerformAmortizedProcessingCb trims it, and the
// trim frees what it reports.
func TestCLSAllocator(t *testing.T) {
	tests := []struct {
		desc  string
		cls   int
		sizes []ddi.HandleSize
		pools []CLSPool // after a list that opened two handles, closed
	}{
		{"one size", 16, []ddi.HandleSize{{Type: ddi.HTResource, Size: 16}, {Type: ddi.HTRenderTargetView, Size: 16}},
			[]CLSPool{{16, 0, 2}}},
		{"two sizes", 48, []ddi.HandleSize{{Type: ddi.HTResource, Size: 48}, {Type: ddi.HTRenderTargetView, Size: 24}},
			[]CLSPool{{48, 0, 2}, {24, 0, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			f := newSizedStack(t, &sizedUMD{private: 64, cls: tt.cls, sizes: tt.sizes})
			tex, _ := f.dev.CreateTexture2D("t", Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget}, nil)
			rtv, _ := f.dev.CreateView("rtv", ddi.ViewRTV, tex)
			dc, err := f.dev.CreateDeferredContext("dc")
			if err != nil {
				t.Fatal(err)
			}
			dc.ClearRenderTargetView(rtv, [4]float32{})
			if got, want := f.dev.CLSBytes(), int64(2*tt.cls); got != want {
				t.Errorf("two open handles hold %d bytes, want %d", got, want)
			}
			l, err := dc.FinishCommandList("l", false)
			if err != nil {
				t.Fatal(err)
			}
			l.Release()
			dc.Release()
			if got := f.dev.CLSPools(); !equalPools(got, tt.pools) {
				t.Errorf("pools %v after the handles closed, want %v", got, tt.pools)
			}
			before := f.dev.ObjectBytes()
			from := f.seq()
			(*callbacks)(f.dev).PfnPerformAmortizedProcessingCb(ddi.HRTCORELAYER(f.dev.hrt))
			if got, want := before-f.dev.ObjectBytes(), int64(2*tt.cls); got != want {
				t.Errorf("the trim freed %d bytes, want %d", got, want)
			}
			if f.dev.CLSBytes() != 0 {
				t.Errorf("the allocator holds %d bytes after the trim", f.dev.CLSBytes())
			}
			trimmed := false
			f.rec.ViewSince(from, func(held []trace.Event) {
				for _, e := range held {
					if e.Name == "TrimHighWaterMarks" {
						high, _ := e.Args.Int(trace.KeyCLSHigh)
						open, _ := e.Args.Int(trace.KeyCLSInUse)
						trimmed = high == 2 && open == 0
					}
				}
			})
			if !trimmed {
				t.Errorf("no TrimHighWaterMarks reporting 2 slots trimmed to 0")
			}
		})
	}
}

func equalPools(a, b []CLSPool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
