package hlsl

import "strings"

// Types HLSL has and this compiler lacks. A source that uses one is told
// so on its line, "not supported by this compiler", rather than "syntax
// error" or "undeclared identifier", which would blame the source.

// unsupportedType says what a type name that this compiler does not take
// is ("" for any other name): double's matrices (double and its vectors
// are double.go's), and the 64-bit integers of shader model 6.
func unsupportedType(name string) string {
	if rest, ok := strings.CutPrefix(name, "double"); ok && len(rest) == 3 {
		if rest[0] >= '1' && rest[0] <= '4' && rest[1] == 'x' && rest[2] >= '1' && rest[2] <= '4' {
			return "matrices of 64-bit floats"
		}
		return ""
	}
	for _, b := range []struct{ prefix, what string }{
		{"int64_t", "64-bit integers"},
		{"uint64_t", "64-bit integers"},
	} {
		rest, ok := strings.CutPrefix(name, b.prefix)
		if !ok {
			continue
		}
		switch {
		case rest == "",
			len(rest) == 1 && rest[0] >= '1' && rest[0] <= '4',
			len(rest) == 3 && rest[0] >= '1' && rest[0] <= '4' && rest[1] == 'x' && rest[2] >= '1' && rest[2] <= '4':
			return b.what
		}
	}
	return ""
}
