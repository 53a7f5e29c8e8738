//go:build !js

// (WebAssembly has no threads: these tests are for the race detector.)

package scenario

import (
	"fmt"
	"sync"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/machine"
)

// TestRaceDeferredContexts: real goroutines record deferred contexts and
// create and destroy objects at the same time, the way a multithreaded
// engine drives D3D11 (the free-threaded Create*/Destroy* and one thread per
// deferred context). Run with -race. The immediate context then executes
// the lists; every quadrant shows its colour and nothing leaks.
func TestRaceDeferredContexts(t *testing.T) {
	var frames []machine.Frame
	st := machine.New(decodeOptions(&Script{}, Overrides{}).machine(func(f machine.Frame) { frames = append(frames, f) }, nil))
	dev, imm, err := st.Runtime().D3D11CreateDevice("dev", 0)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := dev.CreateSwapChain("sc", 64, 64, 1)
	bb, _ := sc.GetBuffer(0)
	rtv, _ := dev.CreateView("rtv", d3d11.ViewRTV, bb)
	vs, _ := createBuiltin(t, dev, "vs", "vs_passthrough")
	ps, _ := createBuiltin(t, dev, "ps", "ps_solid")
	quad, _ := dev.CreateBuffer("quad", d3d11.BufferDesc{ByteWidth: 216, Usage: d3d11.UsageImmutable, BindFlags: d3d11.BindVertexBuffer}, f32Bytes(meshes["quad"]))
	colors := [4][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}}
	var cbs [4]*d3d11.Resource
	var dcs [4]*d3d11.DeviceContext
	for i := range 4 {
		cbs[i], _ = dev.CreateBuffer(fmt.Sprintf("cb%d", i), d3d11.BufferDesc{ByteWidth: 16, Usage: d3d11.UsageImmutable, BindFlags: d3d11.BindConstantBuffer}, f32Bytes(colors[i][:]))
		if dcs[i], err = dev.CreateDeferredContext(fmt.Sprintf("dc%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	imm.Flush()
	st.Idle()

	var lists [4]*d3d11.CommandList
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() { // a recording thread per deferred context
			defer wg.Done()
			dc := dcs[i]
			for round := range 50 {
				dc.OMSetRenderTargets([]*d3d11.View{rtv}, nil)
				dc.RSSetViewports(d3d11.Viewport{X: float32(32 * (i % 2)), Y: float32(32 * (i / 2)), Width: 32, Height: 32, MaxDepth: 1})
				dc.IASetPrimitiveTopology(d3d11.TopologyTriangleList)
				dc.IASetVertexBuffers(0, quad, 36, 0)
				dc.VSSetShader(vs)
				dc.PSSetShader(ps)
				dc.PSSetConstantBuffers(0, cbs[i])
				dc.Draw(6, 0)
				l, err := dc.FinishCommandList(fmt.Sprintf("cl%d.%d", i, round), false)
				if err != nil {
					t.Error(err)
					return
				}
				if round < 49 {
					l.Release() // recycled on the next FinishCommandList
				} else {
					lists[i] = l
				}
			}
		}()
	}
	for g := range 2 {
		wg.Add(1)
		go func() { // free-threaded creation and destruction meanwhile
			defer wg.Done()
			for n := range 200 {
				b, err := dev.CreateBuffer(fmt.Sprintf("tmp%d.%d", g, n), d3d11.BufferDesc{ByteWidth: 64, Usage: d3d11.UsageDefault, BindFlags: d3d11.BindVertexBuffer}, nil)
				if err != nil {
					t.Error(err)
					return
				}
				s, _ := dev.CreateBlendState(fmt.Sprintf("bs%d.%d", g, n), d3d11.DefaultBlendDesc())
				s.Release()
				b.Release()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	imm.OMSetRenderTargets([]*d3d11.View{rtv}, nil)
	imm.ClearRenderTargetView(rtv, [4]float32{0, 0, 0, 1})
	for _, l := range lists {
		if err := imm.ExecuteCommandList(l, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Present(0); err != nil {
		t.Fatal(err)
	}
	st.Idle()
	if len(frames) != 1 {
		t.Fatalf("%d frames", len(frames))
	}
	f := frames[0]
	for i, want := range [][4]byte{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}} {
		x, y := 16+32*(i%2), 16+32*(i/2)
		p := f.Pix[(y*f.Width+x)*4:]
		if got := [4]byte{p[0], p[1], p[2], p[3]}; got != want {
			t.Errorf("quadrant %d: %v, want %v", i, got, want)
		}
	}
	// Release everything: no API object, driver handle or allocation is left.
	for i := range 4 {
		lists[i].Release()
		dcs[i].Release()
		cbs[i].Release()
	}
	for _, o := range []d3d11.Object{quad, vs, ps, rtv, bb, sc} {
		o.Release()
	}
	imm.ClearState()
	dev.Release()
	l := st.Live()
	kd, kc, ka := l.KernelDevices, l.KernelContexts, l.KernelAllocations
	if n := dev.LiveObjects() + dev.LiveAllocations() + kd + kc + ka; n != 0 {
		t.Fatalf("%d objects leaked (kernel %d/%d/%d)", n, kd, kc, ka)
	}
}
