//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"log"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"d3dsim/assets"
)

// The static site (docs/embedding.md "Publishing"): `go run . -site dist`
// (make site) writes everything the app needs into one directory that any
// static file host serves as it is, under any sub-path:
//
//	index.html, embed.html, embed-example.html, *.js, style.css   the page (web/)
//	main.wasm, main.wasm.gz, wasm_exec.js                         the module, and a gzip copy for hosts that serve precompressed files
//	scenarios/NAME.d3ds                                           the example scenarios, as files to link to and download
//	tutorials/NN-NAME.d3ds, NN-NAME.md                            the tutorials (scenario and notes)
//	gallery/index.html, gallery/thumbs/                           every tutorial and demo with a thumbnail (d3dsim gallery)
//
// Every path between these files is relative, and the page asks for nothing
// else (no /assets/, nothing only serve.go answers), so dist/ works from
// https://example.org/any/sub/path/ and from file:// for everything but the
// WebAssembly fetch. Only gzip is written: Go's standard library has no
// brotli encoder, and d3dsim takes no dependency for one.

// siteGallery is where the gallery goes, and the way back from it to the
// app's page (the cards' links).
const (
	siteGallery     = "gallery"
	siteGalleryBase = "../index.html"
)

// galleryLinks is where the gallery's cards point: relative links (they
// work wherever dist/ is copied), or, with the address the site is published
// at (make site BASE=URL), absolute ones, so the gallery's page works copied
// anywhere else too.
func galleryLinks(base string) (app, files string, err error) {
	if base == "" {
		return siteGalleryBase, "../", nil
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("-base %q: want the http(s) address the site is published at, such as https://example.org/d3dsim/", base)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String() + "index.html", u.String(), nil
}

// buildSite builds main.wasm when stale (b.ensure) and writes the site into
// out, replacing the files it writes and leaving others alone. base is the
// address it will be published at, or "" (galleryLinks).
func buildSite(b *builder, out, base string) error {
	app, files, err := galleryLinks(base)
	if err != nil {
		return err
	}
	if err := b.ensure(); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := copyWeb(filepath.Join(b.root, webDir), out); err != nil {
		return err
	}
	wasm, err := os.ReadFile(filepath.Join(out, "main.wasm"))
	if err != nil {
		return err
	}
	gz, err := gzipBytes(wasm)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "main.wasm.gz"), gz, 0o644); err != nil {
		return err
	}
	n, err := writeAssets(out)
	if err != nil {
		return err
	}
	// The gallery runs every scenario natively and draws its thumbnail:
	// the CLI's own command, so the site shows what `d3dsim run` shows.
	cmd := exec.Command("go", "run", "./cmd/d3dsim", "gallery", "--out", filepath.Join(out, siteGallery), "--base", app, "--files", files)
	cmd.Dir = b.root
	if o, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("d3dsim gallery: %v\n%s", err, o)
	}
	if err := writeHeaders(out); err != nil {
		return err
	}
	log.Printf("site: wrote %s (main.wasm %.1f MiB, gzip %.1f MiB; %d scenario and tutorial files; %s/index.html)",
		out, float64(len(wasm))/(1<<20), float64(len(gz))/(1<<20), n, siteGallery)
	return nil
}

// copyWeb copies the page's files (web/: HTML, JavaScript, CSS, main.wasm,
// wasm_exec.js) into out. Build leftovers (*.tmp) stay behind.
func copyWeb(web, out string) error {
	ents, err := os.ReadDir(web)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasSuffix(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(web, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeAssets writes the embedded scenarios and tutorials (the same bytes
// main.wasm carries) as files, and returns how many it wrote.
func writeAssets(out string) (int, error) {
	n := 0
	write := func(name string, data []byte) error {
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		n++
		return os.WriteFile(p, data, 0o644)
	}
	for _, name := range assets.Scenarios() {
		src, _ := assets.Scenario(name)
		if err := write("scenarios/"+name+".d3ds", src); err != nil {
			return n, err
		}
	}
	for _, name := range assets.Tutorials() {
		src, notes, _ := assets.Tutorial(name)
		if err := write("tutorials/"+name+".d3ds", src); err != nil {
			return n, err
		}
		if notes != nil {
			if err := write("tutorials/"+name+".md", notes); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// gzipBytes compresses data at the best level: done once per site build,
// and every visitor gets the smaller file.
func gzipBytes(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// siteFiles lists the regular files under dir, slash-separated and relative
// to it (the site test's inventory).
func siteFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out, err
}
