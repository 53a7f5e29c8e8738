// Package inspect is the inspector's query API: what the page's State,
// Resource, Pixel history and Shader stepping views show, what `d3dsim
// inspect` prints and what the tests ask, all through the same functions
// (as RenderDoc's replay API serves its UI and its scripts alike).
//
// The simulation is deterministic, so "the machine as it was at event N"
// is exact: a Journal follows a run as it goes and answers the pipeline
// state at any event (per stage: what the runtime holds beside the
// packets the UMD encoded for it, with the allocations they name and their
// patch locations) without running anything again; a Session runs the
// scenario again up to the event's API call for what needs the machine
// itself: a resource's contents as the GPU left them, the history of one
// pixel (through the GPU's pixel watch) and one pixel's steps through its
// shader (through the executor's trace), each instruction beside the DXBC
// instruction it was translated from and the HLSL line that came from.
//
// An event is named by its seq; an event that is not an API call (a DDI,
// a kernel or GPU event) belongs to the last API call at or before it.
package inspect
