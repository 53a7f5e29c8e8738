package main

import (
	"strings"
	"testing"
)

// heavyDraw is a scenario with one draw of a looping pixel shader on
// 256x256: about 26 million shader instructions, many pieces of work.
const heavyDraw = `hlsl s {
float4 main(float4 p : SV_Position, float4 c : COLOR) : SV_Target {
  float4 s = c;
  for (int i = 0; i < 100; i++) { s = s * 0.5 + 0.25; }
  return s;
}
}
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=256 Height=256
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:s
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 256 256
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
imm.Draw 6 0
sc.Present
`

// runTurns runs the loaded scenario to its end in run() turns.
func runTurns(t *testing.T, a *app) string {
	t.Helper()
	r := a.startRun()
	r.suspendable = true
	for i := 0; i < 100000; i++ {
		if s, done := r.slice(); done {
			return a.frameHash(s)
		}
	}
	t.Fatal("the run did not end")
	return ""
}

// TestSuspendInsideDraws: a slice whose page time is over suspends inside
// a long draw, again and again, each time until a task of the event loop
// resumes it (here a goroutine), is busy meanwhile, and draws exactly the
// pixels of a run that never suspends.
func TestSuspendInsideDraws(t *testing.T) {
	plain := &app{}
	if err := plain.load([]byte(heavyDraw)); err != nil {
		t.Fatal(err)
	}
	want := runTurns(t, plain)

	a := &app{}
	a.clock = func() func() bool { return func() bool { return true } } // always over
	var busyWhenWoken int
	a.y.wake = func(resume func()) {
		if a.y.busy.Load() {
			busyWhenWoken++
		}
		go resume()
	}
	if err := a.load([]byte(heavyDraw)); err != nil {
		t.Fatal(err)
	}
	got := runTurns(t, a)
	if got != want || got == "" {
		t.Errorf("frame hash %q, without suspending %q", got, want)
	}
	if n := a.y.turns.Load(); n < 10 || busyWhenWoken != int(n) {
		t.Errorf("%d suspensions, busy at %d of them", n, busyWhenWoken)
	}
	if a.y.busy.Load() {
		t.Error("busy after the run")
	}
}

// TestAbortSuspendedDraw: a suspended draw told to stop (the page loads
// another scenario) stops at its next piece, the rest of the run's GPU work
// is skipped, and the run still ends.
func TestAbortSuspendedDraw(t *testing.T) {
	a := &app{}
	a.clock = func() func() bool { return func() bool { return true } }
	a.y.wake = func(resume func()) {
		a.y.abort.Store(true)
		go resume()
	}
	if err := a.load([]byte(heavyDraw)); err != nil {
		t.Fatal(err)
	}
	runTurns(t, a)
	if n := a.y.turns.Load(); n != 1 {
		t.Errorf("%d suspensions after the stop", n)
	}
	if err := a.load([]byte(heavyDraw)); err != nil || a.y.abort.Load() {
		t.Errorf("a new load: err %v, abort %v", err, a.y.abort.Load())
	}
	if !strings.Contains(heavyDraw, "Draw") {
		t.Fatal("no draw")
	}
}

// TestNoSuspensionInsideCallback: while a JS callback into the module has
// not returned, a slice run meanwhile (the pump's, on a goroutine of its
// own) never suspends, so the callback can take the app's lock once the
// slice ends. In the page a slice that suspended then held the lock until
// a task resumed it, a task that could only run after the callback
// returned, and the callback waited for the lock: the main thread spun in
// Go's scheduler for good. Once the callback has returned, slices suspend
// again.
func TestNoSuspensionInsideCallback(t *testing.T) {
	for _, inside := range []bool{true, false} {
		a := &app{}
		a.clock = func() func() bool { return func() bool { return true } } // always over
		// In the page a resume asked for while the callback is on the
		// event loop's stack could run only after it returns; here it runs
		// at once, so that the test fails rather than hangs.
		a.y.wake = func(resume func()) {
			if a.y.callbacks.Load() > 0 {
				t.Errorf("inside=%v: a slice suspended while a callback had not returned", inside)
			}
			go resume()
		}
		if err := a.load([]byte(heavyDraw)); err != nil {
			t.Fatal(err)
		}
		if inside {
			a.y.enterCallback()
		}
		got := runTurns(t, a)
		// The callback takes the lock (notifyPending does): the slices
		// left it free.
		_ = a.takePending()
		if inside {
			a.y.leaveCallback()
		}
		n := a.y.turns.Load()
		if inside && (n != 0 || got == "") {
			t.Errorf("inside a callback: %d suspensions, frame %q", n, got)
		}
		if !inside && n < 10 {
			t.Errorf("no callback: %d suspensions, want them back", n)
		}
	}
}
