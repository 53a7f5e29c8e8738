// Package trace is the event record every layer of d3dsim emits.
//
// One stream of Events feeds the browser panel, the verifier (core/verify), the
// JSON-lines exporter and the Chrome/Perfetto exporter. The JSON form of an
// event is fixed by docs/scenario.md ("Trace"), so field names and order here are a
// contract: extend, never rename.
//
// An event's payload (Event.Args) is typed: (Key, value) entries written with
// an ArgBuilder and read by key (Args.Int, Args.Str, Args.Has, Args.Allocs,
// Args.Pairs), every key declared once in args.go with its name. Its text,
// "key=value key=value" as the JSON args field shows it, is only printed,
// never parsed back.
package trace
