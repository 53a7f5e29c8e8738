//go:build !js

package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"d3dsim/assets"
)

// Counts the docs quote are counted, not remembered: "the 23 tutorials",
// "Twenty-three lessons" must be how many assets/tutorials holds. (The
// size of main.wasm the docs quote is checked where it is built:
// tests/browser/site.test.mjs.)

// tutorialCount matches a number, in digits or words, before "tutorials"
// or "lessons" (with "guided" between them or not).
var tutorialCount = regexp.MustCompile(`(?i)\b(\d+|[a-z]+(?:-[a-z]+)?) (?:guided )?(?:tutorials|lessons)\b`)

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
	"eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
}

// parseCount reads "23", "twenty-three" or "Twenty"; ok is false for a word
// that is not a number ("the", "guided").
func parseCount(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	n := 0
	for _, w := range strings.Split(strings.ToLower(s), "-") {
		v, ok := numberWords[w]
		if !ok {
			return 0, false
		}
		n += v
	}
	return n, true
}

func TestParseCount(t *testing.T) {
	for s, want := range map[string]int{"23": 23, "Twenty-three": 23, "twenty-one": 21, "nine": 9, "Twenty": 20} {
		if n, ok := parseCount(s); !ok || n != want {
			t.Errorf("parseCount(%q) = %d, %v; want %d", s, n, ok, want)
		}
	}
	for _, s := range []string{"the", "guided", "all", "step-by-step"} {
		if _, ok := parseCount(s); ok {
			t.Errorf("parseCount(%q) is a number", s)
		}
	}
}

func TestDocsCountTheTutorials(t *testing.T) {
	n := len(assets.Tutorials())
	if n == 0 {
		t.Fatal("no tutorials in assets")
	}
	seen := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, m := range tutorialCount.FindAllStringSubmatchIndex(s, -1) {
			q, ok := parseCount(s[m[2]:m[3]])
			if !ok {
				continue
			}
			seen++
			if q != n {
				t.Errorf("%s:%d: %q: assets/tutorials holds %d tutorials", f, lineOf(s, m[0]), s[m[0]:m[1]], n)
			}
		}
	}
	if seen == 0 {
		t.Error("no doc quotes how many tutorials there are: is the pattern still right?")
	}
}
