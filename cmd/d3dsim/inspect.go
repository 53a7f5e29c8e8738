package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"d3dsim/core/inspect"
	"d3dsim/core/scenario"
)

// cmdInspect answers one question about the run at an event (docs/inspect.md):
// the pipeline state, a resource, a pixel's history or a pixel's shader
// steps, as text or JSON. The scenario runs once with a journal (to name
// the event and answer the state), and once more up to the event for the
// others.
func cmdInspect(a args, stdin io.Reader, stdout, stderr io.Writer) int {
	bad := func(format string, v ...any) int {
		fmt.Fprintf(stderr, "d3dsim inspect: %s\n", fmt.Sprintf(format, v...))
		return exitBadIn
	}
	// The package's errors say "inspect: ..." already.
	failed := func(err error) int {
		fmt.Fprintf(stderr, "d3dsim %v\n", err)
		return exitBadIn
	}
	asked := 0
	for _, q := range []string{"problems", "memory", "state", "resource", "pixel", "step", "step-vertex", "step-thread", "wait", "dma"} {
		if _, ok := a.flags[q]; ok {
			asked++
		}
	}
	if asked != 1 {
		return bad("ask one of --state, --resource NAME, --pixel X,Y, --step X,Y, --step-vertex N[,INSTANCE], --step-thread GX,GY,GZ/TX,TY,TZ, --wait, --dma, --problems or --memory")
	}
	_, problems := a.flags["problems"]
	_, memory := a.flags["memory"]
	at, ok := a.flags["at"]
	if !ok && !problems && !memory {
		return bad("--at EVENT is needed: a seq, NAME#K (the K-th call of NAME) or line:N")
	}
	name, src, err := readScenario(a, stdin)
	if err != nil {
		return bad("%v", err)
	}
	sc, err := scenario.Load(name, src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadIn
	}
	o := scenario.Overrides{Seed: flagUint(a, "seed"), MaxSteps: flagUint(a, "max-steps")}
	if _, ok := a.flags["sync"]; ok {
		t := true
		o.Sync = &t
	}
	s := inspect.NewSession(sc, o)
	r, j := s.Run()
	if problems {
		return printProblems(a, inspect.Problems(r.Recorder()), r.Summary().Failures, stdout, stderr)
	}
	var answer interface{ Text() string }
	if memory {
		return printAnswer(a, memoryAnswer(inspect.Memory(r.Recorder())), stdout, stderr)
	}
	seq, err := j.Resolve(at)
	if err != nil {
		return failed(err)
	}
	switch {
	case a.flags["wait"] != "":
		answer, err = inspect.ExplainWait(r.Recorder(), seq)
	case a.flags["dma"] != "":
		var card *inspect.DMACard
		if card, err = inspect.ExplainDMA(r.Recorder(), seq); err == nil {
			j.Contents(card)
			answer = card
		}
	case a.flags["step-vertex"] != "":
		v, perr := uints(a.flags["step-vertex"], 1, 2)
		if perr != nil {
			return bad("--step-vertex %q: %v (N or N,INSTANCE)", a.flags["step-vertex"], perr)
		}
		v = append(v, 0)
		answer, err = s.StepVertex(j, seq, v[0], v[1])
	case a.flags["step-thread"] != "":
		gs, ts, two := strings.Cut(a.flags["step-thread"], "/")
		g, perr := uints(gs, 3, 3)
		t, terr := uints(ts, 3, 3)
		if !two || perr != nil || terr != nil {
			return bad("--step-thread %q: give the group and the thread as GX,GY,GZ/TX,TY,TZ", a.flags["step-thread"])
		}
		answer, err = s.StepThread(j, seq, [3]uint32{g[0], g[1], g[2]}, [3]uint32{t[0], t[1], t[2]})
	case a.flags["state"] != "":
		answer, err = j.State(seq, a.flags["ctx"])
	case a.flags["resource"] != "":
		ro := inspect.ResourceOptions{As: a.flags["as"], Layout: a.flags["layout"], GPUNow: a.flags["gpu-now"] == "true"}
		if n := flagUint(a, "stride"); n != nil {
			ro.Stride = int(*n)
		}
		if n := flagUint(a, "mip"); n != nil {
			ro.Mip = int(min(*n, 1<<20))
		}
		if n := flagUint(a, "slice"); n != nil {
			ro.Slice = int(min(*n, 1<<20))
		}
		if r, ok := a.flags["region"]; ok {
			v, perr := ints(r, 4)
			if perr != nil {
				return bad("--region %q: %v", r, perr)
			}
			ro.X, ro.Y, ro.W, ro.H = v[0], v[1], v[2], v[3]
		}
		answer, err = s.Resource(j, seq, a.flags["resource"], ro)
	default:
		flag := "pixel"
		if _, ok := a.flags["step"]; ok {
			flag = "step"
		}
		xy, perr := ints(a.flags[flag], 2)
		if perr != nil {
			return bad("--%s %q: %v", flag, a.flags[flag], perr)
		}
		target := a.flags["target"]
		// --mip and --slice name a subresource of the target's resource
		// (a layered draw's slice); without them, what the target shows.
		var sub *inspect.Subresource
		mip, slice := flagUint(a, "mip"), flagUint(a, "slice")
		if mip != nil || slice != nil {
			sub = &inspect.Subresource{}
			if mip != nil {
				sub.Mip = int(min(*mip, 1<<20))
			}
			if slice != nil {
				sub.Slice = int(min(*slice, 1<<20))
			}
		}
		if flag == "pixel" {
			if target == "" {
				return bad("--pixel X,Y needs --target NAME: the texture (or its view, or a swap chain) the pixel is on")
			}
			answer, err = s.PixelHistoryAt(j, seq, target, sub, xy[0], xy[1])
		} else {
			frag := -1
			if n := flagUint(a, "fragment"); n != nil {
				frag = int(*n)
			}
			answer, err = s.StepPixelAt(j, seq, target, sub, xy[0], xy[1], frag)
		}
	}
	if err != nil {
		return failed(err)
	}
	return printAnswer(a, answer, stdout, stderr)
}

// printAnswer prints an answer as text, or as JSON with --json.
func printAnswer(a args, answer interface{ Text() string }, stdout, stderr io.Writer) int {
	if _, ok := a.flags["json"]; ok {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(answer); err != nil {
			fmt.Fprintf(stderr, "d3dsim inspect: %v\n", err)
			return exitIO
		}
		return exitOK
	}
	fmt.Fprint(stdout, answer.Text())
	return exitOK
}

// memoryAnswer is the memory events as an answer (--memory).
type memoryAnswer []inspect.MemoryEvent

func (m memoryAnswer) Text() string { return inspect.MemoryText(m) }

// printProblems prints the run's problems (docs/inspect.md "Problems"):
// the failed expectations, then each problem of the trace with its cause.
func printProblems(a args, ps []inspect.Problem, failures []string, stdout, stderr io.Writer) int {
	if _, ok := a.flags["json"]; ok {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Failures []string          `json:"failures"`
			Problems []inspect.Problem `json:"problems"`
		}{append([]string{}, failures...), append([]inspect.Problem{}, ps...)}); err != nil {
			fmt.Fprintf(stderr, "d3dsim inspect: %v\n", err)
			return exitIO
		}
		return exitOK
	}
	fmt.Fprintf(stdout, "%d problems\n", len(ps)+len(failures))
	for _, f := range failures {
		fmt.Fprintf(stdout, "failure   %s\n", f)
	}
	for _, p := range ps {
		fmt.Fprintln(stdout, p.Text())
	}
	return exitOK
}

// ints parses n comma-separated whole numbers (X,Y or X,Y,W,H).
func ints(s string, n int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d whole numbers separated by commas", n)
	}
	out := make([]int, n)
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%q is not a whole number", p)
		}
		out[i] = v
	}
	return out, nil
}

// uints reads lo to hi comma-separated unsigned integers.
func uints(s string, lo, hi int) ([]uint32, error) {
	parts := strings.Split(s, ",")
	if len(parts) < lo || len(parts) > hi {
		return nil, fmt.Errorf("%d to %d numbers", lo, hi)
	}
	out := make([]uint32, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number of 0 or more", p)
		}
		out[i] = uint32(n)
	}
	return out, nil
}
