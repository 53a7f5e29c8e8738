package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/assets"
)

// TestRunModes: d3dsim run --modes runs a scenario synchronously, in order
// and out of order and compares frames and query results (rule
// ASYNC-SAME): a summary line per mode, the first difference of each kind
// with its frame, pixel, query and values, and the CLI's exit codes (0
// holds, 1 a difference or a failure, 2 bad input).
func TestRunModes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	ooo, _ := assets.Scenario("out-of-order")
	occ, err := os.ReadFile("../../core/scenario/testdata/modes/occlusion-poll.d3ds")
	if err != nil {
		t.Fatal(err)
	}
	good := write("ooo.d3ds", string(ooo))
	bugFrame := write("bug.d3ds", "option bug=ASYNC-SAME\n"+string(ooo))
	bugQuery := write("occ.d3ds", "option bug=ASYNC-SAME\n"+string(occ))
	tests := []struct {
		desc string
		args []string
		code int
		want []string
	}{
		{"holds", []string{"run", good, "--modes"}, 0, []string{
			"sync:          frames: 1  hash: c3eed4ac35f4a9e6", "in-order:", "out-of-order:",
			"note in-order " + good + ":56:1: expected calls pfnRenderCb DxgkDdiRender DmaDependency", "(depends on the mode: not counted)",
			"ASYNC-SAME holds: frames (1) and query results (0) the same in every mode as in the sync run\nok\n"}},
		{"a pixel differs", []string{"run", "--modes", bugFrame}, 1, []string{
			"DIFF frame 0 differs in 992 pixels, the first at (32, 0): #ffffffff in sync, #0000ffff in out-of-order",
			"FAIL out-of-order " + bugFrame + ":", "ASYNC-SAME violated: 1 difference(s) with the sync run"}},
		{"a query differs", []string{"run", "--modes", "--seed", "1", bugQuery}, 1, []string{
			"DIFF line 26, run 1 of that statement: GetData occ (OCCLUSION) = 65536 in sync, 0 in out-of-order"}},
		{"with --sync", []string{"run", "--modes", "--sync", good}, 2, []string{"--modes runs the scenario three times, synchronous among them: it does not take --sync"}},
		{"with --out", []string{"run", "--modes", "--out", dir, good}, 2, []string{"it does not take --out"}},
		{"verify has no --modes", []string{"verify", "--modes", good}, 2, []string{"unknown flag --modes"}},
		{"a scenario that does not load", []string{"run", "--modes", write("bad.d3ds", "until hr == S_OK {\n}\n")}, 2, []string{"bad.d3ds:1:18: expected 'max N'"}},
		{"bad input at run time", []string{"run", "--modes", write("late.d3ds", "dev, imm = D3D11CreateDevice\nvb = dev.CreateBuffer ByteWidth=0 BindFlags=VERTEX_BUFFER\nexpect hr == E_INVALIDARG\nvb.Release\n")}, 2,
			[]string{"FAIL in-order " + dir + "/late.d3ds:4:1: vb is not set"}},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(tt.args...)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tt.desc, code, tt.code, out, errOut)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%s: output does not contain %q:\n%s%s", tt.desc, w, out, errOut)
			}
		}
	}
}
