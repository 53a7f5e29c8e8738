// Package trace is the event record every layer of d3dsim emits.
//
// One stream of Events feeds the browser panel, the verifier (core/verify), the
// JSON-lines exporter and the Chrome/Perfetto exporter. The JSON form of an
// event is fixed by SCENARIO.md ("Trace"), so field names and order here are a
// contract: extend, never rename.
package trace
