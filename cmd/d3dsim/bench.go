package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// The benchmark scenes are defined here, in code, so figures compare across
// versions. Wall-clock time is measured only here, outside the simulation.

// scene is a one-triangle draw loop: a W x H swap chain, the given vertex
// data, vs_passthrough + ps_vertexcolor, n Draw calls of 3 vertices, one
// Present.
func scene(w, h, n int, vertices string) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=%[1]d Height=%[2]d
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%[4]s
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 %[1]d %[2]d
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat %[3]d {
  imm.Draw 3 0
}
sc.Present
`, w, h, n, vertices)
}

// drawScene: n Draw calls of 3 vertices to a 64x64 target through every
// layer, trace on.
func drawScene(n int) string { return scene(64, 64, n, "mesh:triangle") }

// fillScene: a 640x480 target, n overlapping triangles of half the screen.
func fillScene(n int) string {
	return scene(640, 480, n, "f32[-1 1 0.5 1 0 0 1 0 0  1 1 0.5 0 1 0 1 0 0  -1 -1 0.5 0 0 1 1 0 0]")
}

// cmdlistScene: n rounds of recording a one-Draw command list on a deferred
// context, FinishCommandList, ExecuteCommandList, Release — cold (every
// FinishCommandList creates; option driver.recycle=false) or recycled.
func cmdlistScene(n int, recycled bool) string {
	opt := "option driver.recycle=false\n"
	if recycled {
		opt = ""
	}
	return opt + fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb
dc.VSSetShader vs
dc.PSSetShader ps
repeat %d {
  dc.Draw 3 0
  cl = dc.FinishCommandList TRUE
  imm.ExecuteCommandList cl FALSE
  cl.Release
}
sc.Present
`, n)
}

// discardScene: n rounds of Map(WRITE_DISCARD) + Write + Unmap + Draw on a
// DYNAMIC vertex buffer (seed 004's renaming, every frame's bread and butter).
func discardScene(n int) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=108 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat %d {
  imm.Map vb WRITE_DISCARD
  vb.Write mesh:triangle
  imm.Unmap vb
  imm.Draw 3 0
}
sc.Present
`, n)
}

type benchResult struct {
	DrawCallsPerSec   float64 `json:"draw_calls_s"`
	FillMpixPerSec    float64 `json:"fill_mpix_s"`
	TraceEventsPerSec float64 `json:"trace_events_s"`
	CmdlistCold       float64 `json:"cmdlist_cold_s"`
	CmdlistRecycled   float64 `json:"cmdlist_recycled_s"`
	CmdlistColdNs     float64 `json:"cmdlist_cold_virtual_ns"`
	CmdlistRecycledNs float64 `json:"cmdlist_recycled_virtual_ns"`
	DiscardPerSec     float64 `json:"discard_s"`
	Events            int     `json:"events"`
}

func runScene(src string) (*scenario.Run, time.Duration, error) {
	// A ring big enough to hold every event (the JSON exporter is timed on
	// them all), and no time or pixel budget: benchmarks run long on purpose.
	s, err := scenario.Load("bench", []byte("option maxevents=100000000\noption maxtime=1000000000\noption maxpixels=1000000000000\n"+src))
	if err != nil {
		return nil, 0, err
	}
	r := scenario.NewRun(s, scenario.Overrides{})
	start := time.Now()
	sum := r.Finish()
	d := time.Since(start)
	if !sum.OK() {
		return nil, 0, fmt.Errorf("bench scene failed: %v", sum.Failures)
	}
	return r, d, nil
}

func cmdBench(a args, stdout, stderr io.Writer) int {
	n := 100000
	if v, ok := a.flags["n"]; ok {
		if x, err := strconv.Atoi(v); err == nil && x > 0 {
			n = x
		}
	}
	var res benchResult
	r, d, err := runScene(drawScene(n))
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim bench: %v\n", err)
		return 1
	}
	res.DrawCallsPerSec = float64(n) / d.Seconds()
	events := r.Events()
	res.Events = len(events)
	start := time.Now()
	trace.WriteJSONL(io.Discard, events)
	res.TraceEventsPerSec = float64(len(events)) / time.Since(start).Seconds()

	r, d, err = runScene(fillScene(1000))
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim bench: %v\n", err)
		return 1
	}
	res.FillMpixPerSec = float64(r.GPUStats().Pixels) / d.Seconds() / 1e6

	const rounds = 20000
	for _, recycled := range []bool{false, true} {
		r, d, err := runScene(cmdlistScene(rounds, recycled))
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim bench: %v\n", err)
			return 1
		}
		perSec, virt := float64(rounds)/d.Seconds(), float64(r.VirtualTime())/rounds
		if recycled {
			res.CmdlistRecycled, res.CmdlistRecycledNs = perSec, virt
		} else {
			res.CmdlistCold, res.CmdlistColdNs = perSec, virt
		}
	}

	const discards = 20000
	if _, d, err := runScene(discardScene(discards)); err != nil {
		fmt.Fprintf(stderr, "d3dsim bench: %v\n", err)
		return 1
	} else {
		res.DiscardPerSec = discards / d.Seconds()
	}

	if _, ok := a.flags["json"]; ok {
		b, _ := json.Marshal(res)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "%-44s %12.0f\n", "API Draw calls/s (all layers, trace on)", res.DrawCallsPerSec)
	fmt.Fprintf(stdout, "%-44s %12.1f\n", "rasterizer fill, Mpixels/s (640x480, 1000 tris)", res.FillMpixPerSec)
	fmt.Fprintf(stdout, "%-44s %12.0f\n", "trace events/s written (JSON lines)", res.TraceEventsPerSec)
	fmt.Fprintf(stdout, "%-44s %12.0f  (%.0f virtual ns each)\n", "FinishCommandList+Execute pairs/s, cold", res.CmdlistCold, res.CmdlistColdNs)
	fmt.Fprintf(stdout, "%-44s %12.0f  (%.0f virtual ns each)\n", "FinishCommandList+Execute pairs/s, recycled", res.CmdlistRecycled, res.CmdlistRecycledNs)
	fmt.Fprintf(stdout, "%-44s %12.0f\n", "Map(WRITE_DISCARD)+Unmap+Draw rounds/s", res.DiscardPerSec)
	return 0
}
