package hlsl

import (
	"fmt"
	"strings"
)

// Diag is one message in fxc's form. Code is fxc's number (3004 for
// X3004); Line 0 means the message has no position, as fxc prints X3501.
// The column is where the construct starts (fxc also prints where it
// ends: "(2,10-12)").
type Diag struct {
	File    string
	Line    int
	Col     int
	Warning bool
	Code    int
	Msg     string
}

func (d Diag) String() string {
	kind := "error"
	if d.Warning {
		kind = "warning"
	}
	if d.Line == 0 {
		// fxc prints messages about the whole compile (X3501) without a
		// position: "error X3501: 'main': entrypoint not found".
		return fmt.Sprintf("%s X%d: %s", kind, d.Code, d.Msg)
	}
	return fmt.Sprintf("%s(%d,%d): %s X%d: %s", d.File, d.Line, d.Col, kind, d.Code, d.Msg)
}

// Errors is the error Compile returns: every error found, in source order
// of discovery, one per line as fxc prints them.
type Errors []Diag

func (e Errors) Error() string {
	var b strings.Builder
	for i, d := range e {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// fxc's message numbers. Each was checked against real fxc output quoted
// in public bug reports and test suites (the DirectXShaderCompiler's
// fxc-error annotations in its HLSL tests, Dawn/Tint's FXC validation
// logs, and D3D tutorial forum threads).
const (
	eSyntax         = 3000 // syntax error: unexpected token 'x'
	eRedefinition   = 3003 // redefinition of 'x'
	eUndeclared     = 3004 // undeclared identifier 'x'
	eNoOverload     = 3013 // 'f': no matching N parameter (intrinsic) function
	eCtorArgs       = 3014 // incorrect number of arguments to numeric-type constructor
	eConvert        = 3017 // cannot implicitly convert from 'a' to 'b'
	eSubscript      = 3018 // invalid subscript 'x'
	eTypeMismatch   = 3020 // type mismatch
	eConst          = 3025 // l-value specifies const object
	eMustReturn     = 3080 // 'f': function must return a value
	eAmbiguous      = 3067 // 'f': ambiguous function call
	eNotDefined     = 3079 // 'f': function declared but not defined
	eEntryNotFound  = 3501 // 'main': entrypoint not found
	eMissingSem     = 3502 // 'main': input parameter 'x' missing semantics
	eTruncation     = 3206 // warning: implicit truncation of vector type
	eDivZero        = 4010 // integer divide by zero
	eNotImplemented = 3000 // not an fxc number: constructs this compiler leaves out are reported as syntax errors with a clear text
)
