package scenario

import "d3dsim/core/machine"

// The syntax tree of a scenario (docs/scenario.md, "Syntax"). The parser produces
// it; the checker (check.go) resolves methods and enum values against the API
// table and reports FILE:LINE:COL errors before anything runs.

// Pos is a 1-based line and column (columns count bytes).
type Pos struct {
	Line, Col int
}

// Script is a parsed scenario.
type Script struct {
	Name    string // file name used in error messages
	Options []Option
	Stmts   []Stmt
	Sources map[string]*Source // hlsl and fxc blocks, by name
}

// Source is a top-level source block, `hlsl NAME {` or `fxc NAME {`,
// whose body is text in another language: HLSL source, compiled when the
// scenario loads, as fxc would at build time; or the C header fxc /Fh
// writes, holding compiled bytecode.
type Source struct {
	Pos
	Kind string // "hlsl" or "fxc"
	Name string
	Text string // the body, from the line after '{'
	Line int    // the body's first line in the scenario
}

// Option is `option KEY=VALUE`.
type Option struct {
	Pos
	Key, Value string
}

// Stmt is one statement.
type Stmt interface{ position() Pos }

// Call is `[NAME[, NAME] =] TARGET.Method ARG...` or `[NAME =] D3D11CreateDevice ARG...`
// (Target empty).
type Call struct {
	Pos
	Results   []string
	Target    string
	TargetPos Pos
	Method    string
	MethodPos Pos
	Args      []Arg
}

// Arg is a positional value (Key empty) or Key=Value.
type Arg struct {
	Pos
	Key   string
	Value Value
}

// ValueKind classifies a value token.
type ValueKind uint8

const (
	VIdent   ValueKind = iota + 1 // a name: an object, an enum value, TRUE/FALSE
	VNumber                       // integer or float literal, optionally with a size suffix (K, M, G, KiB, MiB, GiB)
	VFlags                        // NAME|NAME|... (two or more names)
	VF32                          // f32[...]
	VU16                          // u16[...]
	VU32                          // u32[...]
	VColor                        // #RRGGBBAA (or #RRGGBB, alpha ff)
	VMesh                         // mesh:NAME
	VBuiltin                      // builtin:NAME
	VHLSL                         // hlsl:NAME, a source block compiled by the checker
	VFxc                          // fxc:NAME, a block holding an fxc /Fh header
	VBytes                        // bytes:HEX, bytecode written in hexadecimal
	VElem                         // elem[NAME INDEX FORMAT ...], a D3D11_INPUT_ELEMENT_DESC
	VU8                           // u8[...]
	VI8                           // i8[...]
	VI16                          // i16[...]
	VI32                          // i32[...]
	VString                       // "text" (Text is the decoded string)
)

// Value is one argument value.
type Value struct {
	Pos
	Kind  ValueKind
	Text  string    // the token as written
	Ident string    // VIdent, VMesh and VBuiltin: the name (without prefix)
	Flags []string  // VFlags
	Num   float64   // VNumber
	F32   []float32 // VF32
	U32   []uint32  // VU8, VU16, VU32, and VI8, VI16, VI32 as two's complement (range-checked by the parser)
	Color [4]uint8  // VColor: r, g, b, a
	// Bytes is the bytecode of VBytes (decoded by the parser), VHLSL
	// (compiled by the checker), VFxc (parsed by the checker) and VBuiltin
	// of a shader (the built-in's, given by the checker).
	Bytes []byte
	Elem  []Value // VElem: its fields, words and numbers
}

// Thread is `thread NAME { ... }`.
type Thread struct {
	Pos
	Name string
	Body []Stmt
}

// Signal is `signal EVENT`; Wait is `wait EVENT`.
type Signal struct {
	Pos
	Event string
}

type Wait struct {
	Pos
	Event string
}

// Repeat is `repeat N { ... }`.
type Repeat struct {
	Pos
	Count int
	Body  []Stmt
}

// Until is `until COND max N { ... }`: the block runs, then COND is tested;
// the block runs again while COND is false, at most N times in all. It is
// the polling loop of "Changes from Direct3D 10" (`while (S_FALSE ==
// GetData(EventQuery));`) with a bound: the block runs first, as GetData
// is called before its result is tested.
type Until struct {
	Pos
	Cond Cond
	Max  int
	Body []Stmt
}

// CmpOp is a comparison of `until` and `expect data`.
type CmpOp uint8

const (
	OpEq CmpOp = iota + 1 // ==
	OpNe                  // !=
	OpLt                  // <
	OpLe                  // <=
	OpGt                  // >
	OpGe                  // >=
)

func (o CmpOp) String() string {
	if o >= OpEq && o <= OpGe {
		return [...]string{"==", "!=", "<", "<=", ">", ">="}[o-1]
	}
	return "?"
}

// holds compares a with b.
func (o CmpOp) holds(a, b uint64) bool {
	switch o {
	case OpEq:
		return a == b
	case OpNe:
		return a != b
	case OpLt:
		return a < b
	case OpLe:
		return a <= b
	case OpGt:
		return a > b
	case OpGe:
		return a >= b
	}
	return false
}

// Cond is the condition of an until loop: `hr == NAME`, `hr != NAME`, or
// a comparison of a query's data (Data).
type Cond struct {
	Pos
	HR   string // the HRESULT name of an hr condition ("" for a data one)
	Op   CmpOp  // hr: OpEq or OpNe
	Data *DataCmp
	Text string // as written, for messages
}

// DataCmp is `data QUERY OP VALUE`: the data the last GetData of QUERY
// returned (with S_OK) compared with a number (TRUE is 1, FALSE 0: an
// EVENT query's data is TRUE once the GPU has passed its End) or with the
// data of another query (Ref; for two TIMESTAMP queries, say).
type DataCmp struct {
	Query string
	// Field names a member of the query's data structure (q.IAVertices
	// of a PIPELINE_STATISTICS query, t.Frequency of a TIMESTAMP_DISJOINT
	// one); "" compares its first member, the whole data of most kinds.
	Field    string
	Op       CmpOp
	Value    uint64
	Ref      string
	RefField string // Ref's member, as Field
	Text     string // as written (q == TRUE), for messages
}

// Inject is `inject FAULT [Key=Value ...]`.
type Inject struct {
	Pos
	Fault machine.Fault // as written: the checker rejects one that is not Known
	Args  []Arg
}

// ExpectKind is the form of an expect statement.
type ExpectKind uint8

const (
	ExpectHR         ExpectKind = iota + 1 // expect hr == NAME
	ExpectPixel                            // expect pixel RES X Y == #RRGGBBAA, or == f32[...] / u32[...] / i32[...] [within EPS]
	ExpectHash                             // expect hash RES == HEX
	ExpectCalls                            // expect calls NAME NAME ...
	ExpectViolations                       // expect violations == N
	ExpectViolation                        // expect violation RULE-ID
	ExpectLive                             // expect live == N
	ExpectData                             // expect data QUERY OP VALUE
	ExpectProbe                            // expect probe RES X Y [RIGHT BOTTOM] == f32[...]|u32[...]|i32[...] [ulps=N]
	ExpectSupport                          // expect support has FLAGS, expect support lacks FLAGS
	ExpectGot                              // expect got == NAME|NULL|NUMBER ... (the last getter's)
)

// Expect is an assertion.
type Expect struct {
	Pos
	Kind  ExpectKind
	Name  string   // hr: the HRESULT name; violation: the rule id; pixel, hash: the resource
	X, Y  int      // pixel
	Color [4]uint8 // pixel
	// Texel is the pixel's value as a list (f32, u32 or i32: the texel as
	// a shader reads it), nil for a colour; Within the tolerance of an f32
	// list (0: exact).
	Texel  *Value
	Within float64
	// As is the format the texel is read as (`as FORMAT`, a typed format
	// of a typeless resource's family), "" for the resource's own.
	As    string
	Hex   string   // hash (lower case)
	Names []string // calls; got
	N     int      // violations, live
	Data  *DataCmp // data
	Probe *Probe   // probe
	// Flags are expect support's D3D11_FORMAT_SUPPORT names; Name is
	// "has" or "lacks".
	Flags []string
}

// Probe is what `expect probe` compares: every texel of the rectangle
// (X, Y) .. (Right, Bottom), right and bottom excluded, read in the
// resource's format, against Values (one to four channels).
type Probe struct {
	Right, Bottom int
	Kind          ValueKind // VF32: floats within Ulps; VU32, VI32: exact integers
	Values        []uint32  // the expected channels' bits
	Ulps          int
}

func (s *Call) position() Pos   { return s.Pos }
func (s *Thread) position() Pos { return s.Pos }
func (s *Signal) position() Pos { return s.Pos }
func (s *Wait) position() Pos   { return s.Pos }
func (s *Repeat) position() Pos { return s.Pos }
func (s *Inject) position() Pos { return s.Pos }
func (s *Until) position() Pos  { return s.Pos }
func (s *Expect) position() Pos { return s.Pos }

// Position returns where a statement starts.
func Position(s Stmt) Pos { return s.position() }
