package apitrace

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
)

// Format is what a file holds.
type Format int

const (
	FormatScenario Format = iota // anything else: read as a scenario
	FormatTrace                  // a binary .trace (Snappy or gzip)
	FormatDump                   // `apitrace dump` text
)

func (f Format) String() string {
	return [...]string{"scenario", "apitrace trace", "apitrace dump"}[f]
}

// dumpLine is the start of a call in `apitrace dump` text: an optional call
// number and thread, an optional label of apitrace-tests' references
// (<draw>), then a function or Interface::Method and "(".
var dumpLine = regexp.MustCompile(`^(\d+ )?(@[0-9a-f]+ )?(<\w*> )?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)?\(`)

// Detect says what head, the first bytes of a file (a few KiB), holds: a
// binary trace by its container's magic, dump text by its first line that
// is not a comment, else a scenario.
func Detect(head []byte) Format {
	if len(head) >= 2 && (head[0] == 'a' && head[1] == 't' || head[0] == 0x1f && head[1] == 0x8b) {
		// "at" could start a scenario line ("at = ..."): a trace's next
		// four bytes are a chunk's length, little-endian and under 16 MiB,
		// so the last is a NUL no text has (the others may be any byte, a
		// newline too).
		if head[0] == 0x1f || len(head) < 6 || head[5] == 0 {
			return FormatTrace
		}
	}
	s := bufio.NewScanner(bytes.NewReader(head))
	s.Buffer(make([]byte, 0, 4096), 1<<20)
	for s.Scan() {
		line := bytes.TrimSpace(s.Bytes())
		if len(line) == 0 || bytes.HasPrefix(line, []byte("//")) || line[0] == '#' {
			continue
		}
		if dumpLine.Match(line) {
			return FormatDump
		}
		return FormatScenario
	}
	return FormatScenario
}

// Open reads a capture, binary or dump text, from r.
func Open(r io.Reader, opt Options) (CallSource, Format, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(8 << 10)
	switch f := Detect(head); f {
	case FormatTrace:
		opt.Tolerant = true
		t, err := NewReader(br, opt)
		return t, f, err
	case FormatDump:
		d, err := NewDumpReader(br, opt)
		return d, f, err
	}
	return nil, FormatScenario, nil
}
