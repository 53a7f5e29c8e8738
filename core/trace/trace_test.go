package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestJSONLineFormat(t *testing.T) {
	tests := []struct {
		desc string
		e    Event
		want string
	}{
		{"docs/scenario.md example", Event{Seq: 12, T: 48210, Thread: "main", From: Runtime, Layer: UMD, Kind: Call, Name: "CreateResource", Ctx: "IC", Obj: "vb", Handle: "h7"},
			`{"seq":12,"t":48210,"thread":"main","from":"runtime","layer":"umd","kind":"call","name":"CreateResource","ctx":"IC","obj":"vb","handle":"h7"}`},
		{"optional numbers", Event{Seq: 1, Thread: "isr", From: Dxgkrnl, Layer: KMD, Kind: Return, Name: "DxgkDdiInterruptRoutine", HR: "STATUS_SUCCESS", Fence: 3, DMA: 9, Line: 4, Parent: 2},
			`{"seq":1,"t":0,"thread":"isr","from":"dxgkrnl","layer":"kmd","kind":"return","name":"DxgkDdiInterruptRoutine","hr":"STATUS_SUCCESS","fence":3,"dma":9,"line":4,"parent":2}`},
		{"escaping", Event{Seq: 2, Thread: "main", Kind: Message, Name: "m", Msg: "a \"q\"\n<b>\x01é"},
			`{"seq":2,"t":0,"thread":"main","from":"","layer":"","kind":"message","name":"m","msg":"a \"q\"\n\u003cb\u003e\u0001é"}`},
	}
	for _, tt := range tests {
		got := string(AppendJSON(nil, &tt.e))
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.desc, got, tt.want)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(got), &m); err != nil {
			t.Errorf("%s: not JSON: %v", tt.desc, err)
		}
	}
}

func TestRecorderParents(t *testing.T) {
	var now int64
	th := "main"
	r := NewRecorder(func() int64 { return now }, func() string { return th })
	a := r.Emit(Event{Kind: Call, Name: "Present"})
	b := r.Emit(Event{Kind: Call, Name: "PresentDXGI"})
	c := r.Emit(Event{Kind: Call, Name: "pfnPresentCb"})
	th = "isr"
	d := r.Emit(Event{Kind: Interrupt, Name: "Interrupt"})
	th = "main"
	r.Emit(Event{Kind: Return, Name: "pfnPresentCb"})
	r.Emit(Event{Kind: Return, Name: "PresentDXGI"})
	e := r.Emit(Event{Kind: Message, Name: "m"})
	r.Emit(Event{Kind: Return, Name: "Present"})
	ev := r.Events()
	checks := []struct {
		seq, parent uint64
	}{{a, 0}, {b, a}, {c, b}, {d, 0}, {5, b}, {6, a}, {e, a}, {8, 0}}
	for _, ch := range checks {
		if got := ev[ch.seq-1].Parent; got != ch.parent {
			t.Errorf("event %d (%s %s): parent %d, want %d", ch.seq, ev[ch.seq-1].Kind, ev[ch.seq-1].Name, got, ch.parent)
		}
	}
	if got := len(r.Since(6)); got != 2 {
		t.Errorf("Since(6) = %d events, want 2", got)
	}
}

func TestPerfettoIsJSON(t *testing.T) {
	r := NewRecorder(nil, func() string { return "main" })
	r.Emit(Event{Kind: Call, Name: "Draw", Layer: Runtime})
	r.Emit(Event{Kind: Return, Name: "Draw", Layer: Runtime, T: 1500})
	r.Emit(Event{Kind: Fence, Name: "FenceWrite", Thread: "gpu0", Fence: 1})
	var b bytes.Buffer
	if err := WritePerfetto(&b, r.Events()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	if len(doc.TraceEvents) != 5 { // 2 thread names + 3 events
		t.Fatalf("%d trace events, want 5", len(doc.TraceEvents))
	}
	if !strings.Contains(b.String(), `"ph":"B"`) || !strings.Contains(b.String(), `"thread_name"`) {
		t.Fatalf("missing B slice or thread names:\n%s", b.String())
	}
}

// TestRing: with a limit the recorder holds at most that many events, drops
// the oldest half at once, counts them, and keeps seq, Since, Get and the
// parent tree right across the drops.
func TestRing(t *testing.T) {
	r := NewRecorder(nil, func() string { return "main" })
	r.SetLimit(10)
	outer := r.Emit(Event{Kind: Call, Name: "Present"}) // stays open while it is dropped
	for i := 0; i < 24; i++ {
		r.Emit(Event{Kind: Message, Name: "m"})
	}
	ret := r.Emit(Event{Kind: Return, Name: "Present"})
	if r.Len() != 26 || ret != 26 {
		t.Fatalf("Len %d, last seq %d; want 26", r.Len(), ret)
	}
	evs := r.Events()
	if len(evs) > 10 || len(evs) == 0 {
		t.Fatalf("%d events held, limit 10", len(evs))
	}
	if got := r.Dropped(); got != uint64(26-len(evs)) || evs[0].Seq != got+1 {
		t.Fatalf("dropped %d, first held seq %d, %d held", got, evs[0].Seq, len(evs))
	}
	for i := range evs {
		if evs[i].Seq != evs[0].Seq+uint64(i) {
			t.Fatalf("held events not contiguous: %d at %d", evs[i].Seq, i)
		}
	}
	if r.Get(outer) != nil || r.Get(27) != nil || r.Get(ret) == nil || r.Get(ret).Seq != ret {
		t.Fatalf("Get: dropped %v, future %v, last %v", r.Get(outer), r.Get(27), r.Get(ret))
	}
	if got := r.Get(ret - 1).Parent; got != outer {
		t.Fatalf("message inside the dropped call has parent %d, want %d", got, outer)
	}
	if got := r.Get(ret).Parent; got != 0 {
		t.Fatalf("return of a dropped top-level call has parent %d, want 0", got)
	}
	if got := r.Since(ret - 3); len(got) != 3 || got[0].Seq != ret-2 {
		t.Fatalf("Since(%d) = %d events", ret-3, len(got))
	}
	if got := r.Since(1); len(got) != len(evs) {
		t.Fatalf("Since(before the window) = %d events, want all %d held", len(got), len(evs))
	}
	if r.Since(ret) != nil {
		t.Fatal("Since(last) not empty")
	}
}

// TestRingReuse: the ring reuses its array, yet a slice from Events or Since
// stays unchanged for limit/4 more events, across drops and moves.
func TestRingReuse(t *testing.T) {
	for _, limit := range []int{4, 10, 64, 101} {
		r := NewRecorder(nil, func() string { return "main" })
		r.SetLimit(limit)
		type held struct {
			evs  []Event
			want []uint64
			at   int
		}
		var hs []held
		for i := 1; i <= 20*limit; i++ {
			r.Emit(Event{Kind: Message, Name: "m", Line: i})
			evs := r.Since(uint64(max(0, i-limit/2)))
			h := held{evs: evs, at: i}
			for _, e := range evs {
				h.want = append(h.want, e.Seq)
				if e.Line != int(e.Seq) {
					t.Fatalf("limit %d: event %d holds line %d", limit, e.Seq, e.Line)
				}
			}
			hs = append(hs, h)
			for len(hs) > 0 && i-hs[0].at > limit/4 {
				hs = hs[1:] // past the guarantee
			}
			for _, h := range hs {
				for j, e := range h.evs {
					if e.Seq != h.want[j] || e.Line != int(e.Seq) {
						t.Fatalf("limit %d: a slice taken at event %d changed %d events later", limit, h.at, i-h.at)
					}
				}
			}
			if n := len(r.Events()); n > limit || n < min(i, limit/4) {
				t.Fatalf("limit %d: %d events held after %d", limit, n, i)
			}
		}
	}
}

// TestRingExport: exported traces say how many events were dropped; every
// JSON line still parses as an event.
func TestRingExport(t *testing.T) {
	r := NewRecorder(nil, func() string { return "main" })
	r.SetLimit(4)
	for i := 0; i < 9; i++ {
		r.Emit(Event{Kind: Message, Name: "m"})
	}
	_, dropped := r.Snapshot()
	var b bytes.Buffer
	if err := r.WriteJSONL(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d not JSON: %v", i+1, err)
		}
	}
	if !strings.Contains(lines[0], `"name":"TraceDropped"`) || !strings.Contains(lines[0], `"args":"dropped=`) || len(lines) != 1+len(r.Events()) {
		t.Fatalf("first line %s; %d lines for %d events", lines[0], len(lines), len(r.Events()))
	}
	b.Reset()
	if err := r.WritePerfetto(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OtherData struct {
			Dropped uint64 `json:"dropped_events"`
		} `json:"otherData"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.OtherData.Dropped != dropped || dropped == 0 {
		t.Fatalf("perfetto dropped_events %d, want %d (%v)", doc.OtherData.Dropped, dropped, err)
	}
	// Nothing dropped: no extra line.
	b.Reset()
	r = NewRecorder(nil, func() string { return "main" })
	r.Emit(Event{Kind: Message, Name: "m"})
	r.WriteJSONL(&b)
	if strings.Count(b.String(), "\n") != 1 || strings.Contains(b.String(), "TraceDropped") {
		t.Fatalf("unbounded trace: %q", b.String())
	}
}

// TestRingConcurrent: goroutines emitting while the ring drops (run -race).
func TestRingConcurrent(t *testing.T) {
	r := NewRecorder(nil, nil)
	r.SetLimit(64)
	var seen uint64
	r.Subscribe(func(e *Event) { seen++ })
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			th := string(rune('a' + g))
			for i := 0; i < 1000; i++ {
				r.Emit(Event{Thread: th, Kind: Call, Name: "c"})
				r.Emit(Event{Thread: th, Kind: Return, Name: "c"})
			}
			done <- true
		}()
	}
	for i := 0; i < 200; i++ {
		for _, e := range r.Since(uint64(r.Len()) - 10) {
			_ = e.Name
		}
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	if r.Len() != 8000 || seen != 8000 || len(r.Events()) > 64 || r.Dropped()+uint64(len(r.Events())) != 8000 {
		t.Fatalf("len %d, seen %d, held %d, dropped %d", r.Len(), seen, len(r.Events()), r.Dropped())
	}
}

// TestCompactRoundTrip: every field of an event comes back from the compact
// store as it was emitted — interned shapes, text, fence and DMA, a parent
// far away, across chunks and ring drops — and the decoded strings stay
// valid after their chunk is reused.
func TestCompactRoundTrip(t *testing.T) {
	for _, limit := range []int{0, 3000, 9000} {
		r := NewRecorder(func() int64 { return 7 }, func() string { return "main" })
		r.SetLimit(limit)
		var want []Event
		var kept []Event
		for i := 1; i <= 3*chunkSize+5; i++ {
			e := Event{Thread: []string{"main", "gpu0", "isr"}[i%3], From: Layer(i % 7), Layer: Layer((i + 1) % 7), Kind: Kind(i % 12),
				Name: "Name" + strconv.Itoa(i%5), Ctx: []string{"", "IC", "DC1"}[i%3], Obj: "o" + strconv.Itoa(i%11),
				Handle: "h" + strconv.Itoa(i%13), HR: []string{"", "S_OK"}[i%2], Rule: []string{"", "MAP-HAZARD"}[i%2],
				Line: i % 100, T: int64(i)}
			if i%4 == 0 {
				e.Fence, e.DMA = uint64(i)<<40, uint64(i)
			}
			if i%3 == 0 {
				e.Msg, e.Args = strings.Repeat("m", i%50), TextArgs("args="+strconv.Itoa(i))
			}
			// A Msg alone, Args alone, lengths of one and two bytes as a
			// uvarint (the record keeps flags; the text, the lengths).
			if i%5 == 1 {
				e.Msg, e.Args = strings.Repeat("n", i%300), Args{}
			}
			if i%7 == 2 {
				e.Msg, e.Args = "", TextArgs(strings.Repeat("a", i%200))
			}
			if i%97 == 0 {
				e.Parent = uint64(i + 5) // not a real parent, but kept as given
			}
			if e.Kind == Call || e.Kind == Return {
				e.Kind = Message // keep the parent tree out of it
			}
			r.Emit(e)
			e.Seq, e.T = uint64(i), 7
			want = append(want, e)
			if i == 100 {
				kept = r.Since(95)
			}
		}
		held := r.Events()
		if len(held) == 0 || (limit == 0 && len(held) != len(want)) {
			t.Fatalf("limit %d: %d held", limit, len(held))
		}
		for _, got := range held {
			if w := want[got.Seq-1]; got != w {
				t.Fatalf("limit %d: event %d\n got %+v\nwant %+v", limit, got.Seq, got, w)
			}
			if e, ok := r.At(got.Seq); !ok || e != got {
				t.Fatalf("limit %d: At(%d) = %+v, %v", limit, got.Seq, e, ok)
			}
		}
		for _, e := range kept {
			if e != want[e.Seq-1] {
				t.Fatalf("limit %d: an event read before the ring reused its chunk changed: %+v", limit, e)
			}
		}
		var back []uint64
		r.ScanBack(uint64(r.Len()), func(e *Event) bool { back = append(back, e.Seq); return len(back) < 3 })
		if n := uint64(r.Len()); len(back) != 3 || back[0] != n-1 || back[2] != n-3 {
			t.Fatalf("limit %d: ScanBack %v", limit, back)
		}
		if got := r.AppendSince(nil, uint64(r.Len())-10, 4); len(got) != 4 || got[0].Seq != uint64(r.Len())-9 {
			t.Fatalf("limit %d: AppendSince %d events", limit, len(got))
		}
	}
}

// TestHotPathsDoNotAllocate: emitting into a warm ring and the readers the
// verifier, the runner and the page use per event allocate nothing.
func TestHotPathsDoNotAllocate(t *testing.T) {
	r := NewRecorder(func() int64 { return 1 }, func() string { return "main" })
	r.SetLimit(2 * chunkSize)
	emit := func() {
		r.Emit(Event{From: App, Layer: Runtime, Kind: Call, Name: "Draw", Ctx: "IC"})
		r.Emit(Event{From: Runtime, Layer: UMD, Kind: Call, Name: "Draw", Ctx: "IC"})
		r.Emit(Event{From: Runtime, Layer: UMD, Kind: Return, Name: "Draw", Ctx: "IC", HR: "S_OK"})
		r.Emit(Event{From: App, Layer: Runtime, Kind: Return, Name: "Draw", Ctx: "IC", HR: "S_OK"})
	}
	for range 4 * chunkSize { // warm: shapes interned, chunks recycled
		emit()
	}
	if n := testing.AllocsPerRun(2000, emit); n != 0 {
		t.Errorf("Emit: %v allocations per 4 events", n)
	}
	r.Emit(Event{Kind: Message, Name: "m", Msg: "text", Args: TextArgs("a=1"), Fence: 3, DMA: 4})
	buf := make([]Event, 0, 64)
	var last Event
	read := func() {
		n := uint64(r.Len())
		e, _ := r.At(n)
		buf = r.AppendSince(buf[:0], n-40, 64)
		r.ScanBack(n, func(e *Event) bool { return e.Kind != Call })
		last = e
	}
	if n := testing.AllocsPerRun(1000, read); n != 0 {
		t.Errorf("At, AppendSince, ScanBack: %v allocations", n)
	}
	if last.Msg != "text" || last.Args.String() != "a=1" || last.Fence != 3 || last.DMA != 4 || len(buf) != 40 {
		t.Errorf("read back %+v, %d events", last, len(buf))
	}
}

// TestDecodeOverwritesEveryField: AppendSince reuses dst's capacity without
// zeroing it, so decoding must set every field of Event (a field added
// later and forgotten in decode fails here).
func TestDecodeOverwritesEveryField(t *testing.T) {
	r := NewRecorder(func() int64 { return 7 }, func() string { return "main" })
	r.Emit(Event{Layer: Runtime, Kind: Call, Name: "Draw"})
	r.Emit(Event{Layer: Runtime, Kind: Return, Name: "Draw", Fence: 3, DMA: 4, Msg: "m", Args: sizeArgs(1)})
	want := r.Events()
	junk := Event{}
	rv := reflect.ValueOf(&junk).Elem()
	for i := range rv.NumField() {
		switch f := rv.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("junk")
		case reflect.Uint64, reflect.Uint8:
			f.SetUint(99)
		case reflect.Int64, reflect.Int:
			f.SetInt(99)
		case reflect.Struct:
			f.Set(reflect.ValueOf(TextArgs("junk")))
		default:
			t.Fatalf("field %s of kind %s: teach this test", rv.Type().Field(i).Name, f.Kind())
		}
	}
	dst := []Event{junk, junk}
	got := r.AppendSince(dst[:0], 0, 0)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded over a used slice:\n%+v\nwant\n%+v", got, want)
	}
}

func sizeArgs(n int64) Args {
	var b ArgBuilder
	return b.Int(KeySize, n).Args()
}

// TestEmitPartIsEmit: EmitPart of a Part, kind and HRESULT records and hands
// its subscribers the event Emit of the same fields does — after events
// that set every field (so that nothing of the last event, which EmitPart
// builds over, is left), nested in a call or not, with a line set.
func TestEmitPartIsEmit(t *testing.T) {
	full := Event{Thread: "T1", From: App, Layer: Runtime, Kind: Message, Name: "Map", Ctx: "IC", Obj: "vb", Handle: "h3",
		HR: "E_FAIL", Fence: 7, DMA: 9, Rule: "ERR-APP", Msg: "m", Args: TextArgs("k=v"), Line: 12, Parent: 1}
	parts := []struct {
		p  Part
		k  Kind
		hr string
	}{
		{Part{Name: "Draw", Obj: "imm", Ctx: "IC", From: App, Layer: Runtime}, Call, ""},
		{Part{Name: "Draw", Handle: "h1", Ctx: "IC", From: Runtime, Layer: UMD, Args: TextArgs("count=3")}, Call, ""},
		{Part{Name: "Draw", Handle: "h1", Ctx: "IC", From: Runtime, Layer: UMD, Msg: "dropped"}, Return, ""},
		{Part{Name: "Present", Obj: "sc", Fence: 4, From: App, Layer: Runtime}, Return, "S_OK"},
	}
	var got, want []Event
	a, b := NewRecorder(func() int64 { return 5 }, func() string { return "main" }), NewRecorder(func() int64 { return 5 }, func() string { return "main" })
	a.Subscribe(func(e *Event) { got = append(got, *e) })
	b.Subscribe(func(e *Event) { want = append(want, *e) })
	for i, pt := range parts {
		a.Emit(full)
		b.Emit(full)
		a.SetLine(i)
		b.SetLine(i)
		a.EmitPart(&pt.p, pt.k, pt.hr)
		p := &pt.p
		b.Emit(Event{From: p.From, Layer: p.Layer, Kind: pt.k, Name: p.Name, Ctx: p.Ctx, Obj: p.Obj, Handle: p.Handle, HR: pt.hr,
			Fence: p.Fence, Msg: p.Msg, Args: p.Args})
	}
	if len(got) != len(want) {
		t.Fatalf("%d events handed to the subscriber, want %d", len(got), len(want))
	}
	held, wantHeld := a.Events(), b.Events()
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("subscriber's event %d:\n%+v\nwant\n%+v", i, got[i], want[i])
		}
		if !reflect.DeepEqual(held[i], wantHeld[i]) {
			t.Errorf("held event %d:\n%+v\nwant\n%+v", i, held[i], wantHeld[i])
		}
	}
}

// TestSubscribeTo: a subscriber with a filter is called for exactly the
// events its filter takes, in order, each as the subscriber of every event
// sees it, through Emit and EmitPart, whichever subscribers come before it.
func TestSubscribeTo(t *testing.T) {
	r := NewRecorder(nil, func() string { return "main" })
	filters := []Filter{{Kinds: 1 << Message}, {DMA: true}, {All: true}, {Kinds: 1<<Call | 1<<Fence, DMA: true}, {}}
	got := make([][]Event, len(filters))
	for i, f := range filters {
		r.SubscribeTo(f, func(e *Event) { got[i] = append(got[i], *e) })
	}
	var all []Event
	r.Subscribe(func(e *Event) { all = append(all, *e) })
	for i := range 60 {
		k := Kind(1 + i%11)
		if i%4 == 0 {
			r.EmitPart(&Part{Name: fmt.Sprint("p", i), From: App, Layer: Runtime}, k, "")
			continue
		}
		e := Event{Kind: k, Name: fmt.Sprint("e", i), Layer: GPU}
		if i%3 == 0 {
			e.DMA = uint64(i)
		}
		r.Emit(e)
	}
	for i, f := range filters {
		var want []Event
		for _, e := range all {
			if f.All || f.Kinds>>e.Kind&1 != 0 || f.DMA && e.DMA != 0 {
				want = append(want, e)
			}
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("filter %+v: %d events, want %d", f, len(got[i]), len(want))
		}
	}
	if len(got[4]) != 0 || len(all) != 60 {
		t.Errorf("the empty filter took %d events; Subscribe %d of 60", len(got[4]), len(all))
	}
}
