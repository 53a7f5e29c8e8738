//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"d3dsim/assets"
)

// TestCopyWeb: the page's files are copied, build leftovers and dotfiles
// are not, subdirectories are not descended into.
func TestCopyWeb(t *testing.T) {
	web, out := t.TempDir(), t.TempDir()
	now := time.Now()
	for _, f := range []string{"index.html", "app.js", "main.wasm", "main.wasm.123.tmp", "main.wasm.tmp", ".swp", "sub/x.js"} {
		writeFile(t, web, f, "body of "+f, now)
	}
	if err := copyWeb(web, out); err != nil {
		t.Fatal(err)
	}
	got, err := siteFiles(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"app.js", "index.html", "main.wasm"}
	if !slices.Equal(got, want) {
		t.Errorf("copied %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "app.js")); string(b) != "body of app.js" {
		t.Errorf("app.js = %q", b)
	}
}

// TestWriteAssets: every embedded scenario and tutorial (scenario and
// notes) becomes a file with the same bytes main.wasm carries.
func TestWriteAssets(t *testing.T) {
	out := t.TempDir()
	n, err := writeAssets(out)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, name := range assets.Scenarios() {
		src, _ := assets.Scenario(name)
		checkFile(t, filepath.Join(out, "scenarios", name+".d3ds"), src)
		want++
	}
	for _, name := range assets.Tutorials() {
		src, notes, _ := assets.Tutorial(name)
		checkFile(t, filepath.Join(out, "tutorials", name+".d3ds"), src)
		checkFile(t, filepath.Join(out, "tutorials", name+".md"), notes)
		want += 2
	}
	if n != want || n == 0 {
		t.Errorf("wrote %d files, want %d", n, want)
	}
}

func checkFile(t *testing.T, p string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil {
		t.Error(err)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the embedded file", p)
	}
}

func TestGzipBytes(t *testing.T) {
	data := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00 d3dsim "), 5000)
	z, err := gzipBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(z) >= len(data)/10 {
		t.Errorf("gzip of %d repetitive bytes is %d bytes", len(data), len(z))
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(back, data) {
		t.Errorf("round trip: %v, equal %v", err, bytes.Equal(back, data))
	}
}

// TestWriteHeaders: dist/_headers gives every page the policy the dev server
// sends for it (its own inline scripts by hash), and every file the common
// headers.
func TestWriteHeaders(t *testing.T) {
	out := t.TempDir()
	pages := map[string]string{
		"index.html":         "<script>boot()</script><p>page",
		"embed.html":         "<script>embed()</script>",
		"gallery/index.html": "<p>no script",
	}
	for name, body := range pages {
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	if err := writeHeaders(out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for name, body := range pages {
		want := "/" + name + "\n  Content-Security-Policy: " + contentSecurityPolicy([]byte(body)) + "\n"
		if !strings.Contains(got, want) {
			t.Errorf("_headers lacks %q", want)
		}
	}
	for _, want := range []string{"/\n  Content-Security-Policy: " + contentSecurityPolicy([]byte(pages["index.html"])), "/gallery/\n", "/*\n", "  Referrer-Policy: no-referrer\n", "  X-Content-Type-Options: nosniff\n", "/*.wasm\n  Content-Type: application/wasm\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("_headers lacks %q:\n%s", want, got)
		}
	}
}

func TestGalleryLinks(t *testing.T) {
	tests := []struct {
		base, app, files string
		bad              bool
	}{
		{"", "../index.html", "../", false},
		{"https://example.org/d3dsim/", "https://example.org/d3dsim/index.html", "https://example.org/d3dsim/", false},
		{"https://example.org/d3dsim", "https://example.org/d3dsim/index.html", "https://example.org/d3dsim/", false},
		{"http://127.0.0.1:9000/", "http://127.0.0.1:9000/index.html", "http://127.0.0.1:9000/", false},
		{"example.org/d3dsim/", "", "", true},
		{"javascript:alert(1)", "", "", true},
		{"https://example.org/?x=1", "", "", true},
	}
	for _, tt := range tests {
		app, files, err := galleryLinks(tt.base)
		if (err != nil) != tt.bad || app != tt.app || files != tt.files {
			t.Errorf("galleryLinks(%q) = %q, %q, %v", tt.base, app, files, err)
		}
	}
}
