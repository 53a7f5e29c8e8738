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

// TestRaceSkip checks the Makefile's RACE_SKIP: make race leaves those
// packages out because their tests cannot start a second goroutine, so the
// race detector has nothing to find there. For each, no package of the
// module that its tests build (go list -test -deps) may have a go statement,
// import unsafe (-race also checks pointer conversions), or call
// runtime.SetFinalizer, runtime.AddCleanup or time.AfterFunc (which run code
// on goroutines of their own). A package that gains one must leave the list.
func TestRaceSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list (-short)")
	}
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RACE_SKIP :=(.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no RACE_SKIP line")
	}
	skip := strings.Fields(string(m[1]))
	if len(skip) == 0 {
		t.Skip("RACE_SKIP is empty")
	}
	verdict := map[string]string{} // directory -> "" or why it may run goroutines
	for _, p := range skip {
		out, err := exec.Command("go", append([]string{"list", "-test", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}"}, "./"+p)...).Output()
		if err != nil {
			t.Fatalf("go list -test -deps ./%s: %v", p, err)
		}
		for _, dir := range strings.Fields(string(out)) {
			why, seen := verdict[dir]
			if !seen {
				why = goroutineUse(t, dir)
				verdict[dir] = why
			}
			if why != "" {
				rel := dir
				if wd, err := os.Getwd(); err == nil {
					if r, err := filepath.Rel(wd, dir); err == nil {
						rel = r
					}
				}
				t.Errorf("RACE_SKIP lists %s, but its tests build %s, which %s: take %s out of RACE_SKIP (Makefile)", p, filepath.ToSlash(rel), why, p)
			}
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
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
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
		{"package p\nimport \"unsafe\"\nvar _ = unsafe.Sizeof(0)", "imports unsafe (x.go)"},
		{"package p\nimport \"time\"\nfunc f() { time.AfterFunc(0, f) }", "calls time.AfterFunc (x.go:3)"},
		{"package p\nimport \"runtime\"\nfunc f(x *int) { runtime.SetFinalizer(x, nil) }", "calls runtime.SetFinalizer (x.go:3)"},
	} {
		if got := goroutineUseIn("x.go", []byte(tt.src)); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
	}
}
