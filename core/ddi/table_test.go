package ddi

import "testing"

func TestFixedEntry(t *testing.T) {
	tests := []struct {
		entry string
		fixed bool
	}{
		{"pfnCreateResource", true},
		{"pfnOpenResource", true},
		{"pfnDestroyShader", true},
		{"pfnCalcPrivateBlendStateSize", true},
		{"pfnCalcDeferredContextHandleSize", false}, // not a pfnCalcPrivate* entry
		{"pfnCheckDeferredContextHandleSizes", true},
		{"pfnDraw", false},
		{"pfnSetBlendState", false},
		{"pfnFlush", false},
	}
	for _, tt := range tests {
		if got := FixedEntry(tt.entry); got != tt.fixed {
			t.Errorf("FixedEntry(%s) = %v, want %v", tt.entry, got, tt.fixed)
		}
	}
}

// TestFuncTableWrites: writes before OnWrite are silent (CreateDevice fills
// the table), later ones are reported, and Get reads the newest.
func TestFuncTableWrites(t *testing.T) {
	var tbl FuncTable
	tbl.Set("pfnDraw", "Draw", nil)
	var seen []string
	tbl.OnWrite(func(entry, impl string) { seen = append(seen, entry+"="+impl) })
	tbl.Set("pfnDraw", "DrawFullscreen", func() {})
	if e := tbl.Get("pfnDraw"); e.Impl != "DrawFullscreen" || e.Fn == nil {
		t.Fatalf("Get = %+v", e)
	}
	if len(seen) != 1 || seen[0] != "pfnDraw=DrawFullscreen" {
		t.Fatalf("writes seen: %v", seen)
	}
	if got := tbl.Entries(); len(got) != 1 || got[0] != "pfnDraw" {
		t.Fatalf("Entries = %v", got)
	}
}
