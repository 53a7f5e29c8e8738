package hlsl

import (
	"strings"
	"testing"
)

// TestUnusedLargeLocalArray: a local array past the registers is taken
// when nothing uses it, as fxc takes it (vkd3d's array-dimension case);
// a use is refused there, naming the limit; a declaration past the
// elements any local may declare, or a too large array with an
// initialiser, is refused at the declaration.
func TestUnusedLargeLocalArray(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"float4 main() : sv_target {\n float e[65536];\n float a[2] = {0.25, 0.5};\n return a[1];\n}", ""},
		{"float4 main() : sv_target {\n float e[65536];\n e[3] = 1;\n return 0;\n}", "t.hlsl(3,2): error X3000: 'e': an array of 65536 elements (65536 float) is more than the 4096 registers a local array may take"},
		{"float4 main() : sv_target {\n float4 e[2][4096];\n return e[0][1];\n}", "t.hlsl(3,9): error X3000: 'e': an array of 8192 elements"},
		{"float4 main() : sv_target {\n float e[65536][300];\n return 0;\n}", "t.hlsl(2,10): error X3000: array of 19660800 elements (65536x300 float): more than 16777216, the elements a local array may declare"},
		{"float4 main() : sv_target {\n float e[5000] = (float[5000])0;\n return 0;\n}", "array dimension 5000 out of range [1, 4096]"},
		{"float e[65536];\nfloat4 main() : sv_target { return 0; }", "array dimension 65536 out of range [1, 4096]"},
	} {
		_, err := Compile([]byte(c.src), "t.hlsl", "main", "ps_4_0")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s\nrefused: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s\nerr = %v\nwant %q", c.src, err, c.want)
		}
	}
}
