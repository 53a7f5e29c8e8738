package shadertest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"d3dsim/core/hlsl"
	"d3dsim/core/scenario"
)

// Outcomes of a case.
const (
	Pass          = "pass"         // compiled as expected and every probe held
	Wrong         = "wrong"        // ran, and a probe read another value
	CompileFail   = "compile-fail" // a shader that should compile did not (or was refused as unsupported)
	Accepted      = "accepted"     // a shader expected not to compile compiled
	Skip          = "skip"         // d3dsim's device cannot run it (Reason says what it lacks)
	NotApplicable = "n/a"          // Direct3D 11 at SM 4.0-5.0 never runs it
	Failed        = "error"        // the scenario failed otherwise (a call failed, a limit)
)

// Result is what running a case gave.
type Result struct {
	Name     string `json:"case"` // FILE:LINE
	File     string `json:"file"`
	Line     int    `json:"line"`
	Kind     string `json:"kind"`
	Category string `json:"category"`
	Model    string `json:"model"`
	Outcome  string `json:"outcome"`
	Reason   string `json:"reason,omitempty"`
	// Scenario is the case as a scenario (with Options.Scenarios).
	Scenario string `json:"-"`
	Case     *Case  `json:"-"`
}

// Options say how cases run.
type Options struct {
	// Compile, if set, compiles the shaders instead of d3dsim's compiler
	// (an external compiler, or bytecode from files): the scenario carries
	// the bytecode.
	Compile Bytecode
	// Scenarios keeps each case's scenario in its Result.
	Scenarios bool
}

// unsupportedMarker is how d3dsim's compiler words a construct it knows
// and lacks ("not supported by this compiler: ..."): a refusal, not a
// verdict on the source.
const unsupportedMarker = "not supported by this compiler"

// Run runs one case.
func Run(c *Case, o Options) *Result {
	res, _ := run(c, o)
	return res
}

// run runs one case and returns the scenario run too when the case's
// scenario ran (to read what it left in its render targets).
func run(c *Case, o Options) (res *Result, sr *scenario.Run) {
	res = &Result{Name: c.Name(), File: c.File, Line: c.Line, Kind: c.Kind, Category: c.Category, Model: c.Model.String(), Case: c}
	if c.NotApplicable != "" {
		res.Outcome, res.Reason = NotApplicable, c.NotApplicable
		return res, nil
	}
	// Compile each shader first: a shader the compiler cannot take is the
	// compiler's failure whatever the device lacks.
	code := map[string][]byte{}
	for _, sh := range c.Shaders {
		b, err := c.compile(sh, o)
		switch {
		case err == nil && sh.ExpectFail:
			res.Outcome, res.Reason = Accepted, fmt.Sprintf("the %s of line %d compiled (%s), and the suite expects it not to", stageName(sh.Stage), sh.Line, sh.Profile(c.Model))
			return res, nil
		case err != nil && sh.ExpectFail:
			msg := firstLine(err.Error())
			if strings.Contains(err.Error(), unsupportedMarker) {
				res.Outcome, res.Reason = CompileFail, "expected not to compile, and refused for another reason: "+msg
				return res, nil
			}
			if !diagInside(err, sh) {
				res.Outcome, res.Reason = CompileFail, fmt.Sprintf("rejected, but no diagnostic names a line of the shader (lines %d-%d): %s", sh.Line+1, sh.End, msg)
				return res, nil
			}
			res.Reason = msg
		case err != nil:
			res.Outcome, res.Reason = CompileFail, fmt.Sprintf("%s (%s): %s", stageName(sh.Stage), sh.Profile(c.Model), firstLine(err.Error()))
			return res, nil
		}
		if b != nil && o.Compile != nil {
			code[sh.Stage] = b
		}
	}
	if c.Kind == KindCompile {
		res.Outcome = Pass
		if o.Scenarios && scenarioStages[c.Shaders[0].Stage] != "" {
			res.Scenario, _ = c.Scenario(code)
		}
		return res, nil
	}
	if why := c.unsupported(); why != "" {
		res.Outcome, res.Reason = Skip, why
		return res, nil
	}
	text, roles := c.Scenario(code)
	if o.Scenarios {
		res.Scenario = text
	}
	res.Outcome, res.Reason, sr = runScenario(c, text, roles)
	if res.Outcome == Wrong {
		for _, r := range c.Resources {
			if r.StartUnknown != "" {
				res.Reason += fmt.Sprintf(" (the target would hold %s)", r.StartUnknown)
			}
		}
	}
	return res, sr
}

func stageName(s string) string {
	return map[string]string{"vs": "vertex shader", "ps": "pixel shader", "cs": "compute shader", "hs": "hull shader",
		"ds": "domain shader", "gs": "geometry shader", "fx": "effect"}[s]
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// compile compiles a shader with d3dsim's compiler or the caller's.
func (c *Case) compile(sh *Shader, o Options) ([]byte, error) {
	src := c.sourceFor(sh)
	if o.Compile != nil {
		return o.Compile(sh.Stage, sh.Profile(c.Model), src, c.flags())
	}
	r, err := hlsl.CompileWith([]byte(src), c.File, "main", sh.Profile(c.Model), hlsl.Limits{Flags: c.flags()})
	if err != nil {
		return nil, err
	}
	return r.Bytecode, nil
}

// diagInside reports whether an error of d3dsim's compiler names a line
// of the shader's section (any error of another compiler counts).
func diagInside(err error, sh *Shader) bool {
	var ds hlsl.Errors
	if !errors.As(err, &ds) {
		return true
	}
	for _, d := range ds {
		if d.Line > sh.Line && d.Line <= sh.End || d.Line == 0 {
			return true
		}
	}
	return false
}

// runScenario loads and runs a case's scenario and classifies what failed
// by the role of the line it failed at.
func runScenario(c *Case, text string, roles map[int]role) (outcome, reason string, r *scenario.Run) {
	s, err := scenario.Load(c.Name()+".d3ds", []byte(text))
	if err != nil {
		var se *scenario.Error
		if errors.As(err, &se) {
			outcome, reason = classify(roles, se.Line, se.Msg, true)
			return outcome, reason, nil
		}
		return Failed, err.Error(), nil
	}
	r = scenario.NewRun(s, scenario.Overrides{})
	sum := r.Finish()
	if len(sum.Failures) == 0 {
		if sum.Limit != "" {
			return Failed, sum.Limit, r
		}
		return Pass, "", r
	}
	// The first failure that is not a probe's decides, else the first
	// probe's.
	outcome, reason = "", ""
	for _, f := range sum.Failures {
		line, msg := splitFailure(f)
		o, why := classify(roles, line, msg, false)
		if o != Wrong {
			return o, why, r
		}
		if outcome == "" {
			outcome, reason = o, why
		}
	}
	return outcome, reason, r
}

func splitFailure(f string) (int, string) {
	l, rest, _ := strings.Cut(f, ":")
	_, msg, _ := strings.Cut(rest, ":")
	n, _ := strconv.Atoi(l)
	return n, strings.TrimSpace(msg)
}

func classify(roles map[int]role, line int, msg string, load bool) (string, string) {
	r := roles[line]
	switch r.kind {
	case "probe":
		return Wrong, fmt.Sprintf("probe of line %d: %s", r.line, msg)
	case "resource":
		return Skip, fmt.Sprintf("the device refused %s (line %d): %s", r.what, r.line, msg)
	case "shader":
		if load {
			return CompileFail, fmt.Sprintf("%s of line %d: %s", stageName(r.what), r.line, msg)
		}
		return Skip, fmt.Sprintf("the device refused the %s of line %d: %s", stageName(r.what), r.line, msg)
	case "draw":
		return Failed, fmt.Sprintf("line %d: %s", r.line, msg)
	}
	return Failed, msg
}
