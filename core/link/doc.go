// Package link turns a scenario into a shareable link and back
// (docs/scenario.md, "Links").
//
// A link carries the whole scenario in its URL fragment, so it needs no
// server: `#s=1.<payload>`, where the payload is the scenario compressed with
// DEFLATE (compress/flate, best compression) and encoded as base64url without
// padding, and `1` is the format version. The browser (wasm/) and
// `d3dsim run --link` both decode with FromURL, so a link plays the same
// scenario in both.
//
// A tutorial's link adds a second key, `#s=1.<payload>&t=NAME` (TutorialURL,
// TutorialOf): the page opens the tutorial's notes beside the timeline.
// Readers ignore keys they do not know, so every link of format 1 stays
// valid and `d3dsim run --link` plays a tutorial's link like any other.
//
// Decoding is safe on any input: links come from strangers. The decompressed
// scenario is capped at MaxSize (1 MiB, the scenario parser's own limit), a
// zip bomb stops there without allocating more, and every failure is an error
// whose message starts with "link: " and says what is wrong with the link.
//
// The package has no state; its functions are safe for concurrent use.
package link
