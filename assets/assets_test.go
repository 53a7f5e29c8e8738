package assets

import (
	"bytes"
	"slices"
	"testing"
)

// TestScenarioAliases: a renamed scenario loads under its old name too, with
// the same text, while Scenarios lists only the new name.
func TestScenarioAliases(t *testing.T) {
	for old, now := range aliases {
		a, ok := Scenario(old)
		b, ok2 := Scenario(now)
		if !ok || !ok2 || !bytes.Equal(a, b) {
			t.Errorf("Scenario(%q) = %v, Scenario(%q) = %v: want the same file", old, ok, now, ok2)
		}
		if slices.Contains(Scenarios(), old) || !slices.Contains(Scenarios(), now) {
			t.Errorf("Scenarios() = %v: want %q listed, not %q", Scenarios(), now, old)
		}
	}
	if _, ok := Scenario("no-such-scenario"); ok {
		t.Error("Scenario of an unknown name succeeded")
	}
}
