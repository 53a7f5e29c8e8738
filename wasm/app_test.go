//go:build !js

package main

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/link"
	"d3dsim/core/scenario"
)

// The app is what the bridge wraps; these tests run it natively.

func defaultSource(t *testing.T) []byte {
	t.Helper()
	src, ok := assets.Scenario(assets.Default)
	if !ok {
		t.Fatalf("no default scenario %q", assets.Default)
	}
	return src
}

// expectedPixels reads every `expect pixel bb X Y == #RRGGBBAA` of a
// scenario.
func expectedPixels(t *testing.T, src []byte) []pixelWant {
	t.Helper()
	var out []pixelWant
	re := regexp.MustCompile(`(?m)^\s*expect\s+pixel\s+bb\s+(\d+)\s+(\d+)\s*==\s*(#[0-9a-fA-F]{8})`)
	for _, m := range re.FindAllSubmatch(src, -1) {
		x, _ := strconv.Atoi(string(m[1]))
		y, _ := strconv.Atoi(string(m[2]))
		out = append(out, pixelWant{x, y, strings.ToLower(string(m[3]))})
	}
	if len(out) == 0 {
		t.Fatal("default scenario has no `expect pixel bb X Y == #RRGGBBAA` line")
	}
	return out
}

type pixelWant struct {
	x, y int
	want string
}

// runToEnd drives a run() call as the bridge does, slice by slice.
func runToEnd(t *testing.T, a *app) scenario.Summary {
	t.Helper()
	r := a.startRun()
	for i := 0; i < 1e6; i++ {
		if s, done := r.slice(); done {
			s.Hash = a.frameHash(s) // as the bridge hands it to the page
			return s
		}
	}
	t.Fatal("run() never finished")
	return scenario.Summary{}
}

func TestHasLink(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"http://127.0.0.1:8080/", false},
		{"http://127.0.0.1:8080/#", false},
		{"http://127.0.0.1:8080/#trace", false},
		{"http://127.0.0.1:8080/#s=1.abc", true},
		{"http://127.0.0.1:8080/#s=", true},
		{"http://127.0.0.1:8080/#seed=4&s=1.abc", true},
		{"http://127.0.0.1:8080/?s=1.abc", false},
	}
	for _, tt := range tests {
		if got := hasLink(tt.url); got != tt.want {
			t.Errorf("hasLink(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

func TestInitialScenario(t *testing.T) {
	def := defaultSource(t)
	custom := "# a scenario from a link\noption seed=7\ndev, imm = D3D11CreateDevice\n"
	tests := []struct {
		desc, url  string
		want       string
		noticeWith string // "" for no notice
	}{
		{desc: "no fragment", url: "http://h/", want: string(def)},
		{desc: "other fragment", url: "http://h/#trace", want: string(def)},
		{desc: "link", url: link.URL("http://h/", custom), want: custom},
		{desc: "damaged payload", url: "http://h/#s=1.%%%not-base64%%%", want: string(def), noticeWith: "link"},
		{desc: "truncated payload", url: link.URL("http://h/", custom)[:len("http://h/#s=1.")+3], want: string(def), noticeWith: "link"},
		{desc: "unknown version", url: "http://h/#s=9.AAAA", want: string(def), noticeWith: "link"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			src, notice := initialScenario(tt.url)
			if string(src) != tt.want {
				t.Errorf("source = %.40q..., want %.40q...", src, tt.want)
			}
			if tt.noticeWith == "" && notice != "" {
				t.Errorf("unexpected notice %q", notice)
			}
			if tt.noticeWith != "" && !strings.Contains(strings.ToLower(notice), tt.noticeWith) {
				t.Errorf("notice %q does not mention %q", notice, tt.noticeWith)
			}
		})
	}
}

func TestStartWithDamagedLink(t *testing.T) {
	a := &app{}
	a.start("http://h/#s=1.!!!")
	if !strings.Contains(a.getNotice(), "link") {
		t.Errorf("notice %q does not mention the link", a.getNotice())
	}
	if a.source() != string(defaultSource(t)) {
		t.Error("the default scenario is not loaded")
	}
	if !a.isPlaying() {
		t.Error("the default scenario is not playing")
	}
}

func TestStartWithUnparsableLink(t *testing.T) {
	a := &app{}
	a.start(link.URL("http://h/", "dev, imm = D3D11CreateDevice\n@@@\n"))
	if n := a.getNotice(); !strings.Contains(n, "link") || !regexp.MustCompile(`\d+:\d+: `).MatchString(n) {
		t.Errorf("notice %q should mention the link and the LINE:COL of the error", n)
	}
	if a.source() != string(defaultSource(t)) {
		t.Error("the default scenario is not loaded")
	}
}

func TestLoadError(t *testing.T) {
	a := &app{}
	good := defaultSource(t)
	if err := a.load(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"dev, imm = D3D11CreateDevice\n@@@\n",
		"repeat 3 {\n",
	} {
		err := a.load([]byte(bad))
		if err == nil {
			t.Errorf("load(%q) succeeded", bad)
			continue
		}
		if !regexp.MustCompile(`^\d+:\d+: \S`).MatchString(err.Error()) {
			t.Errorf("load(%q) error %q is not LINE:COL: message", bad, err)
		}
	}
	if a.source() != string(good) {
		t.Error("a failed load replaced the loaded scenario")
	}
}

func TestRunDefault(t *testing.T) {
	a := &app{}
	src := defaultSource(t)
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	if s := a.summary(); s.Done || s.Steps != 0 || s.Failures == nil {
		t.Errorf("fresh load: %+v", s)
	}
	if p := a.pixel(0, 0); p != "" {
		t.Errorf("pixel before any Present = %q, want \"\"", p)
	}
	s := runToEnd(t, a)
	if !s.Done || !s.OK() {
		t.Fatalf("summary %+v", s)
	}
	if s.Frames < 1 || s.Hash == "" || s.Events < 1 {
		t.Errorf("summary %+v: want a frame, a hash and events", s)
	}
	for _, p := range expectedPixels(t, src) {
		if got := strings.ToLower(a.pixel(p.x, p.y)); got != p.want {
			t.Errorf("pixel(%d, %d) = %q, want %q", p.x, p.y, got, p.want)
		}
	}

	// The frame callback sees the frame once per change.
	var seen int
	gen := a.frame(0, func(f scenario.Frame, ok bool) {
		seen++
		if !ok || len(f.Pix) != f.Width*f.Height*4 {
			t.Errorf("frame ok=%v %dx%d with %d bytes", ok, f.Width, f.Height, len(f.Pix))
		}
	})
	a.frame(gen, func(scenario.Frame, bool) { seen++ })
	if seen != 1 {
		t.Errorf("frame callback ran %d times, want 1", seen)
	}

	// Same scenario, same trace: a second load replays it exactly.
	first := a.eventsJSON(0, maxEvents)
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	if s2 := runToEnd(t, a); s2.Hash != s.Hash || s2.Events != s.Events {
		t.Errorf("replay: %+v, first %+v", s2, s)
	}
	if second := a.eventsJSON(0, maxEvents); string(second) != string(first) {
		t.Error("replay produced a different trace")
	}
}

func TestEventsJSON(t *testing.T) {
	a := &app{}
	if got := string(a.eventsJSON(0, 10)); got != "[]" {
		t.Errorf("no run: %s", got)
	}
	if err := a.load(defaultSource(t)); err != nil {
		t.Fatal(err)
	}
	total := runToEnd(t, a).Events
	type ev struct {
		Seq   uint64 `json:"seq"`
		T     int64  `json:"t"`
		Name  string `json:"name"`
		Kind  string `json:"kind"`
		Layer string `json:"layer"`
	}
	var all []ev
	for from := 0; ; {
		var page []ev
		if err := json.Unmarshal(a.eventsJSON(from, 7), &page); err != nil {
			t.Fatalf("events(%d, 7): %v", from, err)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 7 {
			t.Fatalf("events(%d, 7) gave %d", from, len(page))
		}
		all = append(all, page...)
		from += len(page)
	}
	if len(all) != total {
		t.Fatalf("paged %d events, summary says %d", len(all), total)
	}
	for i, e := range all {
		if e.Seq != uint64(i+1) || e.Name == "" || e.Kind == "" || e.Layer == "" {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	for _, r := range [][2]int{{-5, 3}, {total, 10}, {total + 100, 10}, {0, 0}, {0, -1}} {
		var page []ev
		if err := json.Unmarshal(a.eventsJSON(r[0], r[1]), &page); err != nil {
			t.Errorf("events(%d, %d): %v", r[0], r[1], err)
		}
	}
}

func TestStepPauseAndCancel(t *testing.T) {
	a := &app{}
	if err := a.load(defaultSource(t)); err != nil {
		t.Fatal(err)
	}
	a.play()
	if !a.isPlaying() {
		t.Fatal("play did not start playing")
	}
	s := a.step(1)
	if a.isPlaying() {
		t.Error("step did not pause")
	}
	if s.Steps != 1 {
		t.Errorf("after step(1): steps = %d", s.Steps)
	}
	s = a.step(2)
	if s.Steps != 3 {
		t.Errorf("after step(2) more: steps = %d", s.Steps)
	}

	// A run() in progress is ended by a load; its answer is not done.
	r := a.startRun()
	if err := a.load(defaultSource(t)); err != nil {
		t.Fatal(err)
	}
	if s, done := r.slice(); !done || s.Done {
		t.Errorf("cancelled run: done=%v summary %+v", done, s)
	}

	// tick advances only while playing; play after the end is a no-op.
	a.tick()
	if a.summary().Steps != 0 {
		t.Error("tick advanced a paused run")
	}
	a.play()
	for i := 0; i < 1e5 && a.isPlaying(); i++ {
		a.tick()
	}
	if s := a.summary(); !s.Done || a.isPlaying() {
		t.Errorf("after playing: %+v playing=%v", s, a.isPlaying())
	}
	a.play()
	if a.isPlaying() {
		t.Error("play on a finished run")
	}
}

func TestPumpOnlyWhenStalled(t *testing.T) {
	a := &app{}
	if err := a.load(defaultSource(t)); err != nil {
		t.Fatal(err)
	}
	a.play()
	last := a.tickCount()
	a.tick() // Ebiten ticked since: the pump leaves the run alone
	steps := a.summary().Steps
	last = a.pumpIfStalled(last)
	if a.summary().Steps != steps {
		t.Error("pump advanced while Ebiten ticks")
	}
	for i := 0; i < 1e5 && a.isPlaying(); i++ {
		last = a.pumpIfStalled(last)
	}
	if !a.summary().Done {
		t.Error("pump did not finish the run")
	}
}

func TestLinkRoundTrip(t *testing.T) {
	a := &app{}
	src := "# round trip ✓\n" + string(defaultSource(t))
	if err := a.load([]byte(src)); err != nil {
		t.Fatal(err)
	}
	u := a.linkURL("http://127.0.0.1:8080/")
	if !strings.HasPrefix(u, "http://127.0.0.1:8080/#s=") {
		t.Fatalf("link %q", u)
	}
	got, notice := initialScenario(u)
	if notice != "" || string(got) != src {
		t.Errorf("round trip: notice %q, source equal: %v", notice, string(got) == src)
	}
}

// TestSlicesAreBounded: run() and the canvas's ticks end a slice after
// sliceCalls calls, sliceStatements statements or when the page clock says
// so (here a stand-in clock, over after a number of statements), and the
// run sliced so ends as the native run does.
func TestSlicesAreBounded(t *testing.T) {
	tests := []struct {
		desc  string
		src   string
		clock int // statements before the stand-in clock is over (0: no clock)
		// the most statements a slice may run
		most int
	}{
		{"statements without calls", "repeat 100 {\n  repeat 1000 {\n    expect violations == 0\n  }\n}\n", 0, sliceStatements},
		{"calls", "dev, imm = D3D11CreateDevice\nrepeat 5000 {\n  imm.Flush\n}\n", 0, sliceCalls},
		{"the page clock", "dev, imm = D3D11CreateDevice\nrepeat 500 {\n  imm.Flush\n  expect violations == 0\n}\n", 37, 37},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := scenario.Load("t", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			want := scenario.NewRun(s, scenario.Overrides{}).Finish()

			a := &app{}
			stmts, slices, most := 0, 0, 0
			a.clock = func() func() bool {
				// Asked after every statement: counts them too.
				n := 0
				slices++
				return func() bool {
					n++
					stmts++
					most = max(most, n)
					return tt.clock > 0 && n >= tt.clock
				}
			}
			if err := a.load([]byte(tt.src)); err != nil {
				t.Fatal(err)
			}
			got := runToEnd(t, a)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sliced run:\n%+v\nnative run:\n%+v", got, want)
			}
			if most > tt.most {
				t.Errorf("a slice ran %d statements, at most %d expected", most, tt.most)
			}
			if min := stmts / tt.most; slices < min {
				t.Errorf("%d statements in %d slices, at least %d expected", stmts, slices, min)
			}
		})
	}
}

// TestSlicesDoNotHash: run() in slices hashes no frame (the slices take the
// summary without its hash); the summary the page is given hashes the last
// frame once, to the hash a whole run gives.
func TestSlicesDoNotHash(t *testing.T) {
	a := &app{}
	src := defaultSource(t)
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	r := a.startRun()
	var s scenario.Summary
	for done := false; !done; {
		s, done = r.slice()
		if s.Hash != "" || a.hashPix != nil {
			t.Fatalf("a slice hashed a frame (%d frames, hash %q)", s.Frames, s.Hash)
		}
	}
	whole, err := scenario.Load("default", src)
	if err != nil {
		t.Fatal(err)
	}
	want := scenario.NewRun(whole, scenario.Overrides{}).Finish()
	if got := a.summary(); s.Frames < 1 || got.Hash != want.Hash || a.hashPix == nil {
		t.Fatalf("summary: hash %q after %d frames, a whole run's %q", got.Hash, s.Frames, want.Hash)
	}
	pix := a.hashPix
	if got := a.frameHash(s); got != want.Hash || a.hashPix != pix {
		t.Errorf("asked again: %q", got)
	}
}

// TestFrameHashOfSamePixels: a frame with the pixels of the one hashed last
// takes its hash without a SHA-256 (frameHash); a frame whose pixels differ
// is hashed, and every hash handed out is the SHA-256 of its own frame's
// pixels. The scene clears to red, red, green, green, red: three hashes.
func TestFrameHashOfSamePixels(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=64 Height=64\nbb = sc.GetBuffer 0\n" +
		"rtv = dev.CreateRenderTargetView bb\n"
	colours := []string{"1 0 0 1", "1 0 0 1", "0 1 0 1", "0 1 0 1", "1 0 0 1"}
	for _, c := range colours {
		src += "imm.ClearRenderTargetView rtv " + c + "\nsc.Present\n"
	}
	a := &app{}
	if err := a.load([]byte(src)); err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for i := range colours {
		r := a.startFrame()
		var s scenario.Summary
		for done := false; !done; {
			s, done = r.slice()
		}
		got := a.frameHash(s)
		f, _ := a.run.LastFrame()
		if s.Frames != i+1 || got != scenario.HashBytes(f.Pix) {
			t.Fatalf("frame %d (%d presented): hash %q, its pixels' %q", i+1, s.Frames, got, scenario.HashBytes(f.Pix))
		}
		hashes = append(hashes, got)
	}
	if a.hashes != 3 {
		t.Errorf("%d SHA-256s for the frames red, red, green, green, red, want 3", a.hashes)
	}
	if hashes[0] != hashes[1] || hashes[1] == hashes[2] || hashes[2] != hashes[3] || hashes[4] != hashes[0] {
		t.Errorf("hashes %q", hashes)
	}
}

// TestPumpTakesATicksCalls: the pump, which keeps a played run going when
// no animation frame comes, runs a tick's calls at the speed set, not a
// whole slice of 2,000 (a run played at 10 calls a tick jumped ahead
// whenever two frames were more than 100 ms apart), and counts its slices.
func TestPumpTakesATicksCalls(t *testing.T) {
	a := &app{}
	if err := a.load([]byte("dev, imm = D3D11CreateDevice\nrepeat 5000 {\n  imm.Flush\n}\n")); err != nil {
		t.Fatal(err)
	}
	a.setSpeed(10)
	a.play()
	s0 := a.progress().Steps
	last := a.pumpIfStalled(a.tickCount())
	if got := a.progress().Steps - s0; got != 10 || a.pumpCount() != 1 {
		t.Errorf("a pump slice at speed 10: %d calls, %d slices counted", got, a.pumpCount())
	}
	a.tick() // a tick came: the pump waits for the next stall
	s1 := a.progress().Steps
	a.pumpIfStalled(last)
	if got := a.progress().Steps - s1; got != 0 || a.pumpCount() != 1 {
		t.Errorf("after a tick the pump ran %d calls, %d slices counted", got, a.pumpCount())
	}
}

// TestStageNews: the bridge wakes the canvas after a change only for a
// picture it has not been woken for (a load, a Present of another picture)
// or a run playing; a step that presents nothing, or presents the same
// picture again (its frame shares the pixels), wakes nothing.
func TestStageNews(t *testing.T) {
	src := []byte("dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8 Height=8\nbb = sc.GetBuffer 0\n" +
		"rtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv 1 0 0 1\nsc.Present\nsc.Present\n" +
		"imm.ClearRenderTargetView rtv 0 0 1 1\nsc.Present\nsc.Present\n")
	a := &app{}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	if !a.stageNews() {
		t.Error("a load wakes no stage")
	}
	if a.stageNews() {
		t.Error("nothing changed, and the stage is woken")
	}
	a.play()
	if !a.stageNews() {
		t.Error("a run playing wakes no stage")
	}
	a.pause()
	if a.stageNews() {
		t.Error("a pause with the same picture wakes the stage")
	}
	woken, frames := 0, 0
	for i := 0; i < 100 && !a.summary().Done; i++ {
		a.step(1)
		news := a.stageNews()
		if n := a.summary().Frames; n != frames {
			frames = n
			if news {
				woken++
			}
		} else if news {
			t.Errorf("step %d presented nothing, and the stage is woken", i)
		}
	}
	if frames != 4 || woken != 2 {
		t.Errorf("%d frames presented, the stage woken for %d; want 4 and 2 (two pictures)", frames, woken)
	}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
	if !a.stageNews() {
		t.Error("a load wakes no stage")
	}
}
