//go:build !js

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/inspect"
	"d3dsim/core/trace"
)

// web/model.js copies the trace's kinds and layers (core/trace) and the
// column layout (columns.go) by hand: this test reads the JavaScript and
// fails when one side changes without the other.

// modelJS is web/model.js's text.
func modelJS(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "web", "model.js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// jsConst is the text of `export const NAME = ...;` in src (up to the
// first semicolon).
func jsConst(t *testing.T, src, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^export const ` + name + `\s*=\s*([^;]*);`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("web/model.js: no `export const %s = ...;`", name)
	}
	return strings.TrimSpace(m[1])
}

// jsObject parses an object literal of integers ({ a: 0, b: 1 }).
func jsObject(t *testing.T, name, text string) map[string]int {
	t.Helper()
	if !strings.HasPrefix(text, "{") || !strings.HasSuffix(text, "}") {
		t.Fatalf("web/model.js %s: not an object literal: %s", name, text)
	}
	out := map[string]int{}
	for _, kv := range strings.Split(strings.Trim(text, "{}"), ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, ":")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil {
			t.Fatalf("web/model.js %s: cannot read %q", name, kv)
		}
		out[strings.TrimSpace(k)] = n
	}
	return out
}

// jsStrings parses an array literal of double-quoted strings.
func jsStrings(t *testing.T, name, text string) []string {
	t.Helper()
	if !strings.HasPrefix(text, "[") || !strings.HasSuffix(text, "]") {
		t.Fatalf("web/model.js %s: not an array literal: %s", name, text)
	}
	var out []string
	for _, s := range strings.Split(strings.Trim(text, "[]"), ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("web/model.js %s: cannot read %s", name, s)
		}
		out = append(out, u)
	}
	return out
}

// goNames lists String() of 0, 1, ... up to the first "?" (past the end).
func goNames(str func(int) string) []string {
	var out []string
	for i := 0; i < 256 && str(i) != "?"; i++ {
		out = append(out, str(i))
	}
	return out
}

// checkEnum compares a JS enum object and its names array with Go's values
// and names.
func checkEnum(t *testing.T, src, obj, names string, want map[string]int, goN []string) {
	t.Helper()
	got := jsObject(t, obj, jsConst(t, src, obj))
	if len(got) != len(want) {
		t.Errorf("web/model.js %s has %d entries, core/trace %d", obj, len(got), len(want))
	}
	for k, v := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("web/model.js %s lacks %s (%d)", obj, k, v)
		} else if g != v {
			t.Errorf("web/model.js %s.%s = %d, core/trace has %d", obj, k, g, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("web/model.js %s.%s is not in core/trace", obj, k)
		}
	}
	jsN := jsStrings(t, names, jsConst(t, src, names))
	if strings.Join(jsN, ",") != strings.Join(goN, ",") {
		t.Errorf("web/model.js %s = %q, core/trace's String() gives %q", names, jsN, goN)
	}
}

func TestModelJSKindsAndLayers(t *testing.T) {
	src := modelJS(t)
	checkEnum(t, src, "KIND", "KIND_NAMES", map[string]int{
		"none": int(trace.KindNone), "call": int(trace.Call), "ret": int(trace.Return), "submit": int(trace.Submit),
		"exec": int(trace.Exec), "fence": int(trace.Fence), "interrupt": int(trace.Interrupt), "dpc": int(trace.DPC),
		"wait": int(trace.Wait), "violation": int(trace.Violation), "message": int(trace.Message), "dep": int(trace.Dep),
	}, goNames(func(i int) string { return trace.Kind(i).String() }))
	checkEnum(t, src, "LAYER", "LAYER_NAMES", map[string]int{
		"none": int(trace.LayerNone), "app": int(trace.App), "runtime": int(trace.Runtime), "umd": int(trace.UMD),
		"dxgkrnl": int(trace.Dxgkrnl), "kmd": int(trace.KMD), "gpu": int(trace.GPU),
	}, goNames(func(i int) string { return trace.Layer(i).String() }))
}

func TestModelJSColumns(t *testing.T) {
	src := modelJS(t)
	stride := jsConst(t, src, "STRIDE")
	if stride != strconv.Itoa(colStride) {
		t.Errorf("web/model.js STRIDE = %s, columns.go colStride = %d", stride, colStride)
	}
	want := map[string]int{
		"seq": colSeq, "kind": colKind, "thread": colThread, "name": colName, "ctx": colCtx, "obj": colObj,
		"handle": colHandle, "hr": colHR, "fence": colFence, "dma": colDMA, "rule": colRule, "msg": colMsg,
		"args": colArgs, "line": colLine, "parent": colParent,
	}
	if len(want) != colStride {
		t.Fatalf("columns.go has %d columns, this test knows %d: add the new ones here and to web/model.js C", colStride, len(want))
	}
	got := jsObject(t, "C", jsConst(t, src, "C"))
	for k, v := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("web/model.js C lacks %s (columns.go: %d)", k, v)
		} else if g != v {
			t.Errorf("web/model.js C.%s = %d, columns.go has %d", k, g, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("web/model.js C.%s is not a column of columns.go", k)
		}
	}
	// The kind word packs kind | layer<<8 | from<<16 (columns.go encode);
	// model.js unpacks it from column C.kind.
	for _, acc := range []string{
		`kind(i) { return this.ints[i * STRIDE + C.kind] & 0xff; }`,
		`layer(i) { return (this.ints[i * STRIDE + C.kind] >> 8) & 0xff; }`,
		`from(i) { return (this.ints[i * STRIDE + C.kind] >> 16) & 0xff; }`,
	} {
		if !strings.Contains(src, acc) {
			t.Errorf("web/model.js lacks %q", acc)
		}
	}
}

// TestModelJSKeys: web/model.js KEY names every payload key of core/trace
// by its printed name, with its id; ARG the kinds of the values
// (trace.ArgKind); ARG_STRIDE the words of one entry (columns.go).
func TestModelJSKeys(t *testing.T) {
	src := modelJS(t)
	want := map[string]int{}
	for i := 1; i < 256 && trace.Key(i).String() != "?"; i++ {
		want[trace.Key(i).String()] = i
	}
	checkObject(t, "KEY", jsObject(t, "KEY", jsConst(t, src, "KEY")), want)
	checkObject(t, "ARG", jsObject(t, "ARG", jsConst(t, src, "ARG")), map[string]int{
		"int": int(trace.ArgInt), "uint": int(trace.ArgUint), "str": int(trace.ArgStr), "flag": int(trace.ArgFlag),
		"bool": int(trace.ArgBool), "allocs": int(trace.ArgAllocs), "pairs": int(trace.ArgPairs),
	})
	if s := jsConst(t, src, "ARG_STRIDE"); s != strconv.Itoa(argStride) {
		t.Errorf("web/model.js ARG_STRIDE = %s, columns.go argStride = %d", s, argStride)
	}
}

// checkObject compares a JS object of integers with Go's names and values.
func checkObject(t *testing.T, obj string, got, want map[string]int) {
	t.Helper()
	for k, v := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("web/model.js %s lacks %s (%d)", obj, k, v)
		} else if g != v {
			t.Errorf("web/model.js %s.%s = %d, Go has %d", obj, k, g, v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("web/model.js %s.%s (%d) is not in Go", obj, k, v)
		}
	}
}

// TestWebReadsArgsTyped: no script parses a payload back from its text;
// they read it by key (Store.argInt and the like). The text is for people
// (the trace view shows it).
func TestWebReadsArgsTyped(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "web", "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("web/*.js: %v", err)
	}
	parse := regexp.MustCompile(`argValue|\.(test|match|exec|split|search|replace|startsWith|includes|indexOf)\(`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "argValue") || (strings.Contains(line, "C.args") && parse.MatchString(line)) {
				t.Errorf("%s:%d reads the args text: %s", filepath.Base(f), n+1, strings.TrimSpace(line))
			}
		}
	}
}

// The timeline asks for its memory lanes only after one of the calls
// core/inspect's tracker reads (web/timeline-model.js MEMORY_CALLS): a call
// missing there would leave its records out until another came.
func TestMemoryCallsInJS(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "web", "timeline-model.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^export const MEMORY_CALLS = new Set\(\[([^\]]*)\]\);`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("web/timeline-model.js: no `export const MEMORY_CALLS = new Set([...]);`")
	}
	var js []string
	for _, q := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(m[1], -1) {
		js = append(js, q[1])
	}
	if strings.Join(js, ",") != strings.Join(inspect.MemoryCalls, ",") {
		t.Errorf("web/timeline-model.js MEMORY_CALLS %q, core/inspect MemoryCalls %q", js, inspect.MemoryCalls)
	}
}
