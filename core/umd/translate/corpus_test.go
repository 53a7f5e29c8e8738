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
// to "not an instruction this GPU's driver knows" fails the test, and so
// does a refusal of a shader whose signatures reach past register 7 (the
// varyings: 32 registers, 16 in a vs_4_0, regcount.go), counted apart. It
// skips without the variable; -v prints the counts.
func TestFxcCorpus(t *testing.T) {
	dir := os.Getenv("D3DSIM_FXC_CORPUS")
	if dir == "" {
		t.Skip("D3DSIM_FXC_CORPUS is not set")
	}
	ok, other, wide := 0, 0, 0
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
		if topRegister(c) >= 8 {
			wide++
			if err != nil {
				t.Errorf("%s: registers past 7 refused: %v", p, err)
			}
		}
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
	t.Logf("vertex and pixel shaders: %d translate, %d refused; %d of other stages; %d with a register past 7", ok, total, other, wide)
}

// topRegister is the highest register of c's input and output signatures
// (a pixel shader's outputs, its render targets, left out), -1 for none.
func topRegister(c *dxbc.Container) int {
	top := -1
	p, err := c.Program()
	if err != nil {
		return top
	}
	for _, input := range []bool{true, false} {
		s, err := c.Signature(input)
		if err != nil || s == nil || !input && p.Type == dxbc.PixelShader {
			continue
		}
		for _, e := range s.Elements {
			if e.Register < 32 {
				top = max(top, int(e.Register))
			}
		}
	}
	return top
}
