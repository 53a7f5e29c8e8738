package shadertest

import "strings"

// categories sort the suite's files by what they exercise, for the
// report: the first rule whose prefix (or exact name) matches the file's
// base name wins.
var categories = []struct {
	name     string
	prefixes []string
}{
	{"compute", []string{"compute", "numthreads", "tgsm", "uav-", "sm6-uav", "rasteriser-ordered", "wave-ops", "wave-reconvergence", "thread-id"}},
	{"textures", []string{"texture-", "sample-", "sampler", "gather", "getdimensions", "calculate-lod", "combined-samplers",
		"load-level", "srv-", "ddxddy", "fwidth", "get-sample-pos", "rt-get-sample-info", "object-", "unbounded-array"}},
	{"constant buffers", []string{"cbuffer", "uniform-", "register-reservations", "arithmetic-float-uniform",
		"arithmetic-int-uniform", "vector-indexing-uniform", "sm1-const", "default-values", "static-initializer"}},
	{"control flow", []string{"if", "loop", "for", "switch", "return", "discard", "clip", "conditional", "ternary", "sm6-ternary",
		"unroll", "cf-cond-types", "function", "entry-point", "side-effects", "comma", "precise-modifier"}},
	{"integer and bitwise", []string{"arithmetic-int", "arithmetic-uint", "bitwise", "logic-operations", "unsigned", "countbits",
		"firstbit", "reversebits", "f16tof32", "f32tof16"}},
	{"casts", []string{"cast-", "bool-cast", "asfloat", "asint", "asuint", "function-cast", "pointer-cast", "numeric-constructor",
		"single-numeric-initializer", "half", "minimum-precision", "numeric-types", "unorm-snorm", "d3dcolor"}},
	{"structs and arrays", []string{"struct", "array", "initializer", "nested-arrays", "non-const-indexing", "vector-indexing",
		"matrix-indexing", "swizzle", "writemask", "expr-indexing", "hard-copy-prop", "matrix", "majority", "transpose", "type-names",
		"storage-qualifiers", "duplicate-modifiers", "const", "null", "strings", "attributes", "invalid", "intrinsic-override", "shape"}},
	{"stages and signatures", []string{"vertex-shader", "geometry", "hull-shader", "tessellation", "constructgswithso",
		"shader-interstage", "sm1-interstage", "interface-packing", "instance-id", "is-front-face", "nointerpolation", "bool-semantics",
		"uniform-semantics", "struct-semantics", "uninitialized-varyings", "multiple-rt", "rt-format-mismatch", "depth-out",
		"early-depth-stencil", "coverage", "clip-distance", "clip-planes", "alpha-test", "shade-mode", "fog", "ffp-point-size",
		"point-sprite", "shader-point-size", "depth-bounds"}},
	{"effects", []string{"effect-", "fxgroup", "state-block", "technique"}},
}

// Category is the report's category of a test file, by its base name
// (arithmetic and intrinsics when no rule matches).
func Category(base string) string {
	name := strings.TrimSuffix(base, ".shader_test")
	for _, c := range categories {
		for _, p := range c.prefixes {
			if strings.HasPrefix(name, p) {
				return c.name
			}
		}
	}
	return "arithmetic and intrinsics"
}
