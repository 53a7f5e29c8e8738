package hlsl

import (
	"strings"
	"testing"
)

// TestProfileRegisters: register(PROFILE, REG) applies to its stage or
// exact profile only, and the conflicts fxc refuses are refused on their
// line (fxc lets no reservation take precedence over another).
func TestProfileRegisters(t *testing.T) {
	for _, c := range []struct {
		decl, target string
		slot         int    // the texture's t# (-1: an error)
		err          string // the error's text
	}{
		{"register(t3)", "ps_4_0", 3, ""},
		{"register(ps, t3)", "ps_4_0", 3, ""},
		{"register(vs, t3)", "ps_4_0", 0, ""},
		{"register(ps_4_1, t3)", "ps_4_0", 0, ""},
		{"register(ps_4_1, t3)", "ps_4_1", 3, ""},
		{"register(ps_4_1, t3) : register(ps_4_0, t2)", "ps_4_0", 2, ""},
		{"register(ps, t3) : register(ps_5_0, t2)", "ps_4_0", 3, ""},
		{"register(ps, t[3])", "ps_4_0", 3, ""},
		{"register(ps, t3) : register(ps, t3)", "ps_4_0", 3, ""},
		{"register(ps[2], t3)", "ps_4_0", 0, ""},
		{"register(s1) : register(t3)", "ps_4_0", 3, ""},
		{"register(ps, t3) : register(ps_5_0, t2)", "ps_5_0", -1, "(2,36): error X3000: conflicting register reservations for 'tex' in ps_5_0: t3 and t2"},
		{"register(ps_4_0, t3) : register(t2)", "ps_4_1", -1, "conflicting register reservations for 'tex': t3 and t2"},
		{"register(vs, t3) : register(vs, t2)", "ps_4_0", -1, "conflicting register reservations for 'tex': t3 and t2"},
		{"register(ps_6_0, t3)", "ps_4_0", -1, "(2,17): error X3000: syntax error: unknown profile 'ps_6_0'"},
		{"register(PS, t3)", "ps_4_0", -1, "unknown profile 'PS'"},
		{"register(t3, ps_4_0)", "ps_4_0", -1, "unknown profile 't3'"},
	} {
		src := "// a texture\nTexture2D tex : " + c.decl + ";\nfloat4 main() : SV_Target { return tex.Load(int3(0, 0, 0)); }"
		r, err := Compile([]byte(src), "t.hlsl", "main", c.target)
		if c.slot < 0 {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s at %s: %v, want %q", c.decl, c.target, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s at %s: %v", c.decl, c.target, err)
			continue
		}
		found := false
		for _, b := range r.Reflection().Bindings {
			if b.Name == "tex" {
				found = true
				if int(b.BindPoint) != c.slot {
					t.Errorf("%s at %s: t%d, want t%d", c.decl, c.target, b.BindPoint, c.slot)
				}
			}
		}
		if !found {
			t.Errorf("%s at %s: no binding for tex", c.decl, c.target)
		}
	}
}
