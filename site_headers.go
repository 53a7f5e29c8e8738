//go:build !js

package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// writeHeaders writes dist/_headers: the headers the dev server sends
// (serve_security.go), per page, in the format static hosts such as Netlify
// and Cloudflare Pages read. A host that does not read it is set up by hand
// with the same values (docs/embedding.md "Headers"). Each page's policy
// names its own inline scripts by hash, so it is computed from the page as
// built.
func writeHeaders(out string) error {
	var pages []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".html") {
			rel, _ := filepath.Rel(out, p)
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(pages)
	var b bytes.Buffer
	b.WriteString("# Response headers for static hosts that read this file (Netlify, Cloudflare Pages).\n")
	b.WriteString("# Paths are from the site's root: served under a sub-path, prefix them with it.\n")
	b.WriteString("# Elsewhere, set the same headers in the host's configuration (docs/embedding.md).\n")
	all := http.Header{}
	securityHeaders(all, "", nil)
	b.WriteString("/*\n")
	writeHeaderLines(&b, all)
	b.WriteString("/*.wasm\n  Content-Type: application/wasm\n")
	for _, page := range pages {
		body, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(page)))
		if err != nil {
			return err
		}
		h := http.Header{}
		h.Set("Content-Security-Policy", contentSecurityPolicy(body))
		paths := []string{"/" + page}
		if dir, ok := strings.CutSuffix(page, "index.html"); ok {
			paths = append([]string{"/" + dir}, paths...) // the directory's URL serves its index
		}
		for _, p := range paths {
			fmt.Fprintf(&b, "%s\n", p)
			writeHeaderLines(&b, h)
		}
	}
	return os.WriteFile(filepath.Join(out, "_headers"), b.Bytes(), 0o644)
}

func writeHeaderLines(b *bytes.Buffer, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "  %s: %s\n", k, h.Get(k))
	}
}
