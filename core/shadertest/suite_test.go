package shadertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublicSuite runs the vkd3d HLSL suite from a fetched copy when
// D3DSIM_SHADERTEST names its tests/hlsl directory (docs/shaders.md): it
// needs the suite's files, which are never part of the repository, so it
// is opt-in and never runs under CI.
func TestPublicSuite(t *testing.T) {
	dir := os.Getenv("D3DSIM_SHADERTEST")
	if dir == "" {
		t.Skip("set D3DSIM_SHADERTEST to the suite's tests/hlsl directory to run it")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .shader_test files in %s (%v)", dir, err)
	}
	rep := &Report{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep.RunFile(filepath.Base(f), src, Options{})
	}
	if out := os.Getenv("D3DSIM_SHADERTEST_JSON"); out != "" {
		fh, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		if err := rep.WriteJSON(fh); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := rep.Tally()
	var b strings.Builder
	rep.WriteTable(&b, false)
	t.Log("\n" + b.String())
	if all.Wrong > 0 {
		t.Errorf("%d cases gave wrong results", all.Wrong)
	}
}
