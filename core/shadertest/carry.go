package shadertest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// vkd3d's shader runner keeps a file's resources from one [test] section to
// the next (a render target is made once, and only `clear rtv` or a new
// [rtv N] section empties it), so a case whose draw discards or leaves
// pixels is probed for what earlier cases drew there. Each case here runs
// on its own, as a scenario: the runner reads each render target when a
// case ends, and the next case that draws to the same target starts from
// those contents, cleared to them when every texel is the same, or created
// with them when the target is small. The runner goes through the file
// once per shader model, so the contents come from the latest earlier case
// that runs at the case's model.

// Contents is a render target's texels as a case left them.
type Contents struct {
	From  string     // the case that left them: FILE:LINE
	Clear [4]float32 // every texel the same: a clear to these channels
	Data  []uint32   // else the texels (a small target)
}

// maxCarriedWords bounds the texels a scenario carries as data (64 KiB);
// a larger target that is not one colour is carried as unknown.
const maxCarriedWords = 1 << 14

// heldTarget is a render target's history in a file: per case that drew to
// it, its model range and what it left (nil: it did not run here).
type heldTarget struct {
	model, maxModel Model
	from            string
	contents        *Contents
	why             string // when contents is nil: why not carried
}

// carrier follows the file's render targets from case to case, and the
// resources an earlier case's `copy` filled. The runner copies within the
// case (CopyResource in its scenario), so a later case that reads a view's
// texture filled that way runs the case that copied first (Case.Replay),
// at its own shader model; one it cannot replay — the copying case did not
// run to its end here, or several copies fill what it reads — is skipped,
// saying so, rather than reading zeros and giving wrong pixels.
type carrier struct {
	held   map[string][]heldTarget // by target: rtv SLOT, the line of its section
	copied map[string][]copyRec    // by resource (targetKey): the cases whose copy filled it
}

// copyRec is a case that copied into a resource, and whether it ran to
// its end (its copy made).
type copyRec struct {
	c    *Case
	line int // the copy's line
	ran  bool
}

func targetKey(r *Resource) string { return fmt.Sprintf("%s%d@%d", r.Kind, r.Slot, r.Line) }

// draws reports whether the case draws or clears a render target.
func (c *Case) draws() bool {
	for _, cmd := range c.Cmds {
		if cmd.Op == "draw" || cmd.Op == "clear" && cmd.Target == "rtv" {
			return true
		}
	}
	return false
}

// before sets each render target's Start from the earlier cases.
func (k *carrier) before(c *Case) {
	if c.Kind != KindRun || c.NotApplicable != "" {
		return
	}
	for _, r := range c.Resources {
		recs := k.copied[targetKey(r)]
		if len(recs) == 0 || r.Kind != "srv" || c.Unsupported != "" {
			continue
		}
		var rec *copyRec
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].c.Model <= c.Model && c.Model <= recs[i].c.MaxModel {
				rec = &recs[i]
				break
			}
		}
		switch {
		case rec == nil:
			// No copy at this model: the texture holds its data.
		case !rec.ran:
			c.Unsupported = fmt.Sprintf("[srv %d] holds what the `copy` of line %d in %s copied into it, and that case did not run to its end here", r.Slot, rec.line, rec.c.Name())
		case c.Replay != nil:
			c.Unsupported = fmt.Sprintf("[srv %d] and [srv %d] hold what two earlier cases copied (the runner replays one)", c.Replay.Slot, r.Slot)
		default:
			at := *rec.c
			at.Model = c.Model
			c.Replay = &Replay{Case: &at, Slot: r.Slot}
		}
	}
	for _, r := range c.Resources {
		if r.Kind != "rtv" {
			continue
		}
		h := k.held[targetKey(r)]
		for i := len(h) - 1; i >= 0; i-- {
			if h[i].model <= c.Model && c.Model <= h[i].maxModel {
				if h[i].contents == nil {
					r.StartUnknown = fmt.Sprintf("what %s drew, %s", h[i].from, h[i].why)
				}
				r.Start = h[i].contents
				break
			}
		}
	}
}

// after records what the case left in its render targets (run: the
// finished scenario run, nil when it did not run to its end).
func (k *carrier) after(c *Case, res *Result, run *scenario.Run) {
	if c.Kind != KindRun || c.NotApplicable != "" {
		return
	}
	for _, cmd := range c.Cmds {
		for _, r := range c.Resources {
			if cmd.Op == "copy" && r.Kind == cmd.Target && r.Slot == cmd.Slot {
				if k.copied == nil {
					k.copied = map[string][]copyRec{}
				}
				ran := run != nil && c.Replay == nil && (res.Outcome == Pass || res.Outcome == Wrong)
				k.copied[targetKey(r)] = append(k.copied[targetKey(r)], copyRec{c: c, line: cmd.Line, ran: ran})
			}
		}
	}
	if !c.draws() {
		return
	}
	if k.held == nil {
		k.held = map[string][]heldTarget{}
	}
	// A case without probes leaves its draws recorded and unsubmitted:
	// flush them and let the GPU finish, as the next case's draw would.
	settled := run != nil && run.Settle() == nil
	for _, r := range c.Resources {
		if r.Kind != "rtv" {
			continue
		}
		h := heldTarget{model: c.Model, maxModel: c.MaxModel, from: c.Name(), why: "which did not run here"}
		if settled && (res.Outcome == Pass || res.Outcome == Wrong) {
			h.why = fmt.Sprintf("which is too large to carry (%dx%d texels, not one colour)", r.Width, r.Height)
			if h.contents = readTarget(run, r); h.contents != nil {
				h.contents.From = c.Name()
			}
		}
		key := targetKey(r)
		k.held[key] = append(k.held[key], h)
	}
}

// readTarget reads a render target at the end of a case's run (settled:
// the GPU has done the run's work); nil when it cannot be carried.
func readTarget(run *scenario.Run, r *Resource) *Contents {
	obj, _ := run.Object(fmt.Sprintf("rtv%d_tex", r.Slot)).(*d3d11.Resource)
	if obj == nil || !obj.Alive() || r.TexelSize%4 != 0 {
		return nil
	}
	data, err := run.Machine().ReadBack(obj)
	n := r.Width * r.Height * r.TexelSize
	if err != nil || n == 0 || len(data) < n {
		return nil
	}
	words := make([]uint32, n/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	per := r.TexelSize / 4
	same := true
	for i := per; i < len(words) && same; i++ {
		same = words[i] == words[i%per]
	}
	// One colour of a 32-bit float format: a clear gives its bits back
	// (a finite colour: the scenario's clear takes numbers).
	if same && r.DataType == "float" && strings.HasPrefix(r.Format, "R32") {
		c := &Contents{}
		for i := 0; i < per; i++ {
			f := math.Float32frombits(words[i])
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				same = false
			}
			c.Clear[i] = f
		}
		if same {
			return c
		}
	}
	if len(words) <= maxCarriedWords {
		return &Contents{Data: words}
	}
	return nil
}
