//go:build !js

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRacePackages checks the Makefile's RACE_PKGS, the packages make race
// runs under the race detector: the ones whose own files (code or tests)
// run code on a second goroutine — the GPU's tile workers, the quad
// evaluator, the scenario runner's free-threaded calls, the stress tests —
// or import unsafe (-race also checks pointer conversions). The detector
// finds a race only between goroutines, and those packages' tests are what
// start them; a package that only calls into them (the apitrace importer,
// the CLI, the shader-test runner) ran the same GPU and scenario code
// 5-15 times slower under the detector (18 s instead of 1.3 s for the
// shader-test runner's own files) for no interleaving those packages'
// tests do not already make. A package that gains a go statement, a
// WaitGroup.Go, a finalizer, a cleanup, a time.AfterFunc or unsafe must join
// the list, and one that loses them must leave it.
func TestRacePackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list (-short)")
	}
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RACE_PKGS :=(.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no RACE_PKGS line")
	}
	listed := map[string]bool{}
	for _, p := range strings.Fields(string(m[1])) {
		listed[p] = true
	}
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "./core/...", "./gpu/...", "./cmd/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(wd, dir)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		why := goroutineUse(t, dir)
		switch {
		case why != "" && !listed[rel]:
			t.Errorf("%s %s, but RACE_PKGS (Makefile) leaves it out of make race: add it", rel, why)
		case why == "" && listed[rel]:
			t.Errorf("RACE_PKGS (Makefile) lists %s, whose files start no goroutine and import no unsafe: take it out", rel)
		}
	}
	for p := range listed {
		if !seen[p] {
			t.Errorf("RACE_PKGS (Makefile) lists %s, which is not a package under core, gpu or cmd", p)
		}
	}
}

// goroutineUse says how the Go files of dir may run code on another
// goroutine, or "".
func goroutineUse(t *testing.T, dir string) string {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if why := goroutineUseIn(filepath.Base(f), src); why != "" {
			return why
		}
	}
	return ""
}

// goroutineUseIn is goroutineUse for one file.
func goroutineUseIn(name string, src []byte) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return "does not parse (" + err.Error() + ")"
	}
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "unsafe" {
			return "imports unsafe (" + name + ")"
		}
	}
	why := ""
	ast.Inspect(f, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			why = "starts a goroutine (" + name + ":" + strconv.Itoa(fset.Position(n.Pos()).Line) + ")"
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" {
				// sync.WaitGroup.Go (Go 1.25) starts one too.
				why = "starts a goroutine (" + name + ":" + strconv.Itoa(fset.Position(n.Pos()).Line) + ", .Go)"
			} else if ok {
				if pkg, ok := sel.X.(*ast.Ident); ok {
					switch pkg.Name + "." + sel.Sel.Name {
					case "runtime.SetFinalizer", "runtime.AddCleanup", "time.AfterFunc":
						why = "calls " + pkg.Name + "." + sel.Sel.Name + " (" + name + ":" + strconv.Itoa(fset.Position(n.Pos()).Line) + ")"
					}
				}
			}
		}
		return true
	})
	return why
}

func TestGoroutineUseIn(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want string
	}{
		{"package p\nfunc f() { x := 1; _ = x }", ""},
		{"package p\nfunc f() { go f() }", "starts a goroutine (x.go:2)"},
		{"package p\nimport \"sync\"\nfunc f() { var wg sync.WaitGroup; wg.Go(f) }", "starts a goroutine (x.go:3, .Go)"},
		{"package p\nimport \"unsafe\"\nvar _ = unsafe.Sizeof(0)", "imports unsafe (x.go)"},
		{"package p\nimport \"time\"\nfunc f() { time.AfterFunc(0, f) }", "calls time.AfterFunc (x.go:3)"},
		{"package p\nimport \"runtime\"\nfunc f(x *int) { runtime.SetFinalizer(x, nil) }", "calls runtime.SetFinalizer (x.go:3)"},
	} {
		if got := goroutineUseIn("x.go", []byte(tt.src)); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
	}
}
