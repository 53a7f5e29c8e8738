//go:build !js

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The documentation must stand on its own: a clone has no private reference
// files, so no page, tutorial or scenario may point at one. Sources are cited
// by the title of their public page (docs/rules.md lists them).

// privateRef matches a pointer to a file or source a clone does not have. The
// seed pattern allows white space and '#' between the word and the number, so
// a reference wrapped across two lines, of text or of comments, is caught too.
var privateRef = regexp.MustCompile(`\.\./shared|SCENARIO\.md|RULES\.md|DESIGN\.md|(?i:\bseeds?[\s#]+00[0-4]\b)`)

// productFiles lists the product's own sources: Go, JavaScript, HTML, CSS,
// the Makefile and CI script, with the scenarios and test data — what a
// reader of the code opens — as slash-separated paths from the root.
func productFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	exts := map[string]bool{".go": true, ".js": true, ".mjs": true, ".html": true, ".css": true, ".d3ds": true}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(name, ".") && name != ".ci" || name == "node_modules" || name == "dist" || name == "out") {
				return filepath.SkipDir
			}
			return nil
		}
		if exts[filepath.Ext(name)] && name != "wasm_exec.js" || name == "Makefile" || path == filepath.Join(".ci", "run") {
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// docFiles lists README.md, every .md under docs/ and every .md and .d3ds
// under assets/, as slash-separated paths from the repository root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	for _, root := range []string{"docs", "assets"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			ext := filepath.Ext(path)
			if ext == ".md" || (root == "assets" && ext == ".d3ds") {
				files = append(files, filepath.ToSlash(path))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// lineOf is the 1-based line of byte offset off in s.
func lineOf(s string, off int) int { return strings.Count(s[:off], "\n") + 1 }

func TestDocsCiteNoPrivateFiles(t *testing.T) {
	files := docFiles(t)
	if len(files) < 20 {
		t.Fatalf("found only %d documentation files: is the test run from the repository root?", len(files))
	}
	code := productFiles(t)
	if len(code) < 100 {
		t.Fatalf("found only %d source files", len(code))
	}
	files = append(files, code...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, m := range privateRef.FindAllStringIndex(s, -1) {
			t.Errorf("%s:%d: %q points at a private reference; cite the public page by its title", f, lineOf(s, m[0]), s[m[0]:m[1]])
		}
	}
}

// mdLink is an inline markdown link or image, [text](target) or
// ![alt](target), with an optional "title" after the target.
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// mdRef is a reference-style link definition: [label]: target.
var mdRef = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)

// fence matches a fenced code block, whose text is not markdown.
var fence = regexp.MustCompile("(?ms)^ {0,3}```.*?^ {0,3}```[ \t]*$")

// codeSpan matches inline code, whose text is not markdown either.
var codeSpan = regexp.MustCompile("`[^`\n]+`")

func TestDocsRelativeLinksResolve(t *testing.T) {
	files := []string{"README.md"}
	md, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, md...)
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Blank out code (keeping every newline, so line numbers hold):
		// [x](y) inside code is an example, not a link.
		blank := func(s string) string {
			return regexp.MustCompile(`[^\n]`).ReplaceAllString(s, " ")
		}
		s := fence.ReplaceAllStringFunc(string(b), blank)
		s = codeSpan.ReplaceAllStringFunc(s, blank)
		var targets [][]int
		for _, m := range mdLink.FindAllStringSubmatchIndex(s, -1) {
			targets = append(targets, m[2:4])
		}
		for _, m := range mdRef.FindAllStringSubmatchIndex(s, -1) {
			targets = append(targets, m[2:4])
		}
		for _, m := range targets {
			target := s[m[0]:m[1]]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue // not a file of the repository
			}
			path, _, _ := strings.Cut(target, "#")
			path, _, _ = strings.Cut(path, "?")
			if path == "" {
				continue
			}
			full := filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			if strings.HasPrefix(path, "/") {
				full = filepath.FromSlash(strings.TrimPrefix(path, "/"))
			}
			checked++
			if _, err := os.Stat(full); err != nil {
				t.Errorf("%s:%d: link to %s: no such file in the repository (%s)", f, lineOf(s, m[0]), target, filepath.ToSlash(full))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: is the test run from the repository root?")
	}
}
