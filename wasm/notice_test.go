package main

import (
	"strings"
	"testing"

	"d3dsim/core/scenario"
)

// TestLimitNotice: a run that stops at a limit says which in its summary,
// and the page's notice names it.
func TestLimitNotice(t *testing.T) {
	s, err := scenario.Load("t", []byte("option maxsteps=1000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum := scenario.NewRun(s, scenario.Overrides{}).Finish()
	n := limitNotice(sum.Limit)
	if !strings.Contains(n, "line 4:2: step budget of 1000 API calls reached") || !strings.Contains(n, "Restart") {
		t.Fatalf("%q", n)
	}
	if c := crashNotice("d3dsim.run: internal error: boom"); !strings.Contains(c, "boom") || !strings.Contains(c, "Restart") {
		t.Fatalf("%q", c)
	}
}

// TestPendingNotice: a run that ends at a limit, stepped as the page steps
// it, leaves one notice naming the limit; a panic inside the simulator
// leaves one with the hint to Restart, and the app still answers.
func TestPendingNotice(t *testing.T) {
	a := &app{}
	if err := a.load([]byte("option maxsteps=1000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && !a.step(100).Done; i++ {
	}
	n := a.takePending()
	if !strings.Contains(n, "step budget of 1000 API calls reached") {
		t.Fatalf("notice %q", n)
	}
	if n := a.takePending(); n != "" {
		t.Fatalf("a second notice %q", n)
	}

	if err := a.load([]byte("dev, imm = D3D11CreateDevice\nimm.Flush\n")); err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	a.guardLocked(func() bool { panic("boom") })
	a.mu.Unlock()
	if n := a.takePending(); !strings.Contains(n, "internal error: boom") || !strings.Contains(n, "Restart") {
		t.Fatalf("crash notice %q", n)
	}
	if s := a.summary(); !s.Done || len(s.Failures) == 0 {
		t.Fatalf("summary after the crash: %+v", s)
	}
	// Restart (load again) runs the scenario.
	if err := a.load([]byte(a.source())); err != nil {
		t.Fatal(err)
	}
	if s := a.step(10); !s.Done || !s.OK() {
		t.Fatalf("after restart: %+v", s)
	}
}
