package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// TestFailuresBounded: a loop of failing expectations keeps the first
// failures in full and counts the rest by line (it kept every one of
// 10,000,000, 2.7 GB, before), and the failure that stopped the run is
// still shown in full.
func TestFailuresBounded(t *testing.T) {
	steps := 1_000_000
	if testing.Short() {
		steps = 100_000 // make race
	}
	s, err := Load("t", []byte(fmt.Sprintf("option maxsteps=%d\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n expect violations == 1\n expect live == 0\n}\n", steps)))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if sum.OK() || sum.FailureCount < steps-1 {
		t.Fatalf("%d failures counted", sum.FailureCount)
	}
	if len(sum.Failures) > keepFull+maxMoreLines+2 {
		t.Fatalf("%d failures kept: %q", len(sum.Failures), sum.Failures[:30])
	}
	all := strings.Join(sum.Failures, "\n")
	if !strings.Contains(all, "more failures on line 4") || !strings.Contains(all, "more failures on line 5") {
		t.Errorf("no count by line: %s", all)
	}
	if last := sum.Failures[len(sum.Failures)-1]; !strings.Contains(all, fmt.Sprintf("step budget of %d", steps)) {
		t.Errorf("the limit that stopped the run is not shown: last %q", last)
	}
	n := 0
	for _, f := range sum.Failures {
		n += len(f)
	}
	if n > 200<<10 {
		t.Errorf("failures hold %d bytes", n)
	}
}

// TestMessagesBounded: a loop of calls that each make a debug-layer
// message keeps the first messages and counts the rest.
func TestMessagesBounded(t *testing.T) {
	s, err := Load("t", []byte("dev, imm = D3D11CreateDevice Flags=DEBUG\nrepeat 50000 {\n imm.Draw 3 0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if sum.MessageCount != 50000 {
		t.Fatalf("%d messages counted", sum.MessageCount)
	}
	if len(sum.Messages) != keepFull+1 || !strings.Contains(sum.Messages[keepFull], "and 49980 more messages from line 3") {
		t.Fatalf("%d messages kept, last %q", len(sum.Messages), sum.Messages[len(sum.Messages)-1])
	}
}

// TestFailureTextCut: a failure carrying many long names is cut at 4 KiB
// (a single name is at most MaxWord bytes).
func TestFailureTextCut(t *testing.T) {
	name := strings.Repeat("n", MaxWord)
	s, err := Load("t", []byte("dev, imm = D3D11CreateDevice\nrepeat 100 {\n expect calls "+strings.Repeat(name+" ", 100)+"\n imm.Flush\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum := NewRun(s, Overrides{}).Finish()
	if sum.OK() {
		t.Fatal("passed")
	}
	for _, f := range sum.Failures {
		if len(f) > maxText+64 {
			t.Fatalf("a failure of %d bytes", len(f))
		}
	}
}
