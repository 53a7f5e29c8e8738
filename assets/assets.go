// Package assets embeds the example scenarios (and, later, tutorials) so the
// CLI, the tests and the WebAssembly build all carry the same files.
package assets

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed scenarios/*.d3ds
var files embed.FS

// Default is the scenario the browser app opens with.
const Default = "hello-triangle"

// Scenario returns the source of scenarios/NAME.d3ds.
func Scenario(name string) ([]byte, bool) {
	b, err := files.ReadFile("scenarios/" + name + ".d3ds")
	return b, err == nil
}

// Scenarios lists the names of the embedded scenarios, sorted.
func Scenarios() []string {
	ents, _ := fs.ReadDir(files, "scenarios")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".d3ds"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
