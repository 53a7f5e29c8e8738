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
