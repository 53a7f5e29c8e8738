package hlsl

import (
	"fmt"
	"strings"
)

// Flags are the compile flags of D3DCompile's Flags1 ("D3DCOMPILE
// Constants"), with fxc's values, that change what this compiler takes.
type Flags uint32

// FlagBackCompat is D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY, fxc's /Gec
// ("enable backwards compatibility mode"): a shader model 4 or 5 target
// then takes what only shader models 1-3 had, as fxc does:
//   - the tex1D, tex2D, tex3D and texCUBE sampling functions and their lod,
//     bias, grad and proj forms (legacy.go), which read a sampler as a
//     Direct3D 9 shader does;
//   - a global uniform of type half (fxc refuses one otherwise).
//
// fxc's mode also takes writes to a global uniform and reads the shader
// model 1-3 output semantics (POSITION, COLOR, DEPTH) as system values;
// this compiler does neither yet, with or without the flag.
// Off by default, like fxc's. Declaring a sampler2D is allowed either way
// (fxc refuses the keyword only in strict mode, /Ges).
const FlagBackCompat Flags = 0x1000

// flagNames are the flags by their D3DCOMPILE_ names without the prefix.
var flagNames = []struct {
	name string
	f    Flags
}{
	{"ENABLE_BACKWARDS_COMPATIBILITY", FlagBackCompat},
}

// ParseFlag reads one flag by its D3DCOMPILE_ name, with or without the
// D3DCOMPILE_ prefix, in any case.
func ParseFlag(name string) (Flags, error) {
	up := strings.TrimPrefix(strings.ToUpper(name), "D3DCOMPILE_")
	for _, n := range flagNames {
		if up == n.name {
			return n.f, nil
		}
	}
	known := make([]string, len(flagNames))
	for i, n := range flagNames {
		known[i] = n.name
	}
	return 0, fmt.Errorf("unknown compile flag %q (known: %s)", cutName(name), strings.Join(known, ", "))
}

// String names the flags as D3DCOMPILE_ names joined by |.
func (f Flags) String() string {
	var parts []string
	for _, n := range flagNames {
		if f&n.f != 0 {
			parts = append(parts, n.name)
			f &^= n.f
		}
	}
	if f != 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%#x", uint32(f)))
	}
	return strings.Join(parts, "|")
}

// backCompatHint ends a message about a construct only /Gec takes.
const backCompatHint = "enable backwards compatibility mode (/Gec, D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY)"

// backCompat reports fxc's /Gec for this compile.
func (g *gen) backCompat() bool { return g.lim.Flags&FlagBackCompat != 0 }

// halfUniform reports a half, half vector or half matrix, or an array of
// them: what fxc refuses as a global uniform without /Gec.
func halfUniform(t *Type) bool {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t.Half && (t.Kind == KScalar || t.Kind == KVector || t.Kind == KMatrix)
}
