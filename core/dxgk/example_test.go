package dxgk_test

import (
	"d3dsim/gpu/isa"
	"fmt"

	"d3dsim/core/dxgk"
	"d3dsim/core/dxgkddi"
	"d3dsim/core/kmd"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu"
)

// Example wires the kernel half of the stack — GPU, driver, Dxgkrnl — and
// draws and presents one cleared frame the way PresentDXGI does: the
// command buffer goes with pfnRenderCb (Render), then pfnPresentCb
// (Present) names the source alone and the KMD copies it into the
// redirection surface Dxgkrnl picks.
func Example() {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := gpu.New(gpu.Config{VRAM: 16 << 20, Aperture: 16 << 20}, s, rec)
	k := dxgk.New(s, rec, kmd.New(g, s, kmd.Config{}), dxgk.Config{})
	k.SetSegments(gpu.VRAMBase, 16<<20, gpu.ApertureBase, 16<<20, g.Memory())
	g.ConnectInterrupt(k.Interrupt)
	g.OnScanout(func(f gpu.Frame) { fmt.Printf("scanout %dx%d, first pixel %v\n", f.Width, f.Height, f.Pix[:4]) })

	dev, _ := k.CreateDevice("app")
	ctx, _ := k.CreateContext(dev)
	bb, _ := k.CreateAllocation(dev, dxgk.AllocationDesc{Size: 8 * 8 * 4, Primary: true, Obj: "bb",
		Surface: dxgkddi.SurfaceDesc{Width: 8, Height: 8, Pitch: 32, Format: uint32(isa.FmtRGBA8)}})

	// The UMD's command buffer: addresses are (allocation-list index, offset).
	var cmd isa.Builder
	cmd.ClearRT(dxgkddi.ListAddress(0, 0), 8, 8, 32, isa.FmtRGBA8, [4]float32{1, 0.5, 0, 1})
	fence, err := k.Render(ctx.Context, cmd.Words, []dxgk.AllocationListEntry{{Allocation: bb, Write: true}})
	fmt.Println("render fence", fence, err)
	fence, err = k.Present(dxgk.PresentInfo{Context: ctx.Context, Src: bb})
	fmt.Println("present fence", fence, err)
	fmt.Println(k.WaitForFence(ctx.Context, fence), k.CompletedFence(ctx.Context))

	k.DestroyDevice(dev)
	fmt.Println(k.Live())
	// Output:
	// render fence 1 <nil>
	// present fence 2 <nil>
	// scanout 8x8, first pixel [255 128 0 255]
	// <nil> 2
	// 0 0 0
}
