package ddi

import (
	"slices"
	"strings"
	"sync"

	"d3dsim/core/xsync"
)

// FuncTable is the device function table (D3D11DDI_DEVICEFUNCS) as memory
// the runtime owns and the driver writes: one entry per DDI, naming the
// driver function it points at. The driver fills it in CreateDevice; the
// runtime reads an entry at each call through it.
//
// "Changes from Direct3D 10": once CreateDevice returns, the entries that start with
// pfnCreate, pfnOpen, pfnDestroy, pfnCalcPrivate and pfnCheck are fixed,
// because other threads may be inside them at any time. The other entries
// belong to the immediate context, which one thread drives at a time, so
// the driver may hot-swap them from inside an immediate-context DDI (rule
// FT-TABLE).
type FuncTable struct {
	mu      sync.Mutex
	entries map[string]Entry
	onWrite func(entry, impl string)
	writes  xsync.Uint64 // Set calls so far
}

// Entry is one function pointer of the table: the driver function's name
// and, for the entries the runtime dispatches through the table, the
// function itself.
type Entry struct {
	Impl string
	Fn   any
}

// Set points entry at impl (fn may be nil when the runtime calls the entry
// through the Device interface).
func (t *FuncTable) Set(entry, impl string, fn any) {
	t.mu.Lock()
	if t.entries == nil {
		t.entries = map[string]Entry{}
	}
	t.entries[entry] = Entry{Impl: impl, Fn: fn}
	t.writes.Add(1)
	hook := t.onWrite
	t.mu.Unlock()
	if hook != nil {
		hook(entry, impl)
	}
}

// Writes counts the Set calls so far: a caller that keeps an entry it read
// reads it again when this changed (Draw reads pfnDraw without a
// lock and a map look-up while the table stays as it was).
func (t *FuncTable) Writes() uint64 { return t.writes.Load() }

// Get reads an entry.
func (t *FuncTable) Get(entry string) Entry {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.entries[entry]
}

// Entries lists the entry names, sorted.
func (t *FuncTable) Entries() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.entries))
	for k := range t.entries {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// OnWrite makes fn see every later write (the runtime installs it once
// CreateDevice has returned, so the trace shows hot swaps).
func (t *FuncTable) OnWrite(fn func(entry, impl string)) {
	t.mu.Lock()
	t.onWrite = fn
	t.mu.Unlock()
}

// FixedEntry says whether "Changes from Direct3D 10" freezes an entry after CreateDevice.
func FixedEntry(entry string) bool {
	for _, p := range []string{"pfnCreate", "pfnOpen", "pfnDestroy", "pfnCalcPrivate", "pfnCheck"} {
		if strings.HasPrefix(entry, p) {
			return true
		}
	}
	return false
}
