//go:build !js

package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// allowedImports is the layering of core/README.md as a table: what each
// package's non-test files may import from the module. A layer imports only
// what is below it (and the cross-cutting packages); core/machine alone
// wires every layer; the front ends reach below the runtime only through
// core/machine. Tests of the front ends and the scenario runner keep to the
// same table.
var allowedImports = map[string][]string{
	".":                    {"assets"},
	"assets":               {},
	"cmd/d3dsim":           {"assets", "core/link", "core/machine", "core/scenario", "core/trace", "core/verify", "core/rules", "core/hresult", "core/memlimit", "core/dxbc", "core/hlsl", "core/shadertest", "core/apitrace", "core/inspect"},
	"wasm":                 {"assets", "core/link", "core/machine", "core/scenario", "core/trace", "core/verify", "core/rules", "core/hresult", "core/memlimit", "core/dxbc", "core/builtins", "core/apitrace", "core/inspect"},
	"core/scenario":        {"assets", "core/d3d11", "core/hresult", "core/machine", "core/rules", "core/sim", "core/trace", "core/verify", "core/memlimit", "core/link", "core/dxbc", "core/hlsl", "core/builtins"}, // hlsl: the scenario's source blocks, compiled at load as fxc would
	"core/link":            {},
	"core/apitrace":        {"core/scenario", "core/dxbc", "core/hresult", "core/d3d11", "core/ddi"},                                                    // apitrace's .trace and dump text, as scenarios
	"core/shadertest":      {"core/hlsl", "core/scenario", "core/d3d11"},                                                                                // shader_test files: each case a scenario
	"core/inspect":         {"core/scenario", "core/machine", "core/d3d11", "core/ddi", "core/dxbc", "core/hlsl", "core/trace", "gpu/isa", "gpu/texel"}, // the inspector's queries: state, resources, pixel history, shader steps at any event; gpu/isa and gpu/texel only to read packets and texels
	"core/machine":         {"core/d3d11", "core/ddi", "core/dxgk", "core/kmd", "core/umd", "core/rules", "core/sim", "core/trace", "gpu", "gpu/isa", "gpu/texel", "core/xsync"},
	"core/d3d11":           {"core/ddi", "core/dxgk", "core/dxgkddi", "core/hresult", "core/rules", "core/sim", "core/trace", "core/dxbc", "core/xsync"},
	"core/ddi":             {"core/hresult", "core/xsync"},
	"core/umd":             {"core/ddi", "core/hresult", "core/rules", "gpu/isa", "core/dxbc", "gpu/shaderisa", "core/umd/translate"},
	"core/umd/translate":   {"core/dxbc", "gpu/shaderisa"}, // the UMD's shader compiler: DXBC tokens to the GPU's ISA, never its executor
	"core/dxgk":            {"core/dxgkddi", "core/rules", "core/sim", "core/trace"},
	"core/dxgkddi":         {},
	"core/kmd":             {"core/dxgkddi", "core/rules", "core/sim", "gpu/isa"},
	"gpu":                  {"core/sim", "core/trace", "core/xsync", "gpu/isa", "gpu/shaderisa", "gpu/shader", "gpu/texel", "gpu/tess"},
	"gpu/isa":              {},
	"gpu/shaderisa":        {},                // the GPU's shader instruction set: encoding, decoding, assembly
	"gpu/texel":            {"gpu/isa"},       // texel formats: decoded and encoded in one place for every unit that reads or writes them
	"gpu/shader":           {"gpu/shaderisa"}, // the GPU's executor of that ISA
	"gpu/tess":             {},                // the fixed-function tessellator: factors to domain points and primitives
	"core/verify":          {"core/ddi", "core/rules", "core/trace"},
	"core/trace":           {"core/xsync"},
	"core/sim":             {"core/xsync"},
	"core/xsync":           {}, // the hot paths' locks and atomics: sync's natively, plain loads and stores under WebAssembly
	"core/rules":           {},
	"core/hresult":         {},
	"core/memlimit":        {},
	"core/hlsl":            {"core/dxbc"},
	"core/builtins":        {"assets", "core/hlsl"}, // the built-in shaders: HLSL in assets, compiled once
	"core/dxbc":            {},                      // DXBC shader bytecode: a leaf every layer that handles shaders may use
	"core/internal/oracle": {},                      // tests only: finds vkd3d-compiler and spirv-val
	"internal/testall":     {},                      // make test: runs the targets, sums up
}

// strictTests are the packages whose tests keep to their table too.
var strictTests = []string{"cmd/d3dsim", "wasm", "core/scenario"}

func TestLayers(t *testing.T) {
	const module = "d3dsim/"
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == "web" || d.Name() == "docs" || d.Name() == "tests") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		test := strings.HasSuffix(p, "_test.go")
		if test && !slices.Contains(strictTests, pkg) {
			return nil
		}
		allowed, ok := allowedImports[pkg]
		if !ok {
			t.Errorf("%s: package %s is not in the layering table (layers_test.go): add it where it belongs", p, pkg)
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			dep, ok := strings.CutPrefix(path, module)
			if !ok || dep == pkg {
				continue
			}
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s: %s may import only %v of the module", p, dep, pkg, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range allowedImports {
		if !seen[pkg] {
			t.Errorf("the layering table names %s, which has no Go files", pkg)
		}
	}
}

// The UMD compiles shaders to the GPU's instruction set (gpu/shaderisa);
// the machine that executes it (gpu/shader) is the GPU's, and no driver
// layer may reach it: the table must never allow it below gpu.
func TestDriversImportTheISANotTheExecutor(t *testing.T) {
	for pkg, allowed := range allowedImports {
		if pkg == "gpu" || pkg == "gpu/shader" {
			continue
		}
		if slices.Contains(allowed, "gpu/shader") {
			t.Errorf("%s may import gpu/shader, the GPU's executor: a driver layer uses gpu/shaderisa", pkg)
		}
	}
}
