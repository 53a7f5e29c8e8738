package shadertest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/hlsl"
)

// TestOne compiles the shaders of one case of the public suite
// (D3DSIM_ONE=FILE:LINE) and prints the source, the diagnostics and the
// listing: a tool for working on the compiler.
func TestOne(t *testing.T) {
	one := os.Getenv("D3DSIM_ONE")
	dir := os.Getenv("D3DSIM_SHADERTEST")
	if one == "" || dir == "" {
		t.Skip("set D3DSIM_SHADERTEST and D3DSIM_ONE=FILE:LINE")
	}
	name, line, _ := strings.Cut(one, ":")
	n, _ := strconv.Atoi(line)
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := f.Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Line != n {
			continue
		}
		for _, sh := range c.Shaders {
			s := c.sourceFor(sh)
			t.Logf("%s (%s), expect fail %v:\n%s", sh.Stage, sh.Profile(c.Model), sh.ExpectFail, strings.TrimLeft(s, "\n"))
			r, err := hlsl.Compile([]byte(s), name, "main", sh.Profile(c.Model))
			if err != nil {
				t.Logf("error: %v", err)
				continue
			}
			t.Logf("%s", r.Program)
		}
		if c.Kind == KindRun {
			o, why := refRun(c)
			t.Logf("ref: %s %s", o, why)
		}
	}
}
