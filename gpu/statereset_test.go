package gpu

import (
	"d3dsim/gpu/isa"
	"reflect"
	"testing"
	"unsafe"
)

// stateLeft names the fields of s that differ from a fresh buffer's state
// ("" when none): what a buffer set and the reset at its end left behind.
func stateLeft(s *state) string {
	var fresh state
	fresh.reset()
	var left string
	// open reads an unexported field (addressable: the states are).
	open := func(v reflect.Value) any {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Interface()
	}
	var walk func(a, b reflect.Value)
	walk = func(a, b reflect.Value) {
		for i := range a.NumField() {
			f := a.Type().Field(i)
			if f.Anonymous {
				walk(a.Field(i), b.Field(i))
				continue
			}
			if !reflect.DeepEqual(open(a.Field(i)), open(b.Field(i))) {
				left += " " + f.Name
			}
		}
	}
	walk(reflect.ValueOf(s).Elem(), reflect.ValueOf(&fresh).Elem())
	return left
}

// TestStateResetIsComplete: buffers bind texture, view and sampler slots
// of every stage, each buffer with one packet kind, at the first, a middle
// and the last slot (and other state); once each completes the executor's
// state is a fresh buffer's, field by field. reset clears only the slots
// below the marks the setters raise (state.go), so a setter that forgets
// its mark fails here.
func TestStateResetIsComplete(t *testing.T) {
	r := newRig(t)
	tex := r.alloc(64 * 64 * 4)
	tg := r.target(16, 16, isa.FmtRGBA8)
	stages := []uint32{isa.StageVS, isa.StagePS, isa.StageGS, isa.StageHS, isa.StageDS, isa.StageCS}
	setters := []struct {
		name   string
		psOnly bool
		n      uint32 // the slots
		set    func(b *isa.Builder, st, slot uint32)
	}{
		{"SET_TEX", true, numTex, func(b *isa.Builder, _, slot uint32) { b.SetTex(slot, tex, 8, 8, 32, isa.FmtRGBA8) }},
		{"SET_TEX_STAGE", false, numTex, func(b *isa.Builder, st, slot uint32) { b.SetTexStage(st, slot, tex, 8, 8, 32, isa.FmtRGBA8) }},
		{"SET_VIEW of a 2D array", false, numTex, func(b *isa.Builder, st, slot uint32) {
			b.SetViewStage(st, slot, tex, isa.ViewTex2DArray, isa.FmtRGBA8, 8, 8, 2, 1, 0|1<<16, 0|2<<16)
		}},
		{"SET_VIEW of one 2D level", false, numTex, func(b *isa.Builder, st, slot uint32) {
			b.SetViewStage(st, slot, tex, isa.ViewTex2D, isa.FmtRGBA8, 8, 8, 1, 2, 1|1<<16, 0|1<<16)
		}},
		{"SET_VIEW of a structured buffer", false, numTex, func(b *isa.Builder, st, slot uint32) {
			b.SetViewStage(st, slot, tex, isa.ViewStructured, 0, 256, 12, 0, 0, 1, 8)
		}},
		{"SET_SAMPLER", true, numSamplers, func(b *isa.Builder, _, slot uint32) {
			b.SetSampler(slot, isa.FilterPoint, isa.AddrWrap, isa.AddrMirror, 0x11223344)
		}},
		{"SET_SAMPLER_STAGE", false, numSamplers, func(b *isa.Builder, st, slot uint32) {
			b.SetSamplerStage(st, slot, isa.FilterPoint, isa.AddrWrap, isa.AddrMirror, 0x11223344)
		}},
		{"SET_SAMPLER_EX", false, numSamplers, func(b *isa.Builder, st, slot uint32) {
			b.SetSamplerExStage(st, slot, isa.FilterAniso|0x15, isa.AddrWrap, isa.AddrMirrorOnce, isa.AddrBorder, 0.5, 8, 0, [4]float32{1, 0, 0, 1}, 0, 3)
		}},
	}
	for _, c := range setters {
		for _, st := range stages {
			if c.psOnly && st != isa.StagePS {
				continue
			}
			b := &isa.Builder{}
			tg.set(b)
			b.SetViewport(0, 0, 16, 16, 0, 1)
			b.SetCB(isa.StageVS, numCB-1, tex, 64)
			b.SetRaster(isa.CullNone, true, false)
			for _, slot := range []uint32{0, c.n / 2, c.n - 1} {
				c.set(b, st, slot)
			}
			r.mustExec(b)
			if left := stateLeft(&r.g.ex.st); left != "" {
				t.Errorf("%s, stage %d: fields a buffer set outlive it:%s", c.name, st, left)
			}
		}
	}
	// The check itself: a slot set behind the marks' back is found.
	r.g.ex.st.smp[stageDS][numSamplers-1].bias = 1
	if left := stateLeft(&r.g.ex.st); left != " smp" {
		t.Errorf("a sampler left set: stateLeft says %q", left)
	}
}
