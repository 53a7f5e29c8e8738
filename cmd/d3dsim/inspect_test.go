package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `d3dsim inspect` prints each query's answer, as text and as JSON, about
// the inspector's test scenario (core/inspect/testdata/layers.d3ds: a red
// quad, a farther green one, a discarded blue one, a blended white one).
func TestInspect(t *testing.T) {
	file := "../../core/inspect/testdata/layers.d3ds"
	for _, c := range []struct {
		desc string
		args []string
		want []string
	}{
		{"state", []string{"--at", "Draw#4", "--state"}, []string{
			"state of IC at event 236: Draw (event 236, line 68, IC)",
			"blend state          runtime: blend (h22): SRC_ALPHA * src ADD INV_SRC_ALPHA * dst, write mask 0xf",
			"UMD:     SET_CB stage=1 slot=0 addr=0x0 size=32 (word 314); a7+0 (list entry 0) patched at word 317"}},
		{"constant buffer", []string{"--at", "Draw#4", "--resource", "tint"}, []string{
			"as cbuffer: cbuffer Tint of ps (PS, slot 0), 32 bytes",
			"tint | float4 | 0 | (0.5, 0.5, 0.5, 1)", "cut | float | 16 | 2"}},
		{"texture", []string{"--at", "Present", "--resource", "bb", "--region", "5,7,1,1"}, []string{
			"Texture2D 16x16 R8G8B8A8_UNORM", "5,7  0.74902 0.25098 0.25098 0.501961  bf404080"}},
		{"pixel history", []string{"--at", "Present", "--pixel", "5,7", "--target", "bb"}, []string{
			"failed the depth test: depth 0.75 LESS 0.25: failed",
			"discarded by the pixel shader (discard): nothing written",
			"src (0.5, 0.5, 0.5, 0.5), dst (1, 0, 0, 1), factor (1, 1, 1, 1) -> (0.75, 0.25, 0.25, 0.5)",
			"read by the present's copy into the redirection surface"}},
		{"shader steps", []string{"--at", "Draw#1", "--step", "5,7"}, []string{
			"HLSL 19: float4 c = i.col * tint; | DXBC mul r0.xyzw, v1.xyzw, cb0[0].xyzw | ISA mul r0, v1, cb0[0]",
			"o0 = (1, 0, 0, 1)", "the fragment was written"}},
		{"a vertex's steps", []string{"--at", "Draw#1", "--step-vertex", "2,0"}, []string{
			"vertex 2 (SV_VertexID 2) of instance 0 in Draw (event 204, line 60, IC): vs shader"}},
		{"a DMA buffer's packets", []string{"--at", "Draw#4", "--dma"}, []string{
			"allocation list\n", "patch locations\n", "DRAW count=6 start=0"}},
	} {
		code, out, errOut := runCLI(append([]string{"inspect", file}, c.args...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", c.desc, code, errOut)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.desc, w, out)
			}
		}
		code, out, errOut = runCLI(append([]string{"inspect", file, "--json"}, c.args...)...)
		var v map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v["event"] == nil && v["id"] == nil { // (a DMA buffer's card has its id)
			t.Errorf("%s --json: exit %d, %s %.200s", c.desc, code, errOut, out)
		}
	}
}

// Bad questions exit 2 with what is wrong.
func TestInspectBadInput(t *testing.T) {
	file := "../../core/inspect/testdata/layers.d3ds"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--at", "Draw"}, "ask one of --state"},
		{[]string{"--at", "Draw", "--state", "--pixel", "1,1"}, "ask one of --state"},
		{[]string{"--state"}, "--at EVENT is needed"},
		{[]string{"--at", "Draw#9", "--state"}, "Draw was called 4 times"},
		{[]string{"--at", "Present", "--pixel", "1,1"}, "needs --target NAME"},
		{[]string{"--at", "Present", "--pixel", "1", "--target", "bb"}, "want 2 whole numbers"},
		{[]string{"--at", "Present", "--pixel", "99,1", "--target", "bb"}, "d3dsim inspect: pixel 99,1 is outside bb (16x16)"},
		{[]string{"--at", "Present", "--resource", "nothing"}, "nothing names nothing"},
		{[]string{"--at", "Present", "--pixel", "1,1", "--target", "bb", "--slice", "1"}, "1 mip level and 1 slice: mip 0 slice 1 does not exist"},
		{[]string{"--at", "Present", "--step", "1,1"}, "stepping a pixel needs a Draw"},
		{[]string{"--at", "Present", "--resource", "bb", "--as", "R8G8_UNORM"}, "not of its size"},
		{[]string{"--at", "Draw", "--step-vertex", "x"}, "--step-vertex \"x\""},
		{[]string{"--at", "Draw", "--step-vertex", "1,2,3"}, "N or N,INSTANCE"},
		{[]string{"--at", "Draw", "--step-vertex", "99"}, "shaded no vertex 99"},
		{[]string{"--at", "Draw", "--step-thread", "0,0,0"}, "GX,GY,GZ/TX,TY,TZ"},
		{[]string{"--at", "Draw", "--step-thread", "0,0,0/0,0,0"}, "stepping a compute thread needs a Dispatch"},
		{[]string{"--memory", "--state"}, "ask one of --state"},
	} {
		code, _, errOut := runCLI(append([]string{"inspect", file}, c.args...)...)
		if code != exitBadIn || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// Every `d3dsim inspect` and `d3dsim diff` example in docs/inspect.md prints what the doc
// shows: each line the doc quotes is a line of the output, in order (the
// doc may leave lines out).
func TestInspectDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/inspect.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(doc), "\n")
	n := 0
	for i := 0; i < len(lines); i++ {
		verb := "inspect"
		cmd, ok := strings.CutPrefix(lines[i], "$ d3dsim inspect ")
		if !ok {
			if cmd, ok = strings.CutPrefix(lines[i], "$ d3dsim diff "); !ok {
				continue
			}
			verb = "diff"
		}
		var want []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "$ ") && lines[i] != "```"; i++ {
			want = append(want, lines[i])
		}
		i--
		args := strings.Fields(cmd)
		for k, a := range args {
			if strings.HasSuffix(a, ".d3ds") {
				args[k] = filepath.Join("..", "..", a)
			}
		}
		code, out, errOut := runCLI(append([]string{verb}, args...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", cmd, code, errOut)
			continue
		}
		// diff labels each run by its file: as the doc names it.
		got := strings.Split(strings.ReplaceAll(out, filepath.Join("..", "..")+"/", ""), "\n")
		k := 0
		for _, w := range want {
			for k < len(got) && got[k] != w {
				k++
			}
			if k == len(got) {
				t.Errorf("%s: the doc's line %q is not in the output (in order):\n%s", cmd, w, out)
				break
			}
		}
		n++
	}
	if n < 6 {
		t.Errorf("%d examples in docs/inspect.md, want at least 6", n)
	}
}

// d3dsim diff: two files with a mask, one file in two modes, and bad
// questions.
func TestDiff(t *testing.T) {
	a, b := "../../assets/scenarios/hello-triangle.d3ds", "../../core/inspect/testdata/hello-narrow.d3ds"
	mask := filepath.Join(t.TempDir(), "mask.png")
	code, out, errOut := runCLI("diff", a, b, "--at", "Draw", "--mask", mask)
	if code != 0 || !strings.Contains(out, "RSSetViewports at line 24") || !strings.Contains(out, "1 binding differ") {
		t.Errorf("diff: exit %d %s\n%s", code, errOut, out)
	}
	if png, err := os.ReadFile(mask); err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Errorf("mask: %v", err)
	}
	code, out, _ = runCLI("diff", "../../assets/scenarios/out-of-order.d3ds", "--modes", "--a", "in-order", "--b", "out-of-order", "--json")
	var c struct {
		A, B   string
		Calls  struct{ Same bool }
		Pixels struct{ Count int }
	}
	if err := json.Unmarshal([]byte(out), &c); code != 0 || err != nil || c.A != "in-order" || c.B != "out-of-order" || !c.Calls.Same || c.Pixels.Count != 0 {
		t.Errorf("--modes --json: exit %d %v %+v", code, err, c)
	}
	for _, bad := range [][]string{
		{"diff", a},
		{"diff", a, b, "--a", "sync"},
		{"diff", a, "--modes", "--b", "fast"},
		{"diff", a, "../../nothing.d3ds"},
	} {
		if code, _, errOut := runCLI(bad...); code != exitBadIn || !strings.HasPrefix(errOut, "d3dsim diff: ") {
			t.Errorf("%v: exit %d %q", bad, code, errOut)
		}
	}
}
