// Package oracle finds the real tools of the field the tests check the
// simulator's bytecode with (Debian's vkd3d-compiler reads DXBC, spirv-val
// checks the SPIR-V it writes). A test without the tool is skipped, except
// under CI=true, where .ci/run installs them and a missing one fails.
package oracle

import (
	"os"
	"os/exec"
	"testing"
)

// Tool returns the path of the external tool name.
func Tool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and CI=true requires the oracle", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return path
}
