package main

import (
	"flag"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/link"
)

// TestGallery builds the gallery into a temporary directory and checks that
// every tutorial and demo has a card with its title, a 160x120 thumbnail of
// its last frame, and a link that carries exactly its scenario.
func TestGallery(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("gallery", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	cards := map[string]string{} // id -> card HTML
	for _, m := range regexp.MustCompile(`(?s)<li id="([a-z]+-[0-9a-z-]+)">(.*?)</li>`).FindAllStringSubmatch(string(page), -1) {
		cards[m[1]] = m[2]
	}
	type want struct {
		id, name, title string
		src             []byte
	}
	var wants []want
	for _, n := range assets.Tutorials() {
		src, notes, _ := assets.Tutorial(n)
		title, _ := notesTitle(notes)
		wants = append(wants, want{"tutorial-" + n, n, title, src})
	}
	for _, n := range assets.Scenarios() {
		src, _ := assets.Scenario(n)
		wants = append(wants, want{"demo-" + n, n, n, src})
	}
	if len(cards) != len(wants) {
		t.Errorf("%d cards, want %d", len(cards), len(wants))
	}
	href := regexp.MustCompile(`href="([^"]+)"`)
	var placeholders []string
	imgSrc := regexp.MustCompile(`<img src="([^"]+)"`)
	for _, w := range wants {
		card, ok := cards[w.id]
		if !ok {
			t.Errorf("%s: no card", w.id)
			continue
		}
		if w.title == "" || !strings.Contains(html.UnescapeString(card), w.title) {
			t.Errorf("%s: title %q not on its card", w.id, w.title)
		}
		wantTutorial := "" // a tutorial's card links with its notes (t=)
		if strings.HasPrefix(w.id, "tutorial-") {
			wantTutorial = w.name
		}
		h := href.FindStringSubmatch(card)
		// Without --base the links go into the app beside the gallery's
		// folder (dist/gallery/ -> dist/index.html), never to the gallery.
		if h == nil || !strings.HasPrefix(h[1], "../index.html#s=1.") {
			t.Errorf("%s: link %v, want ../index.html#s=1....", w.id, h)
		} else if src, err := link.FromURL(html.UnescapeString(h[1])); err != nil || string(src) != string(w.src) {
			t.Errorf("%s: the link does not carry the scenario (%v)", w.id, err)
		} else if got := link.TutorialOf(html.UnescapeString(h[1])); got != wantTutorial {
			t.Errorf("%s: the link names tutorial %q, want %q", w.id, got, wantTutorial)
		}
		m := imgSrc.FindStringSubmatch(card)
		if m == nil {
			t.Errorf("%s: no thumbnail", w.id)
			continue
		}
		if strings.HasSuffix(m[1], ".svg") {
			// The placeholder of a scenario that presents no frame: it
			// says so and names the scenario.
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m[1])))
			if err != nil || !strings.Contains(string(b), "no frame presented") || !strings.Contains(string(b), ">"+w.name+"<") {
				t.Errorf("%s: placeholder %s (%v) does not say \"no frame presented\" and the name", w.id, m[1], err)
			}
			placeholders = append(placeholders, w.name)
			continue
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(m[1])))
		if err != nil {
			t.Errorf("%s: %v", w.id, err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds() != image.Rect(0, 0, thumbW, thumbH) {
			t.Errorf("%s: thumbnail %v, %v; want a %dx%d PNG", w.id, err, img, thumbW, thumbH)
			continue
		}
		// Never a blank image: a frame's thumbnail has more than one colour.
		first, blank := img.At(0, 0), true
		for y := 0; y < thumbH && blank; y++ {
			for x := 0; x < thumbW; x++ {
				if img.At(x, y) != first {
					blank = false
					break
				}
			}
		}
		if blank {
			t.Errorf("%s: thumbnail %s is one colour", w.id, m[1])
		}
	}
	// memory-pressure and sync-destroy present no frame (they exercise
	// residency and destruction): theirs are placeholders.
	if got := strings.Join(placeholders, " "); got != "memory-pressure sync-destroy" {
		t.Errorf("placeholders for %q, want memory-pressure and sync-destroy", got)
	}
	if !strings.Contains(out, "the cards open the app at ../index.html") {
		t.Errorf("the output does not say where the links point:\n%s", out)
	}

	// The thumbnail shows the frame: hello-triangle's is its clear colour
	// (#1a1a33) around the red/green/blue triangle, letterboxed.
	f, err := os.Open(filepath.Join(dir, "thumbs", "demos", "hello-triangle.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := color.RGBAModel.Convert(img.At(thumbW/2-55, 5)).(color.RGBA); got != (color.RGBA{0x1a, 0x1a, 0x33, 0xff}) {
		t.Errorf("hello-triangle thumbnail corner %v, want the clear colour", got)
	}
	if got := color.RGBAModel.Convert(img.At(0, 5)).(color.RGBA); got != thumbBackground {
		t.Errorf("hello-triangle thumbnail letterbox %v, want %v", got, thumbBackground)
	}
	if got := color.RGBAModel.Convert(img.At(thumbW/2, thumbH/2)).(color.RGBA); got == (color.RGBA{0x1a, 0x1a, 0x33, 0xff}) {
		t.Errorf("hello-triangle thumbnail centre is the clear colour: the triangle is missing")
	}
}

func TestGalleryArgs(t *testing.T) {
	for _, args := range [][]string{{"gallery"}, {"gallery", "x.d3ds", "--out", t.TempDir()}} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// --base points the links elsewhere.
	dir := t.TempDir()
	if code, out, errOut := runCLI("gallery", "--out", dir, "--base", "../app/"); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(page), `href="../app/#s=1.`) {
		t.Errorf("--base ../app/ not used in the links")
	}
	if strings.Contains(string(page), `class="file"`) {
		t.Errorf("file links without --files")
	}
}

// TestGalleryFiles: with --files each card links its .d3ds where the site
// puts it (scenarios/ for demos, tutorials/ for tutorials).
func TestGalleryFiles(t *testing.T) {
	dir := t.TempDir()
	if code, out, errOut := runCLI("gallery", "--out", dir, "--base", "../index.html", "--files", "../"); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	for _, want := range []string{
		`<a class="file" href="../scenarios/hello-triangle.d3ds" download>hello-triangle.d3ds</a>`,
		`<a class="file" href="../tutorials/01-hello-triangle.d3ds" download>01-hello-triangle.d3ds</a>`,
		`href="../index.html#s=1.`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// TestThumbnail checks the scaling on small synthetic frames.
func TestThumbnail(t *testing.T) {
	tests := []struct {
		desc       string
		w, h       int
		fill       func(x, y int) color.RGBA
		x, y       int // a thumbnail pixel
		want       color.RGBA
		letterboxX int // a letterbox pixel (-1: none)
	}{
		{"enlarge a square: letterboxed left and right", 4, 4, func(x, y int) color.RGBA { return color.RGBA{0xff, 0, 0, 0xff} }, 80, 60, color.RGBA{0xff, 0, 0, 0xff}, 5},
		{"shrink 320x240 by 2: a 2x2 checker averages to grey", 320, 240, func(x, y int) color.RGBA {
			if (x+y)%2 == 0 {
				return color.RGBA{0xff, 0xff, 0xff, 0xff}
			}
			return color.RGBA{0, 0, 0, 0xff}
		}, 10, 10, color.RGBA{0x7f, 0x7f, 0x7f, 0xff}, -1},
		{"alpha is dropped", 16, 12, func(x, y int) color.RGBA { return color.RGBA{0, 0x80, 0, 0} }, 0, 0, color.RGBA{0, 0x80, 0, 0xff}, -1},
	}
	for _, tt := range tests {
		src := image.NewRGBA(image.Rect(0, 0, tt.w, tt.h))
		for y := range tt.h {
			for x := range tt.w {
				src.SetRGBA(x, y, tt.fill(x, y))
			}
		}
		th := thumbnail(src, thumbW, thumbH)
		if th.Bounds() != image.Rect(0, 0, thumbW, thumbH) {
			t.Errorf("%s: bounds %v", tt.desc, th.Bounds())
		}
		if got := th.RGBAAt(tt.x, tt.y); got != tt.want {
			t.Errorf("%s: pixel (%d, %d) = %v, want %v", tt.desc, tt.x, tt.y, got, tt.want)
		}
		if tt.letterboxX >= 0 {
			if got := th.RGBAAt(tt.letterboxX, 60); got != thumbBackground {
				t.Errorf("%s: letterbox %v, want %v", tt.desc, got, thumbBackground)
			}
		}
	}
}

// TestTutorialLinks: `d3dsim link` works on every tutorial file, names the
// tutorial in the link (t=, so the page opens its notes), and the link
// replays to the same summary as the file: run --link ignores t=.
func TestTutorialLinks(t *testing.T) {
	for _, n := range assets.Tutorials() {
		p := filepath.Join("..", "..", "assets", "tutorials", n+".d3ds")
		code, out, errOut := runCLI("link", p)
		if code != 0 {
			t.Errorf("%s: link exit %d: %s", n, code, errOut)
			continue
		}
		if !strings.HasSuffix(strings.TrimSpace(out), "&t="+n) {
			t.Errorf("%s: link %q does not end with &t=%s", n, out, n)
		}
		_, direct, _ := runCLI("run", p)
		code, viaLink, _ := runCLI("run", "--link", strings.TrimSpace(out))
		if code != 0 || !strings.HasSuffix(direct, "ok\n") || strings.ReplaceAll(direct, p, "link") != viaLink {
			t.Errorf("%s: run --link gives exit %d\n%s\nrun FILE gives\n%s", n, code, viaLink, direct)
		}
	}
}

// TestLinkNamesTutorial: which scenarios `d3dsim link` names a tutorial
// for: the text of an embedded tutorial under any file name, an edited
// tutorial file by its name, nothing else.
func TestLinkNamesTutorial(t *testing.T) {
	dir := t.TempDir()
	src, _, _ := assets.Tutorial("01-hello-triangle")
	edited := strings.Replace(string(src), "\n", "\n# edited\n", 1)
	other := "dev, imm = D3D11CreateDevice\n"
	tests := []struct{ desc, file, src, want string }{
		{"a tutorial's text under another name", "copy.d3ds", string(src), "01-hello-triangle"},
		{"an edited tutorial file", "01-hello-triangle.d3ds", edited, "01-hello-triangle"},
		{"an edited copy under another name", "mine.d3ds", edited, ""},
		{"another scenario", "05-four-threads.txt", other, ""},
	}
	for _, tt := range tests {
		sub := filepath.Join(dir, tt.desc)
		os.MkdirAll(sub, 0o755)
		p := filepath.Join(sub, tt.file)
		os.WriteFile(p, []byte(tt.src), 0o644)
		code, out, errOut := runCLI("link", p)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.desc, code, errOut)
		}
		if got := link.TutorialOf(strings.TrimSpace(out)); got != tt.want {
			t.Errorf("%s: the link names tutorial %q, want %q", tt.desc, got, tt.want)
		}
		if back, err := link.FromURL(strings.TrimSpace(out)); err != nil || string(back) != tt.src {
			t.Errorf("%s: the link does not carry the text (%v)", tt.desc, err)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the generated links of docs/tutorials.md")

// TestTutorialsDoc: docs/tutorials.md links every tutorial, and each link
// carries the tutorial as it is now (an edited tutorial needs its link
// regenerated, with -update).
func TestTutorialsDoc(t *testing.T) {
	const path = "../../docs/tutorials.md"
	const begin, end = "<!-- links: generated by", "<!-- end of links -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s: the generated-links markers are missing", path)
	}
	i += strings.Index(text[i:], "\n") + 1
	var b strings.Builder
	for _, n := range assets.Tutorials() {
		src, _, _ := assets.Tutorial(n)
		fmt.Fprintf(&b, "[t%s]: %s\n", n[:2], link.TutorialURL(link.DefaultBase, string(src), n))
		if !strings.Contains(text[:i], "][t"+n[:2]+"]") || !strings.Contains(text[:i], "assets/tutorials/"+n+".md") {
			t.Errorf("%s: no row for %s", path, n)
		}
	}
	if text[i:j] == b.String() {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(text[:i]+b.String()+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the tutorial links are stale; run go test ./cmd/d3dsim -run TestTutorialsDoc -update", path)
}

func TestCardSummary(t *testing.T) {
	tests := []struct{ desc, src, want string }{
		{"first sentence of the first comment block", "# A quad. Blended 0.5 each.\n# More.\ndev, imm = D3D11CreateDevice\n", "A quad."},
		{"a blank comment line ends the block", "# One line\n#\n# Not this.\n", "One line"},
		{"no comment", "dev, imm = D3D11CreateDevice\n", ""},
	}
	for _, tt := range tests {
		if got := firstSentence(leadingComment([]byte(tt.src))); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.desc, got, tt.want)
		}
	}
}
