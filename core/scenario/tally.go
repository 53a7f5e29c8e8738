package scenario

import (
	"fmt"
	"unicode/utf8"
)

// A run's failures and debug-layer messages are bounded in bytes: a loop of
// failing expectations kept 10,000,000 failures (2.7 GB) before this. The
// first keepFull of each are kept in full, every text cut at maxText bytes;
// the rest are counted by line, and those counts become "… and N more"
// lines, at most maxMoreLines of them plus one for the other lines. So a
// run's failures take at most about (keepFull+1)·maxText + a few KiB, and
// its messages as much.
const (
	keepFull     = 20
	maxText      = 4 << 10
	maxMoreLines = 20
)

// tally keeps the first keepFull texts in full and counts the others by line.
type tally struct {
	kept  []string
	total int         // every text added or counted
	more  map[int]int // texts not kept, by line (at most maxMoreLines lines)
	lines []int       // the lines of more, in the order first seen
	other int         // texts not kept on lines past the first maxMoreLines
}

// full reports whether the next text would only be counted.
func (t *tally) full() bool { return len(t.kept) >= keepFull }

// add keeps s (cut at maxText) or, once full, counts it against line.
func (t *tally) add(line int, s string) {
	if t.full() {
		t.count(line)
		return
	}
	t.total++
	t.kept = append(t.kept, cutText(s))
}

// keep keeps s however many are kept already: the message that stopped a
// run is always shown in full.
func (t *tally) keep(s string) {
	t.total++
	t.kept = append(t.kept, cutText(s))
}

// count counts a text of line that is not kept.
func (t *tally) count(line int) {
	t.total++
	if _, ok := t.more[line]; ok {
		t.more[line]++
		return
	}
	if len(t.lines) >= maxMoreLines {
		t.other++
		return
	}
	if t.more == nil {
		t.more = map[int]int{}
	}
	t.more[line] = 1
	t.lines = append(t.lines, line)
}

// uncount takes back one count of line (the text is kept after all).
func (t *tally) uncount(line int) {
	t.total--
	if n, ok := t.more[line]; ok {
		if n > 1 {
			t.more[line] = n - 1
			return
		}
		delete(t.more, line)
		for i, l := range t.lines {
			if l == line {
				t.lines = append(t.lines[:i], t.lines[i+1:]...)
				break
			}
		}
		return
	}
	t.other--
}

// list is the texts kept, then a line per line with texts not kept, made by
// more(line, n), then other(n) for the rest.
func (t *tally) list(more func(line, n int) string, other func(n int) string) []string {
	out := make([]string, 0, len(t.kept)+len(t.lines)+1)
	out = append(out, t.kept...)
	for _, l := range t.lines {
		out = append(out, more(l, t.more[l]))
	}
	if t.other > 0 {
		out = append(out, other(t.other))
	}
	return out
}

// cutText cuts s to maxText bytes at a UTF-8 boundary, saying how much was cut.
func cutText(s string) string {
	if len(s) <= maxText {
		return s
	}
	n := maxText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s…(+%d bytes)", s[:n], len(s)-n)
}

// pendingFailure is a failure counted but not formatted (the tally was
// full), kept unformatted in case it is the one that stops the run.
type pendingFailure struct {
	pos    Pos
	format string
	args   []any
}
