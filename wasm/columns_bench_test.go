//go:build !js

package main

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// drawsScene is the page's draws figure (tests/browser/figures.mjs) at
// frames frames: 1,000 Draw calls and a Present each.
func drawsScene(frames int) string {
	return `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=256 Height=256
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
repeat ` + strings.Repeat("", 0) + itoa(uint64(frames)) + ` {
    imm.ClearRenderTargetView rtv 0 0 0 1
    repeat 1000 {
        imm.Draw 3 0
    }
    sc.Present
}
`
}

// BenchmarkColumnEncode encodes the draws figure's trace for the panel as
// the page's polls do, a frame's events a batch: the cost of the columns
// (wasm/columns.go) per event.
func BenchmarkColumnEncode(b *testing.B) {
	a := &app{}
	if err := a.load([]byte(drawsScene(8))); err != nil {
		b.Fatal(err)
	}
	r := a.startRun()
	for done := false; !done; {
		_, done = r.slice()
	}
	evs := a.run.Recorder().Events()
	// The batches of one frame each (its Present ends it).
	var cuts []int
	for i := range evs {
		if evs[i].Kind == trace.Call && strings.HasSuffix(evs[i].Name, "Present") && evs[i].From == trace.App {
			cuts = append(cuts, i+1)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		var enc columnEncoder
		from := 0
		for _, c := range cuts {
			enc.encode(evs[from:c])
			from = c
		}
		n += from
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
}
