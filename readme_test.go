//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeCommands runs every d3dsim command line of README.md's code
// blocks ("go run ./cmd/d3dsim ..." or "d3dsim ..."), so a README command
// that breaks fails here. The CLI is built once and stands in for
// `go run ./cmd/d3dsim` and `d3dsim`; each line runs through sh -c from the
// repo root, so a $(...) inside it (run --link "$(... link ...)") works;
// --out out/... goes to a temporary directory; bench gets --n 1000 unless
// the line gives --n. `go run .` (the dev server: it serves until stopped)
// and `make test` / `make site` (the whole suite, the site build) are not
// run here: the browser tests cover them.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and runs every README command (-short)")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := readmeCommands(string(readme))
	if len(lines) < 5 {
		t.Fatalf("found %d d3dsim commands in README.md's code blocks: %q", len(lines), lines)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "d3dsim")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/d3dsim").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/d3dsim: %v\n%s", err, out)
	}
	for _, line := range lines {
		cmd := readmeShell(line, bin, filepath.Join(tmp, "out"))
		c := exec.Command("sh", "-c", cmd)
		t.Logf("%s", cmd)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Errorf("README.md: %s\nran: %s\n%v\n%s", line, cmd, err, out)
		}
	}
}

var readmeComment = regexp.MustCompile(`\s+#\s.*$`)

// readmeCommands is every line of the markdown's ``` blocks that runs the
// CLI, without its trailing "# comment".
func readmeCommands(md string) []string {
	var cmds []string
	in := false
	for _, ln := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(ln), "```") {
			in = !in
			continue
		}
		ln = strings.TrimSpace(readmeComment.ReplaceAllString(ln, ""))
		if in && (strings.HasPrefix(ln, "go run ./cmd/d3dsim ") || strings.HasPrefix(ln, "d3dsim ")) {
			cmds = append(cmds, ln)
		}
	}
	return cmds
}

// readmeShell rewrites a README command line to run the built CLI with its
// outputs under out.
func readmeShell(line, bin, out string) string {
	q := "'" + bin + "'"
	s := strings.ReplaceAll(line, "go run ./cmd/d3dsim", q)
	if strings.HasPrefix(s, "d3dsim ") {
		s = q + strings.TrimPrefix(s, "d3dsim")
	}
	s = strings.ReplaceAll(s, "$(d3dsim ", "$("+q+" ")
	s = strings.ReplaceAll(s, "--out out/", "--out '"+out+"'/")
	s = strings.ReplaceAll(s, "-o out/", "-o '"+out+"'/")
	if strings.HasPrefix(s, q+" bench") && !strings.Contains(s, "--n") {
		s += " --n 1000"
	}
	return s
}

func TestReadmeShell(t *testing.T) {
	got := readmeShell(`go run ./cmd/d3dsim run --link "$(go run ./cmd/d3dsim link a.d3ds)"`, "/b/d", "/t/out")
	if want := `'/b/d' run --link "$('/b/d' link a.d3ds)"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := readmeShell("d3dsim bench", "/b/d", "/t/out"); got != "'/b/d' bench --n 1000" {
		t.Errorf("bench: %s", got)
	}
	if got := readmeShell("go run ./cmd/d3dsim gallery --out out/gallery", "/b/d", "/t/out"); got != "'/b/d' gallery --out '/t/out'/gallery" {
		t.Errorf("gallery: %s", got)
	}
	if got := readmeCommands("x\n```\ngo run .   # no\ngo run ./cmd/d3dsim verify a.d3ds   # rules\n```\nd3dsim run outside\n"); strings.Join(got, "|") != "go run ./cmd/d3dsim verify a.d3ds" {
		t.Errorf("readmeCommands: %q", got)
	}
}
