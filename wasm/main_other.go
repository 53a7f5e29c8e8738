//go:build !js

// The native entry point: wasm/ runs in the browser only.

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "wasm/ is the browser build: use `go run .` at the repo root")
	os.Exit(1)
}
