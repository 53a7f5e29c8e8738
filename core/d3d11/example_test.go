package d3d11_test

import (
	"fmt"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/kmd"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/core/umd"
	"d3dsim/gpu"
)

// newRuntime wires the runtime to the simulated layers below it: the UMD
// (core/umd), Dxgkrnl (core/dxgk), the KMD (core/kmd) and the GPU.
func newRuntime(commandLists bool) (*d3d11.Runtime, *trace.Recorder) {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	rec.SetStamp(s.Stamp)
	g := gpu.New(gpu.Config{VRAM: 64 << 20, Aperture: 64 << 20, Engines: 1, Costs: gpu.DefaultCosts()}, s, rec)
	drv := kmd.New(g, s, kmd.Config{Engines: 1})
	k := dxgk.New(s, rec, drv, dxgk.Config{CommandBufferSize: 64 << 10, AllocationListSize: 256, PatchLocationListSize: 1024})
	k.SetSegments(gpu.VRAMBase, 64<<20, gpu.ApertureBase, 64<<20, g.Memory())
	g.ConnectInterrupt(k.Interrupt)
	rt := d3d11.New(d3d11.Config{Sim: s, Rec: rec, Kernel: k, Adapter: umd.NewAdapter(umd.Config{}),
		CommandLists: commandLists, Recycle: true, FreeThreaded: true})
	return rt, rec
}

// printDDIs prints the DDIs the runtime calls from now on.
func printDDIs(rec *trace.Recorder) {
	rec.Subscribe(func(e *trace.Event) {
		if e.Kind == trace.Call && e.From == trace.Runtime && e.Layer == trace.UMD {
			fmt.Println(strings.TrimSpace("- " + e.Ctx + " " + e.Name + " " + e.Obj))
		}
	})
}

// Create a device, a vertex buffer and a render target, and draw: each API
// call is validated, then maps onto the user-mode driver's DDIs.
func Example() {
	rt, rec := newRuntime(true)
	dev, imm, err := rt.D3D11CreateDevice("dev", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	vb, _ := dev.CreateBuffer("vb", d3d11.BufferDesc{ByteWidth: 36, BindFlags: ddi.BindVertexBuffer}, make([]byte, 36))
	tex, _ := dev.CreateTexture2D("tex", d3d11.Texture2DDesc{Width: 8, Height: 8, Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindRenderTarget}, nil)
	rtv, _ := dev.CreateView("rtv", ddi.ViewRTV, tex)

	fmt.Println("draw:")
	printDDIs(rec)
	imm.OMSetRenderTargets([]*d3d11.View{rtv}, nil)
	imm.IASetVertexBuffers(0, vb, 12, 0)
	imm.Draw(3, 0)

	fmt.Println("a bad descriptor:")
	_, err = dev.CreateBuffer("cb", d3d11.BufferDesc{ByteWidth: 20, BindFlags: ddi.BindConstantBuffer}, nil)
	fmt.Println(err)
	// Output:
	// draw:
	// - IC SetRenderTargets rtv
	// - IC IaSetVertexBuffers vb
	// - IC Draw
	// a bad descriptor:
	// E_INVALIDARG: CreateBuffer(cb): a constant buffer's ByteWidth must be a multiple of 16, not 20
}

// A deferred context records a command list that the immediate context
// executes. With a driver that supports command lists, the deferred context
// has its own DDI table and context-local handles ("Using context-local DDI
// handles"); FinishCommandList builds the list with the driver ("Supporting
// command lists").
func ExampleDeviceContext_FinishCommandList() {
	rt, rec := newRuntime(true)
	dev, imm, _ := rt.D3D11CreateDevice("dev", 0)
	vb, _ := dev.CreateBuffer("vb", d3d11.BufferDesc{ByteWidth: 36, BindFlags: ddi.BindVertexBuffer}, make([]byte, 36))
	dc, _ := dev.CreateDeferredContext("dc")

	printDDIs(rec)
	fmt.Println("record:")
	dc.IASetVertexBuffers(0, vb, 12, 0)
	dc.Draw(3, 0)
	fmt.Println("finish:")
	l, _ := dc.FinishCommandList("cl", false)
	fmt.Println("execute:")
	imm.ExecuteCommandList(l, false)
	fmt.Println(l.Name(), l.State())
	// Output:
	// record:
	// - DC1 CreateResource vb
	// - DC1 IaSetVertexBuffers vb
	// - DC1 Draw
	// finish:
	// - IC CalcPrivateCommandListSize cl
	// - IC CreateCommandList cl
	// - IC CalcDeferredContextHandleSize cl
	// - DC1 DestroyResource vb
	// - IC RecycleCreateDeferredContext DC1
	// execute:
	// - IC CommandListExecute cl
	// cl valid
}

// Without command-list support in the driver, the runtime records the calls
// itself and replays them on the immediate context.
func ExampleDevice_CreateDeferredContext_emulated() {
	rt, rec := newRuntime(false)
	dev, imm, _ := rt.D3D11CreateDevice("dev", 0)
	dc, _ := dev.CreateDeferredContext("dc")
	dc.IASetPrimitiveTopology(ddi.TopologyTriangleList)
	dc.Draw(3, 0)
	l, _ := dc.FinishCommandList("cl", false)

	printDDIs(rec)
	imm.ExecuteCommandList(l, false)
	// Output:
	// - IC IaSetTopology
	// - IC Draw
}
