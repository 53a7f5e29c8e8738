package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"d3dsim/core/dxbc"
)

// cmdDxbc prints the fxc-style listing of shader bytecode: a compiled
// blob (.cso, .dxbc), the C header fxc /Fh writes, or a file that carries a
// container inside it. With --stage it also
// runs the checks CreateVertexShader or CreatePixelShader runs.
func cmdDxbc(a args, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(a.pos) != 1 {
		fmt.Fprintf(stderr, "d3dsim dxbc: give one FILE (or - for standard input)\n%s", usage)
		return exitBadIn
	}
	name := a.pos[0]
	var src []byte
	var err error
	if name == "-" {
		src, err = io.ReadAll(io.LimitReader(stdin, 4*dxbc.MaxSize+1))
	} else {
		src, err = readLimited(name, 4*dxbc.MaxSize)
	}
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim dxbc: %v\n", err)
		return exitBadIn
	}
	blob := src
	if !bytes.HasPrefix(src, []byte("DXBC")) {
		if blob, err = dxbc.ParseFxcHeader(string(src)); err != nil {
			// A file of an engine's own that carries the container
			// (bgfx's compiled shaders).
			if blob = dxbc.Embedded(src); blob == nil {
				fmt.Fprintf(stderr, "d3dsim dxbc: %s: not DXBC bytecode, no DXBC container inside it, and as an fxc /Fh header: %v\n", name, err)
				return exitBadIn
			}
		}
	}
	c, err := dxbc.Parse(blob)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim dxbc: %s: %v\n", name, err)
		return exitBadIn
	}
	// Written as it goes (a 60,000-instruction program's listing is
	// never held whole).
	if err := dxbc.WriteListing(stdout, c); err != nil {
		fmt.Fprintf(stderr, "d3dsim dxbc: %s: %v\n", name, err)
		return exitBadIn
	}
	if st, ok := a.flags["stage"]; ok {
		stage := stageByPrefix[st]
		if _, err := dxbc.Validate(blob, stage); err != nil {
			fmt.Fprintf(stderr, "d3dsim dxbc: %s: %v\n", name, err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "// valid %s shader\n", st)
	}
	return exitOK
}

// stageByPrefix is --stage's value: every stage's bytecode lists and
// validates, including the stages this GPU cannot run.
var stageByPrefix = map[string]dxbc.ProgramType{"vs": dxbc.VertexShader, "ps": dxbc.PixelShader,
	"gs": dxbc.GeometryShader, "hs": dxbc.HullShader, "ds": dxbc.DomainShader, "cs": dxbc.ComputeShader}

// readLimited reads a file of at most limit bytes.
func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s: over %d bytes", name, limit)
	}
	return b, err
}
