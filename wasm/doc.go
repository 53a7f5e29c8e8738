// Command wasm is the browser build of d3dsim (docs/browser.md): an Ebiten
// game that shows the frames the simulated GPU presents, and the
// window.d3dsim bridge (bridge_js.go) the page's panel and the browser tests
// drive. Build it with `go run .` at the repo root, which serves web/.
//
// Built natively rather than with GOOS=js, it only says so (main_other.go),
// so that `go build ./...` and `go vet ./...` work on every platform; the
// application model (app.go, inspect.go, columns.go) builds and is tested
// natively too.
package main
