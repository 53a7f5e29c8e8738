package apitrace

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"d3dsim/core/scenario"
)

// apitrace-tests' D3D11 reference dumps (the expected `apitrace dump` of
// its test programs, with <name> bindings and <> wildcards) import and run
// with nothing unsupported. They are read from a copy of apitrace-tests:
// APITRACE_TESTS names a checkout or a bare git directory of it; without
// one the test skips (the repository holds no file of apitrace's).

// refFile reads path from the apitrace-tests copy.
func refFile(t *testing.T, path string) []byte {
	t.Helper()
	dir := os.Getenv("APITRACE_TESTS")
	if dir == "" {
		t.Skip("APITRACE_TESTS is not set: give a checkout (or bare git directory) of apitrace-tests")
	}
	if b, err := os.ReadFile(filepath.Join(dir, path)); err == nil {
		return b
	}
	b, err := exec.Command("git", "--git-dir", dir, "show", "HEAD:"+path).Output()
	if err != nil {
		t.Fatalf("%s in %s: %v", path, dir, err)
	}
	return b
}

func TestApitraceTestsReferences(t *testing.T) {
	for _, c := range []struct {
		ref, png string
	}{
		{"apps/d3d11/tri.ref.txt", "apps/d3d11/tri.ref.present.png"},
		{"apps/d3d11/map_buffer_no_overwrite.ref.txt", ""},
		{"apps/d3d11/map_buffer_staging.ref.txt", ""},
		{"apps/d3d11_1/tri.ref.txt", "apps/d3d11_1/tri.ref.present.png"},
	} {
		t.Run(c.ref, func(t *testing.T) {
			src, err := NewDumpReader(bytes.NewReader(refFile(t, c.ref)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			text, rep, err := Import(src, ImportOptions{Name: filepath.Base(c.ref)})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Unsupported) > 0 {
				t.Errorf("unsupported calls: %+v", rep.Unsupported)
			}
			t.Logf("%d calls, %d statements, %d notices", rep.Calls, rep.Statements, rep.NoticeCount)
			s, err := scenario.Load(c.ref, []byte(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, numbered(text))
			}
			r := scenario.NewRun(s, scenario.Overrides{})
			sum := r.Finish()
			if !sum.OK() {
				t.Fatalf("the imported scenario fails: %v", sum.Failures)
			}
			if c.png == "" {
				return
			}
			// The dump leaves out the vertices (blob(96)): the frame is
			// the clear colour the reference image has around its triangle.
			img, err := png.Decode(bytes.NewReader(refFile(t, c.png)))
			if err != nil {
				t.Fatal(err)
			}
			if sum.Frames != 1 {
				t.Fatalf("%d frames, want 1", sum.Frames)
			}
			// D3D11 lets a float's conversion to UNORM land on either
			// neighbour (0.3 × 255 = 76.5: 76 in the reference, 77 here).
			rr, g, b, a := img.At(0, 0).RGBA()
			want := []uint32{rr >> 8, g >> 8, b >> 8, a >> 8}
			got := r.Pixel(0, 0)
			var gv [4]uint32
			fmt.Sscanf(got, "#%02x%02x%02x%02x", &gv[0], &gv[1], &gv[2], &gv[3])
			for i := range gv {
				if d := int(gv[i]) - int(want[i]); d < -1 || d > 1 {
					t.Errorf("pixel (0, 0) is %s; the reference image's is #%02x%02x%02x%02x", got, want[0], want[1], want[2], want[3])
					break
				}
			}
		})
	}
}
