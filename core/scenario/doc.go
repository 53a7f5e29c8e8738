// Package scenario is d3dsim's application layer: the scenario language
// (docs/scenario.md is its reference) and the runner that
// plays a scenario as the application of one simulated machine.
//
// A scenario goes through four stages:
//
//   - the lexer (lexer.go) and the parser (parser.go) turn its text into a
//     Script (ast.go), checking syntax only;
//   - the checker (check.go, Load) resolves every method, argument, enum
//     value, object name, option and fault against the API table (table.go)
//     before anything runs, so bad input is a FILE:LINE:COL error and never
//     reaches the simulation;
//   - the runner (run.go: NewRun, Step, Slice, Finish; stmt.go runs one
//     statement, threads.go the simulated application threads, table.go
//     and exec.go each API call) builds a
//     machine (core/machine) from the script's options and runs the
//     statements on simulated application threads, a seeded choice among
//     the runnable ones at each statement, calling the D3D11 runtime
//     (core/d3d11) directly;
//   - the `expect` and `inject` statements (expect.go) read results back,
//     inject faults and count live objects through the machine, and the
//     verifier (core/verify) reads the trace after every statement.
//
// A run is deterministic for a seed: the same script, options and overrides
// give the same trace, frames and summary, however the run is cut into steps.
package scenario
