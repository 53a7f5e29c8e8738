package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONLineFormat(t *testing.T) {
	tests := []struct {
		desc string
		e    Event
		want string
	}{
		{"SCENARIO.md example", Event{Seq: 12, T: 48210, Thread: "main", From: Runtime, Layer: UMD, Kind: Call, Name: "CreateResource", Ctx: "IC", Obj: "vb", Handle: "h7"},
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
