package d3d11

import (
	"testing"

	"d3dsim/core/builtins"
)

// createBuiltin creates built-in shader builtin (its stage from the name's
// prefix) as an application would: from its compiled bytecode.
func createBuiltin(d *Device, name, builtin string) (*Shader, error) {
	s, err := builtins.Lookup(builtin)
	if err != nil {
		return nil, err
	}
	return d.CreateShaderBytecode(name, s.Stage, s.Bytecode)
}

// builtinCode is a built-in shader's bytecode.
func builtinCode(t *testing.T, name string) []byte {
	t.Helper()
	s, err := builtins.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s.Bytecode
}
