package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"d3dsim/core/link"
	"d3dsim/core/scenario"
)

func runCLIIn(stdin string, args ...string) (code int, out, errOut string) {
	var o, e strings.Builder
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

const flushSrc = "dev, imm = D3D11CreateDevice\nimm.Flush\n"

// TestBadInputExits2: every kind of bad input exits 2 with a message naming
// what is wrong and the expected form; failed expectations exit 1, a failed
// write of --out 3.
func TestBadInputExits2(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	good := write("good.d3ds", flushSrc)
	u := link.URL("https://example.org/", flushSrc)
	linkFile := write("link.txt", u+"\n")
	blocker := write("blocker", "a file where --out wants a directory")
	tests := []struct {
		desc  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"bench --n abc", "", []string{"bench", "--n", "abc"}, 2, `flag --n "abc": must be a whole number of at least 1`},
		{"bench --n -5", "", []string{"bench", "--n", "-5"}, 2, `flag --n "-5": must be a whole number of at least 1`},
		{"bench --n 0", "", []string{"bench", "--n=0"}, 2, "must be a whole number of at least 1"},
		{"bench --n huge", "", []string{"bench", "--n", "1000000000"}, 2, "must be 1..100000000"},
		{"unknown flag", "", []string{"run", good, "--x", "3"}, 2, "unknown flag --x (known: --link, --link-file, --max-events"},
		{"unknown flag last", "", []string{"run", good, "--x"}, 2, "unknown flag --x (known:"},
		{"flag without value", "", []string{"run", good, "--seed"}, 2, "flag --seed needs a whole number"},
		{"bool flag with a value", "", []string{"run", good, "--sync=yes"}, 2, "flag --sync takes no value"},
		{"flag twice", "", []string{"run", good, "--seed", "1", "--seed", "2"}, 2, "flag --seed given twice"},
		{"bad seed", "", []string{"run", good, "--seed", "-1"}, 2, `flag --seed "-1": must be a whole number`},
		{"bad max-steps", "", []string{"run", good, "--max-steps", "0"}, 2, "flag --max-steps"},
		{"small max-events", "", []string{"run", good, "--max-events", "10"}, 2, "flag --max-events 10: must be at least 1000"},
		{"bad base", "", []string{"link", good, "--base", "ftp://x/"}, 2, `flag --base "ftp://x/": must be an http:// or https:// URL`},
		{"file and link", "", []string{"run", good, "--link", u}, 2, "give a FILE or --link, not both"},
		{"link and link-file", "", []string{"run", "--link", u, "--link-file", linkFile}, 2, "give --link or --link-file, not both"},
		{"missing link file", "", []string{"run", "--link-file", filepath.Join(dir, "nope")}, 2, "no such file"},
		{"bad link on stdin", "not a link", []string{"run", "--link", "-"}, 2, "bad link"},
		{"option out of range", "", []string{"run", write("r.d3ds", "option maxevents=1\n")}, 2, "option maxevents=1: out of range, must be 1000..4000000"},
		{"inject type", "", []string{"run", write("i.d3ds", "dev, imm = D3D11CreateDevice\ninject umd.foreign target=imm on=dev\n")}, 2, "it needs a buffer or a texture"},
		{"object not set", "", []string{"run", write("n.d3ds", "dev, imm = D3D11CreateDevice\nthread t {\n b = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER\n}\nimm.IASetVertexBuffers 0 b 16 0\nwait t\n")}, 2, ""},
		{"unknown verb", "", []string{"fly"}, 2, "unknown command"},
		// not bad input
		{"failed expectation", "", []string{"run", write("f.d3ds", flushSrc+"expect violations == 1\n")}, 1, "1 failed"},
		{"out not writable", "", []string{"run", good, "--out", filepath.Join(blocker, "sub")}, 3, "writing --out"},
		{"run --link -", u, []string{"run", "--link", "-"}, 0, "ok"},
		{"run --link-file", "", []string{"run", "--link-file", linkFile}, 0, "ok"},
		{"link -", flushSrc, []string{"link", "-", "--base", "https://example.org/d3dsim/"}, 0, "https://example.org/d3dsim/#s=1."},
	}
	for _, tt := range tests {
		code, out, errOut := runCLIIn(tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%s: exit %d, output %q %q; want exit %d containing %q", tt.desc, code, out, errOut, tt.code, tt.want)
		}
	}
}

// TestLinkStdin: `d3dsim link -` reads the scenario from standard input (it
// panicked with a nil reader), and a link to the default base says on
// stderr that it is a localhost link.
func TestLinkStdin(t *testing.T) {
	code, out, errOut := runCLIIn(flushSrc, "link", "-")
	if code != 0 || !strings.HasPrefix(out, link.DefaultBase+"#s=1.") || !strings.Contains(errOut, "the dev server on this machine") {
		t.Fatalf("exit %d, %q %q", code, out, errOut)
	}
	back, err := link.FromURL(strings.TrimSpace(out))
	if err != nil || string(back) != flushSrc {
		t.Fatalf("%q %v", back, err)
	}
	if _, _, errOut := runCLIIn("", "link", "-", "--base", "https://example.org/d3dsim/"); errOut != "" {
		t.Errorf("--base given, yet: %q", errOut)
	}
}

// TestLinkFileLong: --link-file runs a link longer than one command-line
// argument may be (128 KiB on Linux): a scenario of 900 KB that does not
// compress much.
func TestLinkFileLong(t *testing.T) {
	var b strings.Builder
	b.WriteString(flushSrc)
	x := uint64(88172645463325252)
	for b.Len() < 900_000 {
		// comments that do not compress much (xorshift)
		b.WriteString("# ")
		for j := 0; j < 60; j++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[x%36])
		}
		b.WriteString("\n")
	}
	u := link.URL("https://example.org/", b.String())
	if len(u) < 300_000 {
		t.Fatalf("the link is only %d bytes", len(u))
	}
	p := filepath.Join(t.TempDir(), "long.txt")
	os.WriteFile(p, []byte(u), 0o644)
	code, out, errOut := runCLIIn("", "run", "--link-file", p)
	if code != 0 || !strings.Contains(out, "steps: 2") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
}

// TestUsageListsEveryFlag: every flag of every verb, every exit code and
// every option range is in the usage text.
func TestUsageListsEveryFlag(t *testing.T) {
	for verb, flags := range verbFlags {
		if !strings.Contains(usage, "d3dsim "+verb) {
			t.Errorf("verb %s not in the usage", verb)
		}
		for f := range flags {
			if !regexp.MustCompile(`--` + regexp.QuoteMeta(f) + `\b`).MatchString(usage) {
				t.Errorf("d3dsim %s --%s not in the usage", verb, f)
			}
		}
	}
	for k, rg := range scenario.Ranges {
		if !strings.Contains(usage, k+" "+rg.String()) {
			t.Errorf("option %s %s not in the usage", k, rg)
		}
	}
	for _, c := range []string{"0 passed", "1 an expectation failed", "2 bad input", "3 writing an output failed"} {
		if !strings.Contains(usage, c) {
			t.Errorf("exit status %q not in the usage", c)
		}
	}
}
