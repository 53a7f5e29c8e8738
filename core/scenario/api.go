package scenario

import (
	"image"
	"strconv"

	"d3dsim/core/machine"
	"d3dsim/core/trace"
)

// This file is the runner's public surface, used by cmd/d3dsim, wasm/ and the
// tests. Keep it small and stable.

// Summary is what `d3dsim run` prints and window.d3dsim.run() resolves to
// (docs/scenario.md).
type Summary struct {
	Frames     int    `json:"frames"`
	Events     int    `json:"events"`  // events recorded, dropped ones included
	Dropped    int    `json:"dropped"` // oldest events the trace ring dropped (option maxevents)
	Violations int    `json:"violations"`
	Hash       string `json:"hash"` // first 16 hex digits of SHA-256 of the last presented frame's RGBA pixels
	// Failures is "LINE:COL: message" per failed expectation or error: the
	// first 20 in full (each cut at 4 KiB), the one that stopped the run,
	// then "LINE:0: … and N more failures on line LINE" (tally.go).
	Failures     []string `json:"failures"`
	FailureCount int      `json:"failureCount"` // failures in all, those only counted included
	// Messages is the debug-layer messages, bounded the same way.
	Messages     []string `json:"messages"`
	MessageCount int      `json:"messageCount"` // messages in all
	// BadInput: the run stopped on a problem with the scenario found only
	// when it ran (an object used before its creating call ran, a feature
	// not simulated): the CLI exits 2 for it, as for a load error.
	BadInput bool `json:"badInput,omitempty"`
	// Limit is "LINE:COL: message" of the limit that stopped the run (a
	// budget, the objects, the memory, the threads, the devices), "" when
	// none did.
	Limit string `json:"limit,omitempty"`
	Done  bool   `json:"done"`  // the scenario ran to its end (or stopped on an error)
	Steps int    `json:"steps"` // API calls made so far
}

// OK reports whether the run passed: no failure.
func (s Summary) OK() bool { return len(s.Failures) == 0 }

// Frame is one presented frame: RGBA8, row-major, Width*4 bytes a row. Its
// pixels are read-only: a frame that repeats the one before shares them.
type Frame struct {
	Width, Height int
	Pix           []byte
}

// Image wraps the frame as an *image.RGBA (sharing Pix: read it, never
// draw on it).
func (f Frame) Image() *image.RGBA {
	return &image.RGBA{Pix: f.Pix, Stride: f.Width * 4, Rect: image.Rect(0, 0, f.Width, f.Height)}
}

// Overrides change a script's options from outside (CLI flags, links).
type Overrides struct {
	Seed    *uint64
	Sync    *bool
	OOO     *bool // option scheduler=salvia (true) or wddm (false); ooo=true is its older name
	Engines *int  // option gpu.engines

	// Budgets set by the one running the scenario (the CLI's --max-*
	// flags), past the Ranges a scenario's own options must keep to.
	MaxSteps  *uint64 // option maxsteps
	MaxEvents *uint64 // option maxevents
	MaxTime   *uint64 // option maxtime, milliseconds
	MaxPixels *uint64 // option maxpixels
	// MaxInstructions is option maxinstructions.
	MaxInstructions *uint64

	gpuCosts   *machine.GPUCosts // a slower GPU, for this package's tests
	MaxObjects *uint64           // option maxobjects
	SysMem     *uint64           // option sysmem, bytes
}

// Error is a bad-input error: FILE:LINE:COL: message.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.File == "" {
		return strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
	}
	return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// Events returns the run's trace so far: the events the ring holds, oldest
// first (from seq Summary.Dropped+1).
func (r *Run) Events() []trace.Event { return r.rec.Events() }

// Recorder returns the run's trace recorder (to subscribe to new events).
func (r *Run) Recorder() *trace.Recorder { return r.rec }

// SetGPUYield gives the host a turn inside the GPU's long draws, between
// pieces of a draw's work (machine.Machine.SetGPUYield): the page lets the
// browser's event loop run there. fn reports whether the draw goes on;
// false means the host is done with this run: the draw stops and every
// later one is skipped.
func (r *Run) SetGPUYield(fn func() bool) { r.mach.SetGPUYield(fn) }
