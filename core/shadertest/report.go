package shadertest

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Report is the results of a run of many cases.
type Report struct {
	Results []*Result `json:"results"`
	Errors  []string  `json:"errors,omitempty"` // files that could not be read or parsed
}

// Tally counts outcomes.
type Tally struct {
	Pass, Wrong, CompileFail, Accepted, Skip, NotApplicable, Failed int
}

// Applicable is the cases Direct3D 11 at SM 4.0-5.0 runs.
func (t Tally) Applicable() int { return t.Total() - t.NotApplicable }

// Total is every case.
func (t Tally) Total() int {
	return t.Pass + t.Wrong + t.CompileFail + t.Accepted + t.Skip + t.NotApplicable + t.Failed
}

func (t *Tally) add(o string) {
	switch o {
	case Pass:
		t.Pass++
	case Wrong:
		t.Wrong++
	case CompileFail:
		t.CompileFail++
	case Accepted:
		t.Accepted++
	case Skip:
		t.Skip++
	case NotApplicable:
		t.NotApplicable++
	default:
		t.Failed++
	}
}

// Tally counts the report's outcomes, in all and by category.
func (r *Report) Tally() (all Tally, byCat map[string]*Tally) {
	byCat = map[string]*Tally{}
	for _, x := range r.Results {
		all.add(x.Outcome)
		t := byCat[x.Category]
		if t == nil {
			t = &Tally{}
			byCat[x.Category] = t
		}
		t.add(x.Outcome)
	}
	return all, byCat
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// WriteTable prints one line per case (outcome, case, reason), then the
// counts by category and in all.
func (r *Report) WriteTable(w io.Writer, verbose bool) {
	for _, x := range r.Results {
		if !verbose && (x.Outcome == Pass || x.Outcome == NotApplicable) {
			continue
		}
		reason := x.Reason
		if reason != "" {
			reason = "  " + reason
		}
		fmt.Fprintf(w, "%-12s %s%s\n", x.Outcome, x.Name, reason)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "%-12s %s\n", "unreadable", e)
	}
	all, byCat := r.Tally()
	var cats []string
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	fmt.Fprintf(w, "\n%-28s %6s %6s %6s %8s %8s %6s %6s %6s\n", "category", "cases", "pass", "wrong", "no-comp", "accepts", "skip", "error", "rate")
	row := func(name string, t Tally) {
		fmt.Fprintf(w, "%-28s %6d %6d %6d %8d %8d %6d %6d %6s\n", name, t.Applicable(), t.Pass, t.Wrong, t.CompileFail, t.Accepted,
			t.Skip, t.Failed, pct(t.Pass, t.Applicable()))
	}
	for _, c := range cats {
		row(c, *byCat[c])
	}
	row("all", all)
	fmt.Fprintf(w, "%d cases, %d applicable (Direct3D 11, shader model 4.0-5.0), %d not applicable; %d passed (%s)\n",
		all.Total(), all.Applicable(), all.NotApplicable, all.Pass, pct(all.Pass, all.Applicable()))
}

// WriteJSON writes the results and the counts.
func (r *Report) WriteJSON(w io.Writer) error {
	all, byCat := r.Tally()
	type counts struct {
		Applicable    int `json:"applicable"`
		Pass          int `json:"pass"`
		Wrong         int `json:"wrong"`
		CompileFail   int `json:"compileFail"`
		Accepted      int `json:"accepted"`
		Skip          int `json:"skip"`
		Error         int `json:"error"`
		NotApplicable int `json:"notApplicable"`
	}
	conv := func(t Tally) counts {
		return counts{t.Applicable(), t.Pass, t.Wrong, t.CompileFail, t.Accepted, t.Skip, t.Failed, t.NotApplicable}
	}
	out := struct {
		Total      counts            `json:"total"`
		Categories map[string]counts `json:"categories"`
		Results    []*Result         `json:"results"`
		Errors     []string          `json:"errors,omitempty"`
	}{conv(all), map[string]counts{}, r.Results, r.Errors}
	for c, t := range byCat {
		out.Categories[c] = conv(*t)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// RunFile parses and runs every case of a file into the report.
func (r *Report) RunFile(name string, src []byte, o Options) {
	f, err := Parse(name, src)
	if err == nil {
		var cases []*Case
		if cases, err = f.Cases(); err == nil {
			var k carrier
			for _, c := range cases {
				k.before(c)
				res, sr := run(c, o)
				k.after(c, res, sr)
				r.Results = append(r.Results, res)
			}
			return
		}
	}
	r.Errors = append(r.Errors, strings.TrimSpace(err.Error()))
}
