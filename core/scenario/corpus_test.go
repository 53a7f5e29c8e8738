package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestFxcCorpusCreate creates every shader of a directory of real fxc
// output, D3DSIM_FXC_CORPUS (the blobs public projects ship: .cso, .bin
// files that hold a DXBC container anywhere in them, as bgfx's compiled
// shaders do, and fxc /Fh headers), on a device of its stage — the
// runtime's validation and the driver's translation, the path a program's
// Create*Shader takes — and prints how many were created, per stage, and
// why the others were refused, by reason. It asserts only that nothing
// panics and that a refusal names its reason (docs/shaders.md quotes the
// counts). Skipped when the variable is not set.
func TestFxcCorpusCreate(t *testing.T) {
	dir := os.Getenv("D3DSIM_FXC_CORPUS")
	if dir == "" {
		t.Skip("D3DSIM_FXC_CORPUS is not set")
	}
	type tally struct{ created, refused int }
	stages := map[string]*tally{}
	reasons := map[string][]string{}
	for _, sh := range corpusShaders(t, dir) {
		f, p := sh.name, sh.prog
		stage := fmt.Sprintf("%s_%d_%d", p.Type.Prefix(), p.Major, p.Minor)
		if stages[stage] == nil {
			stages[stage] = &tally{}
		}
		src := corpusCreateOnly(sh.blob, p)
		why := ""
		if s, err := Load(filepath.Base(f), []byte(src)); err != nil {
			why = err.Error()
		} else if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
			why = strings.Join(sum.Failures, "\n")
		}
		if why == "" {
			stages[stage].created++
			continue
		}
		stages[stage].refused++
		r := corpusReason(why)
		if r == "" {
			t.Errorf("%s: refused without a reason: %s", f, why)
		}
		reasons[r] = append(reasons[r], filepath.Base(f))
	}
	names := make([]string, 0, len(stages))
	created, all := 0, 0
	for s, n := range stages {
		names = append(names, s)
		created += n.created
		all += n.created + n.refused
	}
	sort.Strings(names)
	t.Logf("%d distinct shaders, %d created (%.1f%%)", all, created, 100*float64(created)/float64(max(all, 1)))
	for _, s := range names {
		t.Logf("  %-8s created %4d, refused %4d", s, stages[s].created, stages[s].refused)
	}
	corpusLogReasons(t, reasons)
}

// corpusBlob finds the DXBC container in a file: the file itself, the
// first container inside it (its size is in its header), or the bytes of an
// fxc /Fh header.
func corpusBlob(raw []byte) []byte {
	if b := dxbc.Embedded(raw); b != nil {
		return b
	}
	if b, err := dxbc.ParseFxcHeader(string(raw)); err == nil && len(b) > 0 {
		return b
	}
	return nil
}

var (
	corpusNumbers = regexp.MustCompile(`\b\d+\b`)
	corpusPrefix  = regexp.MustCompile(`^(?:[^:\s]*:)?\d+:\d+: `)
)

// corpusReason is a refusal's message with the parts that differ from
// shader to shader (the file, line, registers and counts) taken out, so
// that refusals for one reason group together.
func corpusReason(msg string) string {
	line := strings.SplitN(msg, "\n", 2)[0]
	line = corpusPrefix.ReplaceAllString(line, "")
	if i := strings.Index(line, ": "); i >= 0 && strings.Contains(line[:i], "Create") {
		line = line[i+2:]
	}
	line = corpusNumbers.ReplaceAllString(line, "N")
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	return strings.TrimSpace(line)
}
