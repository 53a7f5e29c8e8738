package inspect

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// Comparing two runs: two scenarios, one scenario in two modes (in order,
// out of order, synchronous: scenario.Modes), or one before and after an
// edit. The simulation is deterministic, so every difference is a real
// one: the first API call where the runs part (its name, object, line or
// HRESULT), the first event where each layer's events part, the pixels of
// the last frames that differ (a count, a box, a mask image), and, at an
// event both runs name (Draw#2, line:24), the bindings that differ.

// DiffSide is one run of a comparison.
type DiffSide struct {
	Label   string
	Run     *scenario.Run
	Journal *Journal // for the state at an event (nil: no state compared)
}

// DiffEvent is one event of a divergence, in words.
type DiffEvent struct {
	Seq  uint64 `json:"seq"`
	T    int64  `json:"t"`
	Line int    `json:"line,omitempty"`
	Text string `json:"text"`
}

// Divergence is where two runs' sequences of calls or of one layer's
// events part: the index in the sequence (0 the first) and each side's
// event there (nil: that run's sequence ended before it).
type Divergence struct {
	Layer string     `json:"layer"` // "API calls", or a layer: runtime, umd, dxgkrnl, kmd, gpu
	Same  bool       `json:"same"`
	Index int        `json:"index"`
	Count [2]int     `json:"count"` // the sequence's length in each run
	A     *DiffEvent `json:"a,omitempty"`
	B     *DiffEvent `json:"b,omitempty"`
}

// PixelDiff compares the last presented frames of two runs.
type PixelDiff struct {
	Frames [2]int `json:"frames"` // frames presented by each run
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Sizes  string `json:"sizes,omitempty"` // the frames' sizes differ (nothing else compared)
	Count  int    `json:"count"`           // pixels that differ
	// First is the first differing pixel (row by row) and its colours.
	First  [2]int    `json:"first"`
	ColorA string    `json:"colorA,omitempty"`
	ColorB string    `json:"colorB,omitempty"`
	Box    [4]int    `json:"box"` // x, y, w, h around every differing pixel
	mask   []bool    // per pixel: differs
	frames [2][]byte // the two frames' pixels
}

// StateDiff is the bindings that differ at an event both runs name.
type StateDiff struct {
	At   string        `json:"at"`
	Seq  [2]uint64     `json:"seq"`
	Rows []StateChange `json:"rows"`
	Err  string        `json:"error,omitempty"`
}

// StateChange is one binding that differs: what each run holds.
type StateChange struct {
	Stage   string `json:"stage"`
	Binding string `json:"binding"`
	A       string `json:"a"`
	B       string `json:"b"`
}

// Comparison is the answer.
type Comparison struct {
	A      string       `json:"a"`
	B      string       `json:"b"`
	Calls  Divergence   `json:"calls"`
	Layers []Divergence `json:"layers"`
	Pixels *PixelDiff   `json:"pixels,omitempty"`
	State  *StateDiff   `json:"state,omitempty"`
}

// diffLayers are the layers compared one by one.
var diffLayers = []trace.Layer{trace.Runtime, trace.UMD, trace.Dxgkrnl, trace.KMD, trace.GPU}

// Compare compares two runs (each to its end, or as far as it went); at,
// when not "", names an event in both (a seq, NAME#K, line:N) whose
// states are compared. It reads the runs' traces in place, event by event,
// and stops at each sequence's first difference: a million-event trace is
// neither copied nor held as text.
func Compare(a, b DiffSide, at string) *Comparison {
	ra, rb := newReader(a.Run.Recorder()), newReader(b.Run.Recorder())
	c := &Comparison{A: a.Label, B: b.Label}
	c.Calls = diverge("API calls", ra, rb, isAPICall, apiCallKey)
	for _, l := range diffLayers {
		c.Layers = append(c.Layers, diverge(l.String(), ra, rb, func(e *trace.Event) bool { return e.Layer == l }, layerKey))
	}
	c.Pixels = comparePixels(a.Run, b.Run)
	if at != "" && a.Journal != nil && b.Journal != nil {
		c.State = compareState(a.Journal, b.Journal, at)
	}
	return c
}

func describe(e *trace.Event) string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	b.WriteString(" ")
	if e.From != e.Layer && e.From != trace.LayerNone {
		fmt.Fprintf(&b, "%v→%v ", e.From, e.Layer)
	} else {
		fmt.Fprintf(&b, "%v ", e.Layer)
	}
	b.WriteString(e.Name)
	for _, kv := range [][2]string{{"ctx", e.Ctx}, {"obj", e.Obj}, {"handle", e.Handle}, {"hr", e.HR}, {"rule", e.Rule}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	if e.Fence != 0 {
		fmt.Fprintf(&b, " fence=%d", e.Fence)
	}
	if e.DMA != 0 {
		fmt.Fprintf(&b, " dma=%d", e.DMA)
	}
	if s := e.Args.String(); s != "" {
		b.WriteString(" " + s)
	}
	return b.String()
}

func isAPICall(e *trace.Event) bool { return e.From == trace.App && e.Kind == trace.Call }

// apiCallKey is an API call in words — name(object) at its line, on its
// context — with the HRESULT its return gave (its return is the first
// application-level Return of its name on its thread after it).
func apiCallKey(r reader, e *trace.Event) string {
	text := refOf(e).text()
	if e.Ctx != "" {
		text += " on " + e.Ctx
	}
	for s := e.Seq + 1; s <= r.last && s-e.Seq < scanLimit; s++ {
		x, ok := r.get(s)
		if !ok || x.Thread != e.Thread || x.From != trace.App {
			continue
		}
		if x.Kind == trace.Return && x.Name == e.Name {
			if x.HR != "" {
				text += " -> " + x.HR
			}
			break
		}
		if x.Kind == trace.Call {
			break // the next call on the thread: this one returned nothing traced
		}
	}
	return text
}

// layerKey is an event of a layer by what it says (not its seq or time,
// which any earlier difference shifts), with its thread.
func layerKey(_ reader, e *trace.Event) string { return describe(e) + " (" + e.Thread + ")" }

// cursor walks one run's events that match a sequence.
type cursor struct {
	r     reader
	s     uint64 // the next seq to look at
	match func(*trace.Event) bool
}

// next is the next matching event (false: the trace ends).
func (c *cursor) next() (trace.Event, bool) {
	for ; c.s <= c.r.last && c.s > 0; c.s++ {
		if e, ok := c.r.get(c.s); ok && c.match(&e) {
			c.s++
			return e, true
		}
	}
	return trace.Event{}, false
}

// count is how many events after the cursor match, and how many are left.
func (c *cursor) count() int {
	n := 0
	for {
		if _, ok := c.next(); !ok {
			return n
		}
		n++
	}
}

// diverge walks the two runs' sequences of the events match picks, in
// step, to the first pair whose keys differ (or where one sequence ends).
func diverge(layer string, ra, rb reader, match func(*trace.Event) bool, key func(reader, *trace.Event) string) Divergence {
	d := Divergence{Layer: layer}
	ca, cb := &cursor{r: ra, s: ra.first, match: match}, &cursor{r: rb, s: rb.first, match: match}
	for i := 0; ; i++ {
		ea, oka := ca.next()
		eb, okb := cb.next()
		if !oka && !okb {
			d.Same, d.Count = true, [2]int{i, i}
			return d
		}
		var ka, kb string
		if oka {
			ka = key(ra, &ea)
		}
		if okb {
			kb = key(rb, &eb)
		}
		if oka && okb && ka == kb {
			continue
		}
		d.Index = i
		d.Count = [2]int{i, i}
		if oka {
			d.A = &DiffEvent{Seq: ea.Seq, T: ea.T, Line: ea.Line, Text: ka}
			d.Count[0] += 1 + ca.count()
		}
		if okb {
			d.B = &DiffEvent{Seq: eb.Seq, T: eb.T, Line: eb.Line, Text: kb}
			d.Count[1] += 1 + cb.count()
		}
		return d
	}
}

func hexColor(p []byte) string { return fmt.Sprintf("#%02x%02x%02x%02x", p[0], p[1], p[2], p[3]) }

// comparePixels compares the last presented frames (nil: neither run
// presented one).
func comparePixels(a, b *scenario.Run) *PixelDiff {
	fa, oka := a.LastFrame()
	fb, okb := b.LastFrame()
	if !oka && !okb {
		return nil
	}
	p := &PixelDiff{Frames: [2]int{a.Summary().Frames, b.Summary().Frames}}
	if !oka || !okb || fa.Width != fb.Width || fa.Height != fb.Height ||
		len(fa.Pix) < fa.Width*fa.Height*4 || len(fb.Pix) < fb.Width*fb.Height*4 {
		p.Sizes = fmt.Sprintf("%dx%d against %dx%d", fa.Width, fa.Height, fb.Width, fb.Height)
		return p
	}
	p.Width, p.Height = fa.Width, fa.Height
	p.mask = make([]bool, p.Width*p.Height)
	p.frames = [2][]byte{fa.Pix, fb.Pix}
	x0, y0, x1, y1 := p.Width, p.Height, -1, -1
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			o := (y*p.Width + x) * 4
			if string(fa.Pix[o:o+4]) == string(fb.Pix[o:o+4]) {
				continue
			}
			if p.Count == 0 {
				p.First = [2]int{x, y}
				p.ColorA, p.ColorB = hexColor(fa.Pix[o:o+4]), hexColor(fb.Pix[o:o+4])
			}
			p.Count++
			p.mask[y*p.Width+x] = true
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
	}
	if p.Count > 0 {
		p.Box = [4]int{x0, y0, x1 - x0 + 1, y1 - y0 + 1}
	}
	return p
}

// Mask is the pixels that differ as a picture: each differing pixel
// opaque red, the others the first run's colour, dimmed to a quarter (nil:
// frames of different sizes, or none).
func (p *PixelDiff) Mask() *image.RGBA {
	if p == nil || p.mask == nil {
		return nil
	}
	m := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	for i, d := range p.mask {
		x, y := i%p.Width, i/p.Width
		if d {
			m.SetRGBA(x, y, color.RGBA{255, 48, 48, 255})
			continue
		}
		s := p.frames[0][i*4 : i*4+4]
		m.SetRGBA(x, y, color.RGBA{s[0] / 4, s[1] / 4, s[2] / 4, 255})
	}
	return m
}

// compareState compares the bindings at the event at names in each run.
func compareState(ja, jb *Journal, at string) *StateDiff {
	d := &StateDiff{At: at}
	sa, err := ja.Resolve(at)
	if err == nil {
		var sb uint64
		if sb, err = jb.Resolve(at); err == nil {
			d.Seq = [2]uint64{sa, sb}
			var a, b *State
			if a, err = ja.State(sa, ""); err == nil {
				if b, err = jb.State(sb, ""); err == nil {
					d.Rows = stateChanges(a, b)
				}
			}
		}
	}
	if err != nil {
		d.Err = err.Error()
	}
	return d
}

// rowText is a binding in words: the runtime's value and fields, then the
// UMD's packets (their words and addresses left out: where a packet sits
// in a DMA buffer is not the state).
func rowText(r *Row) string {
	var b strings.Builder
	b.WriteString(named(r.Object, r.Debug))
	if r.Object != "" {
		b.WriteString(": ")
	}
	b.WriteString(r.Value)
	for _, f := range r.Fields {
		fmt.Fprintf(&b, "; %s = %s", f.Name, f.Value)
	}
	for _, p := range r.Packets {
		b.WriteString(" | UMD " + p.Text)
	}
	return b.String()
}

func stateChanges(a, b *State) []StateChange {
	type key struct{ stage, binding string }
	rows := func(s *State) (map[key]string, []key) {
		m := map[key]string{}
		var order []key
		for i := range s.Stages {
			for k := range s.Stages[i].Rows {
				r := &s.Stages[i].Rows[k]
				kk := key{s.Stages[i].Name, r.Binding}
				if _, ok := m[kk]; !ok {
					order = append(order, kk)
				}
				m[kk] = rowText(r)
			}
		}
		return m, order
	}
	ma, oa := rows(a)
	mb, ob := rows(b)
	var out []StateChange
	for _, k := range oa {
		if ma[k] != mb[k] {
			out = append(out, StateChange{Stage: k.stage, Binding: k.binding, A: ma[k], B: mb[k]})
		}
	}
	for _, k := range ob {
		if _, ok := ma[k]; !ok {
			out = append(out, StateChange{Stage: k.stage, Binding: k.binding, B: mb[k]})
		}
	}
	return out
}

// Text is the comparison in words.
func (c *Comparison) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s against %s\n", c.A, c.B)
	div := func(d Divergence) {
		if d.Same {
			fmt.Fprintf(&b, "  %-10s the same (%d)\n", d.Layer, d.Count[0])
			return
		}
		fmt.Fprintf(&b, "  %-10s differ at the %s (of %d and %d):\n", d.Layer, ordinal(d.Index+1), d.Count[0], d.Count[1])
		for _, s := range []struct {
			label string
			e     *DiffEvent
		}{{c.A, d.A}, {c.B, d.B}} {
			if s.e == nil {
				fmt.Fprintf(&b, "    %s: (ended)\n", s.label)
				continue
			}
			line := ""
			if s.e.Line > 0 {
				line = fmt.Sprintf(", line %d", s.e.Line)
			}
			fmt.Fprintf(&b, "    %s: #%d at %s%s: %s\n", s.label, s.e.Seq, Duration(s.e.T), line, s.e.Text)
		}
	}
	b.WriteString("first difference by API call:\n")
	div(c.Calls)
	b.WriteString("first difference by layer:\n")
	for _, d := range c.Layers {
		div(d)
	}
	switch p := c.Pixels; {
	case p == nil:
		b.WriteString("pixels: neither run presented a frame\n")
	case p.Sizes != "":
		fmt.Fprintf(&b, "pixels: the last frames differ in size (%s)\n", p.Sizes)
	case p.Count == 0:
		fmt.Fprintf(&b, "pixels: the last frames are the same (%dx%d; frames %d and %d)\n", p.Width, p.Height, p.Frames[0], p.Frames[1])
	default:
		fmt.Fprintf(&b, "pixels: %d of %d differ in the last frames (frames %d and %d), within %d,%d %dx%d; the first at %d,%d: %s against %s\n",
			p.Count, p.Width*p.Height, p.Frames[0], p.Frames[1], p.Box[0], p.Box[1], p.Box[2], p.Box[3], p.First[0], p.First[1], p.ColorA, p.ColorB)
	}
	if s := c.State; s != nil {
		switch {
		case s.Err != "":
			fmt.Fprintf(&b, "state at %s: %s\n", s.At, s.Err)
		case len(s.Rows) == 0:
			fmt.Fprintf(&b, "state at %s (events %d and %d): the same\n", s.At, s.Seq[0], s.Seq[1])
		default:
			fmt.Fprintf(&b, "state at %s (events %d and %d): %s differ\n", s.At, s.Seq[0], s.Seq[1], plural(len(s.Rows), "binding"))
			for _, r := range s.Rows {
				fmt.Fprintf(&b, "  %s %s\n    %s: %s\n    %s: %s\n", r.Stage, r.Binding, c.A, orNone(r.A), c.B, orNone(r.B))
			}
		}
	}
	return b.String()
}

func ordinal(n int) string {
	suf := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suf)
}

// CompareQuery compares a run the page holds with another run of a
// scenario that it makes a slice at a time (the page keeps answering): the
// scenario before an edit, or the same scenario in another mode.
type CompareQuery struct {
	cur, other DiffSide
	otherFirst bool // the other run is side A (before an edit)
	at         string
	answer     *Comparison
	done       bool
}

// NewCompareQuery starts the other run: s with o, labelled label. cur is
// the run held; otherFirst puts the other run on the left (A).
func NewCompareQuery(cur DiffSide, label string, s *scenario.Script, o scenario.Overrides, otherFirst bool, at string) *CompareQuery {
	r := scenario.NewRun(s, o)
	return &CompareQuery{cur: cur, other: DiffSide{Label: label, Run: r, Journal: Record(r)}, otherFirst: otherFirst, at: at}
}

// Step runs the other run for at most l's calls and statements, or until
// l.Over says stop; once it is done, it compares, and reports true.
func (q *CompareQuery) Step(l scenario.SliceLimits) bool {
	if q.done {
		return true
	}
	calls, stmts := 0, 0
	for {
		call, done := q.other.Run.StepStatement()
		stmts++
		if call {
			calls++
		}
		if done {
			break
		}
		if l.Calls > 0 && calls >= l.Calls || l.Statements > 0 && stmts >= l.Statements || l.Over != nil && l.Over() {
			return false
		}
	}
	a, b := q.cur, q.other
	if q.otherFirst {
		a, b = b, a
	}
	q.answer, q.done = Compare(a, b, q.at), true
	return true
}

// Answer is the comparison once Step said so.
func (q *CompareQuery) Answer() (any, error) { return q.answer, nil }
