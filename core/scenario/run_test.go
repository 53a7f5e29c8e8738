package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/machine"
	"d3dsim/core/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func runAsset(t *testing.T, name string, o Overrides) *Run {
	t.Helper()
	src, ok := assets.Scenario(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	s, err := Load(name+".d3ds", src)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, o)
	r.Finish()
	return r
}

func traceHash(events []trace.Event) string {
	h := sha256.New()
	var b []byte
	for i := range events {
		b = trace.AppendJSON(b[:0], &events[i])
		h.Write(append(b, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TestAssetsPass runs every example scenario: each must hold all its
// expectations with no unexpected violation.
func TestAssetsPass(t *testing.T) {
	for _, name := range assets.Scenarios() {
		t.Run(name, func(t *testing.T) {
			r := runAsset(t, name, Overrides{})
			if s := r.Summary(); !s.OK() {
				t.Errorf("%s failed:\n%s", name, strings.Join(s.Failures, "\n"))
			}
		})
	}
}

// TestHelloTriangleFollowsSeed003 checks the trace of the default scenario
// carries the 16 steps of the WDDM operation flow in order.
func TestHelloTriangleFollowsSeed003(t *testing.T) {
	r := runAsset(t, "hello-triangle", Overrides{})
	steps := []struct{ step, name string }{
		{"1", "DxgkDdiCreateDevice"},
		{"2", "CreateDevice"},
		{"3", "pfnCreateContextCb"},
		{"4", "CreateResource"},
		{"5", "pfnAllocateCb"},
		{"6", "DxgkDdiCreateAllocation"},
		{"7", "Draw"},
		{"8", "PresentDXGI"},
		{"9", "pfnPresentCb"},
		{"10", "DxgkDdiPresent"},
		{"11", "DxgkDdiBuildPagingBuffer"},
		{"12", "DxgkDdiSubmitCommand"},
		{"13", "DxgkDdiPatch"},
		{"14", "DxgkDdiSubmitCommand"},
		{"15", "DxgkDdiInterruptRoutine"},
		{"16a", "DxgkCbNotifyInterrupt"},
		{"16b", "DxgkCbQueueDpc"},
		{"DPC", "DxgkDdiDpcRoutine"},
	}
	i := 0
	for _, e := range r.Events() {
		if i < len(steps) && e.Kind == trace.Call && e.Name == steps[i].name {
			if steps[i].name == "CreateDevice" && e.Layer != trace.UMD {
				continue
			}
			if steps[i].name == "Draw" && e.Layer != trace.UMD {
				continue
			}
			i++
		}
	}
	if i < len(steps) {
		t.Fatalf("seed-003 step %s (%s) not found in order after step %s", steps[i].step, steps[i].name, steps[max(i-1, 0)].step)
	}
}

// TestDeterministic: two runs give byte-identical traces and frames.
func TestDeterministic(t *testing.T) {
	for _, name := range []string{"hello-triangle", "spinning-cube", "two-devices"} {
		a := runAsset(t, name, Overrides{})
		b := runAsset(t, name, Overrides{})
		var ja, jb bytes.Buffer
		trace.WriteJSONL(&ja, a.Events())
		trace.WriteJSONL(&jb, b.Events())
		if !bytes.Equal(ja.Bytes(), jb.Bytes()) {
			t.Errorf("%s: traces differ between two runs", name)
		}
		if a.Summary().Hash != b.Summary().Hash {
			t.Errorf("%s: frame hashes differ", name)
		}
	}
}

// golden holds the frame hash and trace hash of each asset. The same file is
// checked natively and under GOOS=js GOARCH=wasm: equal hashes mean the
// WebAssembly build simulates exactly what the native one does.
type golden struct {
	Frame string `json:"frame"`
	Trace string `json:"trace"`
}

func TestGoldenHashes(t *testing.T) {
	path := filepath.Join("testdata", "golden.json")
	want := map[string]golden{}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &want)
	}
	got := map[string]golden{}
	for _, name := range assets.Scenarios() {
		r := runAsset(t, name, Overrides{})
		got[name] = golden{Frame: r.Summary().Hash, Trace: traceHash(r.Events())}
	}
	if *update {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, g := range got {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: no golden hashes (run go test ./core/scenario -run Golden -update)", name)
			continue
		}
		if g != w {
			t.Errorf("%s: frame %s trace %s, golden frame %s trace %s", name, g.Frame, g.Trace, w.Frame, w.Trace)
		}
	}
}

// TestGoldenImages compares the last frame of each asset with a PNG in
// testdata/frames, exactly; on mismatch it writes NAME-bad.png beside it.
func TestGoldenImages(t *testing.T) {
	for _, name := range assets.Scenarios() {
		r := runAsset(t, name, Overrides{})
		f, ok := r.LastFrame()
		if !ok {
			continue
		}
		path := filepath.Join("testdata", "frames", name+".png")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			var b bytes.Buffer
			png.Encode(&b, f.Image())
			os.WriteFile(path, b.Bytes(), 0o644)
			continue
		}
		file, err := os.Open(path)
		if err != nil {
			t.Errorf("%s: %v (run with -update to create it)", name, err)
			continue
		}
		img, err := png.Decode(file)
		file.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !sameImage(img, f.Image()) {
			bad := filepath.Join("testdata", "frames", name+"-bad.png")
			var b bytes.Buffer
			png.Encode(&b, f.Image())
			os.WriteFile(bad, b.Bytes(), 0o644)
			t.Errorf("%s: frame differs from %s (wrote %s)", name, path, bad)
		}
	}
}

func sameImage(a image.Image, b *image.RGBA) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// TestBadInput: syntax errors, unknown methods and unknown enum values are
// FILE:LINE:COL errors at load time.
func TestBadInput(t *testing.T) {
	tests := []struct {
		desc, src, want string
	}{
		{"syntax error", "dev, imm = D3D11CreateDevice\nimm.Draw 3 0 ==\n", "t.d3ds:2:"},
		{"unknown method", "dev, imm = D3D11CreateDevice\nimm.Drow 3 0\n", "t.d3ds:2:5: unknown method imm.Drow"},
		{"unknown enum", "dev, imm = D3D11CreateDevice\nvb = dev.CreateBuffer ByteWidth=16 Usage=DYNAMITE BindFlags=VERTEX_BUFFER\n", `t.d3ds:2:42: unknown Usage value "DYNAMITE"`},
		{"unknown flag", "dev, imm = D3D11CreateDevice\nvb = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER|INDEX\n", `unknown BindFlags value "INDEX"`},
		{"unknown object", "imm.Draw 3 0\n", "t.d3ds:1:1: unknown object \"imm\""},
		{"wrong object type", "dev, imm = D3D11CreateDevice\nimm.VSSetShader imm\n", "must be a vs, and imm is a context"},
		{"missing argument", "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=4\n", "needs Height="},
		{"unknown option", "option speed=3\n", `t.d3ds:1:1: unknown option "speed"`},
		{"unknown builtin", "dev, imm = D3D11CreateDevice\nvs = dev.CreateVertexShader builtin:vs_magic\n", `unknown VS built-in shader "vs_magic"`},
		{"unknown hr", "dev, imm = D3D11CreateDevice\nexpect hr == E_WHATEVER\n", `unknown HRESULT "E_WHATEVER"`},
		{"unknown fault", "inject gpu.melt\n", `unknown fault "gpu.melt"`},
		{"unknown mesh", "dev, imm = D3D11CreateDevice\nvb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=mesh:teapot\n", `unknown mesh "teapot"`},
		{"unknown misc flag", "dev, imm = D3D11CreateDevice\nt = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET MiscFlags=GDI_COMPATIBLE\n", `unknown MiscFlags value "GDI_COMPATIBLE"`},
		{"bad preempt", "option preempt=yes\n", `bad value "yes" for option preempt`},
		{"TDR delay of 0", "option tdr.delay=0\n", `option tdr.delay=0: the TDR delay in milliseconds must be 1..10000`},
		{"TDR delay too long", "option tdr.delay=20000\n", `the TDR delay in milliseconds must be 1..10000`},
		{"bad endless", "option gpu.endless=ignore\n", `bad value "ignore" for option gpu.endless`},
		{"escape on a context", "dev, imm = D3D11CreateDevice\nimm.Escape\n", "unknown method imm.Escape"},
	}
	for _, tt := range tests {
		_, err := Load("t.d3ds", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want it to contain %q", tt.desc, err, tt.want)
		}
		if _, ok := err.(*Error); err != nil && !ok {
			t.Errorf("%s: error is %T, want *Error", tt.desc, err)
		}
	}
}

// TestRuntimeFailuresStopWithLine: a failing call without `expect hr` stops
// the run with the line; with it, the run goes on.
func TestRuntimeFailuresStopWithLine(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nvb = dev.CreateBuffer ByteWidth=0 BindFlags=VERTEX_BUFFER\nimm.Flush\n"
	s, err := Load("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.HasPrefix(sum.Failures[0], "2:1: dev.CreateBuffer failed: E_INVALIDARG") {
		t.Fatalf("failures %q", sum.Failures)
	}
	s, _ = Load("t", []byte(strings.Replace(src, "\nimm.Flush", "\nexpect hr == E_INVALIDARG\nimm.Flush", 1)))
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() || sum.Steps != 3 {
		t.Fatalf("with expect hr: %+v", sum)
	}
}

// TestStepBudget: a runaway loop stops with the step-budget message.
func TestStepBudget(t *testing.T) {
	s, err := Load("t", []byte("option maxsteps=1000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "step budget of 1000") {
		t.Fatalf("failures %q", sum.Failures)
	}
}

func ExampleRun() {
	s, _ := Load("example.d3ds", []byte(`
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=8 Height=8
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.ClearRenderTargetView rtv #ff8000ff
sc.Present
`))
	r := NewRun(s, Overrides{})
	sum := r.Finish()
	fmt.Println(sum.Frames, r.Pixel(3, 3), sum.OK())
	// Output: 1 #ff8000ff true
}

// threadsSrc: two simulated app threads drive two devices; main waits for
// both. Which thread runs when is a seeded choice.
const threadsSrc = `dev1, imm1 = D3D11CreateDevice
dev2, imm2 = D3D11CreateDevice
thread t1 {
  repeat 20 {
    imm1.Flush
  }
  signal one
}
thread t2 {
  repeat 20 {
    imm2.Flush
  }
  signal two
}
wait one
wait two
imm1.Flush
`

func TestThreadsInterleaveBySeed(t *testing.T) {
	order := func(seed uint64) string {
		s, err := Load("threads.d3ds", []byte(threadsSrc))
		if err != nil {
			t.Fatal(err)
		}
		r := NewRun(s, Overrides{Seed: &seed})
		if sum := r.Finish(); !sum.OK() || sum.Steps != 43 {
			t.Fatalf("seed %d: %+v", seed, sum)
		}
		var b strings.Builder
		for _, e := range r.Events() {
			if e.Kind == trace.Call && e.Name == "Flush" && e.Layer == trace.Runtime {
				b.WriteString(e.Thread[1:])
			}
		}
		return b.String()
	}
	a, b := order(1), order(1)
	if a != b {
		t.Fatalf("same seed, different interleavings:\n%s\n%s", a, b)
	}
	if !strings.HasSuffix(a, "ain") { // main's Flush comes after both waits
		t.Fatalf("main ran before the threads signalled: %q", a)
	}
	differs := false
	for seed := uint64(2); seed < 6; seed++ {
		differs = differs || order(seed) != a
	}
	if !differs {
		t.Fatal("five seeds, one interleaving: the choice is not seeded")
	}
	if !strings.Contains(a, "12") && !strings.Contains(a, "21") {
		t.Fatalf("threads did not interleave: %q", a)
	}
}

func TestWaitWithoutSignalIsReported(t *testing.T) {
	s, err := Load("t", []byte("dev, imm = D3D11CreateDevice\nwait never\nimm.Flush\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], `2:1: thread main waits for "never"`) {
		t.Fatalf("failures %q", sum.Failures)
	}
}

// TestTimeBudget: a loop whose every round waits for heavy GPU work (a 64
// MiB clear and copy, then Map) costs milliseconds of real time per API call;
// the virtual-time budget (option maxtime) ends it long before the step
// budget would.
func TestTimeBudget(t *testing.T) {
	s, err := Load("t", []byte(`option maxtime=50
dev, imm = D3D11CreateDevice
a = dev.CreateTexture2D Width=4096 Height=4096 Format=R8G8B8A8_UNORM Usage=DEFAULT BindFlags=RENDER_TARGET
b = dev.CreateTexture2D Width=4096 Height=4096 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
rtv = dev.CreateRenderTargetView a
repeat 1000000000 {
 imm.ClearRenderTargetView rtv 1 0 0 1
 imm.CopyResource b a
 imm.Map b READ
 imm.Unmap b
}
`))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "time budget of 50 ms of virtual time reached") || sum.Steps > 10000 {
		t.Fatalf("steps %d, failures %q", sum.Steps, sum.Failures)
	}
}

// TestPixelBudget: shading a pixel costs the simulator far more real time
// than the virtual time it charges (a full-screen draw on 8192x8192 takes
// half a second), so pixels have their own budget (option maxpixels).
func TestPixelBudget(t *testing.T) {
	s, err := Load("t", []byte(`option maxpixels=100000
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.IASetPrimitiveTopology TRIANGLELIST
imm.RSSetViewports 0 0 64 64
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat 1000000000 {
 imm.Draw 6 0
 sc.Present
}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	sum := r.Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "pixel budget of 100000 pixels shaded, written or presented reached") || sum.Steps > 1000 {
		t.Fatalf("steps %d, failures %q", sum.Steps, sum.Failures)
	}
}

// TestFrameCap: a run keeps at most 256 MiB of presented frames (the newest,
// always the last); Summary.Frames still counts every Present and
// FramesDropped says how many were let go. (Each frame differs from the one
// before: a repeated picture costs nothing, TestRepeatedFramesShare.)
func TestFrameCap(t *testing.T) {
	s, err := Load("t", []byte("dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=1024 Height=1024\nbb = sc.GetBuffer 0\n"+
		"rtv = dev.CreateRenderTargetView bb\nrepeat 50 {\n imm.ClearRenderTargetView rtv 1 0 0 1\n sc.Present\n"+
		" imm.ClearRenderTargetView rtv 0 1 0 1\n sc.Present\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	sum := r.Finish()
	kept := r.Frames()
	if !sum.OK() || sum.Frames != 100 || len(kept) != 64 || r.FramesDropped() != 36 {
		t.Fatalf("frames %d, kept %d, dropped %d, failures %q", sum.Frames, len(kept), r.FramesDropped(), sum.Failures)
	}
	if f, ok := r.LastFrame(); !ok || len(f.Pix) != 1024*1024*4 {
		t.Fatal("the last frame is gone")
	}
}

// TestRepeatedFramesShare: Presents of the same picture keep one copy of
// its pixels (issue 32: the page's draws figure kept 256 KiB a Present up to
// 256 MiB), so none is let go; a picture that differs, even in one byte, is
// kept apart, and the frames read back as they were presented.
func TestRepeatedFramesShare(t *testing.T) {
	const side = 1024 // 4 MiB a frame: 100 copies would pass maxFrameBytes
	src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=1024 Height=1024\nbb = sc.GetBuffer 0\n" +
		"rtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv 1 0 0 1\nrepeat 100 {\n sc.Present\n}\n" +
		"imm.ClearRenderTargetView rtv 1 0 0 0.996\nsc.Present\nsc.Present\n" + // alpha 254: one byte a pixel
		"imm.ClearRenderTargetView rtv 1 0 0 1\nsc.Present\n"
	r := runSource(t, src)
	fs := r.Frames()
	if len(fs) != 103 || r.FramesDropped() != 0 {
		t.Fatalf("%d frames kept, %d dropped, want 103 and 0", len(fs), r.FramesDropped())
	}
	one := side * side * 4
	if r.frameMem != 3*one {
		t.Errorf("frames hold %d bytes, want %d (three pictures)", r.frameMem, 3*one)
	}
	red := bytes.Repeat([]byte{255, 0, 0, 255}, side*side)
	dim := bytes.Repeat([]byte{255, 0, 0, 254}, side*side)
	for i, f := range fs {
		want := red
		if i == 100 || i == 101 {
			want = dim
		}
		if f.Width != side || f.Height != side || !bytes.Equal(f.Pix, want) {
			t.Fatalf("frame %d is not the picture presented", i)
		}
		if shared := i > 0 && samePix(f.Pix, fs[i-1].Pix); shared != (i > 0 && i != 100 && i != 102) {
			t.Errorf("frame %d shares the frame before's pixels: %v", i, shared)
		}
	}
	// Past maxFrameBytes a picture's bytes go with the last frame that
	// shows it: 10 pictures of 7 frames each, then one big enough that the
	// oldest picture, all 7 of its frames, must go.
	r.frames, r.frameMem, r.dropped = nil, 0, 0
	for range 10 {
		pix := bytes.Clone(red)
		for range 7 {
			r.addFrame(Frame{Width: side, Height: side, Pix: pix})
		}
	}
	if want := 10 * one; r.frameMem != want || len(r.frames) != 70 {
		t.Errorf("%d frames hold %d bytes, want 70 and %d", len(r.frames), r.frameMem, want)
	}
	big := make([]byte, maxFrameBytes-9*one)
	r.addFrame(Frame{Width: side, Height: len(big) / (4 * side), Pix: big})
	if r.frameMem != maxFrameBytes || r.dropped != 7 || len(r.frames) != 64 {
		t.Errorf("after a big frame: %d bytes kept, %d frames dropped, %d kept, want %d, 7 and 64", r.frameMem, r.dropped, len(r.frames), maxFrameBytes)
	}
}

// TestBudgetWithoutCalls: loops that make no API call end by the step budget
// too (found by fuzzing the runner: they ran forever), an empty loop body
// repeats nothing, and a thread statement in a loop hits the thread limit.
func TestBudgetWithoutCalls(t *testing.T) {
	tests := []struct{ desc, src, want string }{
		{"expectations", "option maxsteps=5000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n expect violations == 0\n}\n",
			"4:2: step budget of 5000 reached by statements that are not API calls"},
		{"nested empty loops", "option maxsteps=5000\nrepeat 1000000000 {\n repeat 1000000000 {\n }\n}\n",
			"3:2: step budget of 5000 reached by statements that are not API calls"},
		{"signals", "option maxsteps=5000\nrepeat 1000000000 {\n signal x\n wait x\n}\n",
			"step budget of 5000 reached by statements that are not API calls"},
		{"threads", "repeat 1000000000 {\n thread t {\n }\n}\n", "2:2: thread t: more than 1000 threads started, the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("t", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			sum := NewRun(s, Overrides{}).Finish()
			if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], tt.want) {
				t.Fatalf("failures %q, want %q", sum.Failures, tt.want)
			}
		})
	}
	s, _ := Load("t", []byte("dev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n}\nimm.Flush\n"))
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() || sum.Steps != 2 {
		t.Fatalf("empty loop: %+v", sum)
	}
}

// TestTraceRing: the trace is a ring of option maxevents events. A runaway
// loop is stopped by the step budget, not by the trace; the oldest events are
// dropped and counted; `expect calls` still sees every event because it reads
// them as they are written.
func TestTraceRing(t *testing.T) {
	s, err := Load("t", []byte("option maxevents=1000\noption maxsteps=20000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	sum := r.Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "step budget of 20000 API calls reached") {
		t.Fatalf("failures %q", sum.Failures)
	}
	held := r.Events()
	if len(held) > 1000 || sum.Dropped == 0 || sum.Dropped+len(held) != sum.Events || held[0].Seq != uint64(sum.Dropped)+1 {
		t.Fatalf("events %d, dropped %d, held %d from seq %d", sum.Events, sum.Dropped, len(held), held[0].Seq)
	}

	const src = `option maxevents=1000
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=8 Height=8
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.ClearRenderTargetView rtv 1 0 0 1
sc.Present
expect calls Present pfnPresentCb DxgkDdiPresent DxgkDdiSubmitCommand FenceWrite FenceSignaled
repeat 5000 {
 imm.Flush
}
`
	s, _ = Load("t", []byte(src))
	if sum = NewRun(s, Overrides{}).Finish(); !sum.OK() || sum.Dropped == 0 {
		t.Fatalf("dropped %d, failures %q", sum.Dropped, sum.Failures)
	}
	// The same `expect calls` with a name that never happens still fails:
	// the check really reads the events the ring dropped.
	s, _ = Load("t", []byte(strings.Replace(src, "FenceSignaled", "FenceSignaled DxgkDdiNeverCalled", 1)))
	sum = NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "8:1: expected calls") || !strings.Contains(sum.Failures[0], "DxgkDdiNeverCalled not found") {
		t.Fatalf("failures %q", sum.Failures)
	}
}

// TestTraceRingTooSmall: one statement (an emulated ExecuteCommandList
// replaying 400 calls) makes more than a quarter of a 1000-event ring, so
// events are dropped before the verifier and `expect calls` read them: the
// run says so instead of passing unverified; a ring big enough passes.
func TestTraceRingTooSmall(t *testing.T) {
	const src = `option maxevents=%d
option driver.commandlists=false
dev, imm = D3D11CreateDevice
dc = dev.CreateDeferredContext
repeat 400 {
  dc.IASetPrimitiveTopology TRIANGLELIST
}
cl = dc.FinishCommandList FALSE
imm.ExecuteCommandList cl FALSE
expect calls ExecuteCommandList IASetPrimitiveTopology
`
	s, _ := Load("t", []byte(fmt.Sprintf(src, 1000)))
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 2 || !strings.HasPrefix(sum.Failures[0], "9:0: the trace ring dropped events before the verifier read them") ||
		!strings.HasPrefix(sum.Failures[1], "10:1: expect calls: the trace ring dropped events of the statement") {
		t.Fatalf("failures %q", sum.Failures)
	}
	s, _ = Load("t", []byte(fmt.Sprintf(src, 100000)))
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() || sum.Dropped != 0 {
		t.Fatalf("a big ring: dropped %d, failures %q", sum.Dropped, sum.Failures)
	}
}

// TestTraceRingVerifier: a rule broken long after the ring started dropping
// is still found (the verifier reads every event after each statement), and
// debug-layer messages are all kept.
func TestTraceRingVerifier(t *testing.T) {
	base := `option maxevents=1000
option bug=%s
dev, imm = D3D11CreateDevice
repeat 3000 {
 imm.Flush
}
`
	for _, tt := range []struct {
		desc string
		tail string
		rule string
	}{
		{"isolation", `other, oimm = D3D11CreateDevice
victim = other.CreateBuffer ByteWidth=256 Usage=DEFAULT BindFlags=VERTEX_BUFFER
inject umd.foreign target=victim on=dev
imm.Flush
`, "WDDM-ISOLATE"},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("t", []byte(fmt.Sprintf(base, tt.rule)+tt.tail))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			sum := r.Finish()
			if sum.Dropped == 0 {
				t.Fatal("nothing dropped: the test does not test the ring")
			}
			found := false
			for _, v := range r.Violations() {
				found = found || v.Rule == tt.rule
			}
			if !found {
				t.Fatalf("no %s violation; failures %q", tt.rule, sum.Failures)
			}
		})
	}
}

// budgetDefault: TestStepBudgetDefault runs the loop to the default budget
// (make soak); without it, the run holds the default budget and the loop
// stops at a budget of 100,000 with the same message (the 10,000,000 calls
// took 43 s of make unit at a load of 27).
var budgetDefault = flag.Bool("budget.default", false, "TestStepBudgetDefault: run the runaway loop to the default budget of 10,000,000 API calls")

// TestStepBudgetDefault: the issue's runaway loop, at the default budget of
// 10,000,000 API calls (several seconds natively).
func TestStepBudgetDefault(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("10,000,000 API calls: native, without -short")
	}
	src := "dev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n"
	s, err := Load("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !*budgetDefault {
		if r := NewRun(s, Overrides{}); r.opt.maxsteps != 10_000_000 {
			t.Fatalf("the default step budget is %d", r.opt.maxsteps)
		}
		s, err := Load("t", []byte("option maxsteps=100000\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		sum := NewRun(s, Overrides{}).Finish()
		if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "4:2: step budget of 100000 API calls reached") || sum.Steps != 100_000 {
			t.Fatalf("steps %d, failures %q", sum.Steps, sum.Failures)
		}
		return
	}
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "3:2: step budget of 10000000 API calls reached") || sum.Steps != 10_000_000 {
		t.Fatalf("steps %d, failures %q", sum.Steps, sum.Failures)
	}
}

// TestLimits: memory and object limits end a scenario with E_OUTOFMEMORY and
// a message naming the limit, never by exhausting the machine.
func TestLimits(t *testing.T) {
	tests := []struct{ desc, src, want string }{
		{"memory", "option sysmem=4MiB\ndev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8192 Height=8192\n", "memory limit of 4194304 bytes (option sysmem=SIZE)"},
		{"objects", "option maxobjects=20\ndev, imm = D3D11CreateDevice\nrepeat 100 {\n q = dev.CreateQuery Query=EVENT\n}\n", "20 live objects, its limit (option maxobjects=N)"},
	}
	for _, tt := range tests {
		s, err := Load("t", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		sum := NewRun(s, Overrides{}).Finish()
		if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "E_OUTOFMEMORY") || !strings.Contains(sum.Failures[0], tt.want) {
			t.Errorf("%s: failures %q", tt.desc, sum.Failures)
		}
	}
}

// TestSharedNeedsDefault: MiscFlags=SHARED only with DEFAULT usage.
func TestSharedNeedsDefault(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nb = dev.CreateBuffer ByteWidth=16 Usage=DYNAMIC CPUAccessFlags=WRITE BindFlags=VERTEX_BUFFER MiscFlags=SHARED\n"
	s, err := Load("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "a SHARED resource must have DEFAULT usage") {
		t.Fatalf("failures %q", sum.Failures)
	}
}

// TestPreemptOverlaps: with option preempt=true another thread's
// free-threaded call runs inside the immediate context's Flush (its DDI
// events come between the Flush DDI's call and return, on their own
// thread); without the option, never. Same seed, same trace.
func TestPreemptOverlaps(t *testing.T) {
	src, _ := assets.Scenario("free-threaded")
	overlaps := func(src string) int {
		n := 0
		open := map[string]int{} // thread -> open DDI calls
		for _, e := range runSource(t, src).Events() {
			if e.Layer != trace.UMD || e.From != trace.Runtime {
				continue
			}
			switch e.Kind {
			case trace.Call:
				for th, k := range open {
					if th != e.Thread && k > 0 {
						n++
					}
				}
				open[e.Thread]++
			case trace.Return:
				open[e.Thread]--
			}
		}
		return n
	}
	if n := overlaps(string(src)); n == 0 {
		t.Fatal("preempt=true: no DDI call of one thread inside another's")
	}
	if n := overlaps(strings.Replace(string(src), "\noption preempt=true\n", "\noption preempt=false\n", 1)); n != 0 {
		t.Fatalf("preempt=false: %d overlapping DDI calls", n)
	}
	var a, b bytes.Buffer
	trace.WriteJSONL(&a, runSource(t, string(src)).Events())
	trace.WriteJSONL(&b, runSource(t, string(src)).Events())
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two runs with preemption give different traces")
	}
}

// TestHotSwappedDraw: after SetFullscreenState the driver points pfnDraw at
// its full-screen path (a DeviceFuncsWrite inside SetDisplayModeDXGI), and
// the runtime's next Draw goes through the new entry (rule FT-TABLE).
func TestHotSwappedDraw(t *testing.T) {
	src, err := os.ReadFile("testdata/async/fullscreen.d3ds")
	if err != nil {
		t.Fatal(err)
	}
	var swapped, drawn bool
	for _, e := range runSource(t, string(src)).Events() {
		switch {
		case e.Name == "DeviceFuncsWrite" && e.Args.String() == "entry=pfnDraw impl=DrawFullscreen":
			swapped = true
		case e.Name == "Draw" && e.Layer == trace.UMD && e.Kind == trace.Call:
			drawn = true
			if !swapped || e.Args.String() != "impl=DrawFullscreen" {
				t.Fatalf("Draw DDI %q (swapped before: %v)", e.Args, swapped)
			}
		}
	}
	if !drawn {
		t.Fatal("no Draw DDI")
	}
}

// TestRunLimits: what a run may create in all: devices (each keeps state in
// every layer; a creation loop exhausted memory) and video memory (a huge
// gpu.vram let devices commit unbounded memory; the ceiling plus the 1 GiB
// aperture bound a run to 2 GiB).
func TestRunLimits(t *testing.T) {
	s, _ := Load("t", []byte("repeat 1000000000 {\n dev, imm = D3D11CreateDevice\n}\n"))
	sum := NewRun(s, Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "2:2: D3D11CreateDevice: 256 devices created in this run, the limit") || sum.Steps != 256 {
		t.Fatalf("steps %d, failures %q", sum.Steps, sum.Failures)
	}
	// gpu.vram past the ceiling is refused (TestOptionRanges); the
	// decoder still clamps what it is given.
	if o := decodeOptions(&Script{Options: []Option{{Key: "gpu.vram", Value: "100GiB"}}}, Overrides{}); o.vram != machine.MaxVRAM {
		t.Fatalf("gpu.vram=100GiB gives %d bytes of VRAM, want the ceiling %d", o.vram, machine.MaxVRAM)
	}
}

// TestSummaryHashRepeatedFrames: Summary hashes a picture once while its
// frames share its pixels, and each new picture (another slice, even of the
// same bytes, or one byte apart) gets its own hash. The short cut itself is a
// speed change (issue 32: a SHA-256 of 256 KiB a frame of the page's draws
// figure); this holds the hash it keeps right.
func TestSummaryHashRepeatedFrames(t *testing.T) {
	r := runSource(t, "dev, imm = D3D11CreateDevice\n")
	r.frames, r.frameMem, r.dropped = nil, 0, 0
	a := bytes.Repeat([]byte{255, 0, 0, 255}, 64*64)
	b := bytes.Clone(a)
	b[len(b)-1] = 254
	for i, pix := range [][]byte{a, a, a, bytes.Clone(a), b, b, a, {}} {
		r.addFrame(Frame{Width: 64, Height: 64, Pix: pix})
		if got, want := r.Summary().Hash, HashBytes(pix); got != want {
			t.Errorf("frame %d: Summary's hash %s, want %s", i, got, want)
		}
	}
}
