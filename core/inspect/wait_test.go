package inspect

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// runEvents runs a scenario of the repository to its end: its trace and
// journal.
func runEvents(t *testing.T, file string) ([]trace.Event, *Journal) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file, src)
	if err != nil {
		t.Fatal(err)
	}
	r, j := NewSession(sc, scenario.Overrides{}).Run()
	return r.Events(), j
}

// TestExplainWait: a Map's RAW and WAR waits and a Present throttled by the
// frame latency are linked to their fence, the DMA buffer that signals it,
// the calls whose commands it carries, the hazard and the time lost; the
// wait is found from the API call, its start event or its end event.
func TestExplainWait(t *testing.T) {
	ev, j := runEvents(t, "assets/tutorials/03-map-hazards.d3ds")
	raw, err := ExplainWait(Events(ev), at(t, j, "line:29"))
	if err != nil {
		t.Fatal(err)
	}
	if raw.Why != "map" || raw.Hazard != "RAW" || raw.Obj != "shot" || raw.Fence == 0 || raw.Buffer == nil || raw.Lost <= 0 ||
		raw.Call == nil || raw.Call.Name != "Map" || raw.Call.Line != 29 {
		t.Fatalf("RAW wait: %+v", raw)
	}
	var carried []string
	for _, c := range raw.Buffer.Calls {
		carried = append(carried, c.Name)
	}
	if strings.Join(carried, " ") != "ClearRenderTargetView CopyResource" {
		t.Errorf("DMA buffer %d carries %v, want the clear and the copy of lines 27-28", raw.Buffer.ID, carried)
	}
	b := raw.Buffer
	if !(b.Submitted >= 0 && b.Started >= b.Submitted && b.Done >= b.Started && raw.End == b.Done) {
		t.Errorf("DMA buffer times: %+v, wait ends at %d", b, raw.End)
	}
	for _, want := range []string{"Map(shot) at line 29 waited 6.52 µs", "RAW — read after write", "which DMA buffer 3 signals",
		"carries the commands of ClearRenderTargetView(rtv) at line 27, CopyResource(shot) at line 28"} {
		if !strings.Contains(raw.Sentence, want) {
			t.Errorf("sentence lacks %q:\n%s", want, raw.Sentence)
		}
	}
	// The same wait from its start and its end events.
	for _, seq := range []uint64{raw.Seq, raw.EndSeq} {
		w, err := ExplainWait(Events(ev), seq)
		if err != nil || w.Seq != raw.Seq || w.Sentence != raw.Sentence {
			t.Errorf("from event %d: %+v, %v", seq, w, err)
		}
	}
	war, err := ExplainWait(Events(ev), at(t, j, "line:41"))
	if err != nil || war.Hazard != "WAR" || !strings.Contains(war.Sentence, "the map writes up, which the GPU had still to read") {
		t.Errorf("WAR wait: %+v, %v", war, err)
	}
	// A call that did not wait says so.
	if _, err := ExplainWait(Events(ev), at(t, j, "line:36")); err == nil || !strings.Contains(err.Error(), "did not wait") {
		t.Errorf("a Map with no hazard: %v", err)
	}

	// Out of order: the buffer was done, its fence held behind lower ones.
	ev, j = runEvents(t, "assets/tutorials/12-out-of-order.d3ds")
	h, err := ExplainWait(Events(ev), at(t, j, "line:78"))
	if err != nil || !h.Held || h.Buffer == nil || h.Buffer.Finished < 0 || h.Buffer.Finished >= h.Buffer.Done ||
		!strings.Contains(h.Sentence, "held by the out-of-order scheduler") || !strings.Contains(h.Sentence, "finished by the GPU at") {
		t.Errorf("held fence: %v %+v", err, h)
	}

	ev, j = runEvents(t, "assets/tutorials/15-frame-latency.d3ds")
	p, err := ExplainWait(Events(ev), at(t, j, "line:24"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Why != "present" || p.Buffer == nil || p.Buffer.Built == nil || p.Buffer.Built.Name != "Present" ||
		!strings.Contains(p.Sentence, "3 presents of kc1 are queued, the maximum frame latency") {
		t.Errorf("throttled Present: %+v", p)
	}
}

// TestExplainPoll: GetData answering S_FALSE is a wait too: the polls
// until S_OK, the query's End and the DMA buffer it went into.
func TestExplainPoll(t *testing.T) {
	ev, j := runEvents(t, "assets/tutorials/02-draw-is-asynchronous.d3ds")
	first := at(t, j, "GetData#1")
	for _, k := range []string{"GetData#1", "GetData#5"} {
		p, err := ExplainWait(Events(ev), at(t, j, k))
		if err != nil {
			t.Fatal(err)
		}
		if p.Why != "poll" || p.Seq != first || p.EndSeq != at(t, j, "line:40") || p.Lost <= 0 || p.Buffer == nil || p.Buffer.Built == nil ||
			p.Buffer.Built.Name != "Flush" || p.Buffer.Done < 0 || p.Buffer.Done > p.End {
			t.Fatalf("%s: %+v", k, p)
		}
		if !strings.Contains(p.Sentence, "the query's End(done) at line 30 went into DMA buffer 1") ||
			!regexp.MustCompile(`^GetData\(done\) at line 40 answered S_FALSE \d+ times, for [\d.]+ µs until it answered S_OK`).MatchString(p.Sentence) {
			t.Errorf("%s: %s", k, p.Sentence)
		}
	}
	// The GetData that answered S_OK did not wait.
	if _, err := ExplainWait(Events(ev), at(t, j, "line:40")); err == nil {
		t.Error("the S_OK GetData waited")
	}
}

// TestExplainDMA: a DMA buffer's card, from an event that names it or from
// an API call whose commands went into it: the call that built it, its
// times in order, its packets and allocations, the calls it carries.
func TestExplainDMA(t *testing.T) {
	ev, j := runEvents(t, "assets/tutorials/03-map-hazards.d3ds")
	c, err := ExplainDMA(Events(ev), at(t, j, "line:28"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != 3 || c.Context != "kc1" || c.Built == nil || c.Built.Line != 29 || c.Packets != 3 || c.Patches != 3 ||
		c.Allocs != "a1@kd1:w,a2@kd1:w" || len(c.Calls) != 2 {
		t.Fatalf("card: %+v", c)
	}
	if !(0 <= c.Submitted && c.Submitted <= c.Started && c.Started <= c.ISR && c.ISR <= c.DPC && c.DPC <= c.Done) {
		t.Errorf("times out of order: %+v", c)
	}
	// The same card from its DmaBufferStart and from its fence.
	for _, seq := range []uint64{c.Start, c.Signal} {
		d, err := ExplainDMA(Events(ev), seq)
		if err != nil || d.Text() != c.Text() {
			t.Errorf("from event %d: %v\n%s\nwant\n%s", seq, err, d.Text(), c.Text())
		}
	}
	// A paging buffer names the DMA buffer it was built for.
	for _, e := range ev {
		if e.Name == "DxgkDdiBuildPagingBuffer" && e.DMA != 0 {
			p, err := ExplainDMA(Events(ev), e.Seq)
			if err != nil || !p.Paging || p.For == 0 || !strings.Contains(p.Text(), fmt.Sprintf("paging buffer %d on engine 0, for DMA buffer %d", p.ID, p.For)) {
				t.Errorf("paging buffer: %v %+v", err, p)
			}
			break
		}
	}
	if _, err := ExplainDMA(Events(ev), 1); err == nil {
		t.Error("the first event has a DMA buffer")
	}
}

// TestStateDebugNames: the state names a bound object by its debug name
// too (WKPDID_D3DDebugObjectName), in the row and in the text.
func TestStateDebugNames(t *testing.T) {
	sc, err := scenario.Load("named.d3ds", []byte(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
rtv.SetPrivateData WKPDID_D3DDebugObjectName "Back buffer view"
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv #3366ccff
`))
	if err != nil {
		t.Fatal(err)
	}
	_, j := NewSession(sc, scenario.Overrides{}).Run()
	st, err := j.State(at(t, j, "line:7"), "")
	if err != nil {
		t.Fatal(err)
	}
	if r := row(t, st, "OM", "render target 0"); r.Object != "rtv" || r.Debug != "Back buffer view" {
		t.Errorf("row %+v", r)
	}
	if !strings.Contains(st.Text(), `runtime: rtv "Back buffer view" (h`) {
		t.Errorf("text:\n%s", st.Text())
	}
}
