// Command d3dsim runs scenarios headless: run, link, verify, bench and
// gallery (docs/scenario.md, "CLI"; usage below); dxbc lists shader bytecode
// and fxc compiles HLSL to it (docs/shaders.md).
package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Exit codes: every verb exits with one of these.
const (
	exitOK     = 0 // the run passed
	exitFailed = 1 // an expectation failed, a violation, a budget stopped the run
	exitBadIn  = 2 // bad input: the command line, the scenario, the link
	exitIO     = 3 // reading or writing a file failed (--out, --link-file)
)

const usage = `usage:
  d3dsim run FILE|- [flags]               run a scenario (- reads it from standard input), or an apitrace capture:
                                          a .trace or "apitrace dump" text (docs/apitrace.md)
  d3dsim run --link URL|- [flags]         run what a link carries (- reads the link from standard input)
  d3dsim run --link-file FILE [flags]     run what the link in FILE carries (a link longer than a command line)
  d3dsim run FILE|- --modes [flags]       run it synchronously, asynchronously in order and out of order, and compare
                                          the frames and query results (rule ASYNC-SAME; --link, --link-file too)
  d3dsim verify FILE|- [flags]            run and print the rule violations (--link, --link-file too)
  d3dsim export FILE|- -o OUT.trace [--seed N] [--sync] [--max-steps N] (-o or --o)
                                          run a scenario and write its calls as an apitrace capture (a .trace that
                                          apitrace dump reads and d3dretrace replays on Windows)
  d3dsim import FILE|- [-o OUT.d3ds] [--blobs DIR] [--strict] (-o or --o)
                                          write the scenario an apitrace capture (.trace or dump text) is, each
                                          statement with the call's number; the report of calls not simulated
                                          goes to standard error. --blobs: where "apitrace dump --blobs" wrote the
                                          blob_callN.bin files (default: the dump's directory); --strict: stop at
                                          the first call not simulated
  d3dsim inspect FILE|- --at EVENT (--state [--ctx IC|DCn] | --resource NAME | --pixel X,Y --target NAME [--mip N --slice N] |
                 --step X,Y [--target NAME] [--mip N --slice N] [--fragment N] | --step-vertex N[,INSTANCE] | --step-thread GX,GY,GZ/TX,TY,TZ |
                 --wait | --dma) [--json] [--seed N] [--sync] [--max-steps N]
                                          answer one question about the run at an event (docs/inspect.md): the
                                          pipeline state (runtime beside UMD), a resource (--gpu-now: as the GPU
                                          had it then; --region X,Y,W,H; --as FORMAT; --layout vertex|cbuffer|
                                          format|words; --stride N; --mip N --slice N), a pixel's history, a pixel's
                                          shader steps, a vertex's (the draw's N-th) or a compute thread's (group
                                          and thread ids) shader steps, why a wait waited (the fence, the DMA buffer, its calls),
                                          a DMA buffer's card (--dma: the event's buffer, or the one a call's
                                          commands went into).
                                          EVENT: a seq, NAME#K (the K-th call of NAME, 1 the first) or line:N
                                          (--link, --link-file too)
  d3dsim inspect FILE|- --problems [--json]
                                          what went wrong in the run, each with its event, line and cause:
                                          failures, violations, debug messages, refused shaders, KMD
                                          rejections, TDRs, GPU faults, removed devices
  d3dsim inspect FILE|- --memory [--json]
                                          GPUView's memory view: per device, allocations created and destroyed,
                                          made resident in VRAM, evicted, mapped into the aperture segment, each
                                          with its paging buffer and the segment's bytes in use
  d3dsim diff A B [--at EVENT] [--mask FILE.png] [--json] [--seed N] [--max-steps N]
  d3dsim diff FILE --modes [--a MODE --b MODE] [...]
                                          compare two runs (docs/inspect.md): two scenarios, or one in two modes
                                          (MODE sync, in-order, out-of-order; default in-order against
                                          out-of-order): the first API call and the first event of each layer
                                          where the traces part, the pixels of the last frames that differ
                                          (--mask: a PNG of them), the bindings that differ at EVENT
  d3dsim link FILE|- [--base URL]         print a shareable URL (default base http://127.0.0.1:8080/,
                                          the dev server on this machine: give --base for a link to share)
  d3dsim bench [--json] [--n N] [--peer] [--quick] [--scene NAME[,NAME]]
                                          print the benchmark figures (--n: draws, 1..100000000, default 1000000;
                                          --peer: Mesa llvmpipe on the same scenes, when cc and libosmesa6-dev are here;
                                          --quick: each scene once, a check that all run, not figures to quote;
                                          --scene: only these scenes, named as the JSON's keys begin: draws, fill,
                                          tris, fill_rotated, fill_textured, fill_phong, fill_loop, fill_pipeline,
                                          cmdlist, discard, ooo)
  d3dsim gallery --out DIR [--base URL] [--files URL]
                                          thumbnails + index.html of every tutorial and demo
  d3dsim dxbc FILE|- [--stage vs|ps|...]  list shader bytecode as fxc /Fc does (a .cso blob or an fxc /Fh header),
                                          every stage's, compute, geometry, hull and domain shaders included;
                                          --stage vs|ps|gs|hs|ds|cs: also check it as the runtime's Create*Shader
                                          would
  d3dsim fxc /T PROFILE [/E ENTRY] [/Fo FILE] [/Fh FILE] [/Vn NAME] [/Fc FILE] FILE|-
                                          compile HLSL as fxc does (PROFILE vs_4_0, vs_5_0, ps_4_0, ps_5_0; ENTRY
                                          default main): /Fo the bytecode (.cso), /Fh a C header (array NAME,
                                          default g_ENTRY), /Fc the listing; none of them: the listing to standard
                                          output. Options take / or -, the value next or attached (/Tps_5_0)
  d3dsim shadertest FILE|DIR... [--json] [--all] [--out DIR] [--compiler CMD]
                                          run shader_test files (vkd3d's HLSL suite format): each case compiled
                                          and drawn through the whole stack; prints the cases that did not pass
                                          (--all: every case) with why, then the counts by category; --json the
                                          results as JSON; --out DIR writes the cases as scenarios (FILE-LINE.d3ds);
                                          --compiler CMD compiles with another compiler (fxc's options, or
                                          vkd3d-compiler's) and runs its bytecode

flags of run and verify:
  --seed N          the seed of the thread scheduling (option seed)
  --sync            every call waits for the GPU (option sync=true)
  --out DIR         (run only) write frame-NNN.png per Present, trace.jsonl and trace.perfetto.json
  --modes           (run only) three runs, sync, in-order (Windows' scheduling) and out-of-order (option
                    scheduler=salvia, the SamBookshelf article's design, alias ooo=true, on at least 2 engines):
                    prints each run's summary line, the failures, and the first difference in frames (frame, pixel,
                    colours) and in query results (GetData line, values) of each mode with the synchronous run;
                    not with --sync or --out
  --max-steps N     API calls and other statements the run may make (option maxsteps)
  --max-events N    events the trace ring holds, N >= 1000 (option maxevents)
  --max-time MS     milliseconds of virtual time, MS <= 1000000000 (option maxtime)
  --max-pixels N    pixels shaded, written or presented (option maxpixels)
  --max-instructions N
                    shader instructions executed, one per vertex or pixel (option maxinstructions)
  --max-objects N   live objects per device, 16..1073741824 (option maxobjects)
  A scenario or a link holds its options to their ranges (maxsteps 1..100000000, maxevents 1000..4000000,
  maxtime 1..60000, maxpixels 1..20000000000, maxinstructions 1..100000000000, maxobjects 16..250000,
  sysmem 1MiB..512MiB, gpu.vram 1MiB..1GiB, gpu.engines 1..8, umd.cmdbuf 4KiB..64MiB, and the HLSL
  compiler's hlsl.tokens 1..4194304, hlsl.nodes 1..16777216, hlsl.instructions 1..1048576) and is refused
  when one is outside; a --max-* flag replaces the option and may go past its range.

exit status: 0 passed; 1 an expectation failed, a rule was violated or a budget stopped the run (--modes: also
a difference between the modes);
2 bad input (the command line, a file that cannot be read, a scenario that does not load or that uses an object
it did not make, a bad link, HLSL that does not compile); 3 writing an output failed (--out, gallery, fxc /Fo /Fh
/Fc).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// flagKind says what a flag's value must be.
type flagKind int

const (
	fBool   flagKind = iota // no value
	fUint                   // a whole number >= 0
	fCount                  // a whole number >= 1
	fString                 // any text (a path, -)
	fURL                    // an http or https URL
	fStage                  // a shader stage: vs, ps, gs, hs, ds or cs
)

// form is the expected form of a flag's value, for messages.
func (k flagKind) form() string {
	return [...]string{"no value", "a whole number", "a whole number of at least 1", "a value", "an http:// or https:// URL", "vs, ps, gs, hs, ds or cs"}[k]
}

// verbFlags are the flags of each verb (every one is in the usage text:
// TestUsageListsEveryFlag).
var verbFlags = map[string]map[string]flagKind{
	"run": {"seed": fUint, "sync": fBool, "out": fString, "link": fString, "link-file": fString, "modes": fBool,
		"max-steps": fCount, "max-events": fCount, "max-time": fCount, "max-pixels": fCount, "max-instructions": fCount, "max-objects": fCount},
	"verify": {"seed": fUint, "sync": fBool, "link": fString, "link-file": fString,
		"max-steps": fCount, "max-events": fCount, "max-time": fCount, "max-pixels": fCount, "max-instructions": fCount, "max-objects": fCount},
	"link":       {"base": fURL},
	"bench":      {"json": fBool, "n": fCount, "peer": fBool, "quick": fBool, "scene": fString},
	"gallery":    {"out": fString, "base": fString, "files": fString},
	"dxbc":       {"stage": fStage},
	"fxc":        {}, // fxc's own /T /E ... options: parseFxcArgs
	"shadertest": {"json": fBool, "all": fBool, "out": fString, "compiler": fString},
	"export":     {"o": fString, "seed": fUint, "sync": fBool, "max-steps": fCount, "link": fString, "link-file": fString, "blobs": fString, "strict": fBool},
	"import":     {"o": fString, "blobs": fString, "strict": fBool},
	"diff":       {"modes": fBool, "a": fString, "b": fString, "at": fString, "mask": fString, "json": fBool, "seed": fUint, "max-steps": fCount},
	"inspect": {"at": fString, "problems": fBool, "memory": fBool, "step-vertex": fString, "step-thread": fString, "state": fBool, "wait": fBool, "dma": fBool, "resource": fString, "pixel": fString, "step": fString, "json": fBool, "ctx": fString,
		"target": fString, "gpu-now": fBool, "region": fString, "as": fString, "layout": fString, "stride": fCount, "fragment": fUint,
		"mip": fUint, "slice": fUint, "seed": fUint, "sync": fBool, "max-steps": fCount, "link": fString, "link-file": fString},
}

// args are a verb's positional words and --flags, which may come in any
// order (d3dsim run FILE --seed 3).
type args struct {
	pos   []string
	flags map[string]string
}

// usageError is bad input on the command line: exit 2 with the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badf(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

func knownList(flags map[string]flagKind) string {
	names := make([]string, 0, len(flags))
	for k := range flags {
		names = append(names, "--"+k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// parseArgs splits the words after the verb; every flag is checked against
// the verb's flags and its value against its form.
func parseArgs(verb string, words []string) (args, error) {
	known := verbFlags[verb]
	a := args{flags: map[string]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "-" || !strings.HasPrefix(w, "-") {
			a.pos = append(a.pos, w)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
		kind, ok := known[name]
		if !ok {
			return a, badf("unknown flag --%s (known: %s)", name, knownList(known))
		}
		if _, dup := a.flags[name]; dup {
			return a, badf("flag --%s given twice", name)
		}
		switch {
		case kind == fBool && hasVal && val != "true" && val != "false":
			return a, badf("flag --%s takes no value (got %q)", name, val)
		case kind == fBool && !hasVal:
			val = "true"
		case !hasVal:
			if i+1 >= len(words) {
				return a, badf("flag --%s needs %s", name, kind.form())
			}
			i++
			val = words[i]
		}
		if err := checkValue(name, kind, val); err != nil {
			return a, err
		}
		a.flags[name] = val
	}
	return a, nil
}

func checkValue(name string, kind flagKind, v string) error {
	switch kind {
	case fUint, fCount:
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || kind == fCount && n == 0 {
			return badf("flag --%s %q: must be %s", name, v, kind.form())
		}
	case fURL:
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return badf("flag --%s %q: must be %s", name, v, kind.form())
		}
	case fStage:
		if _, ok := stageByPrefix[v]; !ok {
			return badf("flag --%s %q: must be %s", name, v, kind.form())
		}
	case fString:
		if v == "" {
			return badf("flag --%s needs %s", name, kind.form())
		}
	}
	return nil
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadIn
	}
	switch argv[0] {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if verbFlags[argv[0]] == nil {
		fmt.Fprintf(stderr, "d3dsim: unknown command %q\n%s", argv[0], usage)
		return exitBadIn
	}
	if argv[0] == "fxc" {
		return cmdFxc(argv[1:], stdin, stdout, stderr)
	}
	for _, w := range argv[1:] {
		if w == "-h" || w == "--help" || w == "-help" {
			fmt.Fprint(stdout, verbUsage(argv[0]))
			return exitOK
		}
	}
	a, err := parseArgs(argv[0], argv[1:])
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim %s: %v\n%s", argv[0], err, usage)
		return exitBadIn
	}
	switch argv[0] {
	case "run":
		return cmdRun(a, stdin, stdout, stderr, false)
	case "verify":
		return cmdRun(a, stdin, stdout, stderr, true)
	case "link":
		return cmdLink(a, stdin, stdout, stderr)
	case "bench":
		return cmdBench(a, stdout, stderr)
	case "dxbc":
		return cmdDxbc(a, stdin, stdout, stderr)
	case "shadertest":
		return cmdShadertest(a, stdout, stderr)
	case "export":
		return cmdExport(a, stdin, stdout, stderr)
	case "import":
		return cmdImport(a, stdin, stdout, stderr)
	case "inspect":
		return cmdInspect(a, stdin, stdout, stderr)
	case "diff":
		return cmdDiff(a, stdin, stdout, stderr)
	default: // gallery
		return cmdGallery(a, stdout, stderr)
	}
}

// flagUint is the value of a checked numeric flag, nil if not given.
func flagUint(a args, name string) *uint64 {
	v, ok := a.flags[name]
	if !ok {
		return nil
	}
	n, _ := strconv.ParseUint(v, 10, 64) // parseArgs checked it
	return &n
}

// verbUsage is the part of usage about verb: its lines ("  d3dsim VERB ...")
// and their continuations (the lines indented deeper, up to the next
// command), what `d3dsim VERB --help` prints.
func verbUsage(verb string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(usage, "\n") {
		switch {
		case strings.HasPrefix(line, "  d3dsim "):
			in = strings.HasPrefix(line, "  d3dsim "+verb+" ") || strings.TrimSpace(line) == "d3dsim "+verb
		case !strings.HasPrefix(line, "   "):
			in = false
		}
		if in {
			b.WriteString(line)
		}
	}
	if b.Len() == 0 {
		return usage
	}
	out := "usage:\n" + b.String()
	if i := strings.Index(usage, "\nflags of run and verify:"); i >= 0 && (verb == "run" || verb == "verify") {
		flags, _, _ := strings.Cut(usage[i+1:], "\n\n")
		out += "\n" + flags + "\n"
	}
	if i := strings.Index(usage, "\nexit status:"); i >= 0 {
		out += usage[i:]
	}
	return out
}
