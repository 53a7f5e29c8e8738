// Command testall is `make test`: it runs each Makefile target it is given,
// one after the other, to the end even when one fails, and then says what
// passed and what failed, with the slowest Go tests (from `go test -json`)
// and the slowest browser tests (from node's JUnit report). It exits 1 when
// a target failed. Each target's whole output is kept in a log file.
//
//	go build -o out/test/testall ./internal/testall
//	out/test/testall [-logs DIR] fmt vet unit race ...
//
// The Go targets get GOTESTFLAGS=-json: the JSON is read here, which prints
// a line per package as `go test` does and the output of the tests that
// fail; the browser target gets NODETESTFLAGS with a second reporter that
// writes JUnit XML. Run alone (`make unit`), a target prints as usual.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// goTargets are the targets whose `go test` runs take GOTESTFLAGS.
var goTargets = map[string]bool{"check-timing": true, "unit": true, "race": true, "test-wasm": true}

// browserTarget is the target whose node --test run takes NODETESTFLAGS.
const browserTarget = "test-browser"

func main() {
	logs := flag.String("logs", "out/test", "directory for each target's log and the browser tests' JUnit report")
	makeCmd := flag.String("make", "make", "the make to run the targets with")
	alongside := flag.String("alongside", "", "comma-separated targets to run from the start beside the others (their output goes to their logs only)")
	flag.Parse()
	targets := flag.Args()
	if len(targets) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testall [-logs DIR] [-make MAKE] [-alongside T,...] TARGET...")
		os.Exit(2)
	}
	dir, err := filepath.Abs(*logs)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testall:", err)
		os.Exit(2)
	}
	// Ctrl-C reaches the running target (same process group) and ends it;
	// the targets after it are not started, and the summary says so.
	var interrupted atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		for range sig {
			interrupted.Store(true)
		}
	}()

	start := time.Now()
	fmt.Printf("make test: %s on %d CPUs (load average %s); logs in %s\n", strings.Join(targets, " "), runtime.NumCPU(), loadAverage(), rel(dir))
	results := runAll(*makeCmd, targets, splitList(*alongside), dir, os.Stdout, &interrupted)
	ok := summary(os.Stdout, results, time.Since(start), dir)
	if !ok {
		os.Exit(1)
	}
}

// splitList is a comma-separated list's non-empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// runAll runs targets one after the other, and those of them named in
// beside from the start, each on its own, beside the others: the browser
// tests spend most of their time waiting on pages (819 s of wall clock for
// 300 s of CPU on 2 cores), the Go targets keep both cores busy, so side by
// side the suite takes about as long as the longer of the two. A target
// beside the others writes to its log only (its lines would interleave),
// with a line when it starts and one when it ends. The results keep the
// order of targets.
func runAll(makeCmd string, targets, beside []string, dir string, out io.Writer, interrupted *atomic.Bool) []result {
	isBeside := map[string]bool{}
	for _, b := range beside {
		isBeside[b] = true
	}
	var mu sync.Mutex // out, between the targets beside and the others
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format, args...)
	}
	results := make([]result, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		if !isBeside[t] {
			continue
		}
		say("\n==> [%d/%d] %s (beside the others; its output in %s)\n", i+1, len(targets), t, rel(filepath.Join(dir, t+".log")))
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runTarget(makeCmd, t, dir, io.Discard)
			results[i] = r
			say("<== %s: %s in %s (%s of CPU)\n", t, okOrFail(r.ok), seconds(r.took), seconds(r.cpu))
		}()
	}
	w := lockedWriter{mu: &mu, w: out}
	for i, t := range targets {
		if isBeside[t] {
			continue
		}
		if interrupted.Load() {
			results[i] = result{target: t, skipped: true}
			continue
		}
		say("\n==> [%d/%d] %s\n", i+1, len(targets), t)
		r := runTarget(makeCmd, t, dir, w)
		say("<== %s: %s in %s (%s of CPU)\n", t, okOrFail(r.ok), seconds(r.took), seconds(r.cpu))
		results[i] = r
	}
	wg.Wait()
	return results
}

func okOrFail(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAIL"
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// result is what one target did.
type result struct {
	target  string
	ok      bool
	skipped bool // not run (interrupted)
	took    time.Duration
	cpu     time.Duration // user + system time of the target and what it ran
	log     string
	failed  []string   // the Go tests or browser tests that failed, or packages that did not build
	tests   []testTime // Go tests (top level) or browser tests, with their durations
	why     []string   // a failed browser test's name and message, one line each
}

type testTime struct {
	where, name string
	secs        float64
}

// runTarget runs `make TARGET` with its output going to out (through the
// go test JSON reader for the Go targets) and to the target's log.
func runTarget(makeCmd, target, dir string, out io.Writer) result {
	r := result{target: target, log: filepath.Join(dir, target+".log")}
	logf, err := os.Create(r.log)
	if err != nil {
		fmt.Fprintln(out, "testall:", err)
		return r
	}
	defer logf.Close()
	args := []string{"--no-print-directory", target}
	junit := filepath.Join(dir, "browser-junit.xml")
	if goTargets[target] {
		args = append(args, "GOTESTFLAGS=-json")
	}
	if target == browserTarget {
		os.Remove(junit)
		args = append(args, "NODETESTFLAGS=--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination="+shellQuote(junit))
	}
	cmd := exec.Command(makeCmd, args...)
	pr, pw, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(out, "testall:", err)
		return r
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	begin := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		fmt.Fprintf(out, "testall: %s %s: %v\n", makeCmd, strings.Join(args, " "), err)
		return r
	}
	g := newGoJSON(out)
	var plainFailed []string // what the plain output says failed
	rd := bufio.NewReader(pr)
	for {
		line, err := rd.ReadString('\n')
		if line != "" {
			logf.WriteString(line)
			if !goTargets[target] || !g.line(line) {
				io.WriteString(out, line)
				if m := plainFailure.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
					for _, what := range m[1:] {
						if what != "" {
							plainFailed = append(plainFailed, what)
						}
					}
				}
			}
		}
		if err != nil {
			break
		}
	}
	pr.Close()
	err = cmd.Wait()
	r.took = time.Since(begin)
	r.ok = err == nil
	if ps := cmd.ProcessState; ps != nil {
		// wait4's usage counts the descendants make waited for: the
		// compilers, the test binaries, node, Chromium.
		r.cpu = ps.UserTime() + ps.SystemTime()
	}
	g.flush()
	r.failed, r.tests = g.failed, g.tests
	if target == browserTarget {
		if f, tests, why, err := readJUnit(junit); err == nil {
			r.failed, r.tests, r.why = f, tests, why
		}
	}
	if !r.ok && len(r.failed) == 0 {
		r.failed = plainFailed
	}
	if !r.ok && len(r.failed) == 0 {
		if ee, isExit := err.(*exec.ExitError); !isExit {
			r.failed = []string{err.Error()}
		} else {
			r.failed = []string{"exit status " + strconv.Itoa(ee.ExitCode())}
		}
	}
	return r
}

// plainFailure matches what a target's plain output says failed: a Go test
// (`--- FAIL: TestX`, printed without -json), a package (`FAIL\tpkg`), the
// fuzz target's closing line.
var plainFailure = regexp.MustCompile(`^(?:--- FAIL: (\S+)|FAIL\t(\S+)|fuzz: (failed:.*))`)

// goEvent is a line of `go test -json` (cmd/test2json).
type goEvent struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Elapsed    float64
	Output     string
}

// goJSON turns `go test -json` lines into what `go test` prints without -v:
// a line per package, and the output of each test that fails (with its
// subtests' output); it keeps the top-level tests' durations.
type goJSON struct {
	out    io.Writer
	buf    map[string]*strings.Builder // package + "\x00" + test -> output not yet printed
	failed []string
	tests  []testTime
}

func newGoJSON(out io.Writer) *goJSON {
	return &goJSON{out: out, buf: map[string]*strings.Builder{}}
}

// line handles one line; false means it is not test2json (make's echo of a
// command, a build error) and is to be printed as it is.
func (g *goJSON) line(s string) bool {
	if !strings.HasPrefix(s, "{") {
		return false
	}
	var e goEvent
	if json.Unmarshal([]byte(s), &e) != nil || e.Action == "" {
		return false
	}
	pkg := e.Package
	if pkg == "" {
		pkg = e.ImportPath
	}
	key := pkg + "\x00" + e.Test
	switch e.Action {
	case "output", "build-output":
		b := g.buf[key]
		if b == nil {
			b = &strings.Builder{}
			g.buf[key] = b
		}
		b.WriteString(e.Output)
	case "pass", "skip":
		delete(g.buf, key)
		if e.Test == "" {
			if e.Action == "pass" {
				fmt.Fprintf(g.out, "ok  \t%s\t%.3fs\n", pkg, e.Elapsed)
			}
			g.dropPackage(pkg)
		} else if e.Action == "pass" && !strings.Contains(e.Test, "/") {
			g.tests = append(g.tests, testTime{pkg, e.Test, e.Elapsed})
		}
	case "fail", "build-fail":
		if e.Test != "" {
			if !strings.Contains(e.Test, "/") {
				g.failed = append(g.failed, pkg+" "+e.Test)
				g.tests = append(g.tests, testTime{pkg, e.Test, e.Elapsed})
			}
			g.print(key)
			return true
		}
		// The package failed: what its tests left unprinted (a panic, a
		// timeout in a test that never ended), then its own output.
		if e.Action == "build-fail" {
			g.failed = append(g.failed, pkg+" (build failed)")
		} else if !g.anyFailed(pkg) {
			g.failed = append(g.failed, pkg)
		}
		for _, k := range g.keys(pkg) {
			if k != key {
				g.print(k)
			}
		}
		said := g.buf[key] != nil && strings.Contains(g.buf[key].String(), "FAIL\t"+pkg)
		g.print(key)
		if e.Action == "fail" && !said {
			fmt.Fprintf(g.out, "FAIL\t%s\t%.3fs\n", pkg, e.Elapsed)
		}
	}
	return true
}

func (g *goJSON) print(key string) {
	if b := g.buf[key]; b != nil {
		io.WriteString(g.out, b.String())
		delete(g.buf, key)
	}
}

func (g *goJSON) keys(pkg string) []string {
	var ks []string
	for k := range g.buf {
		if strings.HasPrefix(k, pkg+"\x00") {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return ks
}

func (g *goJSON) dropPackage(pkg string) {
	for _, k := range g.keys(pkg) {
		delete(g.buf, k)
	}
}

func (g *goJSON) anyFailed(pkg string) bool {
	for _, f := range g.failed {
		if strings.HasPrefix(f, pkg+" ") {
			return true
		}
	}
	return false
}

// flush prints what is left (a run cut short).
func (g *goJSON) flush() {
	ks := make([]string, 0, len(g.buf))
	for k := range g.buf {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		g.print(k)
	}
}

// junitCase is the part of node's JUnit report read here: every
// testcase, at any depth (describe blocks nest them in testsuites).
type junitCase struct {
	Name    string `xml:"name,attr"`
	Time    string `xml:"time,attr"`
	Failure *struct {
		Message string `xml:"message,attr"`
		Body    string `xml:",chardata"`
	} `xml:"failure"`
	Cases  []junitCase `xml:"testcase"`
	Suites []junitCase `xml:"testsuite"`
}

func readJUnit(path string) (failed []string, tests []testTime, why []string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	// node writes a failure's message as it is, ANSI colour codes (ESC)
	// included, which XML 1.0 does not allow: drop such characters.
	b = bytes.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return -1
		}
		return r
	}, b)
	var root junitCase
	if err := xml.Unmarshal(b, &root); err != nil {
		return nil, nil, nil, err
	}
	var walk func(c junitCase, top bool)
	walk = func(c junitCase, top bool) {
		if !top && len(c.Cases) == 0 && len(c.Suites) == 0 {
			secs, _ := strconv.ParseFloat(c.Time, 64)
			tests = append(tests, testTime{"browser", c.Name, secs})
			if c.Failure != nil {
				failed = append(failed, c.Name)
				msg := c.Failure.Message
				if strings.TrimSpace(msg) == "" {
					msg = c.Failure.Body
				}
				why = append(why, c.Name+": "+oneLine(msg, 400))
			}
		}
		for _, s := range c.Cases {
			walk(s, false)
		}
		for _, s := range c.Suites {
			walk(s, false)
		}
	}
	walk(root, true)
	return failed, tests, why, nil
}

// oneLine is s with its runs of white space made one space, cut to n bytes
// (at a rune's start).
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + " ..."
}

// summary prints what passed and failed and the slowest tests; it reports
// whether every target passed.
func summary(w io.Writer, results []result, took time.Duration, dir string) bool {
	var cpu time.Duration
	for _, r := range results {
		cpu += r.cpu
	}
	fmt.Fprintf(w, "\nmake test: summary (%s in all, %s of CPU; load average now %s)\n", minutes(took), minutes(cpu), loadAverage())
	ok := true
	var goTests, browserTests []testTime
	var failedNames []string
	for _, r := range results {
		status := "ok  "
		switch {
		case r.skipped:
			status = "--  "
			ok = false
		case !r.ok:
			status = "FAIL"
			ok = false
			failedNames = append(failedNames, r.target)
		}
		line := fmt.Sprintf("  %s  %-13s %8s  %8s of CPU", status, r.target, seconds(r.took), seconds(r.cpu))
		if r.skipped {
			line = fmt.Sprintf("  %s  %-13s %8s", status, r.target, "not run")
		}
		fmt.Fprintln(w, line)
		if !r.ok && !r.skipped {
			for i, f := range r.failed {
				if i == 20 {
					fmt.Fprintf(w, "          ... and %d more\n", len(r.failed)-i)
					break
				}
				fmt.Fprintf(w, "          %s\n", f)
			}
			fmt.Fprintf(w, "          log: %s\n", rel(r.log))
		}
		for _, t := range r.tests {
			if r.target == browserTarget {
				browserTests = append(browserTests, t)
			} else {
				t.where = r.target + " " + t.where
				goTests = append(goTests, t)
			}
		}
	}
	slowest(w, "slowest Go tests", goTests)
	slowest(w, "slowest browser tests", browserTests)
	// Last, where a reader of the log's tail (CI keeps only its end) sees
	// them: why the browser tests failed.
	for _, r := range results {
		for i, y := range r.why {
			if i == 5 {
				fmt.Fprintf(w, "  ... and %d more failures in %s\n", len(r.why)-i, rel(r.log))
				break
			}
			fmt.Fprintf(w, "failed: %s\n", y)
		}
	}
	if ok {
		fmt.Fprintf(w, "PASS: every target passed (%s)\n", minutes(took))
	} else if len(failedNames) > 0 {
		fmt.Fprintf(w, "FAIL: %s (logs in %s)\n", strings.Join(failedNames, ", "), rel(dir))
	} else {
		fmt.Fprintln(w, "INTERRUPTED: not every target ran")
	}
	return ok
}

func slowest(w io.Writer, title string, tests []testTime) {
	if len(tests) == 0 {
		return
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].secs > tests[j].secs })
	fmt.Fprintf(w, "%s:\n", title)
	for i, t := range tests {
		if i == 10 {
			break
		}
		fmt.Fprintf(w, "  %7.1f s  %s  %s\n", t.secs, t.where, t.name)
	}
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

func minutes(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// loadAverage is the first three fields of /proc/loadavg, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// rel is p relative to the working directory when it is inside it.
func rel(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// shellQuote quotes s for the shell make runs the recipe with.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
