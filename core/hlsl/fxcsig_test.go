package hlsl

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestFxcSignatureCorpus compiles the sources of a directory of fxc output
// and compares the signatures with fxc's, register by register. The
// directory D3DSIM_FXC_SOURCES holds fxc /Fh headers named SOURCE_ENTRY.inc
// (in it or in a Compiled folder beside the sources, as DirectXTK's
// Src/Shaders keeps them) next to SOURCE.fx or SOURCE.hlsl; each header's
// shader is compiled from SOURCE's ENTRY for the header's shader model and
// its input and output signatures must be fxc's: every element's semantic,
// register, mask, system value and type, an output's never-written
// components and the dcl_output declarations. The components an input's
// code reads (the signature's used column, dcl_input's masks) are counted
// and logged, not required: fxc unrolls [unroll] loops and drops dead
// components this compiler keeps. #include "FILE" is read from the
// source's directory. It skips without the variable: the corpus is a
// public project's (a fetched copy), never part of the repository.
// go test ./core/hlsl -run FxcSignatureCorpus -v prints the counts.
func TestFxcSignatureCorpus(t *testing.T) {
	incs := fxcCorpusHeaders(t)
	compiled, sameLayout, same, failed := 0, 0, 0, map[string]int{}
	for _, inc := range incs {
		src, entry, file, c, p := fxcCorpusShader(t, inc)
		if p == nil {
			continue
		}
		target := p.Profile()
		res, err := Compile(src, file, entry, target)
		if err != nil {
			msg := err.Error()
			if i := strings.Index(msg, ": error"); i >= 0 {
				msg = msg[i+2:]
			}
			failed[msg]++
			continue
		}
		compiled++
		mine, err := dxbc.Parse(res.Bytecode)
		if err != nil {
			t.Fatal(err)
		}
		// The layout must be fxc's; the components an input's code reads
		// may differ where fxc's optimiser goes further (it unrolls
		// [unroll] loops, so vin.Indices[i] of one bone reads .x only).
		layout, reads := "", ""
		for _, input := range []bool{true, false} {
			want, err1 := c.Signature(input)
			got, err2 := mine.Signature(input)
			if err1 != nil || err2 != nil {
				layout = fmt.Sprint(err1, err2)
				break
			}
			side := map[bool]string{true: "input: ", false: "output: "}[input]
			if d := sigDiff(want, got, !input); d != "" {
				layout = side + d
				break
			}
			if d := sigDiff(want, got, true); d != "" && reads == "" {
				reads = side + d
			}
		}
		if layout == "" {
			layout = declDiff(p, mine, "dcl_output")
		}
		if reads == "" {
			reads = declDiff(p, mine, "dcl_input")
		}
		switch {
		case layout != "":
			t.Errorf("%s: %s", filepath.Base(inc), layout)
		case reads != "":
			sameLayout++
			t.Logf("%s: reads other components: %s", filepath.Base(inc), reads)
		default:
			sameLayout++
			same++
		}
	}
	t.Logf("%d headers with their source; %d compiled; %d with fxc's signature layout (%d of them reading the same components)",
		len(incs), compiled, sameLayout, same)
	for msg, n := range failed {
		t.Logf("not compiled (%d): %s", n, msg)
	}
}

// fxcSource finds the source of an fxc header SOURCE_ENTRY.inc: SOURCE.fx
// or SOURCE.hlsl beside it or in its parent directory.
func fxcSource(inc string) (src []byte, entry, file string) {
	base := strings.TrimSuffix(filepath.Base(inc), ".inc")
	for i := strings.LastIndex(base, "_"); i > 0; i = strings.LastIndex(base[:i], "_") {
		name, entry := base[:i], base[i+1:]
		for _, d := range []string{filepath.Dir(inc), filepath.Dir(filepath.Dir(inc))} {
			for _, ext := range []string{".fx", ".hlsl"} {
				f := filepath.Join(d, name+ext)
				if b, err := os.ReadFile(f); err == nil {
					return inlineIncludes(b, d, 0), entry, f
				}
			}
		}
	}
	return nil, "", ""
}

// sigDiff says how two signatures differ: the first element whose
// semantic, register, mask, system value, type or, with used, the read (an
// input's) or never written (an output's) components are not the same.
func sigDiff(want, got *dxbc.Signature, used bool) string {
	row := func(e dxbc.Element) string {
		s := fmt.Sprintf("%s%d %s r%d %s %s", e.Name, e.Index, maskString(e.Mask), e.Register, e.SystemValue, e.ComponentType)
		if used {
			s += " used " + maskString(e.ReadWrite)
		}
		return s
	}
	for i := 0; i < len(want.Elements) || i < len(got.Elements); i++ {
		var w, g string
		if i < len(want.Elements) {
			w = row(want.Elements[i])
		}
		if i < len(got.Elements) {
			g = row(got.Elements[i])
		}
		if !strings.EqualFold(w, g) {
			return fmt.Sprintf("element %d: fxc %q, d3dsim %q", i, w, g)
		}
	}
	return ""
}

// inlineIncludes replaces each #include "FILE" line by FILE's text (read
// from dir), since the compiler reads one source: the corpus's shaders
// share their common parts through headers.
func inlineIncludes(src []byte, dir string, depth int) []byte {
	var out strings.Builder
	for _, line := range strings.SplitAfter(string(src), "\n") {
		t := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(t, "#include"); ok && depth < 8 {
			name := strings.Trim(strings.TrimSpace(rest), `"<>`)
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				out.Write(inlineIncludes(b, dir, depth+1))
				out.WriteString("\n")
				continue
			}
		}
		out.WriteString(line)
	}
	return []byte(out.String())
}

// declDiff compares the declarations whose names start with prefix
// (dcl_input, dcl_output) of fxc's program with the compiled one's, as
// sets: the registers and masks the code declares.
func declDiff(fxc *dxbc.Program, c *dxbc.Container, prefix string) string {
	p, err := c.Program()
	if err != nil {
		return err.Error()
	}
	decls := func(p *dxbc.Program) map[string]bool {
		m := map[string]bool{}
		for i := range p.Instructions {
			if s := p.Instructions[i].String(); strings.HasPrefix(s, prefix) {
				m[s] = true
			}
		}
		return m
	}
	want, got := decls(fxc), decls(p)
	for s := range want {
		if !got[s] {
			return fmt.Sprintf("fxc declares %q, d3dsim does not", s)
		}
	}
	for s := range got {
		if !want[s] {
			return fmt.Sprintf("d3dsim declares %q, fxc does not", s)
		}
	}
	return ""
}

// fxcCorpusShader reads an fxc header of the corpus with the source it was
// compiled from (fxcSource): nil p when either is missing or does not
// parse.
func fxcCorpusShader(t testing.TB, inc string) (src []byte, entry, file string, c *dxbc.Container, p *dxbc.Program) {
	t.Helper()
	if src, entry, file = fxcSource(inc); src == nil {
		return
	}
	raw, err := os.ReadFile(inc)
	if err != nil {
		t.Fatal(err)
	}
	blob, err := dxbc.ParseFxcHeader(string(raw))
	if err != nil || len(blob) == 0 {
		return
	}
	if c, err = dxbc.Parse(blob); err != nil {
		return
	}
	if p, err = c.Program(); err != nil {
		return nil, "", "", nil, nil
	}
	return
}

// fxcCorpusHeaders are the fxc headers (.inc) below D3DSIM_FXC_SOURCES, in
// order; the test skips without the variable.
func fxcCorpusHeaders(t testing.TB) []string {
	dir := os.Getenv("D3DSIM_FXC_SOURCES")
	if dir == "" {
		t.Skip("D3DSIM_FXC_SOURCES is not set")
	}
	var incs []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".inc") {
			incs = append(incs, p)
		}
		return nil
	})
	sort.Strings(incs)
	return incs
}
