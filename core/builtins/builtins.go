// Package builtins is the built-in shaders a scenario names builtin:NAME
// (vs_passthrough, vs_transform, ps_vertexcolor, ps_solid, ps_texture,
// ps_fault): HLSL sources embedded with the assets (assets/shaders, one
// file per shader), compiled by package hlsl like any HLSL, once per
// process, into the DXBC that CreateVertexShader and CreatePixelShader
// take. From the runtime down a built-in is bytecode like any other: the
// runtime validates it, the UMD translates it into the GPU's instruction
// set in a code allocation of its own and binds it with SET_PROGRAM. The
// only thing built-in about them is that a vertex shader drawn without an
// input layout reads the built-in 36-byte vertex (position, colour,
// texture coordinate) by semantic, which the UMD does for any vertex
// shader.
package builtins

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"d3dsim/assets"
	"d3dsim/core/hlsl"
)

// Entry is the entry point of every built-in shader.
const Entry = "main"

// Shader is one built-in shader: its source and its compiled bytecode.
type Shader struct {
	Name     string // NAME of builtin:NAME, the source file's name
	Stage    string // "vs" or "ps", from the name's prefix
	Target   string // the profile it is compiled for: vs_4_0 or ps_4_0
	HLSL     string // the source, as assets/shaders holds it
	Bytecode []byte // the DXBC container (a copy: the caller may keep it)
}

// entry compiles one built-in the first time it is asked for.
type entry struct {
	once sync.Once
	s    *Shader
	err  error
}

// table holds one entry per embedded source, keyed by name: the names
// come from the embedded files, which never change while the process
// runs, so each compiles at most once.
var table = sync.OnceValue(func() map[string]*entry {
	t := map[string]*entry{}
	for _, n := range assets.BuiltinShaders() {
		t[n] = &entry{}
	}
	return t
})

// Names lists the built-in shaders of stage ("vs" or "ps"; "" for both),
// sorted.
func Names(stage string) []string {
	var out []string
	for _, n := range assets.BuiltinShaders() {
		if st, ok := stageOf(n); ok && (stage == "" || st == stage) {
			out = append(out, n)
		}
	}
	return out
}

// stageOf is the stage a built-in's name says: vs_NAME or ps_NAME.
func stageOf(name string) (string, bool) {
	st, _, ok := strings.Cut(name, "_")
	return st, ok && (st == "vs" || st == "ps")
}

// Lookup returns built-in shader name, compiling it on first use. An
// unknown name is an error listing the known ones; so is a source that
// does not compile (a bug in the embedded file, never a panic).
func Lookup(name string) (*Shader, error) {
	e := table()[name]
	if e == nil {
		return nil, fmt.Errorf("no built-in shader %q (known: %s)", name, strings.Join(Names(""), ", "))
	}
	e.once.Do(func() { e.s, e.err = compile(name) })
	if e.err != nil {
		return nil, e.err
	}
	s := *e.s
	s.Bytecode = bytes.Clone(s.Bytecode)
	return &s, nil
}

// compile compiles assets/shaders/NAME.hlsl for its stage's 4_0 profile:
// the built-ins need nothing of Shader Model 5, so every Direct3D 11
// feature level from 10_0 up takes them.
func compile(name string) (*Shader, error) {
	stage, ok := stageOf(name)
	if !ok {
		return nil, fmt.Errorf("built-in shader %s: its name must start with vs_ or ps_", name)
	}
	src, ok := assets.BuiltinShader(name)
	if !ok {
		return nil, fmt.Errorf("no built-in shader %q", name)
	}
	target := stage + "_4_0"
	res, err := hlsl.Compile(src, name+".hlsl", Entry, target)
	if err != nil {
		return nil, fmt.Errorf("built-in shader %s: %v", name, err)
	}
	return &Shader{Name: name, Stage: stage, Target: target, HLSL: string(src), Bytecode: res.Bytecode}, nil
}
