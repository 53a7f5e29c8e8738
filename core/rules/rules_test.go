package rules

import (
	"regexp"
	"strings"
	"testing"
)

// TestAll: every rule is listed once, with a well-formed id, a source and a
// text; ByID finds each.
func TestAll(t *testing.T) {
	id := regexp.MustCompile(`^[A-Z]+(-[A-Z]+)+$`)
	seen := map[ID]bool{}
	for _, r := range All {
		if !id.MatchString(string(r.ID)) || r.Source == "" || r.Text == "" {
			t.Errorf("malformed rule %+v", r)
		}
		if seen[r.ID] {
			t.Errorf("%s listed twice", r.ID)
		}
		seen[r.ID] = true
		if got, ok := ByID(r.ID); !ok || got.ID != r.ID {
			t.Errorf("ByID(%s) = %v, %v", r.ID, got, ok)
		}
	}
	if _, ok := ByID("NO-SUCH"); ok {
		t.Error("ByID found an unknown rule")
	}
}

// TestSet: the zero Set breaks nothing; a set breaks what it holds.
func TestSet(t *testing.T) {
	var none Set
	if none.Has(CLFinish) {
		t.Error("a nil Set has CL-FINISH")
	}
	s := Set{CLFinish: true}
	if !s.Has(CLFinish) || s.Has(CLExec) {
		t.Errorf("Set{CL-FINISH}: Has(CL-FINISH)=%v Has(CL-EXEC)=%v", s.Has(CLFinish), s.Has(CLExec))
	}
}

// TestSource: every rule names its page, and the five pages are all used.
func TestSource(t *testing.T) {
	used := map[Page]bool{}
	for _, r := range All {
		used[r.Source] = true
	}
	for _, p := range []Page{ChangesFromD3D10, ContextLocalHandles, CommandLists, OperationFlow, AsyncDraw} {
		if !used[p] {
			t.Errorf("no rule comes from %q", p)
		}
	}
	if r, _ := ByID(CLFinish); r.Source != CommandLists {
		t.Errorf("CL-FINISH comes from %q", r.Source)
	}
}

// TestPagesReadWithoutCJK: a page's title as messages quote it starts with
// words in ASCII (an English title before a Chinese one): where no CJK font
// is installed, the Chinese shows as boxes, and the message must still say
// which page it is.
func TestPagesReadWithoutCJK(t *testing.T) {
	for _, p := range []Page{ChangesFromD3D10, ContextLocalHandles, CommandLists, OperationFlow, AsyncDraw} {
		head, _, _ := strings.Cut(string(p), "(")
		for _, r := range head {
			if r > 0x7f {
				t.Errorf("%q: %q before its first '(' is not ASCII: give the English title first", p, head)
				break
			}
		}
	}
	if !strings.Contains(string(AsyncDraw), "异步调用原理解析") {
		t.Errorf("%q: the article's own title belongs beside the English one", AsyncDraw)
	}
}
