package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/umd/translate"
)

// ShaderCode is what the driver made of one of its shaders: the built-in
// program SET_SHADER selects, or the program it translated from the
// bytecode and placed in its own allocation for SET_PROGRAM. It is for
// tools that show a shader's path down to the GPU (the page's Shaders
// view); it is not a DDI, and the runtime never asks for it.
type ShaderCode struct {
	Stage   uint32 // isa.StageVS or isa.StagePS
	Builtin uint32 // the built-in program (isa.Prog*); isa.ProgNone for a program from bytecode
	// Program is the translation (nil for a built-in): its Code is the
	// words in the allocation. Shared with the driver: read only.
	Program *translate.Shader
}

// ShaderCode answers what shader h is made of, false when the device has no
// such shader (never created, or destroyed since).
func (d *Device) ShaderCode(h ddi.HSHADER) (ShaderCode, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.shaders[h]
	if s == nil {
		return ShaderCode{}, false
	}
	return ShaderCode{Stage: s.Stage, Builtin: s.Program, Program: s.prog}, true
}
