package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/verify"
)

// TestRepeatedDrawsFindTheSame: a run of Draws that change no state is
// checked by the verifier a call at a time from the events' times
// (verify's repeats), and every finding a Draw's events make is still made
// in such a run, with the same text, as every event through every check
// makes it — for each state that makes a Draw's check fire in the middle of
// a run of Draws: AM-BALANCE's busy stretch, a budget, a vertex buffer
// released while bound, no vertex shader on a debug device, a full command
// buffer, another thread inside a DDI of a driver the runtime forgets to
// serialise (FT-CAP), the device removed by a hung GPU.
func TestRepeatedDrawsFindTheSame(t *testing.T) {
	const scene = `sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[0 0 0.5 1 1 1 1 0 0  0 0 0.5 1 1 1 1 0 0  0 0 0.5 1 1 1 1 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
`
	draws := func(n string) string { return "repeat " + n + " {\n  imm.Draw 3 0\n}\n" }
	cases := []struct {
		name, src string
		want      string // in the findings or the run's failures
		repeats   bool   // some calls go as repeats
	}{
		{"AM-BALANCE's busy stretch", "option umd.cmdbuf=64MiB\ndev, imm = D3D11CreateDevice\n" + scene + draws("12000"), "AM-BALANCE", true},
		{"a budget", "option maxinstructions=3000\ndev, imm = D3D11CreateDevice\n" + scene + draws("2000") + "sc.Present\n", "instruction budget", true},
		{"a vertex buffer released while bound", "dev, imm = D3D11CreateDevice Flags=DEBUG\n" + scene + draws("50") + "vb.Release\n" + draws("50") +
			"imm.IASetVertexBuffers 0 vb\n" + draws("50"), "", true},
		{"no vertex shader on a debug device", "dev, imm = D3D11CreateDevice Flags=DEBUG\n" + scene + draws("50") + "imm.VSSetShader\n" + draws("50"), "", true},
		{"a full command buffer", "option umd.cmdbuf=4KiB\ndev, imm = D3D11CreateDevice\n" + scene + draws("3000"), "", true},
		{"FT-CAP", "option bug=FT-CAP\n" + strings.Replace(loadAsset(t, "testdata/async/serialised.d3ds"), "  imm.Draw 3 0\n", "  repeat 30 {\n    imm.Draw 3 0\n  }\n", 1), "FT-CAP", true},
		{"the device removed by a hung GPU", "dev, imm = D3D11CreateDevice\n" + scene + draws("50") + "inject gpu.hang\n" + draws("50") +
			"imm.Flush\n" + draws("3000") + "sc.Present\n" + draws("50"), "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load("t.d3ds", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			r.Finish()
			var got []string
			for _, x := range r.Violations() { // (warnings are listed with them)
				got = append(got, x.String())
			}
			full := verify.New(r.Recorder())
			full.SetDispatch(false) // every event to every check: no quiet call, no repeat
			full.Poll()
			var want []string
			for _, x := range full.Violations() {
				want = append(want, x.String())
			}
			if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
				t.Fatalf("with repeats the verifier reports\n%s\nevery event through every check\n%s", g, w)
			}
			sum := r.Summary()
			if all := strings.Join(append(got, sum.Failures...), "\n"); !strings.Contains(all, tc.want) {
				t.Errorf("nothing says %q: %s", tc.want, all)
			}
			if n := r.verifier.Repeated(); tc.repeats != (n > 0) {
				t.Errorf("%d calls went as repeats", n)
			}
			t.Logf("%d findings, %d failures, %d calls as repeats, %d events", len(got), len(sum.Failures), r.verifier.Repeated(), sum.Events)
		})
	}
}
