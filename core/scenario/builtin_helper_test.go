package scenario

import (
	"testing"

	"d3dsim/core/builtins"
	"d3dsim/core/d3d11"
)

// createBuiltin creates built-in shader builtin on dev from its bytecode,
// as builtin:NAME does.
func createBuiltin(t testing.TB, dev *d3d11.Device, name, builtin string) (*d3d11.Shader, error) {
	t.Helper()
	s, err := builtins.Lookup(builtin)
	if err != nil {
		t.Fatal(err)
	}
	return dev.CreateShaderBytecode(name, s.Stage, s.Bytecode)
}
