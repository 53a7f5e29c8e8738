//go:build !js

package scenario

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Figures quoted in the lessons' notes and in docs/architecture.md's walk go
// stale whenever the stack changes (a new allocation, a new DDI on the way):
// these tests run each scenario and check every figure the prose quotes
// against its trace, so a change that moves one fails here instead of
// leaving a lesson wrong.
//
// What counts as a quoted figure in a step of a lesson's notes:
//
//   - a code span of trace arguments, `bytes=356 size=65536 allocs=5`: one
//     event at or after the step's lines carries every key=value of it
//     (dma= and fence= are the event's own fields; a word that is not
//     key=value, such as `system->vram`, must be in the same event's
//     arguments; `...` stands for anything; a key with no value, `rt=`, is a
//     name, not a figure);
//   - an allocation-list entry, `a1@kd1:w`: an event at or after the step's
//     lines lists it;
//   - a count before an event name, "the five `DxgkDdiBuildPagingBuffer`
//     events", "3 `pfnPresentCb` bars": that many events of that name (calls
//     and waits count once, by their opening event) among the events the
//     step's lines produced, those of the DMA buffers they submitted
//     included — the set `expect calls` reads;
//   - a count before an HRESULT, "79 `S_FALSE`": that many of the step's
//     application calls returned it.
//
// Counts are written as digits or as the words one to twenty.

// argSpan is a code span of the notes.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// countBefore matches "N `Name`" with at most two words between.
var countBefore = regexp.MustCompile("(?i)\\b(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\\s+(?:[a-z-]+\\s+){0,2}`([A-Za-z_][A-Za-z0-9_]*)`")

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}

var allocEntry = regexp.MustCompile(`^a\d+@kd\d+:[rw]$`)

// argKeys are the names of the trace's argument keys.
var argKeys = func() map[string]bool {
	m := map[string]bool{"dma": true, "fence": true}
	for k := trace.Key(1); k.String() != "?"; k++ {
		m[k.String()] = true
	}
	return m
}()

// eventHas reports whether e carries every word of an argument span.
func eventHas(e trace.Event, words []string) bool {
	args := e.Args.String()
	fields := strings.Fields(args)
	for _, w := range words {
		if w == "..." {
			continue
		}
		k, v, isKV := strings.Cut(w, "=")
		switch {
		case isKV && k == "dma":
			if strconv.FormatUint(e.DMA, 10) != v {
				return false
			}
		case isKV && k == "fence":
			if strconv.FormatUint(e.Fence, 10) != v {
				return false
			}
		case isKV:
			if !slices.Contains(fields, w) && !strings.Contains(args, w+",") && !strings.Contains(args, w+" ") {
				return false
			}
		default:
			if !strings.Contains(args, w) {
				return false
			}
		}
	}
	return true
}

// figureSpan returns the words of a code span that quotes trace arguments,
// or nil when the span quotes none (a name, a scenario line, an option).
func figureSpan(span string) []string {
	words := strings.Fields(span)
	figure := false
	for _, w := range words {
		k, v, isKV := strings.Cut(w, "=")
		if isKV && (!argKeys[k] || v == "") {
			return nil // an option (`scheduler=salvia`) or a key's name (`rt=`)
		}
		figure = figure || isKV
	}
	if !figure {
		return nil
	}
	return words
}

// stepEvents are the events the step's lines produced and the later events
// of the DMA buffers they submitted (what `expect calls` reads), and the
// index of the first.
func stepEvents(evs []trace.Event, from, to int) (set []trace.Event, first int) {
	first = -1
	dmas := map[uint64]bool{}
	for i, e := range evs {
		if e.Line >= from && e.Line <= to {
			if first < 0 {
				first = i
			}
			set = append(set, e)
			if e.DMA != 0 && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") {
				dmas[e.DMA] = true
			}
		} else if first >= 0 && e.DMA != 0 && dmas[e.DMA] {
			set = append(set, e)
		}
	}
	return set, first
}

// opening reports whether e is the event that counts a call or wait once.
func opening(e trace.Event) bool {
	switch e.Kind {
	case trace.Return:
		return false
	case trace.Wait:
		return !e.Args.Has(trace.KeyDone)
	}
	return true
}

// checkFigures checks one lesson's quoted figures against its run and
// returns what does not hold.
func checkFigures(l *lesson, evs []trace.Event, names map[string]bool) []string {
	var bad []string
	for _, st := range l.steps {
		if st.from == 0 {
			continue
		}
		where := fmt.Sprintf("step %q (line %d)", st.title, st.line)
		set, first := stepEvents(evs, st.from, st.to)
		if first < 0 {
			first = len(evs)
		}
		later := evs[first:]
		text := strings.ReplaceAll(st.text, "\n", " ")
		for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
			span := m[1]
			if allocEntry.MatchString(span) {
				if !slices.ContainsFunc(later, func(e trace.Event) bool { return strings.Contains(e.Args.String(), span) }) {
					bad = append(bad, fmt.Sprintf("%s: no event at or after its lines lists %s", where, span))
				}
				continue
			}
			words := figureSpan(span)
			if words == nil {
				continue
			}
			if !slices.ContainsFunc(later, func(e trace.Event) bool { return eventHas(e, words) }) {
				bad = append(bad, fmt.Sprintf("%s: no event at or after its lines carries `%s`", where, span))
			}
		}
		for _, m := range countBefore.FindAllStringSubmatch(text, -1) {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				n = numberWords[strings.ToLower(m[1])]
			}
			name := m[2]
			got := 0
			switch {
			case names[name]:
				for _, e := range set {
					if e.Name == name && opening(e) {
						got++
					}
				}
			case isHRESULT(name):
				for _, e := range set {
					if e.Kind == trace.Return && e.From == trace.App && e.HR == name {
						got++
					}
				}
			default:
				continue // not an event or an HRESULT: a scenario word
			}
			if got != n {
				bad = append(bad, fmt.Sprintf("%s: says %s `%s`, the run has %d", where, m[1], name, got))
			}
		}
	}
	return bad
}

func isHRESULT(name string) bool {
	_, ok := hresult.Parse(name)
	return ok
}

// TestTutorialFigures runs every lesson and checks the figures its notes
// quote (see the top of this file).
func TestTutorialFigures(t *testing.T) {
	for _, name := range assets.Tutorials() {
		t.Run(name, func(t *testing.T) {
			src, notes, _ := assets.Tutorial(name)
			s, err := Load(name+".d3ds", src)
			if err != nil {
				t.Fatal(err)
			}
			l, err := parseNotes(string(notes))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			r.Finish()
			evs := r.Events()
			names := map[string]bool{}
			for _, e := range evs {
				names[e.Name] = true
			}
			for _, b := range checkFigures(l, evs, names) {
				t.Errorf("%s.md: %s", name, b)
			}
		})
	}
}

// TestCheckFigures: the checker catches a stale figure of each kind and
// passes the current ones.
func TestCheckFigures(t *testing.T) {
	evs := []trace.Event{
		{Seq: 1, Line: 3, Kind: trace.Call, Name: "GetData", From: trace.App},
		{Seq: 2, Line: 3, Kind: trace.Return, Name: "GetData", From: trace.App, HR: "S_FALSE"},
		{Seq: 3, Line: 3, Kind: trace.Call, Name: "GetData", From: trace.App},
		{Seq: 4, Line: 3, Kind: trace.Return, Name: "GetData", From: trace.App, HR: "S_OK"},
		{Seq: 5, Line: 4, Kind: trace.Call, Name: "pfnRenderCb", Args: func() trace.Args {
			var b trace.ArgBuilder
			return b.Int(trace.KeyBytes, 356).Int(trace.KeySize, 65536).Args()
		}()},
		{Seq: 6, Line: 4, Kind: trace.Call, Name: "DxgkDdiRender", DMA: 1},
		{Seq: 7, Line: 9, Kind: trace.Fence, Name: "FenceSignaled", DMA: 1},
	}
	names := map[string]bool{"GetData": true, "pfnRenderCb": true, "DxgkDdiRender": true, "FenceSignaled": true}
	good := "# T\n## Poll\nIt asks two `GetData` times: one `S_FALSE`.\n@line 3\n## Submit\n`bytes=356 size=65536` and `dma=1`, then one `FenceSignaled` (`scheduler=salvia`, `rt=`).\n@line 4\n"
	l, err := parseNotes(good)
	if err != nil {
		t.Fatal(err)
	}
	if bad := checkFigures(l, evs, names); len(bad) != 0 {
		t.Fatalf("current figures reported: %v", bad)
	}
	for _, stale := range []string{
		"# T\n## Poll\nIt asks three `GetData` times.\n@line 3\n",
		"# T\n## Poll\nTwo `S_FALSE`.\n@line 3\n",
		"# T\n## Submit\n`bytes=292 size=65536`\n@line 4\n",
		"# T\n## Submit\n`dma=2`\n@line 4\n",
		"# T\n## Submit\ntwo `FenceSignaled`\n@line 4\n",
	} {
		l, err := parseNotes(stale)
		if err != nil {
			t.Fatal(err)
		}
		if bad := checkFigures(l, evs, names); len(bad) != 1 {
			t.Errorf("%q: reported %v, want one", stale, bad)
		}
	}
}

// TestArchitectureWalk checks the hello-triangle listing of
// docs/architecture.md line by line against a run of
// assets/scenarios/hello-triangle.d3ds: each line's seq, thread, layers,
// kind and name, and every dma=, fence= and argument it quotes.
func TestArchitectureWalk(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Skip("docs/architecture.md not found:", err)
	}
	text := string(doc)
	i := strings.Index(text, "This is the hello-triangle trace from the Draw on")
	if i < 0 {
		t.Fatal("docs/architecture.md has no hello-triangle walk")
	}
	block := text[i:]
	a := strings.Index(block, "```\n")
	b := strings.Index(block[a+4:], "```")
	lines := strings.Split(strings.TrimSpace(block[a+4:a+4+b]), "\n")
	src, ok := assets.Scenario("hello-triangle")
	if !ok {
		t.Fatal("hello-triangle.d3ds missing")
	}
	s, err := Load("hello-triangle.d3ds", src)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	r.Finish()
	bySeq := map[uint64]trace.Event{}
	for _, e := range r.Events() {
		bySeq[e.Seq] = e
	}
	if len(lines) < 20 {
		t.Fatalf("%d lines in the walk", len(lines))
	}
	for _, ln := range lines {
		f := strings.Fields(ln)
		if len(f) < 5 {
			t.Errorf("walk line %q: too short", ln)
			continue
		}
		seq, err := strconv.ParseUint(f[0], 10, 64)
		e, ok := bySeq[seq]
		if err != nil || !ok {
			t.Errorf("walk line %q: no event %s", ln, f[0])
			continue
		}
		layers := e.Layer.String()
		if e.From != trace.LayerNone && e.From != e.Layer {
			layers = e.From.String() + "→" + e.Layer.String()
		}
		if f[1] != e.Thread || f[2] != layers || f[3] != e.Kind.String() || f[4] != e.Name {
			t.Errorf("walk line %q: the event is %d %s %s %s %s", ln, e.Seq, e.Thread, layers, e.Kind, e.Name)
			continue
		}
		var words []string
		for _, w := range f[5:] {
			if w == "done" || w == "paging" {
				if !e.Args.Has(trace.KeyDone) && !e.Args.Has(trace.KeyPaging) {
					t.Errorf("walk line %q: the event has no %s", ln, w)
				}
				continue
			}
			if strings.Contains(w, "=") {
				words = append(words, w)
			} else if w != "..." && !strings.Contains(e.Args.String()+" "+e.Obj, w) {
				t.Errorf("walk line %q: the event (%s, obj %q) has no %q", ln, e.Args, e.Obj, w)
			}
		}
		if !eventHas(e, words) {
			t.Errorf("walk line %q: the event carries %s dma=%d fence=%d", ln, e.Args, e.DMA, e.Fence)
		}
	}
}
