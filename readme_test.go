//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeCommands runs every d3dsim command line of README.md's code
// blocks ("go run ./cmd/d3dsim ..." or "d3dsim ..."), so a README command
// that breaks fails here. The CLI is built once and stands in for
// `go run ./cmd/d3dsim` and `d3dsim`; each line runs through sh -c from the
// repo root, so a $(...) inside it (run --link "$(... link ...)") works;
// --out out/... goes to a temporary directory; bench gets --n 1000 unless
// the line gives --n, and --quick (each scene once: its GPU-level scenes
// run 2 s each otherwise, whatever --n, 12 CPU-seconds of the test's 14). `go run .` (the dev server: it serves until stopped)
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
	if strings.HasPrefix(s, q+" bench") {
		if !strings.Contains(s, "--n") {
			s += " --n 1000"
		}
		s += " --quick"
	}
	return s
}

func TestReadmeShell(t *testing.T) {
	got := readmeShell(`go run ./cmd/d3dsim run --link "$(go run ./cmd/d3dsim link a.d3ds)"`, "/b/d", "/t/out")
	if want := `'/b/d' run --link "$('/b/d' link a.d3ds)"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := readmeShell("d3dsim bench", "/b/d", "/t/out"); got != "'/b/d' bench --n 1000 --quick" {
		t.Errorf("bench: %s", got)
	}
	if got := readmeShell("go run ./cmd/d3dsim gallery --out out/gallery", "/b/d", "/t/out"); got != "'/b/d' gallery --out '/t/out'/gallery" {
		t.Errorf("gallery: %s", got)
	}
	if got := readmeCommands("x\n```\ngo run .   # no\ngo run ./cmd/d3dsim verify a.d3ds   # rules\n```\nd3dsim run outside\n"); strings.Join(got, "|") != "go run ./cmd/d3dsim verify a.d3ds" {
		t.Errorf("readmeCommands: %q", got)
	}
}

// TestReadmeSetUp: the README's set-up section gives what a fresh machine
// needs. Its apt-get line installs make and every package .ci/run installs
// when it is missing; it names the Go version go.mod asks for, which
// registry each command reaches, the -addr flag, and the first build's time
// as the dev server says it (serve.go firstBuildTime); docs/testing.md
// describes every target make test runs.
func TestReadmeSetUp(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(readme)
	from := strings.Index(md, "## Set up")
	if from < 0 {
		t.Fatal(`README.md has no "## Set up" section`)
	}
	setup := md[from:]
	if end := strings.Index(setup[3:], "\n## "); end >= 0 {
		setup = setup[:end+3]
	}

	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"make"}
	for _, m := range regexp.MustCompile(`missing\+=\(([\w.-]+)\)`).FindAllStringSubmatch(string(ci), -1) {
		pkgs = append(pkgs, m[1])
	}
	if len(pkgs) < 5 {
		t.Fatalf(".ci/run installs only %q", pkgs)
	}
	apt := regexp.MustCompile(`apt-get install -y ([^\n#` + "`" + `]+)`).FindStringSubmatch(setup)
	if apt == nil {
		t.Fatal("the set-up section has no apt-get install -y line")
	}
	have := strings.Fields(apt[1])
	for _, p := range pkgs {
		if !slices.Contains(have, p) {
			t.Errorf("the README's apt-get line (%s) lacks %s, which .ci/run installs", strings.TrimSpace(apt[1]), p)
		}
	}

	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(mod))
	if goVersion == nil {
		t.Fatal("go.mod has no go directive")
	}
	for _, want := range []string{
		"Go " + goVersion[1],              // the toolchain go.mod asks for
		"Go module proxy", "npm registry", // what reaches which registry
		"Debian's package archive",
		"-addr",        // another port
		"in use",       // what a taken port does
		firstBuildTime, // as the dev server says it
		"out/test",     // where make test's logs are
		"docs/testing.md",
	} {
		if !strings.Contains(setup, want) {
			t.Errorf("the README's set-up section does not say %q", want)
		}
	}

	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	targets := regexp.MustCompile(`(?m)^TEST_TARGETS \?= (.+)$`).FindStringSubmatch(string(mk))
	if targets == nil {
		t.Fatal("the Makefile has no TEST_TARGETS line")
	}
	testing_, err := os.ReadFile("docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range strings.Fields(targets[1]) {
		if !strings.Contains(string(testing_), "| `"+tg+"` |") {
			t.Errorf("docs/testing.md's table does not describe the target %s that make test runs", tg)
		}
	}
}
