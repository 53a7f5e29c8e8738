//go:build !js

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/inspect"
)

// The page's inspector views ask what the CLI asks: the state at once, the
// rest as queries run a slice at a time.
func TestInspectorQueries(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "core", "inspect", "testdata", "layers.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	a := &app{}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, a)
	seq, err := a.inspectResolve("Draw#4")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Call   struct{ Name string }
		Stages []struct {
			Name string
			Rows []struct{ Binding, Object, Value string }
		}
	}
	if err := json.Unmarshal(a.inspectState(seq, ""), &st); err != nil || st.Call.Name != "Draw" {
		t.Fatalf("state: %v %+v", err, st)
	}
	found := false
	for _, s := range st.Stages {
		for _, r := range s.Rows {
			if s.Name == "OM" && r.Binding == "blend state" && r.Object == "blend" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no OM blend state row naming blend: %+v", st.Stages)
	}
	if !strings.Contains(string(a.inspectState(1, "")), "error") {
		t.Errorf("the state before any call answers no error")
	}

	ask := func(kind, args string) string {
		p, failed := a.startQuery(kind, []byte(args))
		if p == nil {
			return string(failed)
		}
		for i := 0; i < 100000; i++ {
			if ans, done := p.slice(nil); done {
				return string(ans)
			}
		}
		t.Fatal("the query never finished")
		return ""
	}
	present, _ := a.inspectResolve("Present")
	h := ask("history", `{"seq":`+itoa(present)+`,"name":"bb","x":5,"y":7}`)
	if !strings.Contains(h, "failed the depth test") || !strings.Contains(h, "#bf404080") {
		t.Errorf("history: %.400s", h)
	}
	res := ask("resource", `{"seq":`+itoa(present)+`,"name":"bb","options":{"x":5,"y":7,"w":1,"h":1}}`)
	if !strings.Contains(res, `"hex":"bf404080"`) {
		t.Errorf("resource: %.400s", res)
	}
	pix, w, h2 := a.resourceImage([]byte(`{}`))
	if w != 16 || h2 != 16 || len(pix) != 4*16*16 || pix[4*(7*16+5)] != 0xbf {
		t.Errorf("picture %dx%d, %d bytes", w, h2, len(pix))
	}
	if tx := string(a.resourceTexel(5, 7)); !strings.Contains(tx, "bf404080") {
		t.Errorf("texel: %s", tx)
	}
	if tx := string(a.resourceTexel(99, 7)); tx != "null" {
		t.Errorf("texel outside: %s", tx)
	}
	step := ask("step", `{"seq":`+itoa(seq)+`,"name":"","x":5,"y":7}`)
	if !strings.Contains(step, `"isa":"mul r0, v1, cb0[0]"`) {
		t.Errorf("steps: %.400s", step)
	}
	if bad := ask("nope", `{}`); !strings.Contains(bad, "no query") {
		t.Errorf("unknown kind: %s", bad)
	}
	// A newer question replaces the one in flight.
	p1, _ := a.startQuery("history", []byte(`{"seq":`+itoa(present)+`,"name":"bb","x":1,"y":1}`))
	ask("resource", `{"seq":`+itoa(present)+`,"name":"tint"}`)
	if ans, done := p1.slice(nil); !done || !strings.Contains(string(ans), "replaced") {
		t.Errorf("replaced query: %s %v", ans, done)
	}
}

func itoa(n uint64) string { b, _ := json.Marshal(n); return string(b) }

// The page's wait explanation is the CLI's: a Map's RAW wait, asked by the
// Map's event, names its hazard and the DMA buffer; an event with no wait
// answers an error the page shows nothing for.
func TestInspectWait(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "assets", "tutorials", "03-map-hazards.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	a := &app{}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, a)
	seq, err := a.inspectResolve("line:29")
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Hazard, Sentence string
		Buffer           struct{ ID uint64 }
	}
	if err := json.Unmarshal(a.inspectWait(seq), &w); err != nil || w.Hazard != "RAW" || w.Buffer.ID == 0 ||
		!strings.HasPrefix(w.Sentence, "Map(shot) at line 29 waited") {
		t.Fatalf("wait: %v %+v", err, w)
	}
	if !strings.Contains(string(a.inspectWait(1)), "error") {
		t.Error("the first event answers a wait")
	}
	var c struct {
		ID    uint64
		Calls []struct{ Name string }
	}
	if err := json.Unmarshal(a.inspectDMA(seq), &c); err != nil || c.ID != w.Buffer.ID || len(c.Calls) != 2 {
		t.Errorf("DMA card: %v %+v", err, c)
	}
}

// The page's problems are the CLI's, asked in pieces: two-devices' KMD
// rejection and the device it removed, each asked once.
func TestInspectProblems(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "assets", "scenarios", "two-devices.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	a := &app{}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Loads, From, Total int
		List               []struct{ Kind, Cause string }
	}
	var got []string
	total := 0
	for done := false; !done; {
		a.mu.Lock()
		done = a.run.Step(3)
		a.mu.Unlock()
		var ans answer
		if err := json.Unmarshal(a.inspectProblems(len(got), 1), &ans); err != nil || ans.From != len(got) {
			t.Fatalf("problems from %d: %v %+v", len(got), err, ans)
		}
		for _, p := range ans.List {
			got = append(got, p.Kind)
		}
		total = ans.Total
	}
	for len(got) < total {
		var ans answer
		_ = json.Unmarshal(a.inspectProblems(len(got), 1), &ans)
		if len(ans.List) == 0 {
			t.Fatalf("problems from %d of %d: none", len(got), total)
		}
		got = append(got, ans.List[0].Kind)
	}
	if strings.Join(got, " ") != "rejected removed" || total != 2 {
		t.Errorf("problems %v of %d, want rejected removed", got, total)
	}
}

// The page's comparison: the run against the text before the edit (the
// viewport narrowed: its mask and the state at the Draw), against a mode,
// and with no earlier text an error that says what to do.
func TestInspectCompare(t *testing.T) {
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join("..", p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a := &app{}
	ask := func(args string) string {
		p, failed := a.startQuery("compare", []byte(args))
		if p == nil {
			return string(failed)
		}
		for i := 0; i < 1e5; i++ {
			if ans, done := p.slice(nil); done {
				return string(ans)
			}
		}
		t.Fatal("the comparison never finished")
		return ""
	}
	if err := a.load(read("assets/scenarios/hello-triangle.d3ds")); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, a)
	if ans := ask(`{"against":"edit"}`); !strings.Contains(ans, "no earlier text") {
		t.Errorf("no edit yet: %s", ans)
	}
	if err := a.load(read("core/inspect/testdata/hello-narrow.d3ds")); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, a)
	var c struct {
		A, B   string
		Calls  struct{ Same bool }
		Pixels struct{ Count int }
		State  struct{ Rows []struct{ Binding string } }
	}
	if err := json.Unmarshal([]byte(ask(`{"against":"edit","at":"Draw#1"}`)), &c); err != nil || c.A != "before the edit" || c.B != "this run" ||
		c.Calls.Same || c.Pixels.Count != 725 || len(c.State.Rows) != 1 || c.State.Rows[0].Binding != "viewport 0" {
		t.Errorf("against the edit: %v %+v", err, c)
	}
	pix, w, h := a.compareMask()
	if w != 64 || h != 64 || len(pix) != 64*64*4 {
		t.Errorf("mask %dx%d, %d bytes", w, h, len(pix))
	}
	if err := json.Unmarshal([]byte(ask(`{"against":"in-order"}`)), &c); err != nil || c.B != "in-order" || !c.Calls.Same || c.Pixels.Count != 0 {
		t.Errorf("against in-order: %v %+v", err, c)
	}
	if ans := ask(`{"against":"fast"}`); !strings.Contains(ans, "give edit or a mode") {
		t.Errorf("unknown mode: %s", ans)
	}
}

// The timeline's memory lanes ask as the run goes (inspectMemory, fed
// incrementally): memory-pressure's allocations and residency, in order;
// a DMA buffer's card carries its packets; a vertex and a compute thread
// step as the CLI's.
func TestInspectMemoryAndSteps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "assets", "scenarios", "memory-pressure.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	a := &app{}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		From, Total int
		List        []struct{ What, Segment, Allocation string }
	}
	var got []string
	for done := false; !done; {
		a.mu.Lock()
		done = a.run.Step(2)
		a.mu.Unlock()
		var ans answer
		if err := json.Unmarshal(a.inspectMemory(len(got), 1000), &ans); err != nil || ans.From != len(got) {
			t.Fatalf("memory from %d: %v %+v", len(got), err, ans)
		}
		for _, m := range ans.List {
			got = append(got, m.What+" "+m.Segment+" "+m.Allocation)
		}
	}
	want := "created  a1,created  a2,created  a3,created  a4,resident vram a2,resident vram a3,evicted vram a2,resident vram a4"
	if strings.Join(got, ",") != want {
		t.Errorf("memory events\n got %s\nwant %s", strings.Join(got, ","), want)
	}

	src, err = os.ReadFile(filepath.Join("..", "assets", "tutorials", "30-compute-shaders.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, a)
	ask := func(kind, args string) string {
		p, failed := a.startQuery(kind, []byte(args))
		if p == nil {
			return string(failed)
		}
		for i := 0; i < 100000; i++ {
			if ans, done := p.slice(nil); done {
				return string(ans)
			}
		}
		t.Fatal("the query never finished")
		return ""
	}
	dispatch, _ := a.inspectResolve("Dispatch#1")
	if th := ask("stepThread", `{"seq":`+itoa(dispatch)+`,"group":[0,0,0],"thread":[1,0,0]}`); !strings.Contains(th, `"stage":"cs"`) || !strings.Contains(th, `"thread":[1,0,0]`) || !strings.Contains(th, "SV_DispatchThreadID") {
		t.Errorf("thread steps: %.400s", th)
	}
	draw, _ := a.inspectResolve("DrawInstanced")
	if v := ask("stepVertex", `{"seq":`+itoa(draw)+`,"vertex":2,"instance":3}`); !strings.Contains(v, `"stage":"vs"`) || !strings.Contains(v, `"vertexID":2`) || !strings.Contains(v, `"instance":3`) {
		t.Errorf("vertex steps: %.400s", v)
	}
	var card struct {
		PacketList []struct {
			Text string
			Call *struct{ Name string }
		}
	}
	if err := json.Unmarshal(a.inspectDMA(dispatch), &card); err != nil || len(card.PacketList) == 0 {
		t.Fatalf("card: %v %+v", err, card)
	}
	found := false
	for _, p := range card.PacketList {
		if strings.HasPrefix(p.Text, "DISPATCH") && p.Call != nil && p.Call.Name == "Dispatch" {
			found = true
		}
	}
	if !found {
		t.Errorf("no DISPATCH packet of the Dispatch in the card: %+v", card.PacketList)
	}
}

// The memory lanes and the problems the page asks for as the run goes
// skip the events a subscription saw no memory call or problem among
// (watch, catchUp): asked after every few calls of every example, they are
// what core/inspect finds in the whole trace at the end.
func TestWatchedScansMissNothing(t *testing.T) {
	dir := filepath.Join("..", "assets", "scenarios")
	names, err := filepath.Glob(filepath.Join(dir, "*.d3ds"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no scenarios in %s: %v", dir, err)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			a := &app{}
			if err := a.load(src); err != nil {
				t.Skip(err) // (a scenario this build cannot load is another test's)
			}
			var gotMem []inspect.MemoryEvent
			var gotProbs []inspect.Problem
			for done, k := false, 0; !done && k < 100000; k++ {
				a.mu.Lock()
				done = a.run.Step(1 + k%3)
				a.mu.Unlock()
				var mem struct{ List []inspect.MemoryEvent }
				var probs struct{ List []inspect.Problem }
				if err := json.Unmarshal(a.inspectMemory(len(gotMem), 1000), &mem); err != nil {
					t.Fatal(err)
				}
				gotMem = append(gotMem, mem.List...)
				if err := json.Unmarshal(a.inspectProblems(len(gotProbs), 1000), &probs); err != nil {
					t.Fatal(err)
				}
				gotProbs = append(gotProbs, probs.List...)
			}
			rec := a.run.Recorder()
			if n, dropped := rec.LenDropped(); dropped > 0 {
				t.Skipf("the recorder dropped %d of %d events: the whole trace is not there to compare", dropped, n)
			}
			wantMem, _ := json.Marshal(inspect.Memory(rec))
			if b, _ := json.Marshal(gotMem); string(b) != string(wantMem) && !(len(gotMem) == 0 && string(wantMem) == "null") {
				t.Errorf("memory events asked as it ran\n got %s\nwant %s", b, wantMem)
			}
			wantProbs, _ := json.Marshal(inspect.Problems(rec))
			if b, _ := json.Marshal(gotProbs); string(b) != string(wantProbs) && !(len(gotProbs) == 0 && string(wantProbs) == "null") {
				t.Errorf("problems asked as it ran\n got %s\nwant %s", b, wantProbs)
			}
		})
	}
}
