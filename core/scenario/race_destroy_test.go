//go:build !js

// (WebAssembly has no threads: these tests are for the race detector.)

package scenario

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/machine"
	"d3dsim/core/trace"
)

// TestRaceFreeThreadedCreateDestroy is the free-threading of "Changes from Direct3D 10" under load:
// 8 goroutines each create and destroy 3,000 rounds of a texture, a view
// onto it, a blend state and a sampler while the immediate context draws
// and flushes. Run with -race: no race, no leak, and the deferred
// destructions still queued at the end all complete in DestroyDevice.
// Without the race detector (make unit) it is the same check at the -short
// size: make race runs the full size under the detector. (It was 10,000
// rounds, 127 s of make test's 31 minutes under the detector; the detector
// reports a race the first time two unordered accesses meet, and 24,000
// create/destroy pairs against a drawing context meet every pair of paths
// many times over.)
func TestRaceFreeThreadedCreateDestroy(t *testing.T) {
	rounds := 3000
	if testing.Short() || !raceDetector {
		rounds = 1000
	}
	raceCreateDestroy(t, rounds, true)
}

// TestRaceSerialisedDDIs: the same load on a driver that is not
// free-threaded (rule FT-CAP): the runtime serialises its DDIs, so no two
// DDI calls are ever open at once in the trace. 2,000 rounds under the
// detector at full size (make race), 500 otherwise (make unit: the trace's
// check; with the DDIs not serialised it fails in the first rounds).
func TestRaceSerialisedDDIs(t *testing.T) {
	rounds := 2000
	if testing.Short() || !raceDetector {
		rounds = 500
	}
	st := raceCreateDestroy(t, rounds, false)
	depth := 0
	for _, e := range st.Recorder().Events() {
		if e.Layer != trace.UMD || strings.HasPrefix(e.Name, "CalcPrivate") || e.Name == "CalcDeferredContextHandleSize" {
			continue // free-threaded even so (rule FT-CALC)
		}
		switch e.Kind {
		case trace.Call:
			if depth++; depth > 1 {
				t.Fatalf("event %d: %s called while another DDI is in progress", e.Seq, e.Name)
			}
		case trace.Return:
			depth--
		}
	}
}

func raceCreateDestroy(t *testing.T, rounds int, freeThreaded bool) *machine.Machine {
	opt := decodeOptions(&Script{}, Overrides{})
	opt.freeth = freeThreaded
	st := machine.New(opt.machine(func(machine.Frame) {}, nil))
	dev, imm, err := st.Runtime().D3D11CreateDevice("dev", 0)
	if err != nil {
		t.Fatal(err)
	}
	rt, _ := dev.CreateTexture2D("rt", d3d11.Texture2DDesc{Width: 16, Height: 16, Format: d3d11.FormatR8G8B8A8Unorm, BindFlags: d3d11.BindRenderTarget}, nil)
	rtv, _ := dev.CreateView("rtv", d3d11.ViewRTV, rt)
	vb, _ := dev.CreateBuffer("vb", d3d11.BufferDesc{ByteWidth: 108, Usage: d3d11.UsageImmutable, BindFlags: d3d11.BindVertexBuffer}, f32Bytes(meshes["triangle"]))
	vs, _ := createBuiltin(t, dev, "vs", "vs_passthrough")
	ps, _ := createBuiltin(t, dev, "ps", "ps_vertexcolor")
	imm.OMSetRenderTargets([]*d3d11.View{rtv}, nil)
	imm.RSSetViewports(d3d11.Viewport{Width: 16, Height: 16, MaxDepth: 1})
	imm.IASetPrimitiveTopology(d3d11.TopologyTriangleList)
	imm.IASetVertexBuffers(0, vb, 36, 0)
	imm.VSSetShader(vs)
	imm.PSSetShader(ps)

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range rounds {
				name := fmt.Sprintf("g%d.%d", g, n)
				tex, err := dev.CreateTexture2D(name, d3d11.Texture2DDesc{Width: 4, Height: 4, Format: d3d11.FormatR8G8B8A8Unorm, BindFlags: d3d11.BindShaderResource | d3d11.BindRenderTarget}, nil)
				if err != nil {
					t.Error(err)
					return
				}
				srv, err := dev.CreateView(name+".srv", d3d11.ViewSRV, tex)
				if err != nil {
					t.Error(err)
					return
				}
				bs, err := dev.CreateBlendState(name+".bs", d3d11.DefaultBlendDesc())
				if err != nil {
					t.Error(err)
					return
				}
				ss, err := dev.CreateSamplerState(name+".ss", d3d11.DefaultSamplerDesc())
				if err != nil {
					t.Error(err)
					return
				}
				srv.Release()
				tex.Release()
				bs.Release()
				ss.Release()
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	draws := 0
loop:
	for {
		select {
		case <-done:
			break loop
		default:
			if draws > 200000 {
				<-done // enough drawing; let the creators finish
				break loop
			}
			imm.Draw(3, 0)
			if draws++; draws%64 == 0 {
				imm.Flush()
			}
		}
	}
	if t.Failed() {
		return st
	}
	for _, o := range []d3d11.Object{rtv, rt, vb, vs, ps} {
		o.Release()
	}
	imm.ClearState()
	// No Flush: the render-target view, the vertex buffer and the shaders,
	// released while bound, wait in the runtime's destruction queue (the
	// immediate context's unbinding queued them); rt waits for its view.
	// DestroyDevice must destroy them all and complete the driver's
	// deferred destructions they start ("Changes from Direct3D 10", rule DD-DEVICE).
	queued := dev.QueuedDestroys()
	if queued < 4 {
		t.Fatalf("only %d objects in the runtime's destruction queue before DestroyDevice: the test no longer exercises its drain", queued)
	}
	// (by seq: the ring may have dropped the oldest events, now that
	// every Release is an API call in the trace)
	before := uint64(st.Recorder().Len())
	dev.Release()
	st.Idle()
	l := st.Live()
	kd, kc, ka := l.KernelDevices, l.KernelContexts, l.KernelAllocations
	if n := dev.LiveObjects() + dev.LiveAllocations() + kd + kc + ka; n != 0 {
		t.Fatalf("%d objects leaked after %d draws (API %d, allocations %d, kernel %d/%d/%d)", n, draws, dev.LiveObjects(), dev.LiveAllocations(), kd, kc, ka)
	}
	// The runtime drained its queue, and the driver's own deferred
	// destructions of rt and vb (their last use was never submitted)
	// completed inside its DestroyDevice.
	drained, pending := false, 0
	inDestroy := false
	for _, e := range st.Recorder().Events() {
		switch {
		case e.Seq <= before:
		case e.Name == "DrainDestroyQueue":
			drained = true
		case e.Layer == trace.UMD && e.Name == "DestroyDevice":
			inDestroy = e.Kind == trace.Call
		case inDestroy && e.Kind == trace.Call && e.Name == "pfnDeallocateCb":
			pending++
		}
	}
	if !drained || pending < 2 {
		t.Fatalf("at DestroyDevice: runtime queue drained %v, %d deferred deallocations completed inside the driver's DestroyDevice, want true and >= 2", drained, pending)
	}
	t.Logf("%d create/destroy rounds on each of 8 goroutines while the immediate context drew %d times; DestroyDevice drained %d queued objects and completed %d deferred destructions", rounds, draws, queued, pending)
	return st
}
