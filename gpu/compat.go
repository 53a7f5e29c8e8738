package gpu

import "d3dsim/gpu/isa"

// The command-stream format lives in package isa. These names keep callers
// outside the driver stack (tests of Dxgkrnl, tools) that build a DMA buffer
// with package gpu alone compiling; new code imports isa.
type (
	Builder = isa.Builder
	Format  = isa.Format
)

// Surface formats of the hardware (isa.Fmt*).
const (
	FmtNone  = isa.FmtNone
	FmtRGBA8 = isa.FmtRGBA8
	FmtBGRA8 = isa.FmtBGRA8
	FmtD32F  = isa.FmtD32F
	FmtD24S8 = isa.FmtD24S8
	FmtR32F  = isa.FmtR32F
	FmtR16UI = isa.FmtR16UI
	FmtR32UI = isa.FmtR32UI
)
