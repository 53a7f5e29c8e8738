package hlsl

import (
	"strings"
	"testing"
)

// TestTemplateCountExpression: a multisampled texture's sample count
// written as a constant expression (static const int size = 2;
// Texture2DMS<float4, size - 1>), as fxc takes it; a count that is not a
// literal expression is refused.
func TestTemplateCountExpression(t *testing.T) {
	r := compileOK(t, "static const int size = 2;\nTexture2DMS<float4, size - 1> t;\nfloat4 main(float4 pos : sv_position) : sv_target { return t.Load(pos.yx, 0); }", "main", "ps_4_1")
	if tx := r.Program.Textures; len(tx) != 1 || tx[0].Samples != 1 {
		t.Errorf("textures %+v, want one of 1 sample", tx)
	}
	if _, err := Compile([]byte("uniform int k;\nTexture2DMS<float4, k + 1> t;\nfloat4 main() : sv_target { return t.Load(int2(0, 0), 0); }"), "c.hlsl", "main", "ps_4_1"); err == nil || !strings.Contains(err.Error(), "sample count must be a literal expression") {
		t.Errorf("a uniform count: %v", err)
	}
}
