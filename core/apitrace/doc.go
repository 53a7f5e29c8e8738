// Package apitrace reads and writes the files of apitrace, the open-source
// API tracer: the binary .trace (a Snappy or gzip container around a stream
// of call events) and the text `apitrace dump` prints. It is
// application-level, beside core/scenario: a capture of a real program's
// D3D11 and DXGI calls becomes a scenario, and a scenario's run becomes a
// capture that Debian's apitrace reads and d3dretrace replays on Windows.
//
// The format ("Trace binary format specification", FORMAT.markdown in
// apitrace's sources, checked against its reader and writer): a version,
// then events. An enter event carries the thread number, the function's
// signature (defined inline at its first use, an id after), the input
// arguments, a backtrace and flags (FAKE: the tracer made the call up, the
// memcpy of mapped memory); a leave event the call's number, the output
// arguments and the return value. Values are tagged: null, booleans,
// integers (a negative one is a tag and a magnitude), floats, strings,
// blobs, enums and bitmasks of self-describing signatures, arrays (a
// pointer to one value is an array of one), structs, opaque pointers,
// reprs (a human and a machine form: shader disassembly and bytecode) and
// wide strings.
//
// Reader streams: it holds one decoded chunk, the signatures seen and the
// calls entered and not yet left, within Options' limits (a trace is
// untrusted input), and returns calls in the order apitrace's parser does.
// A malformed file is a FormatError naming the byte offset and the call,
// never a panic. Writer writes version 6 with the Snappy container, as
// apitrace's tracers do. DumpCall prints a call as `apitrace dump` does;
// the tests compare both with Debian's apitrace on OpenGL traces recorded
// under Xvfb.
package apitrace
