// Package assets embeds the example scenarios, the tutorials and the HLSL
// source of the built-in shaders so the CLI, the tests and the WebAssembly
// build all carry the same files.
package assets

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed scenarios/*.d3ds tutorials shaders/*.hlsl
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
func Scenarios() []string { return names("scenarios", ".d3ds") }

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
func Tutorials() []string { return names("tutorials", ".d3ds") }

// BuiltinShader returns the HLSL source of shaders/NAME.hlsl: the built-in
// shader a scenario names builtin:NAME, compiled when it is first used like
// any HLSL (package core/builtins).
func BuiltinShader(name string) ([]byte, bool) {
	b, err := files.ReadFile("shaders/" + name + ".hlsl")
	return b, err == nil
}

// BuiltinShaders lists the names of the built-in shaders, sorted.
func BuiltinShaders() []string { return names("shaders", ".hlsl") }

// names lists the files of dir ending in ext without it, sorted.
func names(dir, ext string) []string {
	ents, _ := fs.ReadDir(files, dir)
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ext); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
