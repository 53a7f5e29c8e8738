//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeFile creates root/name with the given modification time.
func writeFile(t *testing.T, root, name, body string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func TestStaleness(t *testing.T) {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		desc    string
		files   map[string]time.Duration // name -> mtime offset from base
		target  time.Duration            // <0: no main.wasm
		stale   bool
		newestN string
	}{
		{desc: "missing target", files: map[string]time.Duration{"core/a.go": 0}, target: -1, stale: true, newestN: "core/a.go"},
		{desc: "target newer than every source", files: map[string]time.Duration{"core/a.go": 0, "go.mod": time.Second}, target: time.Hour, stale: false, newestN: "go.mod"},
		{desc: "go file newer", files: map[string]time.Duration{"core/x/a.go": 2 * time.Hour, "go.mod": 0}, target: time.Hour, stale: true, newestN: "core/x/a.go"},
		{desc: "scenario newer", files: map[string]time.Duration{"assets/scenarios/s.d3ds": 2 * time.Hour}, target: time.Hour, stale: true, newestN: "assets/scenarios/s.d3ds"},
		{desc: "markdown newer", files: map[string]time.Duration{"assets/tutorials/t.md": 2 * time.Hour}, target: time.Hour, stale: true, newestN: "assets/tutorials/t.md"},
		{desc: "go.sum newer", files: map[string]time.Duration{"go.sum": 2 * time.Hour, "wasm/main_js.go": 0}, target: time.Hour, stale: true, newestN: "go.sum"},
		{desc: "other extensions and dirs ignored", files: map[string]time.Duration{"core/notes.txt": 2 * time.Hour, "web/app.js": 2 * time.Hour, "cmd/d3dsim/main.go": 2 * time.Hour, "gpu/g.go": 0}, target: time.Hour, stale: false, newestN: "gpu/g.go"},
		{desc: "same time is fresh", files: map[string]time.Duration{"wasm/main_js.go": time.Hour}, target: time.Hour, stale: false, newestN: "wasm/main_js.go"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			root := t.TempDir()
			for name, off := range tt.files {
				writeFile(t, root, name, "x", base.Add(off))
			}
			target := filepath.Join(root, wasmTarget)
			if tt.target >= 0 {
				writeFile(t, root, wasmTarget, "wasm", base.Add(tt.target))
			}
			newest, name, err := newestSource(root)
			if err != nil {
				t.Fatal(err)
			}
			if name != tt.newestN {
				t.Errorf("newest source = %q, want %q", name, tt.newestN)
			}
			if got := stale(target, newest); got != tt.stale {
				t.Errorf("stale = %v, want %v", got, tt.stale)
			}
		})
	}
}

func TestCopyIfDifferent(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src.js"), filepath.Join(dir, "dst.js")
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	writeFile(t, dir, "src.js", "new toolchain", old) // older mtime than dst: content decides
	writeFile(t, dir, "dst.js", "old toolchain", old.Add(time.Hour))
	if err := copyIfDifferent(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "new toolchain" {
		t.Fatalf("dst = %q", b)
	}
	fi1, _ := os.Stat(dst)
	os.Chtimes(dst, old, old)
	if err := copyIfDifferent(src, dst); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(dst); !fi2.ModTime().Equal(old) {
		t.Errorf("identical file rewritten (mtime %v, was %v)", fi2.ModTime(), fi1.ModTime())
	}
}

func TestContentType(t *testing.T) {
	tests := []struct{ name, want string }{
		{"main.wasm", "application/wasm"},
		{"app.js", "text/javascript; charset=utf-8"},
		{"panel.mjs", "text/javascript; charset=utf-8"},
		{"WASM_EXEC.JS", "text/javascript; charset=utf-8"},
		{"index.html", "text/html; charset=utf-8"},
		{"style.css", "text/css; charset=utf-8"},
		{"hello.d3ds", "text/plain; charset=utf-8"},
		{"shot.png", "image/png"},
		{"blob.unknownext", "application/octet-stream"},
	}
	for _, tt := range tests {
		if got := contentType(tt.name); got != tt.want {
			t.Errorf("contentType(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, GZIP;q=0.5", true},
		{"gzip;q=0", false},
		{"gzip; q=0.0, br", false},
		{"identity", false},
		{"*", true},
		{"deflate, *;q=0.1", true},
		{"x-gzip", false},
	}
	for _, tt := range tests {
		if got := acceptsGzip(tt.header); got != tt.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestCompressible(t *testing.T) {
	for ctype, want := range map[string]bool{
		"application/wasm":               true,
		"text/javascript; charset=utf-8": true,
		"text/html; charset=utf-8":       true,
		"image/png":                      false,
		"application/octet-stream":       false,
	} {
		if got := compressible(ctype); got != want {
			t.Errorf("compressible(%q) = %v, want %v", ctype, got, want)
		}
	}
}

// testSite is a web/ and a scenarios/ dir in a temp dir.
func testSite(t *testing.T) (web, scen string) {
	t.Helper()
	root := t.TempDir()
	now := time.Now()
	writeFile(t, root, "web/index.html", "<!doctype html><title>d3dsim</title>", now)
	writeFile(t, root, "web/app.js", "export const x = 1;\n"+strings.Repeat("// padding so gzip pays\n", 200), now)
	writeFile(t, root, "web/main.wasm", "\x00asm\x01\x00\x00\x00"+strings.Repeat("\x00", 4096), now)
	writeFile(t, root, "web/shot.png", "\x89PNG not really", now)
	writeFile(t, root, "secret.txt", "outside the roots", now)
	writeFile(t, root, "scenarios/hello-triangle.d3ds", "option seed=1\n", now)
	return filepath.Join(root, "web"), filepath.Join(root, "scenarios")
}

func get(t *testing.T, h http.Handler, target string, hdr map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServeFiles(t *testing.T) {
	web, scen := testSite(t)
	h := newHandler(web, scen, nil)
	tests := []struct {
		desc, path string
		gzip       bool
		status     int
		ctype      string
		encoding   string
		contains   string
	}{
		{desc: "index at /", path: "/", status: 200, ctype: "text/html; charset=utf-8", contains: "<title>d3dsim</title>"},
		{desc: "index by name", path: "/index.html", status: 200, ctype: "text/html; charset=utf-8"},
		{desc: "module script", path: "/app.js", status: 200, ctype: "text/javascript; charset=utf-8", contains: "export const x"},
		{desc: "module script gzipped", path: "/app.js", gzip: true, status: 200, ctype: "text/javascript; charset=utf-8", encoding: "gzip", contains: "export const x"},
		{desc: "wasm", path: "/main.wasm", status: 200, ctype: "application/wasm", contains: "\x00asm"},
		{desc: "wasm gzipped", path: "/main.wasm", gzip: true, status: 200, ctype: "application/wasm", encoding: "gzip", contains: "\x00asm"},
		{desc: "wasm's gzip file", path: "/main.wasm.gz", gzip: true, status: 200, ctype: "application/gzip", contains: "\x1f\x8b"},
		{desc: "png never gzipped", path: "/shot.png", gzip: true, status: 200, ctype: "image/png"},
		{desc: "scenario from disk", path: "/assets/scenarios/hello-triangle.d3ds", gzip: true, status: 200, ctype: "text/plain; charset=utf-8", encoding: "gzip", contains: "option seed=1"},
		{desc: "missing file", path: "/nope.js", status: 404},
		{desc: "no directory listing", path: "/assets/scenarios/", status: 404},
		{desc: "no escape from web/", path: "/../secret.txt", status: 404},
		{desc: "no escape from scenarios/", path: "/assets/scenarios/../../secret.txt", status: 404},
		{desc: "no encoded escape", path: "/assets/scenarios/..%2f..%2fsecret.txt", status: 404},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			hdr := map[string]string{}
			if tt.gzip {
				hdr["Accept-Encoding"] = "gzip, deflate, br"
			}
			resp := get(t, h, tt.path, hdr)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q", got)
			}
			if tt.status != 200 {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type = %q, want %q", got, tt.ctype)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.encoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.encoding)
			}
			if b := body(t, resp); !strings.Contains(b, tt.contains) {
				t.Errorf("body %q does not contain %q", b, tt.contains)
			}
		})
	}
}

func TestGzipCacheInvalidatedOnRebuild(t *testing.T) {
	web, scen := testSite(t)
	h := newHandler(web, scen, nil)
	gz := map[string]string{"Accept-Encoding": "gzip"}
	first := get(t, h, "/main.wasm", gz)
	if got := body(t, first); !strings.HasPrefix(got, "\x00asm") {
		t.Fatalf("first body %q", got[:8])
	}
	etag := first.Header.Get("ETag")

	// Revalidation: same file, same ETag -> 304.
	if resp := get(t, h, "/main.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation status %d, want 304", resp.StatusCode)
	}

	// A rebuild (new contents, new mtime) must not be served from the cache.
	p := filepath.Join(web, "main.wasm")
	if err := os.WriteFile(p, []byte("\x00asm rebuilt"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(p, later, later)
	second := get(t, h, "/main.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	if second.StatusCode != 200 {
		t.Fatalf("after rebuild: status %d, want 200", second.StatusCode)
	}
	if got := body(t, second); got != "\x00asm rebuilt" {
		t.Errorf("after rebuild: body %q", got)
	}
	if second.Header.Get("ETag") == etag {
		t.Error("ETag unchanged after rebuild")
	}
}

// TestWarm: the startup compression fills the cache the first request
// reads (same bytes as compressing on demand).
func TestWarm(t *testing.T) {
	web, scen := testSite(t)
	h := newHandler(web, scen, nil)
	if err := h.warm("main.wasm"); err != nil {
		t.Fatal(err)
	}
	if len(h.gz.m) != 1 {
		t.Fatalf("cache has %d entries after warm, want 1", len(h.gz.m))
	}
	resp := get(t, h, "/main.wasm", map[string]string{"Accept-Encoding": "gzip"})
	if resp.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(body(t, resp), "\x00asm") {
		t.Fatal("warm cache served the wrong thing")
	}
	if err := h.warm("missing.wasm"); err == nil {
		t.Error("warm of a missing file succeeded")
	}
}

func TestEnsureRunsBeforeWasm(t *testing.T) {
	web, scen := testSite(t)
	calls := 0
	fail := false
	h := newHandler(web, scen, func() error {
		calls++
		if fail {
			return errors.New("GOOS=js GOARCH=wasm go build: wasm/main_js.go:1:1: syntax error")
		}
		return nil
	})
	get(t, h, "/app.js", nil)
	if calls != 0 {
		t.Fatalf("ensure called for app.js")
	}
	if resp := get(t, h, "/main.wasm", nil); resp.StatusCode != 200 || calls != 1 {
		t.Fatalf("status %d, ensure calls %d", resp.StatusCode, calls)
	}
	fail = true
	resp := get(t, h, "/main.wasm", nil)
	if resp.StatusCode != 500 {
		t.Fatalf("failed build: status %d, want 500", resp.StatusCode)
	}
	if b := body(t, resp); !strings.Contains(b, "syntax error") {
		t.Errorf("failed build: body %q does not carry the compiler's message", b)
	}
}

func TestServeHTTP(t *testing.T) {
	// End to end over a real connection, as the browser sees it.
	web, scen := testSite(t)
	srv := httptest.NewServer(newHandler(web, scen, nil))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/main.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "application/wasm" || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("headers %v", resp.Header)
	}
	if resp.ContentLength <= 0 {
		t.Errorf("gzip response without Content-Length")
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	want, _ := os.ReadFile(filepath.Join(web, "main.wasm"))
	if !bytes.Equal(got, want) {
		t.Errorf("decompressed body differs from the file")
	}
	if resp, err := http.Post(srv.URL+"/", "text/plain", nil); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v", resp.StatusCode, err)
	}
}

func TestServeURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080/"},
		{"0.0.0.0:9000", "http://127.0.0.1:9000/"},
		{"[::]:9000", "http://127.0.0.1:9000/"},
		{"[::1]:9000", "http://[::1]:9000/"},
	}
	for _, tt := range tests {
		a, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := serveURL(a); got != tt.want {
			t.Errorf("serveURL(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestBuildProgress drives the build's progress lines with a fake ticker
// (its ticks carry the fake time): one "still building" line per tick with the elapsed time,
// none after the build is done.
func TestBuildProgress(t *testing.T) {
	ticks := make(chan time.Time)
	done := make(chan struct{})
	finished := make(chan struct{})
	var lines []string
	start := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	go func() {
		buildProgress(func(f string, a ...any) { lines = append(lines, fmt.Sprintf(f, a...)) }, ticks, start, done)
		close(finished)
	}()
	// An unbuffered send returns once buildProgress took the tick; the
	// next send, or the close below, waits until it printed its line.
	for _, d := range []time.Duration{10 * time.Second, 20*time.Second + 400*time.Millisecond, 30*time.Second + 600*time.Millisecond} {
		ticks <- start.Add(d)
	}
	close(done)
	<-finished
	want := []string{"still building web/main.wasm: 10 s", "still building web/main.wasm: 20 s", "still building web/main.wasm: 31 s"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestPortInUseBeforeBuild: a taken port fails at once, before the build
// (which takes minutes the first time), with a message that names -addr and
// a port to try; a free one is listened on, then the build runs.
func TestPortInUseBeforeBuild(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	built := 0
	build := func() error { built++; return nil }
	if ln, err := listenThenBuild(addr, build); err == nil {
		ln.Close()
		t.Fatalf("listening on the taken %s succeeded", addr)
	} else {
		_, port, _ := net.SplitHostPort(addr)
		n, _ := strconv.Atoi(port)
		for _, want := range []string{"cannot serve on " + addr, "the port is in use", "go run . -addr 127.0.0.1:" + strconv.Itoa(n+1), "-addr 127.0.0.1:0 for any free port"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("message %q lacks %q", err, want)
			}
		}
	}
	if built != 0 {
		t.Errorf("the build ran %d times before the taken port was reported", built)
	}

	// A free port: listened on, then built; a failed build still serves.
	ln, err := listenThenBuild("127.0.0.1:0", func() error { built++; return errors.New("syntax error") })
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if built != 1 {
		t.Errorf("the build ran %d times", built)
	}

	// Another failure (no such host) names the flag too.
	if _, err := listenThenBuild("256.0.0.1:80", build); err == nil || !strings.Contains(err.Error(), "-addr HOST:PORT") {
		t.Errorf("bad address: %v", err)
	}
}

func TestOtherPort(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"127.0.0.1:8080", "127.0.0.1:8081"},
		{":9000", ":9001"},
		{"[::1]:8080", "[::1]:8081"},
		{"localhost:http", "localhost:8081"},
		{"nonsense", "127.0.0.1:8081"},
	} {
		if got := otherPort(tt.addr); got != tt.want {
			t.Errorf("otherPort(%q) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestBuildAnnouncement: before it builds, the server says what, why, and
// on the first build what it downloads and how long it takes.
func TestBuildAnnouncement(t *testing.T) {
	first := strings.Join(buildAnnouncement("go.mod", true), "\n")
	for _, want := range []string{"building web/main.wasm", "WebAssembly", "it is missing", "Go module proxy", "Ebitengine", firstBuildTime} {
		if !strings.Contains(first, want) {
			t.Errorf("first build: %q lacks %q", first, want)
		}
	}
	again := strings.Join(buildAnnouncement("core/d3d11/draw.go", false), "\n")
	if !strings.Contains(again, "rebuilding web/main.wasm") || !strings.Contains(again, "core/d3d11/draw.go is newer") || strings.Contains(again, "proxy") {
		t.Errorf("rebuild: %q", again)
	}
}
