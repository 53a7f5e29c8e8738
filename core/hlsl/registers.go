package hlsl

import (
	"fmt"
	"strings"
)

// regSpec is one register(...) annotation: register(t1), or one for a
// stage or a profile only, register(ps, t1), register(vs_5_0, t1).
type regSpec struct {
	pos
	profile string // "", a stage (ps) or a profile (ps_4_0)
	reg     string // t1
	ignored bool   // register(ps[2], c1): a bind point, which fxc ignores
}

// profileVersions are the versions a profile-qualified reservation may
// name (those fxc knows: shader models 2 to 5.1 and the 9_x levels).
var profileVersions = map[string]bool{"1_1": true, "2_0": true, "2_a": true, "2_b": true, "2_sw": true, "3_0": true, "3_sw": true,
	"4_0": true, "4_1": true, "5_0": true, "5_1": true, "4_0_level_9_1": true, "4_0_level_9_3": true}

var regStages = map[string]bool{"vs": true, "ps": true, "gs": true, "hs": true, "ds": true, "cs": true}

// pickRegister resolves a declaration's register annotations for the
// target as fxc does: one for another stage or profile is ignored; one for
// the target's stage or exact profile, or with none, applies; two that
// apply and differ, two for the same profile that differ, or an
// unqualified one beside another that differs, are an error (fxc does not
// let a more specific profile take precedence). Of reservations in
// different groups (register(i0) : register(c1)) the last that applies is
// kept.
func pickRegister(name string, regs []regSpec, target string) (string, *Diag) {
	bad := func(r regSpec, msg string, args ...any) (string, *Diag) {
		return "", &Diag{Line: r.line, Col: r.col, Code: eSyntax, Msg: cutText(fmt.Sprintf(msg, args...))}
	}
	for _, r := range regs {
		if r.profile == "" {
			continue
		}
		st, ver, _ := strings.Cut(r.profile, "_")
		if !regStages[st] || ver != "" && !profileVersions[ver] {
			return bad(r, "syntax error: unknown profile '%s' in the register reservation of '%s'", r.profile, name)
		}
	}
	// Reservations of different register groups (c1 beside i0) do not
	// conflict.
	for i, a := range regs {
		for _, b := range regs[i+1:] {
			if a.reg != b.reg && a.reg[:1] == b.reg[:1] && (a.profile == b.profile || a.profile == "" || b.profile == "") {
				return bad(b, "conflicting register reservations for '%s': %s and %s", name, a.reg, b.reg)
			}
		}
	}
	picked := ""
	for _, r := range regs {
		if r.profile != "" && r.profile != target[:2] && r.profile != target {
			continue
		}
		if picked != "" && picked != r.reg && picked[:1] == r.reg[:1] {
			return bad(r, "conflicting register reservations for '%s' in %s: %s and %s", name, target, picked, r.reg)
		}
		picked = r.reg
	}
	return picked, nil
}

// resolveRegisters sets each declaration's register for the target.
func resolveRegisters(f *file, file, target string) []Diag {
	var out []Diag
	set := func(name string, regs []regSpec, dst *string) {
		if len(regs) == 0 {
			return
		}
		r, d := pickRegister(name, regs, target)
		if d != nil {
			d.File = file
			out = append(out, *d)
		}
		*dst = r
	}
	for _, c := range f.cbuffers {
		set(c.name, c.regs, &c.register)
		for _, v := range c.vars {
			set(v.name, v.regs, &v.register)
		}
	}
	for _, v := range f.globals {
		set(v.name, v.regs, &v.register)
	}
	vars := f.globals
	for _, c := range f.cbuffers {
		vars = append(vars[:len(vars):len(vars)], c.vars...)
	}
	for _, v := range vars {
		for _, r := range v.regs {
			if !r.ignored && (r.profile == "" || r.profile == target[:2] || r.profile == target) {
				v.classRegs = append(v.classRegs, r.reg) // (objstruct.go)
			}
		}
	}
	return out
}
