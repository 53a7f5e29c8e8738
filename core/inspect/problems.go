package inspect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"d3dsim/core/trace"
)

// Problems that teach: what went wrong in a run, each with its cause as a
// sentence and the event it happened at (the page's Problems view and
// `d3dsim inspect --problems` list them). Like the waits, they come from
// the trace alone:
//   - rule violations (the verifier's, Kind violation) and the runtime's
//     debug-layer messages ("D3D11 ERROR: ..."), with or without the debug
//     layer;
//   - a refused feature: a shader the UMD's translator cannot run on this
//     GPU, refused through pfnSetErrorCb (the instruction and the feature:
//     geometry shaders, Texture2DMS, ...);
//   - a KMD rejection: a DxgkDdi* call that returned a failing NTSTATUS
//     (DxgkDdiRender's validation refusing a buffer, rule WDDM-ISOLATE);
//   - a TDR ("Timeout Detection and Recovery (TDR)"): the GPU neither
//     finished nor preempted a DMA buffer within the TDR delay, with the
//     API calls whose commands that buffer carries;
//   - a GPU fault (GpuFault, a DMA buffer naming a nonresident allocation);
//   - a device removed: Dxgkrnl's DeviceRemoved, or, where the removal has
//     no kernel event (a rejected buffer), the first API call that
//     answered DXGI_ERROR_DEVICE_REMOVED for the device.

// Problem is one thing that went wrong.
type Problem struct {
	Seq   uint64    `json:"seq"`
	Kind  string    `json:"kind"`  // violation, debug, refused, rejected, tdr, fault, removed
	Title string    `json:"title"` // the rule, or what happened in two words
	Line  int       `json:"line,omitempty"`
	Call  *WaitCall `json:"call,omitempty"` // the API call it happened in
	Cause string    `json:"cause"`
}

// Text is the problem on one line.
func (p Problem) Text() string {
	s := fmt.Sprintf("%-9s #%d", p.Title, p.Seq)
	if p.Line > 0 {
		s += fmt.Sprintf(" line %d", p.Line)
	}
	return s + ": " + p.Cause
}

// ProblemScanner finds the problems of a trace incrementally: each Scan
// reads the events after the last one it read.
type ProblemScanner struct {
	last    uint64
	removed map[string]bool // devices whose removal is reported
}

// NewProblemScanner starts at the trace's first event.
func NewProblemScanner() *ProblemScanner { return &ProblemScanner{removed: map[string]bool{}} }

// Problems lists every problem of the trace src holds.
func Problems(src Source) []Problem { return NewProblemScanner().Scan(src) }

// Scan returns the problems among the events src holds after the last
// Scan read, in event order.
func (ps *ProblemScanner) Scan(src Source) []Problem {
	r := newReader(src)
	from := max(ps.last+1, r.first)
	var out []Problem
	for s := from; s <= r.last; s++ {
		e, ok := r.get(s)
		if !ok {
			continue
		}
		if p, ok := ps.classify(r, &e); ok {
			out = append(out, p)
		}
	}
	if r.last > ps.last {
		ps.last = r.last
	}
	return out
}

var (
	removedDevice = regexp.MustCompile(`device (\S+) was removed`)
	tdrWithin     = regexp.MustCompile(`^engine (\d+): .* within (\d+) ns`)
)

// kmdSucceeded are the NTSTATUS names of a DDI that did what it was
// asked, or that answered as the protocol expects (busy, a full buffer,
// a device already removed), not a rejection.
var kmdSucceeded = map[string]bool{
	"STATUS_SUCCESS": true, "STATUS_TIMEOUT": true, "STATUS_PENDING": true, "STATUS_DEVICE_REMOVED": true,
	"STATUS_GRAPHICS_ALLOCATION_BUSY": true, "STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER": true,
	"STATUS_GRAPHICS_NO_VIDEO_MEMORY": true, "STATUS_GRAPHICS_ADAPTER_WAS_RESET": true,
}

// problemMessages are the kernel's and the GPU's messages that are
// problems.
var problemMessages = map[string]bool{"TDR": true, "TdrPromotedToAdapterReset": true, "GpuFault": true, "NonResidentAccess": true, "DeviceRemoved": true}

// MayBeProblem reports whether e may be a problem: a violation, a problem
// message or debug-layer message, pfnSetErrorCb, a failed KMD call or a
// removed device's return. Scan looks no further at any other event, so a
// reader that saw none since the last Scan may Skip them.
func MayBeProblem(e *trace.Event) bool {
	switch e.Kind {
	case trace.Violation:
		return true
	case trace.Message:
		return problemMessages[e.Name] || e.Layer == trace.Runtime && strings.HasPrefix(e.Msg, "D3D11")
	case trace.Call:
		return e.Name == "pfnSetErrorCb"
	case trace.Return:
		return e.HR == "DXGI_ERROR_DEVICE_REMOVED" || e.Layer == trace.KMD && strings.HasPrefix(e.HR, "STATUS_") && !kmdSucceeded[e.HR]
	}
	return false
}

// Skip moves Scan's start past seq: the caller knows no event up to seq
// may be a problem (MayBeProblem; a subscription to the recorder saw none).
func (ps *ProblemScanner) Skip(seq uint64) {
	ps.last = max(ps.last, seq)
}

func (ps *ProblemScanner) classify(r reader, e *trace.Event) (Problem, bool) {
	p := Problem{Seq: e.Seq, Line: e.Line}
	// Most events are none: the API call a problem belongs to is looked up
	// for the few that are (a walk up the parents).
	if !MayBeProblem(e) {
		return p, false
	}
	if c := r.apiCall(e.Seq); c != 0 {
		p.Call = r.ref(c)
	}
	switch {
	case e.Kind == trace.Violation:
		p.Kind, p.Title, p.Cause = "violation", e.Rule, e.Msg
		if p.Title == "" {
			p.Title = "violation"
		}
	case e.Kind == trace.Message && e.Layer == trace.Runtime && strings.HasPrefix(e.Msg, "D3D11"):
		if strings.Contains(e.Msg, "the driver refused the shader") {
			return p, false // the refusal's pfnSetErrorCb is the problem
		}
		p.Kind, p.Title, p.Cause = "debug", "debug", e.Msg
	case e.Kind == trace.Call && e.Name == "pfnSetErrorCb" && strings.Contains(e.Msg, ": translate: "):
		_, feature, _ := strings.Cut(e.Msg, ": translate: ")
		p.Kind, p.Title = "refused", "refused"
		p.Cause = fmt.Sprintf("The driver cannot translate this shader for its GPU and refuses it through pfnSetErrorCb (%s): %s.", e.HR, feature)
		if p.Call != nil {
			p.Cause += " " + p.Call.text() + " fails, and draws that need the shader do not run."
		}
	case e.Kind == trace.Return && e.Layer == trace.KMD && strings.HasPrefix(e.HR, "STATUS_") && !kmdSucceeded[e.HR]:
		p.Kind, p.Title = "rejected", "KMD rejected"
		p.Cause = fmt.Sprintf("The kernel-mode driver's %s returned %s: %s.", e.Name, e.HR, trimKMD(e.Msg))
		if e.DMA != 0 {
			p.Cause += fmt.Sprintf(" DMA buffer %d never reaches the GPU.", e.DMA)
		}
		if p.Call != nil {
			p.Cause += " The call: " + p.Call.text() + "."
		}
	case e.Kind == trace.Message && (e.Name == "TDR" || e.Name == "TdrPromotedToAdapterReset"):
		p.Kind, p.Title = "tdr", "TDR"
		p.Cause = ps.tdr(r, e)
	case e.Kind == trace.Message && (e.Name == "GpuFault" || e.Name == "NonResidentAccess"):
		p.Kind, p.Title = "fault", "GPU fault"
		p.Cause = fault(r, e)
	case e.Kind == trace.Message && e.Name == "DeviceRemoved" && e.Layer == trace.Dxgkrnl:
		ps.removed[e.Obj] = true
		p.Kind, p.Title = "removed", "removed"
		why, reason, _ := strings.Cut(e.Msg, ": ")
		p.Cause = fmt.Sprintf("Device %s was removed (%s): %s. From then on every call on it that returns an HRESULT "+
			"returns DXGI_ERROR_DEVICE_REMOVED, and GetDeviceRemovedReason says why.", named(e.Obj, r.debugName(e.Obj, e.Seq)), why, reason)
	case e.Kind == trace.Return && e.From == trace.App && e.HR == "DXGI_ERROR_DEVICE_REMOVED":
		m := removedDevice.FindStringSubmatch(e.Msg)
		if m == nil || ps.removed[m[1]] {
			return p, false
		}
		ps.removed[m[1]] = true
		p.Kind, p.Title = "removed", "removed"
		_, why, _ := strings.Cut(e.Msg, "was removed: ")
		p.Cause = fmt.Sprintf("%s returned DXGI_ERROR_DEVICE_REMOVED: device %s was removed (%s). From then on every call on it "+
			"that returns an HRESULT returns DXGI_ERROR_DEVICE_REMOVED.", refOf(e).text(), m[1], why)
	default:
		return p, false
	}
	return p, true
}

// trimKMD drops the "kmd: DDI device: " prefix of the KMD's messages.
func trimKMD(msg string) string {
	rest, ok := strings.CutPrefix(msg, "kmd: ")
	if !ok {
		return msg
	}
	if i := strings.Index(rest, ": "); i > 0 {
		return rest[i+2:]
	}
	return rest
}

// carries names the API calls whose commands DMA buffer id carries, the
// card's, as "Draw at line 62, Present at line 63" ("" when none).
func carries(r reader, id, near uint64) string {
	if id == 0 {
		return ""
	}
	c := r.card(id, near)
	var names []string
	for i, call := range c.Calls {
		if i == 4 {
			names = append(names, fmt.Sprintf("and %d more", len(c.Calls)-4))
			break
		}
		names = append(names, call.text())
	}
	if len(names) == 0 && c.Built != nil {
		names = append(names, c.Built.text())
	}
	return strings.Join(names, ", ")
}

func (ps *ProblemScanner) tdr(r reader, e *trace.Event) string {
	if e.Name == "TdrPromotedToAdapterReset" {
		return "The engine reset did not recover the GPU: Dxgkrnl resets the whole adapter, and every device on it is lost " +
			"(DXGI_ERROR_DEVICE_RESET for those that did not hang): " + e.Msg + "."
	}
	s := fmt.Sprintf("The GPU neither finished nor preempted DMA buffer %d (fence %d of %s)", e.DMA, e.Fence, e.Handle)
	if m := tdrWithin.FindStringSubmatch(e.Msg); m != nil {
		ns, _ := strconv.ParseInt(m[2], 10, 64)
		s += fmt.Sprintf(" on engine %s within the TDR delay (%s of virtual time)", m[1], Duration(ns))
	}
	s += ": Dxgkrnl's timeout detection resets the GPU and removes the device that owned the buffer."
	if c := carries(r, e.DMA, e.Seq); c != "" {
		s += " The buffer carries " + c + "."
	}
	return s
}

func fault(r reader, e *trace.Event) string {
	var s string
	if e.Name == "NonResidentAccess" {
		s = "A DMA buffer names an allocation that is on no residency list, so the GPU would read memory that is not " +
			"there: Dxgkrnl drops the buffer and removes its device (" + e.Msg + ")."
	} else {
		s = fmt.Sprintf("The GPU faulted in DMA buffer %d", e.DMA)
		if n, ok := e.Args.Int(trace.KeyPacket); ok {
			s += fmt.Sprintf(" at packet %d", n)
		}
		s += ": " + e.Msg + "."
	}
	if c := carries(r, e.DMA, e.Seq); c != "" {
		s += " The buffer carries " + c + "."
	}
	return s
}
