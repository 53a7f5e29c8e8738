package hlsl

import (
	"fmt"
	"strings"
)

// Limits bound the work and memory of one compile, so hostile source ends
// in an error naming the limit and the line, never a hang or an
// exhausted heap. Each is checked before the allocation it guards. A zero
// field means the default; Tokens, Nodes and Instructions may be raised
// (CompileWith) for a real shader that needs more, up to MaxLimits.
//
// Which of fxc's limits each mirrors ("Shader model comparison" in the HLSL
// reference's history of shader models, "dcl_temps (sm4 - asm)" and
// "dcl_indexableTemp (sm4 - asm)" in the Shader Model 4 assembly
// reference, the constant-buffer size of "ID3D11Device::CreateBuffer"):
//   - Temps: 4096 r# registers for every SM4 and SM5 profile, vs and ps
//     alike (temps and indexable temps together); not raisable, the
//     runtime's validator refuses more.
//   - ConstantRegisters: a constant buffer holds at most 4096 16-byte
//     registers (64 KiB) in every profile; not raisable.
//   - ArrayElements: an array has at most 4096 elements, all dimensions
//     multiplied: every element takes at least a register, whether it lives
//     in temps or in a constant buffer, and both hold 4096 (fxc refuses a
//     larger one as "array dimension ... out of range" or when it runs out
//     of registers).
//   - Instructions: 65536, the instruction slots Shader Model 4.0 and 5.0
//     guarantee (fxc emits longer programs for SM5 when asked; so may this
//     compiler with a raised limit).
//   - Tokens: tokens after preprocessing and macro expansion; Nodes:
//     expression and statement nodes lowered, a function's body counted at
//     every call (functions are inlined, as fxc inlines them). fxc has no
//     documented figure for either: these are this compiler's budgets,
//     sized so that the largest shaders in the public test suites and
//     samples pass with room to spare.
//   - Errors: the first 32 diagnostics are kept in full, the rest only
//     counted, at every stage from the preprocessor on.
//
// Unrolling is bounded by the optimiser itself (opt_unroll.go: 64 trips
// and 1,024 instructions a loop, 16 loops a shader, and never past the
// 65,536 instructions of the default limit).
type Limits struct {
	Tokens       int // tokens after macro expansion (default 262,144)
	Nodes        int // expression and statement nodes lowered after inlining (default 1,048,576)
	Instructions int // IR instructions, one per SM4/SM5 instruction (default 65,536)

	// Flags are D3DCompile's Flags1 that change what the compiler takes
	// (FlagBackCompat): not a budget, but carried with the limits so that
	// every entry point and the cache's key see them.
	Flags Flags

	work *Work // where the compile counts its work (Cache.Compile)
}

// The default limits, the ceilings to which Tokens, Nodes and Instructions
// may be raised, and the fixed ones.
const (
	DefaultTokens       = 1 << 18
	DefaultNodes        = 1 << 20
	DefaultInstructions = 1 << 16

	// MaxTokens, MaxNodes and MaxInstructions are how far CompileWith
	// lets the budgets be raised: the source itself is at most 1 MiB.
	MaxTokens       = 1 << 22
	MaxNodes        = 1 << 24
	MaxInstructions = 1 << 20

	// MaxTemps is SM4/SM5's r# registers ("dcl_temps (sm4 - asm)").
	MaxTemps = 4096
	// MaxConstantRegisters is the 16-byte registers of one constant
	// buffer (D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT).
	MaxConstantRegisters = 4096
	// MaxArrayElements bounds an array's elements, all dimensions
	// multiplied (see Limits).
	MaxArrayElements = 4096
	// maxLazyElements bounds a local array declared without an
	// initialiser, which is made only where it is used: fxc takes an
	// unused one of 65,536 elements and refuses one of 65,537 (vkd3d's
	// array-dimension and invalid cases).
	maxLazyElements = 1 << 16
	// MaxDiagnostics is how many errors (and warnings) are kept in full.
	MaxDiagnostics = 32
	// maxDiagText cuts a message that quotes the source (a 60 KB macro
	// name in every error was 6 GiB of messages).
	maxDiagText = 256
)

// DefaultLimits are the limits Compile uses.
func DefaultLimits() Limits {
	return Limits{Tokens: DefaultTokens, Nodes: DefaultNodes, Instructions: DefaultInstructions}
}

// withDefaults fills zero fields and holds the rest to their ceilings.
func (l Limits) withDefaults() Limits {
	fill := func(v *int, def, ceil int) {
		if *v <= 0 {
			*v = def
		}
		*v = min(*v, ceil)
	}
	fill(&l.Tokens, DefaultTokens, MaxTokens)
	fill(&l.Nodes, DefaultNodes, MaxNodes)
	fill(&l.Instructions, DefaultInstructions, MaxInstructions)
	return l
}

// cutText holds a message to maxDiagText bytes, saying how much was cut.
func cutText(s string) string {
	if len(s) <= maxDiagText {
		return s
	}
	n := maxDiagText
	for n > 0 && s[n]&0xc0 == 0x80 { // a UTF-8 boundary
		n--
	}
	return s[:n] + fmt.Sprintf("…(+%d bytes)", len(s)-n)
}

// cutName holds a name quoted in a message to 64 bytes.
func cutName(s string) string {
	if len(s) <= 64 {
		return s
	}
	n := 64
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + fmt.Sprintf("…(+%d bytes)", len(s)-n)
}

// moreDiag is the summary that ends a list of errors some of which were
// only counted; it has no position, as fxc prints messages about the whole
// compile.
func moreDiag(file string, n int) Diag {
	return Diag{File: file, Code: eNotImplemented, Msg: fmt.Sprintf("%d more errors not shown (the first %d are)", n, MaxDiagnostics)}
}

// withMore appends the count of dropped errors, if any.
func withMore(list []Diag, file string, more int) Errors {
	if more > 0 {
		list = append(list, moreDiag(file, more))
	}
	return Errors(list)
}

// limitName is the name of a budget in messages ("Limits.Tokens").
func limitName(field string) string { return "Limits." + field }

// regsOf is the temp registers a local of type t takes (a scalar or vector
// one, a matrix one per row, arrays and structs the sum of theirs),
// saturated far above any limit; memo makes it linear in the number of
// distinct types (structs that double at each level share theirs).
func regsOf(t *Type, memo map[*Type]int) int {
	const ceiling = 1 << 40
	switch t.Kind {
	case KScalar, KVector:
		return 1
	case KMatrix:
		return t.Rows
	case KArray, KStruct:
		if n, ok := memo[t]; ok {
			return n
		}
		n := 0
		if t.Kind == KArray {
			n = min(regsOf(t.Elem, memo)*min(t.Len, ceiling), ceiling)
		} else {
			for _, f := range t.Fields {
				n = min(n+regsOf(f.Type, memo), ceiling)
			}
		}
		memo[t] = n
		return n
	}
	return 0
}

// elementsOf is the elements of an array type, all dimensions multiplied.
func elementsOf(t *Type) int {
	n := 1
	for ; t.Kind == KArray; t = t.Elem {
		n = min(n*t.Len, 1<<40)
	}
	return n
}

// dimsOf spells an array type's dimensions: "4096x4096 float4".
func dimsOf(t *Type) string {
	var d []string
	for ; t.Kind == KArray; t = t.Elem {
		d = append(d, fmt.Sprint(t.Len))
	}
	return strings.Join(d, "x") + " " + t.String()
}
