package hlsl

import "strings"

// aliasInputs takes out of the input signature every element whose
// semantic an earlier input of the same layout has (the caller checked
// the layouts): fxc reads both parameters from one register, each still a
// variable of its own (float4 t1 : TEXCOORD0, float4 t2 : TEXCOORD0, and t1
// = 99 leaves t2 as it was read). It returns the signature without them and,
// for each, its pending element and the earlier one's, which
// resolveAliases points at the same components once placeSig has placed it.
func (g *gen) aliasInputs(ins []SigElement) ([]SigElement, [][2]*pendingSig) {
	var pend []*pendingSig // the inputs' pending elements, in signature order
	for _, e := range g.sigPend {
		if e.input && !e.pc {
			pend = append(pend, e)
		}
	}
	var aliases [][2]*pendingSig
	drop := map[*pendingSig]bool{}
	out := ins[:0:0]
	k := 0
	type key struct {
		name string
		idx  int
	}
	first := map[key]*pendingSig{}
	for _, el := range ins {
		if el.Register >= 0 || k >= len(pend) {
			out = append(out, el)
			continue
		}
		e := pend[k]
		k++
		id := key{strings.ToUpper(el.Semantic), el.Index}
		if orig := first[id]; orig != nil {
			aliases = append(aliases, [2]*pendingSig{e, orig})
			drop[e] = true
			continue
		}
		first[id] = e
		out = append(out, el)
	}
	if len(aliases) > 0 {
		kept := g.sigPend[:0:0]
		for _, e := range g.sigPend {
			if !drop[e] {
				kept = append(kept, e)
			}
		}
		g.sigPend = kept
	}
	return out, aliases
}

// resolveAliases gives each aliased input the components its earlier
// namesake was placed in.
func resolveAliases(aliases [][2]*pendingSig) {
	for _, a := range aliases {
		dup, orig := a[0], a[1]
		for c := range dup.v.c {
			if c < len(orig.v.c) {
				dup.v.c[c] = orig.v.c[c]
			}
			if dup.parent != nil {
				dup.parent.c[dup.pidx[c]] = dup.v.c[c]
			}
		}
	}
}
