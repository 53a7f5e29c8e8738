package scenario

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// queryScene draws a 16x16 quad inside an OCCLUSION query, with TIMESTAMP
// queries t1 before and t2 after and an EVENT query q ended last; the
// statements of each test follow it (from line 24).
const queryScene = `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
q = dev.CreateQuery Query=EVENT
occ = dev.CreateQuery Query=OCCLUSION
t1 = dev.CreateQuery Query=TIMESTAMP
t2 = dev.CreateQuery Query=TIMESTAMP
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
imm.End t1
imm.Begin occ
imm.Draw 6
imm.End occ
imm.End t2
imm.End q
`

// runText loads and runs a scenario with overrides.
func runText(t *testing.T, src string, o Overrides) *Run {
	t.Helper()
	s, err := Load("t.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, o)
	r.Finish()
	return r
}

// countCalls counts the API calls named name in r's trace.
func countCalls(r *Run, name string) int {
	n := 0
	for _, e := range r.Events() {
		if e.Kind == trace.Call && e.Layer == trace.Runtime && e.From == trace.App && e.Name == name {
			n++
		}
	}
	return n
}

// TestUntilPolls: `until hr != S_FALSE max N { imm.GetData q }` is the
// heavier synchronous-destruction pattern's loop of "Changes from Direct3D
// 10": asynchronously GetData answers S_FALSE a few times, then S_OK, and
// the loop ends; synchronously the first answer is S_OK. Either way the
// scenario passes and the data is there.
func TestUntilPolls(t *testing.T) {
	src := queryScene + `until hr != S_FALSE max 1000 {
  imm.GetData q
}
expect hr == S_OK
expect data q == TRUE
`
	yes := true
	async := runText(t, src, Overrides{})
	sync := runText(t, src, Overrides{Sync: &yes})
	for name, r := range map[string]*Run{"async": async, "sync": sync} {
		if s := r.Summary(); !s.OK() {
			t.Fatalf("%s: %v", name, s.Failures)
		}
	}
	if n := countCalls(async, "GetData"); n < 2 {
		t.Errorf("asynchronously GetData ran %d times, want a few S_FALSE first", n)
	}
	if n := countCalls(sync, "GetData"); n != 1 {
		t.Errorf("synchronously GetData ran %d times, want 1", n)
	}
	// Every poll is the same question: the modes compare one answer,
	// and the run keeps one result for the loop, the last.
	for name, r := range map[string]*Run{"async": async, "sync": sync} {
		if qs := r.QueryResults(); len(qs) != 1 || qs[0].HR != "S_OK" || qs[0].N != 0 || qs[0].Value != 1 {
			t.Errorf("%s: query results %+v, want the loop's one S_OK", name, qs)
		}
	}
}

// TestUntilRuns covers the loop's other outcomes: a bound reached stops
// the run naming the line, a failure the condition names is the loop's
// business, one it does not name stops the run unless `expect hr` follows.
func TestUntilRuns(t *testing.T) {
	tests := []struct {
		desc, src string
		want      string // the only failure, "" when the run passes
		steps     int    // API calls, when not 0
	}{
		{"the bound is reached", `dev, imm = D3D11CreateDevice
until hr == S_FALSE max 3 {
  imm.Flush
}
imm.Flush
`, "2:1: until hr == S_FALSE: still false after 3 runs of the block (max 3): the last call (line 3) returned S_OK", 4},
		{"the block's failing call is for the condition", `dev, imm = D3D11CreateDevice
src = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView src
stage = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
imm.ClearRenderTargetView rtv #336699ff
imm.CopyResource stage src
until hr != DXGI_ERROR_WAS_STILL_DRAWING max 10000 {
  imm.Map stage READ Flags=DO_NOT_WAIT
}
imm.Unmap stage
expect pixel stage 1 1 == #336699ff
`, "", 0},
		{"a failure the condition does not name stops the run", `dev, imm = D3D11CreateDevice
q = dev.CreateQuery Query=EVENT
until hr != S_FALSE max 10 {
  imm.GetData q
}
imm.Flush
`, "4:3: the call failed: ", 3},
		{"unless expect hr follows the loop", `dev, imm = D3D11CreateDevice
q = dev.CreateQuery Query=EVENT
until hr != S_FALSE max 10 {
  imm.GetData q
}
expect hr == E_INVALIDARG
imm.Flush
`, "", 4},
		{"a failure in the middle of the block stops the run", `dev, imm = D3D11CreateDevice
q = dev.CreateQuery Query=EVENT
until hr == S_OK max 10 {
  imm.GetData q
  imm.Flush
}
`, "4:3: imm.GetData failed: E_INVALIDARG", 3},
		{"until data waits for the data", queryScene + `until data occ > 0 max 1000 {
  imm.GetData occ
}
expect data occ == 256
`, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s := runText(t, tt.src, Overrides{}).Summary()
			switch {
			case tt.want == "" && !s.OK():
				t.Fatalf("failures %q", s.Failures)
			case tt.want != "" && (len(s.Failures) != 1 || !strings.HasPrefix(s.Failures[0], tt.want)):
				t.Fatalf("failures %q, want one starting %q", s.Failures, tt.want)
			}
			if tt.steps != 0 && s.Steps != tt.steps {
				t.Errorf("%d API calls, want %d", s.Steps, tt.steps)
			}
		})
	}
}

// TestExpectData: `expect data QUERY OP VALUE` compares what the last GetData
// of QUERY returned: occlusion samples, an event's TRUE, timestamps with one
// another; a query without data yet says why.
func TestExpectData(t *testing.T) {
	poll := func(q string) string {
		return "until hr == S_OK max 1000 {\n  imm.GetData " + q + "\n}\n"
	}
	tests := []struct {
		desc, stmts string
		want        string // the only failure, "" when the run passes
	}{
		{"occlusion: the quad's 256 samples", poll("occ") + "expect data occ == 256\nexpect data occ >= 256\nexpect data occ > 255\nexpect data occ <= 256\nexpect data occ < 257\nexpect data occ != 0\n", ""},
		{"occlusion, wrong count", poll("occ") + "expect data occ == 255\n", "27:1: expected data occ == 255, data of occ is 256 (GetData on line 25)"},
		{"event: TRUE", poll("q") + "expect data q == TRUE\nexpect data q != FALSE\n", ""},
		{"timestamps in order", poll("t1") + poll("t2") + "expect data t2 > t1\nexpect data t1 < t2\n", ""},
		{"timestamps, wrong order", poll("t1") + poll("t2") + "expect data t2 < t1\n", "30:1: expected data t2 < t1, data of t2 is "},
		{"no GetData yet", "expect data occ == 256\n", "24:1: expect data occ == 256: occ has no data yet: no GetData of it has run (poll it: until hr == S_OK max N { ctx.GetData occ })"},
		{"the other query has none", poll("t2") + "expect data t2 > t1\n", "27:1: expect data t2 > t1: t1 has no data yet: no GetData of it has run"},
		{"S_FALSE", "imm.GetData occ\nexpect data occ == 256\n", "25:1: expect data occ == 256: occ has no data yet: its last GetData (line 24) returned S_FALSE"},
		{"ended again", poll("occ") + "imm.Begin occ\nimm.End occ\nexpect data occ == 256\n", "29:1: expect data occ == 256: occ has no data yet: it was ended again on line 28, after its last GetData (line 25)"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s := runText(t, queryScene+tt.stmts, Overrides{}).Summary()
			switch {
			case tt.want == "" && !s.OK():
				t.Fatalf("failures %q", s.Failures)
			case tt.want != "" && (len(s.Failures) != 1 || !strings.HasPrefix(s.Failures[0], tt.want)):
				t.Fatalf("failures %q, want one starting %q", s.Failures, tt.want)
			}
		})
	}
}

// TestUntilAndDataLoadErrors: what the checker refuses in the new forms.
func TestUntilAndDataLoadErrors(t *testing.T) {
	tests := []struct{ desc, src, want string }{
		{"until hr without a call", "dev, imm = D3D11CreateDevice\nuntil hr == S_OK max 3 {\n  expect violations == 0\n}\n",
			"t.d3ds:2:1: until hr == S_OK: the block makes no API call on this thread, so hr never changes"},
		{"until hr, unknown HRESULT", "dev, imm = D3D11CreateDevice\nuntil hr == S_MAYBE max 3 {\n  imm.Flush\n}\n", `t.d3ds:2:7: unknown HRESULT "S_MAYBE"`},
		{"data of a context", "dev, imm = D3D11CreateDevice\nexpect data imm == 1\n", "t.d3ds:2:1: data needs a query, and imm is a context"},
		{"data of an unknown object", "expect data q == 1\n", `t.d3ds:1:1: unknown object "q" (data compares what GetData of a query returned)`},
		{"data compared with a buffer", "dev, imm = D3D11CreateDevice\nq = dev.CreateQuery Query=EVENT\nvb = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER\nuntil data q == vb max 2 {\n  imm.GetData q\n}\n",
			"t.d3ds:4:7: data needs a query, and vb is a buffer"},
	}
	for _, tt := range tests {
		_, err := Load("t.d3ds", []byte(tt.src))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.desc, err, tt.want)
		}
	}
}

// TestReleaseIsAnAPICall: every Release is an API call in the trace (layer
// runtime, from app, obj the object; a context by its name in the trace,
// IC or DC1), so `expect calls` can follow a final
// Release to what it destroys: the Destroy* DDIs of an object nothing
// binds, DestroyDevice for the device's last reference; a deferred
// context's handle is retired for RecycleCreateDeferredContext ("Supporting
// command lists") and destroyed with the device.
func TestReleaseIsAnAPICall(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
vb = dev.CreateBuffer ByteWidth=64 BindFlags=VERTEX_BUFFER
vb.AddRef
vb.Release
expect calls Release
vb.Release
expect calls Release DestroyResource
bs = dev.CreateBlendState BlendEnable=TRUE
imm.OMSetBlendState bs
bs.Release
expect calls Release ReleasedWhileBound
imm.ClearState
imm.Flush
dc = dev.CreateDeferredContext
dc.Release
expect calls Release DeferredContextState
imm.Release
expect calls Release
dev.Release
expect calls Release DestroyDevice DxgkDdiDestroyDevice
expect live == 0
`
	r := runText(t, src, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%q", s.Failures)
	}
	objs := map[string]int{}
	for _, e := range r.Events() {
		if e.Kind == trace.Call && e.Name == "Release" {
			if e.Layer != trace.Runtime || e.From != trace.App {
				t.Errorf("Release of %s: layer %s from %s, want runtime from app", e.Obj, e.Layer, e.From)
			}
			objs[e.Obj]++
		}
	}
	if want := map[string]int{"vb": 2, "bs": 1, "DC1": 1, "IC": 1, "dev": 1}; !maps.Equal(objs, want) {
		t.Errorf("Release calls by object %v, want %v", objs, want)
	}
}

// TestDocExamples: "every multi-line example on this page is a complete
// scenario that passes d3dsim run" (docs/scenario.md) — the polling
// example of until among them.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scenario.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(doc), "```d3ds\n")[1:]
	if len(blocks) < 8 {
		t.Fatalf("%d d3ds examples in docs/scenario.md", len(blocks))
	}
	for i, b := range blocks {
		src, _, _ := strings.Cut(b, "```")
		title, _, _ := strings.Cut(src, "\n")
		t.Run(fmt.Sprintf("%d %s", i+1, title), func(t *testing.T) {
			if s := runText(t, src, Overrides{}).Summary(); !s.OK() {
				t.Errorf("%q", s.Failures)
			}
		})
	}
}
