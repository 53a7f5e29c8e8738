package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/trace"
)

// The tutorials (assets/tutorials/) are scenarios with notes. This file
// checks that each one is a passing test and that its notes follow the
// format of assets/tutorials/README.md and point at things that exist: every
// @line at a statement of the scenario, every @events name at an event the
// run actually produces at or after the step's lines. The same test runs
// under GOOS=js GOARCH=wasm (make test-wasm).

// lesson is a parsed notes file.
type lesson struct {
	title string
	intro string
	steps []step
}

type step struct {
	title    string
	line     int // first line of the step: its "## " heading in the notes
	text     string
	from, to int // @line N / @lines N-M (0: none)
	events   []string
}

var directive = regexp.MustCompile(`^@(line|lines|events)\b\s*(.*)$`)

// parseNotes reads the notes format of assets/tutorials/README.md. It is
// strict: anything the page could misread is an error.
func parseNotes(src string) (*lesson, error) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "# ") {
		return nil, fmt.Errorf("line 1: the notes must start with \"# Title\"")
	}
	l := &lesson{title: strings.TrimSpace(lines[0][2:])}
	if l.title == "" {
		return nil, fmt.Errorf("line 1: empty title")
	}
	var intro []string
	var cur *step
	var text []string
	inCode := false
	end := func() {
		if cur != nil {
			cur.text = strings.TrimSpace(strings.Join(text, "\n"))
			l.steps = append(l.steps, *cur)
		}
		text = nil
	}
	for i, ln := range lines[1:] {
		n := i + 2
		if strings.HasPrefix(ln, "```") {
			inCode = !inCode
		}
		switch {
		case inCode || strings.HasPrefix(ln, "```"):
			if cur == nil {
				intro = append(intro, ln)
			} else {
				text = append(text, ln)
			}
		case strings.HasPrefix(ln, "# "):
			return nil, fmt.Errorf("line %d: a second title; steps start with \"## \"", n)
		case strings.HasPrefix(ln, "## "):
			end()
			cur = &step{title: strings.TrimSpace(ln[3:]), line: n}
			if cur.title == "" {
				return nil, fmt.Errorf("line %d: empty step title", n)
			}
		case strings.HasPrefix(ln, "@"):
			if cur == nil {
				return nil, fmt.Errorf("line %d: directive %q before the first step", n, ln)
			}
			m := directive.FindStringSubmatch(strings.TrimSpace(ln))
			if m == nil {
				return nil, fmt.Errorf("line %d: unknown directive %q (@line N, @lines N-M, @events NAME ...)", n, ln)
			}
			switch m[1] {
			case "line", "lines":
				if cur.from != 0 {
					return nil, fmt.Errorf("line %d: a second @line in one step", n)
				}
				a, b, isRange := strings.Cut(m[2], "-")
				if isRange != (m[1] == "lines") {
					return nil, fmt.Errorf("line %d: @line takes N, @lines takes N-M: %q", n, ln)
				}
				if !isRange {
					b = a
				}
				x, err1 := strconv.Atoi(strings.TrimSpace(a))
				y, err2 := strconv.Atoi(strings.TrimSpace(b))
				if err1 != nil || err2 != nil || x < 1 || y < x {
					return nil, fmt.Errorf("line %d: bad line number(s) %q", n, m[2])
				}
				cur.from, cur.to = x, y
			case "events":
				names := strings.Fields(m[2])
				if len(names) == 0 {
					return nil, fmt.Errorf("line %d: @events without names", n)
				}
				cur.events = append(cur.events, names...)
			}
		default:
			if cur == nil {
				intro = append(intro, ln)
			} else {
				text = append(text, ln)
			}
		}
	}
	if inCode {
		return nil, fmt.Errorf("a code block is not closed")
	}
	end()
	l.intro = strings.TrimSpace(strings.Join(intro, "\n"))
	return l, nil
}

func TestParseNotes(t *testing.T) {
	good := "# T\n\nIntro.\n\n## One\n\nText.\n@line 3\n@events A B\n\n## Two\n```\n@not a directive\n```\n@lines 2-4\n"
	l, err := parseNotes(good)
	if err != nil {
		t.Fatal(err)
	}
	if l.title != "T" || l.intro != "Intro." || len(l.steps) != 2 ||
		l.steps[0].from != 3 || l.steps[0].to != 3 || !slices.Equal(l.steps[0].events, []string{"A", "B"}) ||
		l.steps[1].from != 2 || l.steps[1].to != 4 || !strings.Contains(l.steps[1].text, "@not") {
		t.Fatalf("parsed %+v", l)
	}
	bad := []struct{ desc, src, want string }{
		{"no title", "Intro\n## S\n", "must start"},
		{"second title", "# T\n# U\n", "second title"},
		{"unknown directive", "# T\n## S\n@step 3\n", "unknown directive"},
		{"directive in intro", "# T\n@line 3\n## S\n", "before the first step"},
		{"range with @line", "# T\n## S\n@line 3-4\n", "@line takes N"},
		{"reversed range", "# T\n## S\n@lines 4-3\n", "bad line"},
		{"zero", "# T\n## S\n@line 0\n", "bad line"},
		{"two lines", "# T\n## S\n@line 3\n@line 4\n", "second @line"},
		{"empty events", "# T\n## S\n@events\n", "without names"},
		{"open code", "# T\n## S\n```\n", "not closed"},
	}
	for _, tt := range bad {
		if _, err := parseNotes(tt.src); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.desc, err, tt.want)
		}
	}
}

// stmtLines collects the lines where statements start, nested blocks
// included.
func stmtLines(stmts []Stmt, into map[int]bool) {
	for _, s := range stmts {
		into[Position(s).Line] = true
		switch b := s.(type) {
		case *Thread:
			stmtLines(b.Body, into)
		case *Repeat:
			stmtLines(b.Body, into)
		case *Until:
			stmtLines(b.Body, into)
		}
	}
}

// tryBug finds the "`option bug=RULE`" suggestions of a lesson's notes.
var tryBug = regexp.MustCompile("`option bug=([A-Z0-9-]+)`")

// TestTutorials runs every tutorial and checks its notes against the run.
func TestTutorials(t *testing.T) {
	names := assets.Tutorials()
	if len(names) < 10 {
		t.Errorf("%d tutorials, want at least 10", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, notes, ok := assets.Tutorial(name)
			if !ok || len(notes) == 0 {
				t.Fatalf("tutorial %s: scenario or notes (%s.md) missing", name, name)
			}
			s, err := Load(name+".d3ds", src)
			if err != nil {
				t.Fatal(err)
			}
			checks := 0
			var walk func([]Stmt)
			walk = func(stmts []Stmt) {
				for _, st := range stmts {
					switch b := st.(type) {
					case *Expect:
						if b.Kind != ExpectViolations {
							checks++
						}
					case *Thread:
						walk(b.Body)
					case *Repeat:
						walk(b.Body)
					case *Until:
						walk(b.Body)
					}
				}
			}
			walk(s.Stmts)
			if checks == 0 {
				t.Errorf("no expect line: a tutorial must check what it teaches")
			}
			r := NewRun(s, Overrides{})
			if sum := r.Finish(); !sum.OK() {
				t.Fatalf("the scenario fails:\n%s", strings.Join(sum.Failures, "\n"))
			}

			l, err := parseNotes(string(notes))
			if err != nil {
				t.Fatalf("%s.md: %v", name, err)
			}
			if l.intro == "" || len(l.steps) < 3 {
				t.Errorf("%s.md: an introduction and at least 3 steps expected, got %d steps", name, len(l.steps))
			}
			// Facts come from the public pages d3dsim is built from, and
			// the lessons say which, by title.
			if !regexp.MustCompile(`Changes from Direct3D 10|Using context-local DDI handles|Supporting command lists|WDDM operation flow|Direct3D Draw函数 ?异步调用原理解析`).MatchString(string(notes)) {
				t.Errorf("%s.md cites no source (a page title, see docs/rules.md)", name)
			}
			valid := map[int]bool{}
			stmtLines(s.Stmts, valid)
			nlines := strings.Count(string(src), "\n") + 1
			events := r.Events()
			for _, st := range l.steps {
				where := fmt.Sprintf("%s.md:%d (step %q)", name, st.line, st.title)
				if st.text == "" {
					t.Errorf("%s: no text", where)
				}
				start := 0
				if st.from != 0 {
					if st.to > nlines {
						t.Errorf("%s: @line %d-%d past the end of the scenario (%d lines)", where, st.from, st.to, nlines)
						continue
					}
					// The page steps to the end of the range: it must start
					// at a statement and end at one or at the "}" closing a
					// block (a whole repeat or thread).
					srcLines := strings.Split(string(src), "\n")
					if !valid[st.from] {
						t.Errorf("%s: scenario line %d is not a statement", where, st.from)
					}
					if !valid[st.to] && strings.TrimSpace(srcLines[st.to-1]) != "}" {
						t.Errorf("%s: scenario line %d is neither a statement nor a block's closing brace", where, st.to)
					}
					start = slices.IndexFunc(events, func(e trace.Event) bool { return e.Line >= st.from && e.Line <= st.to })
					if start < 0 && len(st.events) > 0 {
						t.Errorf("%s: lines %d-%d produce no event, so @events has nothing to start from", where, st.from, st.to)
						continue
					}
				}
				for _, ev := range st.events {
					if !slices.ContainsFunc(events[start:], func(e trace.Event) bool { return e.Name == ev }) {
						t.Errorf("%s: @events %s: no such event at or after scenario line %d", where, ev, st.from)
					}
				}
			}

			// Asynchrony changes when work happens, never what it draws
			// (the SamBookshelf article on asynchronous Draw; several lessons say so): with sync=true the frames
			// are the same. A lesson may stop early under sync=true (a
			// DO_NOT_WAIT map that succeeds leaves the resource mapped);
			// then there is nothing to compare.
			// A Present with DXGI_PRESENT_DO_NOT_WAIT may present under
			// sync=true (nothing is queued) and be refused asynchronously:
			// then the synchronous run fails that lesson's `expect hr`, and
			// only the frames both runs present are compared.
			sync := true
			sr := NewRun(s, Overrides{Sync: &sync})
			if ss := sr.Finish(); ss.Steps == r.Summary().Steps {
				af, sf := r.Frames(), sr.Frames()
				if len(af) != len(sf) && (ss.OK() || !slices.ContainsFunc(ss.Failures, func(f string) bool { return strings.Contains(f, "DXGI_ERROR_WAS_STILL_DRAWING") })) {
					t.Errorf("sync=true presents %d frames, asynchronous %d", len(sf), len(af))
				}
				for i := range min(len(af), len(sf)) {
					if HashBytes(af[i].Pix) != HashBytes(sf[i].Pix) {
						t.Errorf("frame %d differs between sync=true and asynchronous runs", i)
					}
				}
			} else {
				t.Logf("sync=true stops after %d of %d API calls: %v", ss.Steps, r.Summary().Steps, ss.Failures)
			}

			// Threads interleave by a seeded choice; the notes say the frame
			// does not depend on it.
			if hasThread(s.Stmts) {
				for seed := uint64(1); seed <= 3; seed++ {
					sr := NewRun(s, Overrides{Seed: &seed})
					if sum := sr.Finish(); !sum.OK() {
						t.Errorf("seed %d: %s", seed, strings.Join(sum.Failures, "; "))
					} else if sum.Hash != r.Summary().Hash {
						t.Errorf("seed %d: last frame %s, with the lesson's seed %s", seed, sum.Hash, r.Summary().Hash)
					}
				}
			}

			// "Add `option bug=RULE`": the notes promise the verifier
			// catches that rule when the scenario breaks it on purpose.
			for _, m := range tryBug.FindAllStringSubmatch(string(notes), -1) {
				rule := m[1]
				bs, err := Load(name+".d3ds", append([]byte("option bug="+rule+"\n"), src...))
				if err != nil {
					t.Errorf("option bug=%s: %v", rule, err)
					continue
				}
				br := NewRun(bs, Overrides{})
				br.Finish()
				found := false
				for _, v := range br.Violations() {
					found = found || v.Rule == rule
				}
				if !found {
					t.Errorf("the notes suggest `option bug=%s`, but the verifier reports no %s violation then", rule, rule)
				}
			}
		})
	}
}

func hasThread(stmts []Stmt) bool {
	for _, st := range stmts {
		if _, ok := st.(*Thread); ok {
			return true
		}
	}
	return false
}

// TestTutorialOutOfOrder checks what lesson 12's notes say about its run
// beyond event names: the exact edges of the dependency graph (hazard,
// buffers, resource), the two engines running at the same time, the held
// fences, and a Map that waits past the end of its own copy because fence 4
// is held behind fences 1 to 3 (the SamBookshelf article on asynchronous Draw; docs/architecture.md).
func TestTutorialOutOfOrder(t *testing.T) {
	src, _, ok := assets.Tutorial("12-out-of-order")
	if !ok {
		t.Fatal("tutorial 12-out-of-order missing")
	}
	s, err := Load("12-out-of-order.d3ds", src)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	if sum := r.Finish(); !sum.OK() {
		t.Fatalf("the scenario fails:\n%s", strings.Join(sum.Failures, "\n"))
	}
	evs := r.Events()

	// The edges the notes quote, in submission order.
	var edges []string
	for _, e := range evs {
		if e.Kind == trace.Dep {
			edges = append(edges, e.Args.String()+" obj="+e.Obj)
		}
	}
	want := []string{
		"hazard=WAW from=1 to=4 res=a2 obj=big",
		"hazard=RAW from=2 to=6 res=a3 obj=small",
		"hazard=RAW from=4 to=8 res=a2 obj=big",
		"hazard=WAR from=8 to=9 res=a2 obj=big",
		"hazard=WAW from=8 to=11 res=a1 obj=sc.buffer0",
		"hazard=RAW from=9 to=11 res=a2 obj=big",
		"hazard=RAW from=11 to=12 res=a1 obj=sc.buffer0", // the present's copy reads the back buffer
	}
	if !slices.Equal(edges, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(edges, "\n"), strings.Join(want, "\n"))
	}

	// Each engine runs one buffer at a time: a DmaBufferStart ends the
	// previous buffer's run at that engine's Interrupt. Two intervals on
	// different engines that intersect are the overlap.
	type span struct {
		eng        string
		dma        uint64
		start, end int64
	}
	var spans []span
	open := map[string]int{}
	for _, e := range evs {
		if e.Layer != trace.GPU {
			continue
		}
		switch {
		case e.Name == "DmaBufferStart":
			open[e.Thread] = len(spans)
			spans = append(spans, span{e.Thread, e.DMA, e.T, -1})
		case e.Kind == trace.Interrupt:
			if i, ok := open[e.Thread]; ok && spans[i].dma == e.DMA {
				spans[i].end = e.T
			}
		}
	}
	overlap := false
	for _, a := range spans {
		for _, b := range spans {
			if a.eng == "gpu0" && b.eng == "gpu1" && a.end > 0 && b.end > 0 && a.start < b.end && b.start < a.end {
				overlap = true
			}
		}
	}
	if !overlap {
		t.Errorf("no buffer on gpu1 ran while one ran on gpu0: %+v", spans)
	}

	held := map[uint64]bool{}
	var copyDone, waitEnd int64
	for _, e := range evs {
		switch {
		case e.Name == "FenceHeld":
			held[e.Fence] = true
		case e.Kind == trace.Interrupt && e.DMA == 6:
			copyDone = e.T
		case e.Name == "WaitForFence" && e.Fence == 4:
			if e.Obj != "shot" || !strings.HasSuffix(e.Args.String(), "res=a4 hazard=RAW fence=4 dma=6") || !strings.Contains(e.Msg, "held") {
				t.Errorf("WaitForFence obj=%q args=%q msg=%q: the notes quote obj shot, res=a4 hazard=RAW fence=4 dma=6, held", e.Obj, e.Args, e.Msg)
			}
			if e.Args.Has(trace.KeyDone) {
				waitEnd = e.T
			}
		}
	}
	if !held[2] || !held[4] {
		t.Errorf("FenceHeld for fences %v, want 2 and 4 (the small texture's buffers finish first)", held)
	}
	if copyDone == 0 || waitEnd <= copyDone {
		t.Errorf("Map's wait for fence 4 ends at %d, its copy (DMA 6) at %d: the notes say the wait outlasts the copy", waitEnd, copyDone)
	}
}
