package apitrace

import "strings"

// Kind is the type of a Value: one per value tag of the binary format, plus
// the forms only `apitrace dump` text has.
type Kind uint8

const (
	KNull    Kind = iota // 0x00: a null pointer (NULL)
	KBool                // 0x01 false, 0x02 true
	KSInt                // 0x03: a negative integer
	KUInt                // 0x04: a non-negative integer
	KFloat               // 0x05: 32-bit float
	KDouble              // 0x06: 64-bit float
	KString              // 0x07
	KBlob                // 0x08: bytes
	KEnum                // 0x09: a value of an enum signature
	KBitmask             // 0x0a: flags of a bitmask signature
	KArray               // 0x0b: values; a pointer to one value is an array of one
	KStruct              // 0x0c: a struct signature and one value per member
	KPointer             // 0x0d: an opaque pointer or handle
	KRepr                // 0x0e: a human form and a machine form (shader bytecode: disassembly and bytes)
	KWString             // 0x0f: a wide string (held as UTF-8)

	// Kinds read from `apitrace dump` text only.
	KName    // a bare name: an enum value or a GUID's name (S)
	KBinding // <name>: an object bound by name in apitrace-tests' reference dumps (S; empty for the <> wildcard)
)

var kindNames = [...]string{"null", "bool", "sint", "uint", "float", "double", "string", "blob", "enum", "bitmask",
	"array", "struct", "pointer", "repr", "wstring", "name", "binding"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// EnumValue is one name/value pair of an enum signature.
type EnumValue struct {
	Name  string
	Value int64
}

// EnumSig is an enum type: the names and values a trace defines for it.
type EnumSig struct {
	ID     uint64
	Values []EnumValue
}

// Lookup is the first name of v, as apitrace's dump prints it.
func (s *EnumSig) Lookup(v int64) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, e := range s.Values {
		if e.Value == v {
			return e.Name, true
		}
	}
	return "", false
}

// BitmaskFlag is one flag of a bitmask signature.
type BitmaskFlag struct {
	Name  string
	Value uint64
}

// BitmaskSig is a bitmask type.
type BitmaskSig struct {
	ID    uint64
	Flags []BitmaskFlag
}

// StructSig is a struct type: its name and member names. A member with an
// empty name is an anonymous struct (a union's selected member) whose
// members print inline.
type StructSig struct {
	ID      uint64
	Name    string
	Members []string
}

// FuncSig is a function's signature: its name and argument names.
type FuncSig struct {
	ID   uint64
	Name string
	Args []string
}

// Value is one value of a call: an argument, a return value, an element.
type Value struct {
	Kind  Kind
	Bool  bool
	Int   int64   // KSInt, KEnum
	Uint  uint64  // KUInt, KPointer, KBitmask
	Float float64 // KFloat, KDouble
	Str   string  // KString, KWString, KName, KBinding
	Bytes []byte  // KBlob
	Elems []Value // KArray elements, KStruct members, KRepr {human, machine}

	EnumSig    *EnumSig
	BitmaskSig *BitmaskSig
	StructSig  *StructSig

	// From dump text: a bitmask's flag names (Uint holds the rest), and a
	// blob whose bytes the dump left out: its size, or the file
	// `apitrace dump --blobs` wrote it to.
	Names    []string
	BlobSize int
	BlobFile string
	NoBytes  bool // a blob printed as blob(N): the bytes are not in the dump
}

// Null is the null value.
var Null = Value{Kind: KNull}

// Constructors for writers.
func UintV(v uint64) Value   { return Value{Kind: KUInt, Uint: v} }
func PtrV(v uint64) Value    { return Value{Kind: KPointer, Uint: v} }
func FloatV(v float32) Value { return Value{Kind: KFloat, Float: float64(v)} }
func StrV(s string) Value    { return Value{Kind: KString, Str: s} }
func WStrV(s string) Value   { return Value{Kind: KWString, Str: s} }
func BlobV(b []byte) Value   { return Value{Kind: KBlob, Bytes: b} }
func BoolV(b bool) Value     { return Value{Kind: KBool, Bool: b} }
func ArrayV(v ...Value) Value {
	return Value{Kind: KArray, Elems: v}
}

// IntV is a signed integer as apitrace's writeSInt stores it: the tag of a
// negative integer only when it is negative.
func IntV(v int64) Value {
	if v < 0 {
		return Value{Kind: KSInt, Int: v}
	}
	return Value{Kind: KUInt, Uint: uint64(v)}
}

// EnumV is a value of enum sig.
func EnumV(sig *EnumSig, v int64) Value { return Value{Kind: KEnum, EnumSig: sig, Int: v} }

// BitmaskV is flags of bitmask sig.
func BitmaskV(sig *BitmaskSig, v uint64) Value {
	return Value{Kind: KBitmask, BitmaskSig: sig, Uint: v}
}

// StructV is a struct of sig with its members in order.
func StructV(sig *StructSig, members ...Value) Value {
	return Value{Kind: KStruct, StructSig: sig, Elems: members}
}

// ReprV is a value with a human and a machine form.
func ReprV(human, machine Value) Value { return Value{Kind: KRepr, Elems: []Value{human, machine}} }

// Member is the member of a struct called name (and whether there is one),
// looking through anonymous members as apitrace's dump does. Struct values
// from dump text carry their member names in Names.
func (v *Value) Member(name string) (*Value, bool) {
	if v == nil || v.Kind != KStruct {
		return nil, false
	}
	names := v.Names
	if v.StructSig != nil {
		names = v.StructSig.Members
	}
	for i := range v.Elems {
		if i >= len(names) {
			break
		}
		if names[i] == name {
			return &v.Elems[i], true
		}
		if names[i] == "" {
			if m, ok := v.Elems[i].Member(name); ok {
				return m, true
			}
		}
	}
	return nil, false
}

// Deref is the value a pointer argument points to: the element of an array
// of one, or v itself.
func (v *Value) Deref() *Value {
	if v != nil && v.Kind == KArray && len(v.Elems) == 1 {
		return &v.Elems[0]
	}
	return v
}

// Machine is the machine form of a repr, or v itself.
func (v *Value) Machine() *Value {
	if v != nil && v.Kind == KRepr && len(v.Elems) == 2 {
		return &v.Elems[1]
	}
	return v
}

// CallFlags are what the format and apitrace's parser mark a call with.
type CallFlags uint32

const (
	// FlagFake marks a call the tracer made up (the memcpy of mapped memory).
	FlagFake CallFlags = 1 << iota
	// FlagIncomplete marks a call that was entered and never left (the
	// trace ends inside it).
	FlagIncomplete
)

// Frame is one backtrace frame.
type Frame struct {
	ID       uint64
	Module   string
	Function string
	File     string
	Line     uint64
	Offset   uint64
	HasLine  bool
	HasOff   bool
}

// Call is one call of a trace.
type Call struct {
	No        uint64
	Thread    uint64
	Sig       *FuncSig
	Args      []Value // by argument number; an argument never written is absent (Present false)
	Present   []bool
	Ret       *Value
	Flags     CallFlags
	Backtrace []*Frame

	// Offset is the byte offset of the call's enter event in the decoded
	// stream (binary traces) or its line (dump text).
	Offset int64
}

// Name is the call's function name (Interface::Method for COM methods).
func (c *Call) Name() string {
	if c.Sig == nil {
		return ""
	}
	return c.Sig.Name
}

// Arg is the argument called name, or nil when the call has none.
func (c *Call) Arg(name string) *Value {
	if c.Sig == nil {
		return nil
	}
	for i, n := range c.Sig.Args {
		if n == name && i < len(c.Args) && c.Present[i] {
			return &c.Args[i]
		}
	}
	return nil
}

// Method splits Interface::Method; a function has no interface.
func (c *Call) Method() (iface, method string) {
	n := c.Name()
	if i := strings.LastIndex(n, "::"); i >= 0 {
		return n[:i], n[i+2:]
	}
	return "", n
}

func (c *Call) setArg(i int, v Value) {
	for len(c.Args) <= i {
		c.Args = append(c.Args, Value{})
		c.Present = append(c.Present, false)
	}
	c.Args[i], c.Present[i] = v, true
}
