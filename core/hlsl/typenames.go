package hlsl

import (
	"maps"
	"strings"
)

// fxc's type names below shader model 6 (vkd3d's type-names tests, run
// against it): dword, matrix and vector are read in any case (DWORD,
// Matrix, vectoR) where no typedef of that spelling is in sight, and
// without arguments (Matrix<float, 2, 2> is refused); a function may
// declare a typedef or a variable named as a built-in type (typedef
// float2 float; float4 float), except matrix and vector, which only a
// typedef elsewhere can shadow. The global scope may not.

// caseTypeAlias is dword, matrix or vector for another case's spelling of
// it, or "".
func caseTypeAlias(name string) string {
	for _, a := range []string{"dword", "matrix", "vector"} {
		if name != a && strings.EqualFold(name, a) {
			return a
		}
	}
	return ""
}

// localTypeName reports a built-in type's name that a function's typedef
// declares.
func (ps *parser) localTypeName(t token) bool {
	return ps.local && t.kind == tIdent && t.text != "matrix" && t.text != "vector" && !keywords[t.text] &&
		(builtinType(t.text) != nil || caseTypeAlias(t.text) != "")
}

// shadowVar makes a type's name a variable's in the function being parsed.
func (ps *parser) shadowVar(name string) {
	ps.varShadow = maps.Clone(ps.varShadow)
	if ps.varShadow == nil {
		ps.varShadow = map[string]bool{}
	}
	ps.varShadow[name] = true
}
