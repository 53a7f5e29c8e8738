package main

import (
	"bytes"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"

	"d3dsim/assets"
	"d3dsim/core/link"
	"d3dsim/core/scenario"
)

// The gallery: `d3dsim gallery --out DIR [--base URL]` runs every tutorial
// and example scenario, writes a thumbnail of its last presented frame to
// DIR/thumbs/, and DIR/index.html listing each with its title and a link
// that opens it in the app (BASE#s=..., BASE defaulting to the relative
// "../index.html": the gallery sits in a folder of the site beside the
// app's page, as `make site` puts it in dist/gallery/ with the app at
// dist/index.html; galleryDefaultBase). A scenario that presents no frame
// gets a placeholder thumbnail (an SVG saying "no frame presented" and its
// name), never a blank image. With
// --files URL each card also links to the scenario as a file, at
// URL + "scenarios/NAME.d3ds" or URL + "tutorials/NAME.d3ds" (the site's
// layout: `go run . -site dist` passes "../").

// galleryDefaultBase is where the cards' links point without --base: the
// app's page one folder up, as in the site (dist/gallery/ beside
// dist/index.html).
const galleryDefaultBase = "../index.html"

// baseNote says, in the command's output, what the links expect.
func baseNote(base string, isDefault bool) string {
	if isDefault {
		return "; put DIR in the site's folder beside the app's index.html, or give --base"
	}
	if strings.Contains(base, "://") {
		return ", an absolute address"
	}
	return ""
}

// Thumbnail size, 4:3.
const thumbW, thumbH = 160, 120

// thumbBackground fills the letterbox around a frame whose shape is not 4:3,
// (a scenario that presents nothing gets noFrameThumb instead).
var thumbBackground = color.RGBA{0x1b, 0x1d, 0x23, 0xff}

// galleryEntry is one card of the page.
type galleryEntry struct {
	Kind    string // "tutorial" or "demo"
	Name    string // file name without .d3ds
	Title   string
	Summary string
	Thumb   string // path relative to DIR
	Link    string
	File    string // the .d3ds to download ("" without --files)
	Frames  int
	Failed  int
}

func cmdGallery(a args, stdout, stderr io.Writer) int {
	dir, ok := a.flags["out"]
	if !ok || len(a.pos) != 0 {
		fmt.Fprintf(stderr, "d3dsim gallery: give --out DIR and no file\n%s", usage)
		return exitBadIn
	}
	base := a.flags["base"]
	if base == "" {
		base = galleryDefaultBase
	}
	entries, err := buildGallery(dir, base, a.flags["files"])
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim gallery: %v\n", err)
		return exitIO
	}
	failed := 0
	for _, e := range entries {
		status := "ok"
		if e.Failed > 0 {
			status = fmt.Sprintf("%d failed", e.Failed)
			failed++
		}
		fmt.Fprintf(stdout, "%-8s %-32s frames %d, %s\n", e.Kind, e.Name, e.Frames, status)
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(dir, "index.html"))
	fmt.Fprintf(stdout, "the cards open the app at %s (relative to the gallery's page%s)\n", base, baseNote(base, a.flags["base"] == ""))
	if failed > 0 {
		return 1
	}
	return 0
}

// buildGallery writes the thumbnails and the page, tutorials first (in
// lesson order), then the example scenarios.
func buildGallery(dir, base, files string) ([]galleryEntry, error) {
	for _, sub := range []string{"thumbs/tutorials", "thumbs/demos"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, err
		}
	}
	var entries []galleryEntry
	add := func(kind, name string, src, notes []byte) error {
		e := galleryEntry{Kind: kind, Name: name, Title: name}
		e.Summary = firstSentence(leadingComment(src))
		if t, ok := notesTitle(notes); ok {
			e.Title = t
		}
		e.Link = link.URL(base, string(src))
		if kind == "tutorial" {
			e.Link = link.TutorialURL(base, string(src), name) // opens with its notes
		}
		if files != "" {
			e.File = files + kind + "s/" + name + ".d3ds"
			if kind == "demo" {
				e.File = files + "scenarios/" + name + ".d3ds"
			}
		}
		s, err := scenario.Load(name+".d3ds", src)
		if err != nil {
			return err
		}
		r := scenario.NewRun(s, scenario.Overrides{})
		sum := r.Finish()
		e.Frames, e.Failed = sum.Frames, len(sum.Failures)
		var b bytes.Buffer
		if f, ok := r.LastFrame(); ok {
			e.Thumb = "thumbs/" + kind + "s/" + name + ".png"
			if err := png.Encode(&b, thumbnail(f.Image(), thumbW, thumbH)); err != nil {
				return err
			}
		} else {
			// No frame to show: say so, rather than a blank image.
			e.Thumb = "thumbs/" + kind + "s/" + name + ".svg"
			if err := noFrameThumb.Execute(&b, name); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(e.Thumb)), b.Bytes(), 0o644); err != nil {
			return err
		}
		entries = append(entries, e)
		return nil
	}
	for _, name := range assets.Tutorials() {
		src, notes, _ := assets.Tutorial(name)
		if err := add("tutorial", name, src, notes); err != nil {
			return nil, err
		}
	}
	for _, name := range assets.Scenarios() {
		src, _ := assets.Scenario(name)
		if err := add("demo", name, src, nil); err != nil {
			return nil, err
		}
	}
	var page bytes.Buffer
	if err := galleryPage.Execute(&page, entries); err != nil {
		return nil, err
	}
	return entries, os.WriteFile(filepath.Join(dir, "index.html"), page.Bytes(), 0o644)
}

// notesTitle is the "# Title" first line of a tutorial's notes
// (assets/tutorials/README.md).
func notesTitle(notes []byte) (string, bool) {
	first, _, _ := strings.Cut(string(notes), "\n")
	t, ok := strings.CutPrefix(strings.TrimSpace(first), "# ")
	return strings.TrimSpace(t), ok && strings.TrimSpace(t) != ""
}

// leadingComment joins the scenario's first block of "# " comment lines
// into one paragraph: every example scenario opens by saying what it shows.
func leadingComment(src []byte) string {
	var words []string
	for _, ln := range strings.Split(string(src), "\n") {
		ln = strings.TrimSpace(ln)
		if !strings.HasPrefix(ln, "#") {
			break
		}
		t := strings.TrimSpace(strings.TrimPrefix(ln, "#"))
		if t == "" {
			if len(words) > 0 {
				break
			}
			continue
		}
		words = append(words, t)
	}
	return strings.Join(words, " ")
}

// firstSentence keeps a card short: the text up to the first ". ".
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// thumbnail scales src to fit w x h, keeping its shape, centred on the
// background. Each thumbnail pixel is the average of the source pixels it
// covers (a box filter), or the nearest one when enlarging, so a 1024-pixel
// frame and a 32-pixel one both come out readable. Integer arithmetic only:
// the same frame gives the same PNG everywhere.
func thumbnail(src *image.RGBA, w, h int) *image.RGBA {
	dst := placeholder(w, h)
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	if sw <= 0 || sh <= 0 {
		return dst
	}
	// fit: the scaled size is (tw, th), the larger that fits.
	tw, th := w, sh*w/sw
	if th > h {
		tw, th = sw*h/sh, h
	}
	tw, th = max(tw, 1), max(th, 1)
	ox, oy := (w-tw)/2, (h-th)/2
	for y := range th {
		y0, y1 := y*sh/th, max((y+1)*sh/th, y*sh/th+1)
		for x := range tw {
			x0, x1 := x*sw/tw, max((x+1)*sw/tw, x*sw/tw+1)
			var r, g, b, n int
			for sy := y0; sy < y1; sy++ {
				i := src.PixOffset(src.Rect.Min.X+x0, src.Rect.Min.Y+sy)
				for sx := x0; sx < x1; sx++ {
					r += int(src.Pix[i])
					g += int(src.Pix[i+1])
					b += int(src.Pix[i+2])
					i += 4
					n++
				}
			}
			// Alpha is left out: what the screen shows of a swap chain
			// is opaque, so the thumbnail is too.
			dst.SetRGBA(ox+x, oy+y, color.RGBA{uint8(r / n), uint8(g / n), uint8(b / n), 0xff})
		}
	}
	return dst
}

// placeholder is a thumbnail of the background alone, which thumbnail()
// draws the frame on.
func placeholder(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = thumbBackground.R, thumbBackground.G, thumbBackground.B, thumbBackground.A
	}
	return img
}

// noFrameThumb is the thumbnail of a scenario that presents no frame.
var noFrameThumb = template.Must(template.New("noframe").Parse(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120" viewBox="0 0 160 120">
<rect width="160" height="120" fill="#1b1d23"/>
<rect x="4.5" y="4.5" width="151" height="111" fill="none" stroke="#4a4f5c" stroke-dasharray="4 3"/>
<text x="80" y="56" text-anchor="middle" font-family="system-ui, sans-serif" font-size="13" fill="#c8cad2">no frame presented</text>
<text x="80" y="76" text-anchor="middle" font-family="ui-monospace, monospace" font-size="10" fill="#8a8fa0">{{.}}</text>
</svg>
`))

var galleryPage = template.Must(template.New("gallery").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>d3dsim — tutorials and demos</title>
<style>
  body { margin: 0; padding: 1.5rem; background: #121317; color: #d8dae0; font: 15px/1.45 system-ui, sans-serif; }
  h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
  h2 { font-size: 1.1rem; margin: 1.8rem 0 .8rem; color: #aab; }
  p.lead { margin: 0; color: #99a; max-width: 60rem; }
  ul { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(21rem, 1fr)); gap: 1rem; }
  li { display: flex; gap: .9rem; background: #1b1d23; border: 1px solid #2a2d36; border-radius: 6px; padding: .7rem; }
  li img { width: 160px; height: 120px; flex: none; image-rendering: pixelated; border-radius: 3px; background: #1b1d23; }
  li > div { min-width: 0; overflow-wrap: anywhere; }
  li a { color: #8ab4ff; text-decoration: none; font-weight: 600; }
  li a:hover { text-decoration: underline; }
  li p { margin: .3rem 0 0; font-size: .85rem; color: #a3a6b0; }
  li .name { font-family: ui-monospace, monospace; font-size: .78rem; color: #778; }
  li .fail { color: #ff7b7b; }
  li a.file { font-weight: normal; color: #8a93a8; }
</style>
</head>
<body>
<h1>d3dsim — tutorials and demos</h1>
<p class="lead">Each link opens the scenario in the simulator, where it replays to the same trace and pixels. The tutorials are
guided lessons on the Direct3D 11 driver model; the demos are the example scenarios.</p>
<h2>Tutorials</h2>
<ul>
{{- range .}}{{if eq .Kind "tutorial"}}{{template "card" .}}{{end}}{{end}}
</ul>
<h2>Demos</h2>
<ul>
{{- range .}}{{if eq .Kind "demo"}}{{template "card" .}}{{end}}{{end}}
</ul>
</body>
</html>
{{define "card"}}
<li id="{{.Kind}}-{{.Name}}">
  <a href="{{.Link}}"><img src="{{.Thumb}}" width="160" height="120" alt="{{if .Frames}}last frame of {{.Name}}{{else}}{{.Name}} presents no frame{{end}}"></a>
  <div>
    <a href="{{.Link}}">{{.Title}}</a>
    <div class="name">{{if .File}}<a class="file" href="{{.File}}" download>{{.Name}}.d3ds</a>{{else}}{{.Name}}.d3ds{{end}}{{if .Failed}} <span class="fail">— {{.Failed}} expectation(s) fail</span>{{end}}</div>
    <p>{{.Summary}}</p>
  </div>
</li>
{{- end}}
`))
