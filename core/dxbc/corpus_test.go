package dxbc

import (
	"bytes"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFxcCorpus reads every fxc output in the directory D3DSIM_FXC_CORPUS
// (/Fh headers, .h or .inc, and compiled .cso blobs; searched recursively)
// and checks that each parses and lists, and, where the header carries
// fxc's listing, that the code lists exactly as fxc listed it. It skips
// without the variable: the corpus is public projects' output (a fetched
// copy of DirectXTex, SDL, vkd3d's tests ...), never part of the
// repository. go test ./core/dxbc -run FxcCorpus -v prints the counts.
func TestFxcCorpus(t *testing.T) {
	dir := os.Getenv("D3DSIM_FXC_CORPUS")
	if dir == "" {
		t.Skip("D3DSIM_FXC_CORPUS is not set")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			switch strings.ToLower(filepath.Ext(p)) {
			case ".h", ".inc", ".cso", ".fxo", ".dxbc":
				files = append(files, p)
			}
		}
		return nil
	})
	parsed, same, stages := 0, 0, map[string]int{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blob, listing := raw, ""
		if !bytes.HasPrefix(raw, []byte("DXBC")) {
			if blob, err = ParseFxcHeader(string(raw)); err != nil || len(blob) == 0 {
				continue // a header of something else
			}
			listing = string(raw)
		}
		c, err := Parse(blob)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if c.Chunk("SHDR") == nil && c.Chunk("SHEX") == nil {
			continue // a root signature or an effect, not a shader
		}
		p, err := c.Program()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, err := Listing(c); err != nil {
			t.Errorf("%s: Listing: %v", f, err)
			continue
		}
		parsed++
		stages[p.Type.Prefix()]++
		if _, err := Validate(blob, p.Type); err != nil {
			t.Errorf("%s: Validate: %v", f, err)
		}
		if want := fxcCode(listing); want != "" {
			if got := p.Disassemble(); got != want && !sameButTies(got, want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Errorf("%s: line %d lists as\n  %s\nfxc:\n  %s", f, i+1, gl[i], wl[i])
						break
					}
				}
				if len(gl) != len(wl) {
					t.Errorf("%s: %d lines, fxc %d", f, len(gl), len(wl))
				}
				continue
			}
			same++
		}
	}
	t.Logf("%d files: %d parsed and listed (by stage %v), %d listed exactly as fxc did", len(files), parsed, stages, same)
}

// sameButTies reports whether two listings differ only in six-decimal
// floats that are exact ties rounded the other way (fxc's compiler rounds
// 18.8515625 to 18.851562, the D3D Shader Disassembler of DirectXTK's
// headers to 18.851563: two C runtimes).
func sameButTies(got, want string) bool {
	g, w := strings.FieldsFunc(got, sep), strings.FieldsFunc(want, sep)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if g[i] == w[i] {
			continue
		}
		a, errA := strconv.ParseFloat(g[i], 64)
		b, errB := strconv.ParseFloat(w[i], 64)
		if errA != nil || errB != nil || math.Abs(a-b) > 1.5e-6 {
			return false
		}
		// A tie: halfway between the two printed values, exactly.
		ra, _ := new(big.Rat).SetString(g[i])
		rb, _ := new(big.Rat).SetString(w[i])
		mid := new(big.Rat).Add(ra, rb)
		mid.Quo(mid, big.NewRat(2, 1))
		if f32, _ := mid.Float32(); new(big.Rat).SetFloat64(float64(f32)).Cmp(mid) != 0 {
			return false
		}
	}
	return true
}

func sep(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == '\n' }
