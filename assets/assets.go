// Package assets embeds the example scenarios and the tutorials so the CLI,
// the tests and the WebAssembly build all carry the same files.
package assets

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed scenarios/*.d3ds tutorials
var files embed.FS

// Default is the scenario the browser app opens with.
const Default = "hello-triangle"

// Scenario returns the source of scenarios/NAME.d3ds. A renamed scenario
// still answers to its old name (aliases), so links and commands that name
// it keep loading.
func Scenario(name string) ([]byte, bool) {
	if n, ok := aliases[name]; ok {
		name = n
	}
	b, err := files.ReadFile("scenarios/" + name + ".d3ds")
	return b, err == nil
}

// aliases maps the old names of renamed scenarios to their names now.
// Scenarios lists only the names now.
var aliases = map[string]string{
	"seed004-index-buffers": "index-buffer-hazards", // its old name leaked an internal numbering
}

// Scenarios lists the names of the embedded scenarios, sorted.
func Scenarios() []string { return names("scenarios") }

// Tutorial returns the scenario of tutorials/NAME.d3ds and its notes
// (tutorials/NAME.md; the format is in tutorials/README.md).
func Tutorial(name string) (scenario, notes []byte, ok bool) {
	scenario, err := files.ReadFile("tutorials/" + name + ".d3ds")
	if err != nil {
		return nil, nil, false
	}
	notes, _ = files.ReadFile("tutorials/" + name + ".md")
	return scenario, notes, true
}

// Tutorials lists the names of the embedded tutorials, sorted (their names
// start with a two-digit number, so this is lesson order).
func Tutorials() []string { return names("tutorials") }

// names lists the .d3ds files of dir without their extension, sorted.
func names(dir string) []string {
	ents, _ := fs.ReadDir(files, dir)
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".d3ds"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
