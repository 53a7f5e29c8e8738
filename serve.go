//go:build !js

// Command d3dsim-serve is the development server of the browser app
// (docs/scenario.md, "Browser"): `go run .` at the repo root
// builds web/main.wasm when it is stale, copies the Go toolchain's
// wasm_exec.js next to it and serves web/ on 127.0.0.1:8080.
//
//	go run .                      # build what is stale, serve http://127.0.0.1:8080/
//	go run . -addr 127.0.0.1:0    # any free port (the URL is printed)
//	go run . -build-only          # build what is stale, then exit (CI)
//	go run . -site dist           # build the static site into dist/ (site.go), then exit
//
// The scenario files are also served, read from disk on every request, under
// /assets/scenarios/. Every response carries Cache-Control: no-cache, so a
// reload always revalidates; a request for main.wasm rebuilds it first when a
// source changed since the last build, so edit, reload and the page runs the
// new code.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Paths relative to the repo root.
const (
	webDir       = "web"
	wasmTarget   = "web/main.wasm"
	wasmExecDst  = "web/wasm_exec.js"
	scenarioDir  = "assets/scenarios"
	scenarioPath = "/assets/scenarios/"
)

// sourceDirs and sourceExts say which files main.wasm is built from: a newer
// one makes it stale. go.mod and go.sum count too.
var (
	sourceDirs  = []string{"core", "gpu", "wasm", "assets"}
	sourceFiles = []string{"go.mod", "go.sum"}
	sourceExts  = []string{".go", ".d3ds", ".md"}
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to serve on (port 0 picks a free one)")
	buildOnly := flag.Bool("build-only", false, "build web/main.wasm and web/wasm_exec.js when stale, then exit")
	site := flag.String("site", "", "build the static site (the page, main.wasm and main.wasm.gz, the scenarios, tutorials and gallery) into this directory, then exit")
	base := flag.String("base", "", "with -site: the address the site will be published at (the gallery's cards link to it); default: relative links")
	var allowHosts []string
	flag.Func("allow-host", "also answer requests for this host name (repeatable; by default only loopback names and the -addr address are answered)", func(v string) error {
		allowHosts = append(allowHosts, v)
		return nil
	})
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("d3dsim: ")

	if _, err := os.Stat("go.mod"); err != nil {
		log.Fatal("run me from the repo root (no go.mod here): go run .")
	}
	b := &builder{root: "."}
	if *site != "" {
		if err := buildSite(b, *site, *base); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *buildOnly {
		if err := b.ensure(); err != nil {
			log.Fatal(err)
		}
		return
	}
	// The port first: a port in use is said at once, not after a build of
	// minutes.
	ln, err := listenThenBuild(*addr, b.ensure)
	if err != nil {
		log.Fatal(err)
	}
	h := newHandler(webDir, scenarioDir, b.ensure)
	srv := &http.Server{
		Handler:           newHostGuard(h, ln.Addr().String(), allowHosts),
		ReadHeaderTimeout: 10 * time.Second,
		// A request is a GET: its whole read is its header. The write
		// bound covers building main.wasm (a minute on a slow machine)
		// and sending it; idle keep-alive connections are closed.
		ReadTimeout:  30 * time.Second,
		WriteTimeout: 5 * time.Minute,
		IdleTimeout:  2 * time.Minute,
	}
	// Compress main.wasm now, while nobody waits: at BestCompression a
	// 15 MiB module takes a second or two, which the first page load would
	// otherwise pay.
	go h.warm("main.wasm")
	fmt.Printf("d3dsim: serving %s on %s\n", webDir, serveURL(ln.Addr()))

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

// serveURL is the URL to open for a listener's address: an unspecified host
// (":8080", "0.0.0.0:8080") is reached through 127.0.0.1.
func serveURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// listenThenBuild listens on addr, then builds what is stale (build): a
// taken port fails before the build, with a message that names the flag. A
// failed build does not stop the server: the page shows the build error when
// it asks for main.wasm, and the next request retries the build.
func listenThenBuild(addr string, build func() error) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, listenError(addr, err)
	}
	if err := build(); err != nil {
		log.Print(err)
	}
	return ln, nil
}

// listenError says why the server cannot listen on addr and what to do.
func listenError(addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("cannot serve on %s: the port is in use (another `go run .` still running?). Stop it, or serve on another port: go run . -addr %s (or -addr 127.0.0.1:0 for any free port)", addr, otherPort(addr))
	}
	return fmt.Errorf("cannot serve on %s: %v (choose the address with -addr HOST:PORT, e.g. go run . -addr 127.0.0.1:8081)", addr, err)
}

// otherPort is addr with the next port number: the suggestion for a taken
// port.
func otherPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "127.0.0.1:8081"
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n >= 65535 {
		return net.JoinHostPort(host, "8081")
	}
	return net.JoinHostPort(host, strconv.Itoa(n+1))
}

// ---- build ----

// builder keeps web/main.wasm and web/wasm_exec.js up to date. ensure is safe
// for concurrent use: one build at a time, the others wait for it.
type builder struct {
	root   string
	mu     sync.Mutex
	goroot string // cached `go env GOROOT`
}

// ensure rebuilds main.wasm when it is stale and refreshes wasm_exec.js when
// it differs from the toolchain's.
func (b *builder) ensure() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	target := filepath.Join(b.root, wasmTarget)
	newest, from, err := newestSource(b.root)
	if err != nil {
		return err
	}
	if stale(target, newest) {
		_, statErr := os.Stat(target)
		for _, l := range buildAnnouncement(from, statErr != nil) {
			log.Print(l)
		}
		start := time.Now()
		ticker := time.NewTicker(progressEvery)
		done := make(chan struct{})
		reported := make(chan struct{})
		go func() {
			buildProgress(log.Printf, ticker.C, start, done)
			close(reported)
		}()
		err := buildWasm(b.root)
		ticker.Stop()
		close(done)
		<-reported
		if err != nil {
			return err
		}
		fi, _ := os.Stat(target)
		log.Printf("built %s: %s in %s", wasmTarget, sizeString(fi), seconds(time.Since(start)))
	}
	if b.goroot == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("go env GOROOT: %v", err)
		}
		b.goroot = strings.TrimSpace(string(out))
	}
	// wasm_exec.js must match the Go version main.wasm was built with.
	src := filepath.Join(b.goroot, "lib", "wasm", "wasm_exec.js")
	return copyIfDifferent(src, filepath.Join(b.root, wasmExecDst))
}

// buildAnnouncement is what the server says before it builds main.wasm:
// what it builds, why (missing, or which source is newer), and on the first
// build what it fetches and how long it takes. The root package needs no
// module outside the repo (go list -deps .), so on a fresh clone the
// download happens here.
func buildAnnouncement(newer string, missing bool) []string {
	if !missing {
		return []string{fmt.Sprintf("rebuilding %s (the simulator as WebAssembly, what the page runs): %s is newer", wasmTarget, newer)}
	}
	return []string{
		fmt.Sprintf("building %s (the simulator as WebAssembly, what the page runs): it is missing", wasmTarget),
		"the first build downloads the Go modules the page needs (Ebitengine and its dependencies, from the Go module proxy) and compiles them for GOOS=js GOARCH=wasm: " + firstBuildTime + "; the page is served when it is done",
	}
}

// firstBuildTime is what the first build takes with an empty build cache
// (README.md "Set up" gives the measurement: 72 CPU-seconds for the server
// and main.wasm together).
const firstBuildTime = "about a minute on a quiet 2-core machine, several on a busy one"

// progressEvery is how often a build that is still running says so.
const progressEvery = 10 * time.Second

// buildProgress prints "still building web/main.wasm: 20 s" at every tick
// until done is closed: the elapsed time is the tick's time (a Ticker sends
// the current time) less start. The ticks are a parameter, so a test drives
// it with a fake clock, without waiting.
func buildProgress(logf func(string, ...any), ticks <-chan time.Time, start time.Time, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case now := <-ticks:
			logf("still building %s: %s", wasmTarget, seconds(now.Sub(start)))
		}
	}
}

// seconds is a duration in whole seconds, "20 s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", d.Round(time.Second)/time.Second)
}

// newestSource returns the modification time and name of the newest file
// main.wasm is built from.
func newestSource(root string) (time.Time, string, error) {
	var newest time.Time
	var name string
	note := func(p string, t time.Time) {
		if t.After(newest) {
			newest, name = t, p
		}
	}
	for _, f := range sourceFiles {
		if fi, err := os.Stat(filepath.Join(root, f)); err == nil {
			note(f, fi.ModTime())
		}
	}
	for _, d := range sourceDirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if e.IsDir() || !isSource(e.Name()) {
				return nil
			}
			fi, err := e.Info()
			if err != nil {
				return nil // removed while walking
			}
			rel, _ := filepath.Rel(root, p)
			note(filepath.ToSlash(rel), fi.ModTime())
			return nil
		})
		if err != nil {
			return time.Time{}, "", fmt.Errorf("scanning sources: %w", err)
		}
	}
	return newest, name, nil
}

func isSource(name string) bool {
	for _, ext := range sourceExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// stale reports whether target must be rebuilt: it is missing or older than
// the newest source.
func stale(target string, newest time.Time) bool {
	fi, err := os.Stat(target)
	if err != nil {
		return true
	}
	return fi.ModTime().Before(newest)
}

// buildWasm runs GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w"
// -o web/main.wasm ./wasm: without the symbol table and DWARF, which the
// page never reads, the download is ~90 KB (gzip) smaller. It
// builds to a temporary name and renames, so the server never hands out a
// half-written file; the name is unique, so two processes building at once
// (the dev server and `go run . -site`, say) each rename a whole file.
func buildWasm(root string) error {
	f, err := os.CreateTemp(filepath.Join(root, webDir), "main.wasm.*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("GOOS=js GOARCH=wasm go build -trimpath -ldflags=\"-s -w\" -o %s ./wasm: %v\n%s", wasmTarget, err, out)
	}
	return os.Rename(tmp, filepath.Join(root, wasmTarget))
}

// copyIfDifferent copies src to dst when dst is missing or its contents
// differ (a newer or older toolchain).
func copyIfDifferent(src, dst string) error {
	want, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if have, err := os.ReadFile(dst); err == nil && bytes.Equal(have, want) {
		return nil
	}
	return os.WriteFile(dst, want, 0o644)
}

func sizeString(fi os.FileInfo) string {
	if fi == nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MiB", float64(fi.Size())/(1<<20))
}

// ---- serving ----

// handler serves web/ and the scenario files. Regular files only: no
// directory listings, nothing outside the two roots.
type handler struct {
	web, scenarios string
	ensure         func() error // run before serving main.wasm; nil: never build
	gz             gzipCache
}

func newHandler(web, scenarios string, ensure func() error) *handler {
	return &handler{web: web, scenarios: scenarios, ensure: ensure}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")

	p := path.Clean("/" + r.URL.Path)
	if dotPath(p) {
		http.NotFound(w, r)
		return
	}
	dir, name := h.web, strings.TrimPrefix(p, "/")
	if rest, ok := strings.CutPrefix(p, scenarioPath); ok {
		dir, name = h.scenarios, rest
	}
	if name == "" {
		name = "index.html"
	}
	if (name == "main.wasm" || name == "main.wasm.gz") && dir == h.web && h.ensure != nil {
		if err := h.ensure(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	if name == "main.wasm.gz" && dir == h.web {
		h.serveWasmGzip(w, r)
		return
	}
	h.serveFile(w, r, dir, name)
}

// serveWasmGzip answers main.wasm.gz as the published site has it (make
// site writes one): main.wasm's gzip form, from the cache, as a file of its
// own (application/gzip, no Content-Encoding). The page's standalone export
// (web/standalone.js) puts it in the file as it is, without compressing
// 24 MiB again in the browser.
func (h *handler) serveWasmGzip(w http.ResponseWriter, r *http.Request) {
	root, err := os.OpenRoot(h.web)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer root.Close()
	f, err := root.Open("main.wasm")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxGzip {
		http.NotFound(w, r)
		return
	}
	z, err := h.gz.get(h.web+"/main.wasm", fi, f)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/gzip")
	securityHeaders(w.Header(), "main.wasm.gz", nil)
	w.Header().Set("ETag", `"`+strconv.FormatInt(fi.Size(), 36)+"-"+strconv.FormatInt(fi.ModTime().UnixNano(), 36)+`-gzfile"`)
	http.ServeContent(w, r, "main.wasm.gz", fi.ModTime(), bytes.NewReader(z))
}

func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, dir, name string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	ctype := contentType(name)
	w.Header().Set("Content-Type", ctype)
	var page []byte // an HTML page, read whole: its CSP names its inline scripts
	if strings.HasSuffix(name, ".html") && fi.Size() <= maxGzip {
		if page, err = io.ReadAll(f); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	securityHeaders(w.Header(), name, page)
	w.Header().Add("Vary", "Accept-Encoding")
	// The version a client revalidates against: size and nanosecond mtime,
	// so a rebuild within the same second is still seen.
	etag := strconv.FormatInt(fi.Size(), 36) + "-" + strconv.FormatInt(fi.ModTime().UnixNano(), 36)

	if compressible(ctype) && acceptsGzip(r.Header.Get("Accept-Encoding")) && fi.Size() <= maxGzip {
		if z, err := h.gz.get(dir+"/"+name, fi, f); err == nil {
			// Whole responses only: ServeContent leaves out Content-Length
			// when Content-Encoding is set, and a byte range of gzip data
			// helps nobody.
			r.Header.Del("Range")
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Length", strconv.Itoa(len(z)))
			w.Header().Set("ETag", `"`+etag+`-gz"`)
			http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(z))
			return
		}
	}
	w.Header().Set("ETag", `"`+etag+`"`)
	http.ServeContent(w, r, name, fi.ModTime(), f)
}

// warm puts the gzip form of web/name into the cache.
func (h *handler) warm(name string) error {
	root, err := os.OpenRoot(h.web)
	if err != nil {
		return err
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	_, err = h.gz.get(h.web+"/"+name, fi, f)
	return err
}

// mimeTypes is checked before the system's table, which may be old (.js as
// application/javascript) or lack .wasm.
var mimeTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".d3ds": "text/plain; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
}

// contentType is the Content-Type for a file name.
func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := mimeTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// compressible reports whether gzip helps for a content type (not for PNG).
func compressible(ctype string) bool {
	ctype, _, _ = strings.Cut(ctype, ";")
	switch ctype {
	case "application/wasm", "application/json", "image/svg+xml", "image/x-icon":
		return true
	}
	return strings.HasPrefix(ctype, "text/")
}

// acceptsGzip parses an Accept-Encoding header: gzip (or *) listed with a
// non-zero q.
func acceptsGzip(h string) bool {
	for _, part := range strings.Split(h, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}

// maxGzip bounds the files compressed into memory.
const maxGzip = 64 << 20

// gzipCache holds the compressed form of each served file, keyed by path and
// invalidated when the file's size or modification time changes (a rebuild
// of main.wasm). Safe for concurrent use.
type gzipCache struct {
	mu sync.Mutex
	m  map[string]gzipEntry
}

type gzipEntry struct {
	size  int64
	mtime time.Time
	data  []byte
}

func (c *gzipCache) get(key string, fi os.FileInfo, r io.Reader) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok && e.size == fi.Size() && e.mtime.Equal(fi.ModTime()) {
		return e.data, nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := io.Copy(zw, r); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]gzipEntry{}
	}
	c.m[key] = gzipEntry{size: fi.Size(), mtime: fi.ModTime(), data: buf.Bytes()}
	return buf.Bytes(), nil
}
