//go:build !js

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No test may assert on wall-clock time (docs/testing.md): a limit in
// seconds passes on the machine it was written on and fails on a loaded
// one, and a test that fails on a busy machine teaches people to ignore
// failures. Work is bounded by steps, sizes, allocations or bytes; speed is
// measured by benchmarks and `d3dsim bench`. TestNoTimedAssertions reads
// every Go test and every browser test and fails on a new timed assertion;
// TestTimedAssertionPatterns shows what it catches and what it lets through.

// timedFinding is one timed assertion: where, and what it does.
type timedFinding struct {
	pos  string // file:line
	what string
}

func (f timedFinding) String() string { return f.pos + ": " + f.what }

// TestNoTimedAssertions checks every *_test.go in the module and every
// tests/browser/*.mjs.
func TestNoTimedAssertions(t *testing.T) {
	var found []timedFinding
	n := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "dist" || name == "out") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(name, "_test.go"):
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fs, err := timedGo(filepath.ToSlash(p), src)
			if err != nil {
				return err
			}
			found = append(found, fs...)
			n++
		case strings.HasSuffix(name, ".mjs") && filepath.ToSlash(filepath.Dir(p)) == "tests/browser":
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			found = append(found, timedJS(filepath.ToSlash(p), string(src))...)
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("read %d test files: the walk missed the tests", n)
	}
	for _, f := range found {
		t.Errorf("%s (bound the work by steps, sizes or bytes, wait on a condition, or measure it in a benchmark)", f)
	}
}

// clockFuncs are the calls that read the clock or a measurement of it.
var clockFuncs = map[string]bool{
	"time.Now": true, "time.Since": true, "time.Until": true,
	"testing.Benchmark": true,
}

// timedGo returns the timed assertions in one Go test file:
//
//   - an ordering (<, <=, >, >=) or a Before/After/Compare between values
//     that come from the clock (time.Now, time.Since, time.Until, a
//     testing.Benchmark result, or a variable assigned from one of those),
//     unless it is inside a loop that waits (sleeps, receives from a
//     channel or selects): that is a timeout on a wait for a condition;
//   - any t.Deadline() (a test that adapts to its deadline, or asserts on
//     it, depends on the machine's speed).
func timedGo(name string, src []byte) ([]timedFinding, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	var found []timedFinding
	add := func(n ast.Node, format string, args ...any) {
		p := fset.Position(n.Pos())
		found = append(found, timedFinding{fmt.Sprintf("%s:%d", name, p.Line), fmt.Sprintf(format, args...)})
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		tainted := clockVars(fn.Body)
		fromClock := func(e ast.Expr) bool { return readsClock(e, tainted) }
		var walk func(n ast.Node, waiting bool)
		walk = func(n ast.Node, waiting bool) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt:
					w := waiting || loopWaits(n.Body)
					for _, part := range []ast.Node{n.Init, n.Cond, n.Post, n.Body} {
						if part != nil {
							walk(part, w)
						}
					}
					return false
				case *ast.RangeStmt:
					walk(n.Body, waiting || loopWaits(n.Body))
					return false
				case *ast.FuncLit:
					walk(n.Body, false)
					return false
				case *ast.BinaryExpr:
					switch n.Op {
					case token.LSS, token.LEQ, token.GTR, token.GEQ:
						if !waiting && (fromClock(n.X) || fromClock(n.Y)) {
							add(n, "compares a time from the clock (%s)", exprString(fset, src, n))
						}
					}
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						switch sel.Sel.Name {
						case "Before", "After", "Compare":
							if !waiting && fromClock(sel.X) {
								add(n, "compares a time from the clock (%s)", exprString(fset, src, n))
							}
						case "Deadline":
							if len(n.Args) == 0 {
								add(n, "reads the test's deadline (%s)", exprString(fset, src, n))
							}
						}
					}
				}
				return true
			})
		}
		walk(fn.Body, false)
	}
	return found, nil
}

// clockVars is every variable of body assigned, directly or through other
// such variables, from a clock reading.
func clockVars(body *ast.BlockStmt) map[string]bool {
	tainted := map[string]bool{}
	for changed := true; changed; {
		changed = false
		mark := func(lhs []ast.Expr, rhs []ast.Expr) {
			for i, l := range lhs {
				id, ok := l.(*ast.Ident)
				if !ok || tainted[id.Name] || id.Name == "_" {
					continue
				}
				r := rhs[0]
				if len(rhs) == len(lhs) {
					r = rhs[i]
				}
				if readsClock(r, tainted) {
					tainted[id.Name] = true
					changed = true
				}
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				mark(n.Lhs, n.Rhs)
			case *ast.ValueSpec:
				if len(n.Values) > 0 {
					lhs := make([]ast.Expr, len(n.Names))
					for i, id := range n.Names {
						lhs[i] = id
					}
					mark(lhs, n.Values)
				}
			}
			return true
		})
	}
	return tainted
}

// readsClock reports whether e calls a clock function or reads a tainted
// variable. A call's result counts; a function literal's body does not.
func readsClock(e ast.Expr, tainted map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if tainted[n.Name] {
				found = true
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && clockFuncs[pkg.Name+"."+sel.Sel.Name] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// loopWaits reports whether a loop body waits: time.Sleep, a receive from a
// channel, or a select. A clock comparison in such a loop is the timeout of
// a wait for a condition, not an assertion on speed.
func loopWaits(body *ast.BlockStmt) bool {
	waits := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			waits = true
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				waits = true
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "time" && sel.Sel.Name == "Sleep" {
					waits = true
				}
			}
		}
		return !waits
	})
	return waits
}

func exprString(fset *token.FileSet, src []byte, n ast.Node) string {
	from, to := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
	if from < 0 || to > len(src) || from > to {
		return "?"
	}
	s := strings.Join(strings.Fields(string(src[from:to])), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// The browser tests are JavaScript, read line by line (no parser in the
// standard library): a name is a clock name after a line assigns it
// (`x = ...`, `const x = ...`, `o.x = ...`, or `x: ...` in an object)
// from performance.now(), Date.now(), new Date(), process.hrtime or
// another clock name, and until a line assigns it something else; a line that compares (<, <=, >, >=) or asserts
// (assert.*) with a clock reading or name in it is a timed assertion. A
// fixed sleep (page.waitForTimeout) is one too: wait for the condition.
// So is a wait with no bound ({ timeout: 0 }): a Promise the page never
// settles then hangs the suite (a CI run waited 20 minutes on one) instead
// of failing with the step's name; the harness's bounds are hang detectors
// (tests/browser/harness.mjs WAIT_TIMEOUT, within).
var (
	jsUnbounded = regexp.MustCompile(`\btimeout\s*:\s*0\b`)
	jsClock     = regexp.MustCompile(`performance\.now\(\)|Date\.now\(\)|new Date\(\)|process\.hrtime`)
	jsAssign    = regexp.MustCompile(`(?:^|[\s,{(;.])([A-Za-z_$][\w$]*)\s*(?:=[^=>]|:[^:])`)
	jsCompare   = regexp.MustCompile(`[^<>=!]\s*(<=|>=|<|>)\s*[^<>=]`)
	jsAssert    = regexp.MustCompile(`\bassert\.\w+\(`)
	jsSleep     = regexp.MustCompile(`\.waitForTimeout\(`)
	jsIdent     = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
	jsLineEnd   = regexp.MustCompile(`//.*$`)
	jsStringLit = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`")
)

// timedJS returns the timed assertions and fixed sleeps in one browser
// test file.
func timedJS(name, src string) []timedFinding {
	lines := strings.Split(src, "\n")
	code := make([]string, len(lines))
	for i, l := range lines {
		// Strings and comments say things ("< 3 s") that are not code.
		l = jsStringLit.ReplaceAllString(l, `""`)
		l = jsLineEnd.ReplaceAllString(l, "")
		code[i] = l
	}
	clock := map[string]bool{}
	// hasClock: s reads the clock or a clock name. An object's key
	// ("worst: 0") is not a read.
	hasClock := func(s string) bool {
		if jsClock.MatchString(s) {
			return true
		}
		for _, m := range jsIdent.FindAllStringIndex(s, -1) {
			if rest := strings.TrimLeft(s[m[1]:], " \t"); strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "::") {
				continue
			}
			if clock[s[m[0]:m[1]]] {
				return true
			}
		}
		return false
	}
	// One pass in the order of the lines: a name is a clock name from an
	// assignment of a clock reading to it until an assignment of something
	// else (the same short name, "now" or "last", is reused elsewhere in a
	// file for counts).
	var found []timedFinding
	for i, l := range code {
		for _, m := range jsAssign.FindAllStringSubmatchIndex(l, -1) {
			id := l[m[2]:m[3]]
			if id == "const" || id == "let" || id == "var" {
				continue
			}
			if hasClock(jsRHS(l[m[3]:])) {
				clock[id] = true
			} else {
				delete(clock, id)
			}
		}
		pos := fmt.Sprintf("%s:%d", name, i+1)
		switch {
		case jsSleep.MatchString(l):
			found = append(found, timedFinding{pos, "a fixed sleep (" + strings.TrimSpace(lines[i]) + "): wait for the condition instead"})
		case jsUnbounded.MatchString(l):
			found = append(found, timedFinding{pos, "a wait with no bound (" + strings.TrimSpace(lines[i]) + "): give it a bound, and a name with within (harness.mjs)"})
		case (jsCompare.MatchString(strings.ReplaceAll(l, "=>", "  ")) || jsAssert.MatchString(l)) && hasClock(l):
			found = append(found, timedFinding{pos, "compares or asserts a time from the clock (" + strings.TrimSpace(lines[i]) + ")"})
		}
	}
	return found
}

// jsRHS is the expression after an assignment's = or an object key's :, up
// to the end of the statement or the next entry of the object.
func jsRHS(s string) string {
	depth := 0
	for i, c := range s {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return s[:i]
			}
		case ',', ';':
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// TestTimedAssertionPatterns: what the checker flags, and the legitimate
// uses of the clock it lets through.
func TestTimedAssertionPatterns(t *testing.T) {
	goFile := func(body string) string {
		return "package p\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestX(t *testing.T) {\n" + body + "\n}\n"
	}
	goCases := []struct {
		desc, body string
		flagged    bool
	}{
		{"time.Since compared with a duration", `start := time.Now(); work(); if d := time.Since(start); d > 5*time.Second { t.Fatalf("took %v", d) }`, true},
		{"the elapsed time in a variable", `start := time.Now(); work(); took := time.Since(start); if took >= time.Second { t.Error(took) }`, true},
		{"time.Now().Sub", `t0 := time.Now(); work(); if time.Now().Sub(t0) > time.Second { t.Error() }`, true},
		{"a duration on the right", `start := time.Now(); if 2*time.Second < time.Since(start) { t.Error() }`, true},
		{"an instant compared with After", `deadline := time.Now().Add(time.Second); work(); if time.Now().After(deadline) { t.Fatal("too slow") }`, true},
		{"t.Deadline", `if dl, ok := t.Deadline(); ok { _ = dl }`, true},
		{"a benchmark's figure asserted", `r := testing.Benchmark(bench); if r.NsPerOp() > 1000 { t.Error(r) }`, true},
		{"a loop bounded by time", `start := time.Now(); n := 0; for time.Since(start) < time.Second { n++ }; t.Log(n)`, true},
		{"time logged, not compared", `start := time.Now(); work(); t.Logf("took %v", time.Since(start))`, false},
		{"mtimes in a table", `now := time.Now(); files := map[string]time.Duration{"a": time.Hour}; _ = now.Add(files["a"])`, false},
		{"a timeout on a wait (select)", `done := make(chan bool); select { case <-done: case <-time.After(time.Minute): t.Fatal("no answer") }`, false},
		{"a polling loop with a deadline", `deadline := time.Now().Add(time.Minute); for !ready() { if time.Now().After(deadline) { t.Fatal("never ready") }; time.Sleep(10 * time.Millisecond) }`, false},
		{"a polling loop on a channel", `start := time.Now(); tick := time.NewTicker(time.Millisecond); for !ready() { if time.Since(start) > time.Minute { t.Fatal("never ready") }; <-tick.C }`, false},
		{"sizes compared", `n := len(work()); if n > 10 { t.Error(n) }`, false},
		{"a fake clock's ticks", `start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); later := start.Add(time.Second); if later.Sub(start) != time.Second { t.Error() }`, false},
	}
	for _, c := range goCases {
		got, err := timedGo("x_test.go", []byte(goFile(c.body)))
		if err != nil {
			t.Fatalf("%s: %v", c.desc, err)
		}
		if (len(got) > 0) != c.flagged {
			t.Errorf("Go, %s: flagged %v, want %v: %v", c.desc, got, c.flagged, c.body)
		}
	}
	jsCases := []struct {
		desc, src string
		flagged   bool
	}{
		{"performance.now() compared", "const t0 = performance.now();\nawait run();\nassert.ok(performance.now() - t0 < 5000);", true},
		{"a duration in a variable asserted", "const t0 = performance.now();\nawait run();\nconst ms = performance.now() - t0;\nassert.ok(ms < 5000, `took ${ms}`);", true},
		{"Date.now() in an if", "const start = Date.now();\nawait run();\nif (Date.now() - start > 3000) throw new Error(\"slow\");", true},
		{"a property of a measured object", "const r = await page.evaluate(() => {\n  const t0 = performance.now();\n  work();\n  return { took: performance.now() - t0 };\n});\nassert.ok(r.took <= 100);", true},
		{"a loop bounded by time", "const t0 = performance.now();\nconst tick = () => { if (performance.now() - t0 < 3000) requestAnimationFrame(tick); };", true},
		{"a fixed sleep", "await page.click(\"#go\");\nawait page.waitForTimeout(300);\nassert.equal(await count(page), 3);", true},
		{"time printed, not compared", "const t0 = performance.now();\nawait run();\nconsole.log(`took ${(performance.now() - t0).toFixed(0)} ms`);", false},
		{"a timeout for a wait", "await page.waitForFunction(() => window.ready, null, { timeout: 60000 });", false},
		{"a wait with no bound", "await page.waitForFunction(() => window.ready, null, { timeout: 0 });", true},
		{"a click with no bound", "await page.click(\"#go\", { timeout:0 });", true},
		{"a test's timeout option", "test(\"x\", { timeout: 120000 }, async () => {\n  assert.equal(1, 1);\n});", false},
		{"counts compared near a clock", "const t0 = performance.now();\nassert.ok(res.turns >= 3, \"turns\");\nconsole.log(performance.now() - t0);", false},
		{"a clock word in a string or comment", "assert.ok(n < 3, \"under 3 s by performance.now()\"); // Date.now() is not read", false},
		{"arrow functions are not comparisons", "const t0 = performance.now();\nawait page.waitForFunction((n) => n, 1);\nconsole.log(t0);", false},
	}
	for _, c := range jsCases {
		if got := timedJS("x.test.mjs", c.src); (len(got) > 0) != c.flagged {
			t.Errorf("JS, %s: flagged %v, want %v:\n%s", c.desc, got, c.flagged, c.src)
		}
	}
}
