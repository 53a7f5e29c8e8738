package scenario

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/trace"
)

// sliceScenarios are the runs TestSlicesDoNotChangeTheRun cuts into slices:
// every example scenario and tutorial, and loops of the kinds the browser
// slices (calls, statements that make no call, threads, heavy draws).
func sliceScenarios(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range assets.Scenarios() {
		src, _ := assets.Scenario(name)
		out[name] = string(src)
	}
	for _, name := range assets.Tutorials() {
		src, _, _ := assets.Tutorial(name)
		out["tutorial/"+name] = string(src)
	}
	out["loop/flush-runaway"] = "option maxsteps=3000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n    imm.Flush\n}\n"
	out["loop/statements"] = "dev, imm = D3D11CreateDevice\nrepeat 50 {\n  repeat 40 {\n    expect violations == 0\n  }\n  repeat 3 {\n  }\n  imm.Flush\n}\n"
	out["loop/statements-runaway"] = "option maxsteps=5000\nrepeat 1000000000 {\n  expect violations == 0\n}\n"
	out["loop/threads"] = `option seed=7
dev, imm = D3D11CreateDevice
thread a {
  repeat 30 {
    b = dev.CreateBuffer ByteWidth=64 Usage=DEFAULT BindFlags=CONSTANT_BUFFER
    expect violations == 0
    b.Release
  }
  signal a
}
thread c {
  repeat 30 {
    q = dev.CreateQuery Query=EVENT
    q.Release
    expect live == 0
  }
  wait a
}
repeat 20 {
  imm.Flush
}
`
	out["loop/draws"] = `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat 6 {
  imm.ClearRenderTargetView rtv #202830ff
  repeat 4 {
    imm.Draw 6 0
  }
  sc.Present
  expect pixel bb 1 1 == #ffffffff
}
`
	return out
}

// runOutcome is everything a run shows: its summary, its trace and the
// hashes of its frames.
type runOutcome struct {
	sum    Summary
	trace  []byte
	frames []string
}

func outcome(r *Run) runOutcome {
	var b bytes.Buffer
	trace.WriteJSONL(&b, r.Events())
	o := runOutcome{sum: r.Summary(), trace: b.Bytes()}
	for _, f := range r.Frames() {
		o.frames = append(o.frames, HashBytes(f.Pix))
	}
	return o
}

// TestSlicesDoNotChangeTheRun: a scenario run whole and the same scenario run
// in slices of any size — ended by calls, by statements or by a clock, as the
// browser does — give the same summary, trace and frames. Between slices it
// reads what the page reads (the summary, new events), which must not change
// the run either.
func TestSlicesDoNotChangeTheRun(t *testing.T) {
	// over ends a slice after a varying number of statements, standing in
	// for the page clock (which ends slices anywhere).
	overEvery := func(ks ...int) func() func() bool {
		return func() func() bool {
			n, i := 0, 0
			return func() bool {
				if n++; n >= ks[i%len(ks)] {
					n, i = 0, i+1
					return true
				}
				return false
			}
		}
	}
	cuts := []struct {
		desc string
		lim  func() SliceLimits
	}{
		{"one call", func() SliceLimits { return SliceLimits{Calls: 1} }},
		{"one statement", func() SliceLimits { return SliceLimits{Statements: 1} }},
		{"7 calls or 3 statements", func() SliceLimits { return SliceLimits{Calls: 7, Statements: 3} }},
		{"2000 calls or 8000 statements", func() SliceLimits { return SliceLimits{Calls: 2000, Statements: 8000} }},
		{"clock", func() SliceLimits { return SliceLimits{Over: overEvery(1, 5, 2, 17, 3, 101)()} }},
	}
	if testing.Short() {
		cuts = cuts[len(cuts)-2:] // make race: the two cheap cuts (a slice per call was two minutes under -race)
	}
	for name, src := range sliceScenarios(t) {
		t.Run(name, func(t *testing.T) {
			s, err := Load(name, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			whole := NewRun(s, Overrides{})
			whole.Finish()
			want := outcome(whole)
			for _, c := range cuts {
				r := NewRun(s, Overrides{})
				slices := 0
				var seen uint64
				lim := c.lim()
				for {
					if _, done := r.Slice(lim); done {
						break
					}
					slices++
					_ = r.Summary()
					evs := r.Recorder().AppendSince(nil, seen, 1000)
					if len(evs) > 0 {
						seen = evs[len(evs)-1].Seq
					}
					if slices > 10_000_000 {
						t.Fatalf("%s: does not end", c.desc)
					}
				}
				got := outcome(r)
				if !reflect.DeepEqual(got.sum, want.sum) {
					t.Errorf("%s (%d slices): summary\n%+v\nwant\n%+v", c.desc, slices, got.sum, want.sum)
				}
				if !bytes.Equal(got.trace, want.trace) {
					t.Errorf("%s (%d slices): the trace differs from the whole run's (%d bytes, want %d)", c.desc, slices, len(got.trace), len(want.trace))
				}
				if !reflect.DeepEqual(got.frames, want.frames) {
					t.Errorf("%s (%d slices): frame hashes %v, want %v", c.desc, slices, got.frames, want.frames)
				}
			}
		})
	}
}

// TestSliceBoundsStatements: a loop of statements that make no API call is
// cut into slices of at most Statements statements (the call bound alone
// would run it in one), and a slice ends as soon as Over says so.
func TestSliceBoundsStatements(t *testing.T) {
	src := "repeat 300 {\n  repeat 100 {\n    expect violations == 0\n  }\n}\n"
	s, err := Load("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const bound = 500
	r := NewRun(s, Overrides{})
	var sizes []int
	asked := 0
	over := func() bool { asked++; return false } // the page clock, never over here
	for {
		n, done := r.Slice(SliceLimits{Calls: 2000, Statements: bound, Over: over})
		sizes = append(sizes, n)
		if done {
			break
		}
	}
	total := 0
	for i, k := range sizes {
		if k > bound || k < 1 {
			t.Fatalf("slice %d ran %d statements, bound %d", i, k, bound)
		}
		total += k
	}
	// 300 * 100 expectations and 300 inner repeats, the outer repeat, the
	// step that finds the main thread's blocks all finished and the one
	// that finds no thread left.
	if want := 300*100 + 300 + 1 + 2; total != want {
		t.Errorf("ran %d statements in %d slices, want %d", total, len(sizes), want)
	}
	if len(sizes) < total/bound {
		t.Errorf("%d slices for %d statements with a bound of %d", len(sizes), total, bound)
	}
	if asked < total-len(sizes) {
		t.Errorf("Over asked %d times in %d statements: it must be asked between statements", asked, total)
	}
	if sum := r.Summary(); !sum.OK() || !sum.Done {
		t.Errorf("summary %+v", sum)
	}

	// Over ends a slice at once: after exactly 5 statements here.
	r = NewRun(s, Overrides{})
	asked = 0
	if n, done := r.Slice(SliceLimits{Over: func() bool { asked++; return asked%5 == 0 }}); done || n != 5 {
		t.Fatalf("a slice over after 5 statements ran %d (done %v)", n, done)
	}
	// A done run runs nothing more.
	r.Finish()
	if n, done := r.Slice(SliceLimits{Statements: 10}); !done || n != 0 {
		t.Errorf("a slice of a done run ran %d statements (done %v)", n, done)
	}
}

// ExampleRun_Slice runs a scenario in slices of at most 2 API calls or 8
// statements.
func ExampleRun_Slice() {
	s, _ := Load("example.d3ds", []byte("dev, imm = D3D11CreateDevice\nrepeat 3 {\n  imm.Flush\n  expect violations == 0\n}\n"))
	r := NewRun(s, Overrides{})
	slices := 1
	for {
		if _, done := r.Slice(SliceLimits{Calls: 2, Statements: 8}); done {
			break
		}
		slices++
	}
	sum := r.Summary()
	fmt.Println(slices, "slices,", sum.Steps, "calls,", strings.Join(sum.Failures, "; ") == "")
	// Output: 3 slices, 4 calls, true
}
