// Command d3dsim runs scenarios headless: run, link, verify and bench
// (SCENARIO.md, "CLI").
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

const usage = `usage:
  d3dsim run FILE|- [--seed N] [--sync] [--out DIR]   run a scenario
  d3dsim run --link URL [--out DIR]                   run what a link carries
  d3dsim link FILE [--base URL]                       print a shareable URL
  d3dsim verify FILE                                  run and print rule violations
  d3dsim bench [--json]                               print the benchmark figures
  d3dsim gallery --out DIR [--base URL] [--files URL]  thumbnails + index.html of every tutorial and demo
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// args splits command-line words into positional words and --flags, which
// may come in any order (d3dsim run FILE --seed 3).
type args struct {
	pos   []string
	flags map[string]string
}

// boolFlags take no value.
var boolFlags = map[string]bool{"sync": true, "json": true}

func parseArgs(words []string) (args, error) {
	a := args{flags: map[string]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "-" || !strings.HasPrefix(w, "-") {
			a.pos = append(a.pos, w)
			continue
		}
		name := strings.TrimLeft(w, "-")
		if k, v, ok := strings.Cut(name, "="); ok {
			a.flags[k] = v
			continue
		}
		if boolFlags[name] {
			a.flags[name] = "true"
			continue
		}
		if i+1 >= len(words) {
			return a, fmt.Errorf("flag --%s needs a value", name)
		}
		a.flags[name] = words[i+1]
		i++
	}
	return a, nil
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	a, err := parseArgs(argv[1:])
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n%s", err, usage)
		return 2
	}
	for k := range a.flags {
		if !knownFlags[argv[0]][k] {
			fmt.Fprintf(stderr, "d3dsim %s: unknown flag --%s\n%s", argv[0], k, usage)
			return 2
		}
	}
	switch argv[0] {
	case "run":
		return cmdRun(a, stdin, stdout, stderr, false)
	case "verify":
		return cmdRun(a, stdin, stdout, stderr, true)
	case "link":
		return cmdLink(a, stdout, stderr)
	case "bench":
		return cmdBench(a, stdout, stderr)
	case "gallery":
		return cmdGallery(a, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "d3dsim: unknown command %q\n%s", argv[0], usage)
	return 2
}

var knownFlags = map[string]map[string]bool{
	"run":     {"seed": true, "sync": true, "out": true, "link": true},
	"verify":  {"seed": true, "sync": true, "link": true},
	"link":    {"base": true},
	"bench":   {"json": true, "n": true},
	"gallery": {"out": true, "base": true, "files": true},
}

func flagUint(a args, name string) (*uint64, error) {
	v, ok := a.flags[name]
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return nil, fmt.Errorf("--%s %q is not a whole number", name, v)
	}
	return &n, nil
}
