package machine

import (
	"errors"
	"slices"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
)

// config is the machine a scenario with no options gets.
func config() Config {
	return Config{Seed: 1, VRAM: 256 << 20, Engines: 1, CommandBuffer: 64 << 10, Bugs: rules.Set{},
		Recycle: true, CommandLists: true, FreeThreaded: true, MaxAllocBytes: 512 << 20, MaxObjects: 100_000}
}

// TestPresentReadBackLive: a swap chain cleared and presented goes through
// every layer to the display engine (OnFrame); ReadBack returns what the GPU
// wrote; Live counts each layer's objects and reaches zero once everything
// is released.
func TestPresentReadBackLive(t *testing.T) {
	var frames []Frame
	c := config()
	c.OnFrame = func(f Frame) { frames = append(frames, f) }
	m := New(c)
	dev, imm, err := m.Runtime().D3D11CreateDevice("dev", 0)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := dev.CreateSwapChain("sc", 8, 4, 1)
	bb, _ := sc.GetBuffer(0)
	rtv, err := dev.CreateView("rtv", d3d11.ViewRTV, bb)
	if err != nil {
		t.Fatal(err)
	}
	imm.ClearRenderTargetView(rtv, [4]float32{1, 0, 0, 1})
	if err := sc.Present(0); err != nil {
		t.Fatal(err)
	}
	m.Idle()
	if len(frames) != 1 || frames[0].Width != 8 || frames[0].Height != 4 {
		t.Fatalf("frames %v", frames)
	}
	if p := frames[0].Pix[:4]; p[0] != 255 || p[1] != 0 || p[2] != 0 || p[3] != 255 {
		t.Errorf("presented pixel %v, want red", p)
	}
	data, err := m.ReadBack(bb)
	if err != nil || len(data) < 8*4*4 {
		t.Fatalf("ReadBack: %d bytes, %v", len(data), err)
	}
	if st := m.GPUStats(); st.Buffers == 0 {
		t.Errorf("GPU stats %+v: no DMA buffer executed", st)
	}
	l := m.Live()
	if l.APIObjects == 0 || l.DriverObjects == 0 || l.Allocations == 0 || l.KernelDevices != 1 || l.KernelContexts == 0 || l.KernelAllocations == 0 {
		t.Errorf("live %v: a layer counts nothing", l)
	}
	if l.Total() != l.APIObjects+l.DriverObjects+l.Allocations+l.KernelDevices+l.KernelContexts+l.KernelAllocations {
		t.Errorf("Total %d of %v", l.Total(), l)
	}
	for _, o := range []d3d11.Object{rtv, bb, sc} {
		o.Release()
	}
	imm.ClearState()
	dev.Release()
	m.Idle()
	if l := m.Live(); l.Total() != 0 {
		t.Errorf("after Release, live %v", l)
	}
}

func TestFaults(t *testing.T) {
	fs := Faults()
	if !slices.IsSorted(fs) || len(fs) != 10 {
		t.Errorf("Faults() = %v, want 10 sorted", fs)
	}
	for _, f := range fs {
		if !f.Known() {
			t.Errorf("%s is not Known", f)
		}
	}
	if Fault("gpu.melt").Known() {
		t.Error("gpu.melt is Known")
	}
}

// TestInjectOutOfMemory: the API method names the DDI that fails, on the
// device's table; an object without a DDI table cannot take the fault.
func TestInjectOutOfMemory(t *testing.T) {
	m := New(config())
	dev, _, _ := m.Runtime().D3D11CreateDevice("dev", 0)
	if err := m.InjectOutOfMemory(dev, "CreateBuffer", 1); err != nil {
		t.Fatal(err)
	}
	desc := d3d11.BufferDesc{ByteWidth: 16, Usage: d3d11.UsageDefault, BindFlags: d3d11.BindVertexBuffer}
	if _, err := dev.CreateBuffer("a", desc, nil); hresult.Of(err) != hresult.E_OUTOFMEMORY {
		t.Errorf("CreateBuffer after the injection: %v, want E_OUTOFMEMORY", err)
	}
	if _, err := dev.CreateBuffer("b", desc, nil); err != nil {
		t.Errorf("the second CreateBuffer (count=1): %v", err)
	}
	if err := m.InjectOutOfMemory("dev", "CreateBuffer", 1); !errors.Is(err, ErrCannotInject) {
		t.Errorf("injecting into a string: %v", err)
	}
}

func TestInjectForeignAllocation(t *testing.T) {
	m := New(config())
	a, _, _ := m.Runtime().D3D11CreateDevice("a", 0)
	b, _, _ := m.Runtime().D3D11CreateDevice("b", 0)
	res, err := a.CreateBuffer("buf", d3d11.BufferDesc{ByteWidth: 16, BindFlags: d3d11.BindVertexBuffer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.InjectForeignAllocation(b, res); err != nil {
		t.Error(err)
	}
}
