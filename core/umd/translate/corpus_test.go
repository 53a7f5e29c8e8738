package translate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestFxcCorpus translates every vertex and pixel shader in the directory
// D3DSIM_FXC_CORPUS (fxc /Fh headers, .h or .inc, and .cso blobs, searched
// recursively: a fetched copy of public projects' output, never part of the
// repository) and counts what translates and what is refused, by reason.
// A refusal must name the instruction and its feature: one that falls back
// to "not an instruction this GPU's driver knows" fails the test. It skips
// without the variable; -v prints the counts.
func TestFxcCorpus(t *testing.T) {
	dir := os.Getenv("D3DSIM_FXC_CORPUS")
	if dir == "" {
		t.Skip("D3DSIM_FXC_CORPUS is not set")
	}
	ok, other := 0, 0
	refused := map[string]int{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".h", ".inc", ".cso", ".fxo", ".dxbc":
		default:
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		blob := raw
		if !bytes.HasPrefix(raw, []byte("DXBC")) {
			if blob, err = dxbc.ParseFxcHeader(string(raw)); err != nil || len(blob) == 0 {
				return nil
			}
		}
		c, err := dxbc.Parse(blob)
		if err != nil {
			return nil
		}
		prog, err := c.Program()
		if err != nil {
			return nil // not a shader (a root signature)
		}
		if prog.Type != dxbc.VertexShader && prog.Type != dxbc.PixelShader {
			other++
			return nil
		}
		_, err = Translate(blob, prog.Type)
		var te *Error
		switch {
		case err == nil:
			ok++
		case errors.As(err, &te):
			refused[te.Reason]++
			if strings.Contains(te.Reason, featUnknown) || strings.Contains(te.Reason, "register type") {
				t.Errorf("%s: the refusal does not name its feature: %v", p, err)
			}
		default:
			refused[err.Error()]++
		}
		return nil
	})
	var reasons []string
	total := 0
	for r, n := range refused {
		reasons = append(reasons, r)
		total += n
	}
	sort.Slice(reasons, func(i, j int) bool { return refused[reasons[i]] > refused[reasons[j]] })
	for _, r := range reasons {
		t.Logf("%4d refused: %s", refused[r], r)
	}
	t.Logf("vertex and pixel shaders: %d translate, %d refused; %d of other stages", ok, total, other)
}
