//go:build !js

package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// keep copies a batch out of the encoder's reused buffers.
func keep(b columnBatch) columnBatch {
	b.Ints = append([]byte(nil), b.Ints...)
	b.Times = append([]byte(nil), b.Times...)
	return b
}

// decodeBatches decodes column batches as web/model.js does: the events
// (their payload as its text) and each event's typed payload entries.
func decodeBatches(t *testing.T, bs []columnBatch) ([]trace.Event, [][]trace.Entry) {
	t.Helper()
	strs := []string{""}
	payloads := map[int32][]trace.Entry{}
	var out []trace.Event
	var ents [][]trace.Entry
	for _, b := range bs {
		if b.N > 0 && len(b.Strings) > 0 {
			strs = append(strs, strings.Split(b.joinedStrings(), "\x00")...)
		}
		extra := len(b.Ints) - 4*colStride*b.N
		if extra < 0 || extra%(4*argStride) != 0 || len(b.Times) != 8*b.N {
			t.Fatalf("batch sizes: %d ints bytes, %d time bytes for %d events", len(b.Ints), len(b.Times), b.N)
		}
		word := func(k int) int32 { return int32(binary.LittleEndian.Uint32(b.Ints[4*k:])) }
		sent := map[int32]bool{}
		for k := colStride * b.N; k < len(b.Ints)/4; k += argStride {
			id, kk, v := word(k), word(k+1), word(k+2)
			if _, ok := payloads[id]; ok && !sent[id] {
				t.Fatalf("payload %d (%q) sent again", id, strs[id])
			}
			sent[id] = true
			en := trace.Entry{Key: trace.Key(kk & 0xff), Kind: trace.ArgKind(kk >> 8), N: uint64(int64(v))}
			if en.Kind == trace.ArgStr {
				en.N, en.S = 0, strs[v]
			}
			payloads[id] = append(payloads[id], en)
		}
		for i := 0; i < b.N; i++ {
			w := func(k int) int32 { return word(colStride*i + k) }
			s := func(k int) string { return strs[w(k)] }
			out = append(out, trace.Event{
				Seq: uint64(w(colSeq)), T: int64(math.Float64frombits(binary.LittleEndian.Uint64(b.Times[8*i:]))),
				Kind: trace.Kind(w(colKind) & 0xff), Layer: trace.Layer(w(colKind) >> 8 & 0xff), From: trace.Layer(w(colKind) >> 16 & 0xff),
				Thread: s(colThread), Name: s(colName), Ctx: s(colCtx), Obj: s(colObj), Handle: s(colHandle), HR: s(colHR),
				Fence: uint64(w(colFence)), DMA: uint64(w(colDMA)), Rule: s(colRule), Msg: s(colMsg), Args: trace.TextArgs(s(colArgs)),
				Line: int(w(colLine)), Parent: uint64(w(colParent)),
			})
			ents = append(ents, payloads[w(colArgs)])
		}
	}
	return out, ents
}

// checkEntries: each event's typed entries are its payload's.
func checkEntries(t *testing.T, want []trace.Event, got [][]trace.Entry) {
	t.Helper()
	for i, e := range want {
		w := slices.Collect(e.Args.Entries())
		if !slices.Equal(got[i], w) {
			t.Fatalf("event %d (%s %q): typed entries\n got %+v\nwant %+v", i, e.Name, e.Args, got[i], w)
		}
	}
}

func loadNamed(t *testing.T, name string) *app {
	t.Helper()
	src, ok := assets.Scenario(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	a := &app{}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestBatchesRoundTrip: the columns, fetched in small incremental batches
// while the run advances, decode to exactly the recorder's events.
func TestBatchesRoundTrip(t *testing.T) {
	a := loadNamed(t, "command-lists")
	var batches []columnBatch
	var after uint64
	fetch := func() {
		for {
			b := a.batch(after, 37)
			if b.N == 0 {
				return
			}
			batches = append(batches, keep(b))
			after += uint64(b.N)
		}
	}
	for !a.run.Step(3) {
		fetch()
	}
	fetch()
	got, ents := decodeBatches(t, batches)
	want := a.run.Events()
	if len(got) != len(want) {
		t.Fatalf("decoded %d events, recorder has %d", len(got), len(want))
	}
	checkEntries(t, want, ents)
	typed := 0
	for _, e := range ents {
		if len(e) > 0 {
			typed++
		}
	}
	if typed == 0 {
		t.Fatal("no event carried typed entries")
	}
	for i := range want {
		want[i].Args = trace.TextArgs(want[i].Args.String()) // the panel gets the payload's text
		if got[i] != want[i] {
			t.Fatalf("event %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	// Each string crossed once, but a typed payload's text, which has an id
	// of its own (decodeBatches checked each payload crossed once).
	seen := map[string]bool{}
	texts := map[string]bool{}
	for _, e := range want {
		texts[e.Args.String()] = true
	}
	for _, b := range batches {
		for _, s := range b.Strings {
			if seen[s] && !texts[s] {
				t.Fatalf("string %q sent twice", s)
			}
			seen[s] = true
		}
	}
}

// TestBatchPayloadIDs: a typed payload and a raw text or string that print
// the same never share an id, and a repeated payload is sent once.
func TestBatchPayloadIDs(t *testing.T) {
	var b trace.ArgBuilder
	typed := b.Flag(trace.KeyPaging).Uint(trace.KeyFor, 3).Args()
	b.Reset()
	big := b.Int(trace.KeyDMA, -1<<40).Uint(trace.KeyFor, 1<<40).Bool(trace.KeyCPU, true).Str(trace.KeyHazard, "RAW").
		Allocs(1).Alloc(trace.Alloc{Handle: 1, Owner: 1}).Args()
	evs := []trace.Event{
		{Seq: 1, Msg: "paging for=3", Args: trace.TextArgs("paging for=3")},
		{Seq: 2, Args: typed},
		{Seq: 3, Args: typed},
		{Seq: 4, Args: big, Msg: "RAW"},
		{Seq: 5},
	}
	var enc columnEncoder
	got, ents := decodeBatches(t, []columnBatch{keep(enc.encode(evs[:2])), keep(enc.encode(evs[2:]))})
	if got[0].Args.String() != "paging for=3" || got[1].Args.String() != "paging for=3" {
		t.Errorf("texts: %q %q", got[0].Args, got[1].Args)
	}
	want := [][]trace.Entry{
		nil,
		{{Key: trace.KeyPaging, Kind: trace.ArgFlag}, {Key: trace.KeyFor, Kind: trace.ArgUint, N: 3}},
		{{Key: trace.KeyPaging, Kind: trace.ArgFlag}, {Key: trace.KeyFor, Kind: trace.ArgUint, N: 3}},
		{{Key: trace.KeyDMA, Kind: trace.ArgInt, N: minInt32Bits}, {Key: trace.KeyFor, Kind: trace.ArgUint, N: math.MaxInt32},
			{Key: trace.KeyCPU, Kind: trace.ArgBool, N: 1}, {Key: trace.KeyHazard, Kind: trace.ArgStr, S: "RAW"},
			{Key: trace.KeyAllocs, Kind: trace.ArgAllocs, N: 1}},
		nil,
	}
	for i := range want {
		if !slices.Equal(ents[i], want[i]) {
			t.Errorf("event %d: entries %+v, want %+v", i+1, ents[i], want[i])
		}
	}
}

// TestSyntheticTrace: a synthetic trace is well formed (contiguous seqs,
// parents before children and on their thread, times not running backwards
// per thread) and is what batches deliver.
func TestSyntheticTrace(t *testing.T) {
	n := 10*len(synthFrame) + 7
	a := loadNamed(t, "hello-triangle")
	a.loadSynthetic(n)
	var bs []columnBatch
	for after := uint64(0); ; {
		b := a.batch(after, 64)
		if b.N == 0 {
			break
		}
		bs = append(bs, keep(b))
		after += uint64(b.N)
	}
	evs, ents := decodeBatches(t, bs)
	if len(evs) != n {
		t.Fatalf("%d events, want %d", len(evs), n)
	}
	checkEntries(t, syntheticEvents(0, n, n), ents)
	last := map[string]int64{}
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		if e.Parent != 0 && (e.Parent >= e.Seq || evs[e.Parent-1].Thread != e.Thread || evs[e.Parent-1].Kind != trace.Call) {
			t.Fatalf("event %d (%s): bad parent %d", e.Seq, e.Name, e.Parent)
		}
		if e.T < last[e.Thread] {
			t.Fatalf("event %d (%s) on %s goes back in time: %d < %d", e.Seq, e.Name, e.Thread, e.T, last[e.Thread])
		}
		last[e.Thread] = e.T
	}
	// A load ends synthetic mode.
	if err := a.load([]byte("option seed=1\n")); err != nil {
		t.Fatal(err)
	}
	if a.synth != 0 {
		t.Fatal("load kept the synthetic trace")
	}
}

// TestInspectCommandLists follows command-lists.d3ds through the command lists'
// state machine: cl is valid, retired, cached; cl2 takes its handle back
// (valid) and is freed; the handle's cache history shows each DDI.
func TestInspectCommandLists(t *testing.T) {
	a := loadNamed(t, "command-lists")
	if s := runToEnd(t, a); !s.OK() {
		t.Fatalf("run failed: %v", s.Failures)
	}
	var snap inspectSnapshot
	if err := json.Unmarshal(a.inspect(), &snap); err != nil {
		t.Fatal(err)
	}
	states := map[string][]string{}
	handles := map[string]string{}
	for _, l := range snap.Lists {
		for _, h := range l.History {
			states[l.Obj] = append(states[l.Obj], h.What)
		}
		handles[l.Obj] = l.Handle
		if l.DC != "DC1" || len(l.Executed) != 1 || l.Executed[0].Ctx != "IC" {
			t.Errorf("%s: dc %q executed %+v, want DC1 and once on IC", l.Obj, l.DC, l.Executed)
		}
	}
	// cl's cached handle and memory become cl2's (RecycleCreateCommandList):
	// cl's history ends "reused" by cl2, not "cached" for ever.
	if got := strings.Join(states["cl"], " "); got != "valid retired cached reused" {
		t.Errorf("cl states: %q", got)
	}
	for _, l := range snap.Lists {
		switch l.Obj {
		case "cl":
			if l.State != "reused" || l.ReusedBy != "cl2" || l.History[len(l.History)-1].Obj != "cl2" {
				t.Errorf("cl: state %q reused by %q, history %+v", l.State, l.ReusedBy, l.History)
			}
		case "cl2":
			if l.Reuses != "cl" || l.ReusedBy != "" {
				t.Errorf("cl2: reuses %q, reused by %q", l.Reuses, l.ReusedBy)
			}
		}
	}
	if got := strings.Join(states["cl2"], " "); got != "valid freed" {
		t.Errorf("cl2 states: %q", got)
	}
	if handles["cl"] == "" || handles["cl"] != handles["cl2"] {
		t.Errorf("cl2 should reuse cl's handle: %v", handles)
	}
	if len(snap.CLCache) != 1 {
		t.Fatalf("command-list cache: %+v", snap.CLCache)
	}
	var ddis []string
	for _, h := range snap.CLCache[0].History {
		ddis = append(ddis, strings.Fields(h.What)[len(strings.Fields(h.What))-1])
	}
	// "created by CreateCommandList (cold path) for cl" ends in "cl"; take
	// the DDI names instead.
	want := []string{"CreateCommandList", "RecycleDestroyCommandList", "RecycleCommandList", "RecycleCreateCommandList", "DestroyCommandList"}
	for i, h := range snap.CLCache[0].History {
		if i >= len(want) || !strings.Contains(h.What, want[i]) {
			t.Fatalf("cache history %d: %q, want %v (all: %v)", i, h.What, want, ddis)
		}
	}
	if snap.CLCache[0].InCache || snap.Live.CommandLists != 0 {
		t.Errorf("at the end nothing is cached or live: %+v", snap.Live)
	}
	if len(snap.DCCache) != 1 || snap.DCCache[0].Name != "DC1 (dc)" || snap.Live.Deferred != 0 {
		t.Errorf("deferred-context cache: %+v live %+v", snap.DCCache, snap.Live)
	}
	// Context-local handles carry their IC handle's size.
	var dcHandles int
	for _, h := range snap.Handles {
		if h.Ctx == "DC1" && h.Of != "" {
			dcHandles++
			if h.Size <= 0 {
				t.Errorf("DC handle %s of %s (%s) has no size", h.Handle, h.Obj, h.Of)
			}
			if h.Destroyed == 0 {
				t.Errorf("DC handle %s of %s outlives its command list", h.Handle, h.Obj)
			}
		}
	}
	if dcHandles == 0 {
		t.Error("no context-local handles")
	}
	// Every IC handle of an object the runtime asked CalcPrivate*Size
	// for shows the driver part it allocated: the UMD's sizes.
	sizes := map[string]int{"CreateResource": 256, "CreateRenderTargetView": 64, "CreateShaderResourceView": 64,
		"CreateVertexShader": 128, "CreatePixelShader": 128, "CreateCommandList": 256}
	seen := 0
	for _, h := range snap.Handles {
		if w, ok := sizes[h.DDI]; ok && h.Ctx == "IC" {
			seen++
			if h.Private != w {
				t.Errorf("%s %s (%s): driver part %d bytes, want %d", h.Handle, h.Obj, h.DDI, h.Private, w)
			}
		}
	}
	if seen == 0 {
		t.Error("no IC handle with a driver part")
	}
}

// TestStepFrameAndLine: step frame stops right after a Present and shows
// that frame (the GPU has finished it: the frame count is up by one each
// time, where the GPU used to finish all three only at the end); the pixels
// are a straight run's; step to line stops right after the line's call.
func TestStepFrameAndLine(t *testing.T) {
	a := loadNamed(t, "spinning-cube")
	presents := func() (n int) {
		for _, e := range a.run.Events() {
			if e.From == trace.App && e.Kind == trace.Call && e.Name == "Present" {
				n++
			}
		}
		return n
	}
	for want := 1; want <= 3; want++ {
		s := a.stepFrame()
		if got := presents(); got != want || s.Done {
			t.Fatalf("after %d stepFrame: %d Presents, done %v", want, got, s.Done)
		}
		if s.Frames != want {
			t.Fatalf("after %d stepFrame: %d frames shown, want the one just presented too", want, s.Frames)
		}
		if e := a.run.Events(); lastAPILine(e) == 0 {
			t.Fatal("no API call")
		}
	}
	stepped := a.stepFrame()
	stepped.Hash = a.frameHash(stepped)
	if !stepped.Done || stepped.Frames != 3 {
		t.Fatalf("the fourth stepFrame runs to the end: %+v", stepped)
	}
	if straight := runToEnd(t, loadNamed(t, "spinning-cube")); straight.Hash != stepped.Hash || !straight.OK() || !stepped.OK() {
		t.Fatalf("stepped by frames: hash %s ok %v; straight: hash %s ok %v", stepped.Hash, stepped.OK(), straight.Hash, straight.OK())
	}

	a = loadNamed(t, "hello-triangle")
	src, _ := assets.Scenario("hello-triangle")
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "vb = ") {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("hello-triangle has no vb = line")
	}
	a.stepToLine(line)
	if got := lastAPILine(a.run.Events()); got != line {
		t.Fatalf("stepToLine(%d) stopped after line %d", line, got)
	}
	// Again: already there, nothing runs.
	n := len(a.run.Events())
	a.stepToLine(line)
	if len(a.run.Events()) != n {
		t.Fatal("stepToLine to a done line ran more calls")
	}
}

// TestStepFrameBoundsStatements: step frame and step to line stop after
// maxStepStatements statements that make no call, not at the run's step
// budget of millions; the next step goes on from there.
func TestStepFrameBoundsStatements(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n  expect violations == 0\n}\nimm.Flush\n"
	for _, step := range []struct {
		desc string
		do   func(a *app) scenario.Summary
	}{
		{"stepFrame", (*app).stepFrame},
		{"stepToLine", func(a *app) scenario.Summary { return a.stepToLine(5) }},
	} {
		a := &app{}
		if err := a.load([]byte(src)); err != nil {
			t.Fatal(err)
		}
		if s := step.do(a); s.Done || s.Steps != 1 {
			t.Fatalf("%s: %+v, want a run paused in the loop", step.desc, s)
		}
		if s := step.do(a); s.Done || s.Steps != 1 {
			t.Fatalf("%s again: %+v, want a run paused in the loop", step.desc, s)
		}
	}
}

// TestDownloads: the trace files are the CLI's, the PNG decodes to the frame.
func TestDownloads(t *testing.T) {
	a := loadNamed(t, "hello-triangle")
	if a.framePNG() != nil {
		t.Fatal("a PNG before any frame")
	}
	runToEnd(t, a)
	lines := strings.Split(strings.TrimSpace(string(a.traceFile(false))), "\n")
	if len(lines) != len(a.run.Events()) {
		t.Fatalf("%d JSON lines for %d events", len(lines), len(a.run.Events()))
	}
	var v map[string]any
	if err := json.Unmarshal(a.traceFile(true), &v); err != nil {
		t.Fatalf("perfetto: %v", err)
	}
	p := a.framePNG()
	if len(p) < 8 || string(p[1:4]) != "PNG" {
		t.Fatal("not a PNG")
	}
}

func TestCheck(t *testing.T) {
	if err := check([]byte("option seed=1\ndev, imm = D3D11CreateDevice\n")); err != nil {
		t.Fatal(err)
	}
	err := check([]byte("option seed=1\n\n@@@\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "3:") {
		t.Fatalf("check: %v", err)
	}
}

// TestRunFrameInSlices: runFrame (the Step frame button) stops where
// stepFrame stops, with the same events, but in slices: a frame of more
// calls than a slice holds takes several, and the page gets turns between
// them. A pause ends it.
func TestRunFrameInSlices(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=64 Height=64\n" +
		"repeat 5000 {\n  imm.Flush\n}\nsc.Present 0\nrepeat 3 {\n  imm.Flush\n}\nsc.Present 0\n"
	frame := func(a *app) (scenario.Summary, int) {
		r := a.startFrame()
		for n := 1; n < 1e6; n++ {
			if s, done := r.slice(); done {
				return s, n
			}
		}
		t.Fatal("runFrame never finished")
		return scenario.Summary{}, 0
	}
	sliced, whole := &app{}, &app{}
	for _, a := range []*app{sliced, whole} {
		if err := a.load([]byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []struct{ frames, minSlices, maxSlices int }{
		{1, 3, 3}, // 5,002 calls: slices of sliceCalls (2,000)
		{2, 1, 1},
	} {
		s, n := frame(sliced)
		w := whole.stepFrame()
		if n < want.minSlices || n > want.maxSlices {
			t.Errorf("frame %d: %d slices, want %d..%d", i+1, n, want.minSlices, want.maxSlices)
		}
		if s.Steps != w.Steps || s.Events != w.Events || s.Done != w.Done {
			t.Fatalf("frame %d: runFrame %+v, stepFrame %+v", i+1, s, w)
		}
		if got := sliced.run.Events(); lastAPILine(got) != 6 && i == 0 {
			t.Errorf("frame 1 stopped after line %d, want the Present on line 6", lastAPILine(got))
		}
	}
	if s, _ := frame(sliced); !s.Done {
		t.Fatalf("the third runFrame runs to the end: %+v", s)
	}

	// A pause (or a load, or a step) ends a runFrame in progress.
	a := &app{}
	if err := a.load([]byte(src)); err != nil {
		t.Fatal(err)
	}
	r := a.startFrame()
	if _, done := r.slice(); done {
		t.Fatal("finished after one slice")
	}
	a.pause()
	if s, done := r.slice(); !done || s.Steps != sliceCalls {
		t.Fatalf("after pause: done %v, %d steps, want it ended at %d", done, s.Steps, sliceCalls)
	}
}

var minInt32Bits = func() uint64 { v := int64(math.MinInt32); return uint64(v) }()
