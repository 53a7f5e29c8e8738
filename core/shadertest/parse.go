package shadertest

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Limits on what one file may hold: a shader_test is text a user hands the
// CLI, so its size and shape are bounded before anything is kept.
const (
	maxFileBytes = 4 << 20 // a file
	maxLineBytes = 4096    // a line (shader_runner.c reads 256-byte lines)
	maxSections  = 4096    // sections in a file
	maxTexels    = 1 << 20 // 32-bit values of one resource's data
	maxSize      = 16384   // a resource's width or height
	maxUniforms  = 1 << 16 // 32-bit uniform values
)

// Section is one [header] of a shader_test file and the lines under it.
type Section struct {
	Line   int    // the header's line
	Header string // the text between the brackets: "pixel shader fail(sm<6)"
	Kind   string // require, shader, test, resource, sampler, input layout, preproc, preproc fail
	Stage  string // shaders: vs, ps, cs, hs, ds, gs, fx
	Quals  []Qualifier
	// Resources: rtv, dsv, srv, uav, vb; Slot is the N of [srv N].
	Res  string
	Slot int
	Body []Line
}

// Line is a line of a section's body with its number in the file.
type Line struct {
	N    int
	Text string // without the newline
}

// Qualifier is a word of a shader header with its condition: fail(sm<6)
// is {Name: "fail", Cond: "sm<6"}, todo is {Name: "todo"}.
type Qualifier struct {
	Name string
	Cond string
}

// File is a parsed shader_test file.
type File struct {
	Name     string
	Sections []*Section
}

// Error is a malformed file: the line and what is wrong, as
// shader_runner.c's fatal errors name them.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Parse splits a shader_test file into its sections, as
// tests/shader_runner.c reads it: a line starting with '[' opens a
// section, '%' starts a comment line, blank lines are skipped outside
// shader sources (which keep every line).
func Parse(name string, src []byte) (*File, error) {
	if len(src) > maxFileBytes {
		return nil, &Error{name, 0, fmt.Sprintf("file larger than %d bytes", maxFileBytes)}
	}
	f := &File{Name: name}
	var cur *Section
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes+2)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(text, "[") {
			s, err := parseHeader(name, n, text)
			if err != nil {
				return nil, err
			}
			if len(f.Sections) >= maxSections {
				return nil, &Error{name, n, fmt.Sprintf("more than %d sections", maxSections)}
			}
			f.Sections = append(f.Sections, s)
			cur = s
			continue
		}
		if cur == nil {
			if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "%") {
				continue
			}
			return nil, &Error{name, n, fmt.Sprintf("malformed line %q outside a section", clip(text))}
		}
		source := cur.Kind == "shader" || cur.Kind == "preproc" || cur.Kind == "preproc fail"
		comment := strings.TrimSpace(text) == "" || strings.HasPrefix(text, "%")
		switch {
		case source && comment:
			// shader_runner.c drops blank and comment lines everywhere; a
			// source keeps them empty, so its line numbers are the file's.
			cur.Body = append(cur.Body, Line{N: n})
		case !comment:
			cur.Body = append(cur.Body, Line{N: n, Text: text})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{name, n + 1, fmt.Sprintf("line longer than %d bytes", maxLineBytes)}
	}
	return f, nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// parseHeader reads "[pixel shader fail(sm<6) todo]", "[srv 0]", "[test]".
func parseHeader(file string, n int, text string) (*Section, error) {
	end := strings.LastIndexByte(text, ']')
	if end < 0 || strings.TrimSpace(text[end+1:]) != "" {
		return nil, &Error{file, n, fmt.Sprintf("malformed section header %q", clip(text))}
	}
	h := strings.TrimSpace(text[1:end])
	s := &Section{Line: n, Header: h}
	switch h {
	case "require", "test", "input layout", "preproc", "preproc fail":
		s.Kind = h
		return s, nil
	case "dsv":
		s.Kind, s.Res = "resource", "dsv"
		return s, nil
	}
	for _, r := range []string{"srv", "uav", "rtv", "vb", "sampler"} {
		if rest, ok := strings.CutPrefix(h, r+" "); ok {
			slot, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || slot < 0 || slot > 127 {
				return nil, &Error{file, n, fmt.Sprintf("malformed slot in [%s]", clip(h))}
			}
			s.Kind, s.Res, s.Slot = "resource", r, slot
			if r == "sampler" {
				s.Kind, s.Res = "sampler", ""
			}
			return s, nil
		}
	}
	stages := []struct{ word, stage string }{
		{"pixel shader", "ps"}, {"vertex shader", "vs"}, {"compute shader", "cs"}, {"hull shader", "hs"},
		{"domain shader", "ds"}, {"geometry shader", "gs"}, {"effect", "fx"},
	}
	for _, st := range stages {
		rest, ok := strings.CutPrefix(h, st.word)
		if !ok || rest != "" && rest[0] != ' ' {
			continue
		}
		s.Kind, s.Stage = "shader", st.stage
		q, err := parseQualifiers(rest)
		if err != nil {
			return nil, &Error{file, n, fmt.Sprintf("malformed section header %q: %v", clip(text), err)}
		}
		s.Quals = q
		return s, nil
	}
	return nil, &Error{file, n, fmt.Sprintf("unknown section [%s]", clip(h))}
}

// parseQualifiers reads " fail(sm<6) todo notimpl(sm<4)".
func parseQualifiers(s string) ([]Qualifier, error) {
	var out []Qualifier
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out, nil
		}
		i := 0
		for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
			i++
		}
		name := s[:i]
		switch name {
		case "fail", "todo", "notimpl", "bug":
		default:
			return nil, fmt.Errorf("unknown qualifier %q", clip(s))
		}
		q := Qualifier{Name: name}
		s = s[i:]
		if strings.HasPrefix(s, "(") {
			end := strings.IndexByte(s, ')')
			if end < 0 {
				return nil, fmt.Errorf("unclosed '(' after %s", name)
			}
			q.Cond = s[1:end]
			if _, err := evalCond(q.Cond, sm40); err != nil {
				return nil, err
			}
			s = s[end+1:]
		}
		out = append(out, q)
	}
}

// Shader models, as tests/shader_runner.h numbers them.
type Model int

const (
	sm20 Model = iota
	sm30
	sm40
	sm41
	sm50
	sm51
	sm60
)

var modelNames = []string{"2.0", "3.0", "4.0", "4.1", "5.0", "5.1", "6.0"}

func (m Model) String() string {
	if m >= 0 && int(m) < len(modelNames) {
		return modelNames[m]
	}
	return "?"
}

// profile is the model's part of a target name: 4_0, 5_0.
func (m Model) profile() string { return strings.ReplaceAll(m.String(), ".", "_") }

// evalCond evaluates a qualifier's condition for the shader model the
// case compiles with: "sm<6", "sm>=4 & sm<6", "sm<4 | sm>=6", or a runner
// tag (d3d12, glsl, msl, mvk, vulkan), which never holds on Direct3D 11.
func evalCond(c string, m Model) (bool, error) {
	any := false
	for _, alt := range strings.Split(c, "|") {
		all := true
		for _, term := range strings.Split(alt, "&") {
			term = strings.TrimSpace(term)
			switch term {
			case "sm>=4":
				all = all && m >= sm40
			case "sm>=6":
				all = all && m >= sm60
			case "sm<4":
				all = all && m < sm40
			case "sm<6":
				all = all && m < sm60
			case "d3d12", "glsl", "msl", "mvk", "vulkan":
				all = false
			default:
				return false, fmt.Errorf("unknown condition %q", clip(term))
			}
		}
		any = any || all
	}
	return any, nil
}

// holds reports whether a qualifier applies at model m.
func (q Qualifier) holds(m Model) bool {
	if q.Cond == "" {
		return true
	}
	ok, _ := evalCond(q.Cond, m)
	return ok
}
