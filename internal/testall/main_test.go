package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// goLines is what `go test -json` prints for a package that passes, one
// whose test fails in a subtest, one that panics in a test, one that does
// not build, and a package without tests.
const goLines = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestQuick"}
{"Action":"output","Package":"m/a","Test":"TestQuick","Output":"=== RUN   TestQuick\n"}
{"Action":"output","Package":"m/a","Test":"TestQuick","Output":"    a_test.go:9: a log line of a passing test\n"}
{"Action":"pass","Package":"m/a","Test":"TestQuick","Elapsed":0.5}
{"Action":"pass","Package":"m/a","Test":"TestSlow","Elapsed":42.25}
{"Action":"pass","Package":"m/a","Elapsed":43.1}
{"Action":"output","Package":"m/b","Test":"TestTable","Output":"=== RUN   TestTable\n"}
{"Action":"output","Package":"m/b","Test":"TestTable/bad_case","Output":"    b_test.go:20: got 1, want 2\n"}
{"Action":"output","Package":"m/b","Test":"TestTable/bad_case","Output":"    --- FAIL: TestTable/bad_case (0.00s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestTable/bad_case","Elapsed":0}
{"Action":"output","Package":"m/b","Test":"TestTable/good_case","Output":"    --- PASS: TestTable/good_case (0.00s)\n"}
{"Action":"pass","Package":"m/b","Test":"TestTable/good_case","Elapsed":0}
{"Action":"output","Package":"m/b","Test":"TestTable","Output":"--- FAIL: TestTable (1.50s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestTable","Elapsed":1.5}
{"Action":"output","Package":"m/b","Output":"FAIL\n"}
{"Action":"fail","Package":"m/b","Elapsed":1.6}
{"Action":"output","Package":"m/c","Test":"TestPanics","Output":"=== RUN   TestPanics\n"}
{"Action":"output","Package":"m/c","Test":"TestPanics","Output":"panic: runtime error: index out of range [3] with length 3\n"}
{"Action":"output","Package":"m/c","Output":"FAIL\tm/c\t0.2s\n"}
{"Action":"fail","Package":"m/c","Elapsed":0.2}
{"ImportPath":"m/d","Action":"build-output","Output":"d/d.go:3:1: syntax error: non-declaration statement outside function body\n"}
{"ImportPath":"m/d","Action":"build-fail"}
{"Action":"skip","Package":"m/e","Elapsed":0}
`

func TestGoJSON(t *testing.T) {
	var out strings.Builder
	g := newGoJSON(&out)
	for _, l := range strings.SplitAfter(goLines, "\n") {
		if l != "" && !g.line(l) {
			t.Fatalf("a test2json line not taken: %s", l)
		}
	}
	if g.line("go test -json ./...\n") || g.line("{not json\n") {
		t.Error("a line that is not test2json was taken")
	}
	g.flush()
	got := out.String()
	for _, want := range []string{
		"ok  \tm/a\t43.100s\n",
		"b_test.go:20: got 1, want 2\n    --- FAIL: TestTable/bad_case",
		"--- FAIL: TestTable (1.50s)\n",
		"FAIL\tm/b\t1.600s\n",
		"panic: runtime error: index out of range",
		"FAIL\tm/c\t",
		"d/d.go:3:1: syntax error",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "FAIL\tm/c"); n != 1 {
		t.Errorf("m/c's FAIL line printed %d times:\n%s", n, got)
	}
	for _, not := range []string{"a log line of a passing test", "good_case", "m/e"} {
		if strings.Contains(got, not) {
			t.Errorf("output has %q, which only -v shows:\n%s", not, got)
		}
	}
	if f := strings.Join(g.failed, "|"); f != "m/b TestTable|m/c|m/d (build failed)" {
		t.Errorf("failed = %q", f)
	}
	var names []string
	for _, tt := range g.tests {
		names = append(names, tt.name)
	}
	if n := strings.Join(names, " "); n != "TestQuick TestSlow TestTable" {
		t.Errorf("top-level tests timed: %s", n)
	}
}

func TestReadJUnit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.xml")
	// What node 20's junit reporter writes: test() at the top level, and
	// a describe() block nesting its tests; a failure's message with the
	// ANSI codes of Playwright's call log.
	x := `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="the default scenario runs" time="12.500000" classname="test"/>
	<testcase name="a link &lt;replays&gt;" time="3.250000" classname="test" failure="page.click: Timeout.Call log:ESC[2m  - waitingESC[22m">
		<failure type="testCodeFailure" message="page.click: Timeout.Call log:ESC[2m  - waitingESC[22m">boom</failure>
	</testcase>
	<testsuite name="a group" time="1.0" tests="1">
		<testcase name="inside the group" time="1.000000" classname="test"/>
	</testsuite>
</testsuites>
`
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(x, "ESC", "\x1b")), 0o644); err != nil {
		t.Fatal(err)
	}
	failed, tests, why, err := readJUnit(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a link <replays>: page.click: Timeout.Call log:[2m - waiting[22m"; strings.Join(why, "|") != want {
		t.Errorf("why = %q, want %q", why, want)
	}
	if strings.Join(failed, "|") != "a link <replays>" {
		t.Errorf("failed = %q", failed)
	}
	if len(tests) != 3 || tests[0].secs != 12.5 || tests[2].name != "inside the group" {
		t.Errorf("tests = %+v", tests)
	}
}

// TestRunTargets runs a fake make that passes one target and fails two:
// every target runs, the summary names the failures, their tests and the
// slowest tests, and says FAIL.
func TestRunTargets(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "make")
	script := `#!/bin/sh
# $1 is --no-print-directory, $2 the target, then VAR=value arguments.
case "$2" in
fmt) echo "gofmt: fine" ;;
unit)
	case "$3" in GOTESTFLAGS=-json) ;; *) echo "no GOTESTFLAGS=-json: $3"; exit 3 ;; esac
	echo '{"Action":"pass","Package":"m/a","Test":"TestSlow","Elapsed":42.25}'
	echo '{"Action":"pass","Package":"m/a","Elapsed":43}'
	echo '{"Action":"output","Package":"m/b","Test":"TestBroken","Output":"    b_test.go:3: broken\n"}'
	echo '{"Action":"fail","Package":"m/b","Test":"TestBroken","Elapsed":2}'
	echo '{"Action":"fail","Package":"m/b","Elapsed":2.1}'
	exit 2 ;;
vet) echo "vet: something is wrong" >&2; exit 1 ;;
fuzz) echo "fuzz: FuzzX in ./a for 10x"; echo "fuzz: failed: FuzzX (./a)"; exit 2 ;;
esac
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	var results []result
	for _, target := range []string{"fmt", "unit", "vet", "fuzz"} {
		results = append(results, runTarget(fake, target, dir, &out))
	}
	if !results[0].ok || results[1].ok || results[2].ok || results[3].ok {
		t.Fatalf("ok: %v %v %v %v\n%s", results[0].ok, results[1].ok, results[2].ok, results[3].ok, out.String())
	}
	results = append(results, result{target: browserTarget, log: filepath.Join(dir, "test-browser.log"),
		failed: []string{"a link replays"}, why: []string{"a link replays: Timeout 30000ms exceeded"}})
	if ok := summary(&out, results, 90*time.Second, dir); ok {
		t.Error("summary says every target passed")
	}
	got := out.String()
	for _, want := range []string{
		"gofmt: fine",
		"ok  \tm/a\t43.000s",
		"b_test.go:3: broken",
		"vet: something is wrong",
		"  ok    fmt ",
		"  FAIL  unit ",
		"          m/b TestBroken\n",
		"  FAIL  vet ",
		"          exit status 1\n",
		"  FAIL  fuzz ",
		"          failed: FuzzX (./a)\n",
		"slowest Go tests:\n     42.2 s  unit m/a  TestSlow\n",
		"failed: a link replays: Timeout 30000ms exceeded\nFAIL: unit, vet, fuzz, test-browser",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "vet.log")); err != nil || !strings.Contains(string(b), "something is wrong") {
		t.Errorf("vet.log: %q, %v", b, err)
	}
}

// TestRunAllBeside runs a target beside the others: its output goes to its
// log only, the others print as before, and the results keep the order the
// targets were given in.
func TestRunAllBeside(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "make")
	script := `#!/bin/sh
case "$2" in
fmt) echo "gofmt: fine" ;;
vet) echo "vet: fine" ;;
slow) echo "a page opened"; exit 1 ;;
esac
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	var interrupted atomic.Bool
	results := runAll(fake, []string{"fmt", "slow", "vet"}, []string{"slow"}, dir, &out, &interrupted)
	var names []string
	for _, r := range results {
		names = append(names, fmt.Sprintf("%s:%v", r.target, r.ok))
	}
	if got := strings.Join(names, " "); got != "fmt:true slow:false vet:true" {
		t.Errorf("results = %s", got)
	}
	got := out.String()
	for _, want := range []string{"gofmt: fine", "vet: fine", "==> [2/3] slow (beside the others", "<== slow: FAIL"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "a page opened") {
		t.Errorf("the target beside the others printed into the output:\n%s", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "slow.log")); err != nil || !strings.Contains(string(b), "a page opened") {
		t.Errorf("slow.log: %q, %v", b, err)
	}
}
