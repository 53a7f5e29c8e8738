//go:build !js

// Command wasm is the browser build of d3dsim; natively it only says so, so
// that `go build ./...` and `go vet ./...` work on every platform.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "wasm/ is the browser build: use `go run .` at the repo root")
	os.Exit(1)
}
