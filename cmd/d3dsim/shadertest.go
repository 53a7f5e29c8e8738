package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"d3dsim/core/hlsl"
	"d3dsim/core/shadertest"
)

// maxShaderTest bounds a shader_test file read from disk.
const maxShaderTest = 4 << 20

// cmdShadertest runs shader_test files (vkd3d's HLSL suite format,
// docs/shaders.md): every case through the whole stack, a line per case
// that did not pass and the counts by category, or JSON.
func cmdShadertest(a args, stdout, stderr io.Writer) int {
	if len(a.pos) == 0 {
		fmt.Fprintf(stderr, "d3dsim shadertest: give FILE.shader_test or a directory of them\n%s", usage)
		return exitBadIn
	}
	var files []string
	for _, p := range a.pos {
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim shadertest: %v\n", err)
			return exitBadIn
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(p, "*.shader_test"))
		if len(m) == 0 {
			fmt.Fprintf(stderr, "d3dsim shadertest: no .shader_test files in %s\n", p)
			return exitBadIn
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	o := shadertest.Options{Scenarios: a.flags["out"] != ""}
	if cmd := a.flags["compiler"]; cmd != "" {
		o.Compile = externalCompiler(cmd)
	}
	rep := &shadertest.Report{}
	for _, f := range files {
		src, err := readLimited(f, maxShaderTest)
		if err != nil {
			rep.Errors = append(rep.Errors, err.Error())
			continue
		}
		rep.RunFile(filepath.Base(f), src, o)
	}
	if dir := a.flags["out"]; dir != "" {
		if err := writeCaseScenarios(dir, rep, a.flags["all"] == "true"); err != nil {
			fmt.Fprintf(stderr, "d3dsim shadertest: %v\n", err)
			return exitIO
		}
	}
	if a.flags["json"] == "true" {
		if err := rep.WriteJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "d3dsim shadertest: %v\n", err)
			return exitIO
		}
	} else {
		rep.WriteTable(stdout, a.flags["all"] == "true")
	}
	if len(rep.Errors) > 0 {
		return exitBadIn
	}
	all, _ := rep.Tally()
	if all.Wrong+all.CompileFail+all.Accepted+all.Failed > 0 {
		return exitFailed
	}
	return exitOK
}

// writeCaseScenarios writes each case that did not pass (every case with
// --all) as DIR/FILE-LINE.d3ds, which `d3dsim run` and `d3dsim link` take.
func writeCaseScenarios(dir string, rep *shadertest.Report, all bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range rep.Results {
		if r.Scenario == "" || !all && r.Outcome == shadertest.Pass {
			continue
		}
		name := fmt.Sprintf("%s-%d.d3ds", strings.TrimSuffix(r.File, ".shader_test"), r.Line)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(r.Scenario), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// externalCompiler runs another HLSL compiler on each shader: a command
// named vkd3d-compiler gets its options (-x hlsl -b dxbc-tpf -p PROFILE -e
// main -o OUT), any other fxc's (/T PROFILE /E main /Fo OUT, and /Gec for a
// case with the backcompat option), as `d3dsim fxc` and fxc.exe take them. Its standard error is the diagnostic.
func externalCompiler(cmd string) shadertest.Bytecode {
	return func(stage, profile, source string, flags hlsl.Flags) ([]byte, error) {
		dir, err := os.MkdirTemp("", "d3dsim-shadertest")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		in, out := filepath.Join(dir, "shader.hlsl"), filepath.Join(dir, "shader.cso")
		if err := os.WriteFile(in, []byte(source), 0o644); err != nil {
			return nil, err
		}
		words := strings.Fields(cmd)
		args := append([]string{}, words[1:]...)
		if strings.Contains(filepath.Base(words[0]), "vkd3d-compiler") {
			args = append(args, "-x", "hlsl", "-b", "dxbc-tpf", "-p", profile, "-e", "main", "-o", out, in)
		} else {
			if flags&hlsl.FlagBackCompat != 0 {
				args = append(args, "/Gec")
			}
			args = append(args, "/T", profile, "/E", "main", "/Fo", out, in)
		}
		var errb bytes.Buffer
		c := exec.Command(words[0], args...)
		c.Stderr = &errb
		if err := c.Run(); err != nil {
			msg := strings.TrimSpace(errb.String())
			if msg == "" {
				msg = err.Error()
			}
			return nil, fmt.Errorf("%s", msg)
		}
		return readLimited(out, 4<<20)
	}
}
