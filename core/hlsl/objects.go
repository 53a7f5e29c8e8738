package hlsl

// Textures and samplers are objects: a variable of such a type names a
// resource binding the shader reads through, fixed when it compiles. A
// global object (or array of them) is a binding; a local object variable,
// an object parameter or an object member of a struct is a reference to
// one, set by an assignment the compiler follows (and so not under a
// condition or in a loop, where the binding would depend on the run). An
// array of objects takes consecutive slots, t2..t4 for Texture2D t[3] :
// register(t2), reserved whether or not the shader reads it when the
// register is given.

// objectElem returns the object type of t, or of the elements of an
// array (of arrays) of objects, and how many objects t holds; nil when t
// is not one.
func objectElem(t *Type) (*Type, int) {
	n := 1
	for t.Kind == KArray {
		n *= t.Len
		t = t.Elem
	}
	if t.Kind == KTexture || t.Kind == KSampler {
		return t, n
	}
	return nil, 0
}

// isObject reports an object type.
func isObject(t *Type) bool { return t.Kind == KTexture || t.Kind == KSampler }

// hasObject reports a type that holds an object somewhere.
func hasObject(t *Type) bool {
	switch t.Kind {
	case KTexture, KSampler:
		return true
	case KArray:
		return hasObject(t.Elem)
	case KStruct:
		for _, f := range t.Fields {
			if hasObject(f.Type) {
				return true
			}
		}
	}
	return false
}

// objElement is element i of an array of objects that is a binding.
func objElement(a *value, i int) *value {
	_, stride := objectElem(a.t.Elem)
	return &value{t: a.t.Elem, res: a.res, resIdx: a.resIdx + i*stride, ro: a.ro}
}

// objSlot is the register an object value names; ok is false for a local
// object never assigned. The bindings' slots are given when the code is
// done (placeResources), in declaration order as fxc gives them, so the
// operand holds a placeholder until then: -1 - (resource number << 16 |
// element).
func (g *gen) objSlot(p pos, v *value) (int, bool) {
	if v.res == nil {
		v = g.unsetObject(p, v) // refused if the code survives (objstruct.go)
	}
	if v.t.Buf == BufNone && v.t.BufElem != nil {
		g.errorf(p, eNotImplemented, "not supported by this compiler: reading or writing a %s (elements of type %s)", v.t, v.t.BufElem)
		return 0, false
	}
	if v.t.ROV && g.stage != Pixel {
		g.errorf(p, eSyntax, "%s: rasterizer-ordered views are a pixel shader's", v.t)
		return 0, false
	}
	r := v.res
	if !r.used {
		r.used = true
		r.id = len(g.resList)
		g.resList = append(g.resList, r)
	}
	r.top = max(r.top, v.resIdx+1)
	return -1 - (r.id<<16 | v.resIdx), true
}

// placeResources gives the used textures and samplers their slots, in
// declaration order: each the first free run of slots past those of the
// explicit registers (used or not, as fxc reserves them) and of the ones
// placed before it; then the operands get their slots.
func (g *gen) placeResources() {
	// The textures made for tex2D's samplers come first, by first use,
	// as fxc allocates them (legacy.go).
	sortCombined(g.combinedList)
	g.textures = append(g.combinedList, g.textures...)
	g.combinedList = nil
	for _, list := range [][]*resource{g.textures, g.samplers, g.uavs} {
		for _, r := range list {
			first := 0
			if r.elem.UAV {
				first = g.uavBase
				if r.used && r.explicit && r.slot < first {
					g.errorf(pos{r.line, 1}, eSyntax, "'%s': register u%d is a render target's: a pixel shader's views start at u%d", r.name, r.slot, first)
				}
			}
			if r.grp != nil {
				g.placeGroup(list, r.grp, first)
				continue
			}
			if !r.used || r.explicit {
				continue
			}
			for s := first; ; s++ {
				free := true
				for _, o := range list {
					if o != r && (o.explicit || (o.used || o.held) && o.placed) && s < o.slot+o.count && o.slot < s+r.count {
						free = false
						break
					}
				}
				if free {
					r.slot = s
					break
				}
			}
			r.placed = true
		}
	}
	for i := range g.code {
		in := &g.code[i]
		for k := range in.Src {
			if o := &in.Src[k]; (o.File == FileTex || o.File == FileSamp || o.File == FileUAV) && o.Index < 0 {
				c := -1 - o.Index
				r := g.resList[c>>16]
				o.Index = r.slot + c&0xffff
			}
		}
		for k := range in.Dst {
			if o := &in.Dst[k]; o.File == FileUAV && o.Index < 0 {
				c := -1 - o.Index
				r := g.resList[c>>16]
				o.Index = r.slot + c&0xffff
			}
		}
	}
}

// storeObject assigns an object reference.
func (g *gen) storeObject(p pos, dst, src *value) {
	if !sameType(dst.t, src.t) {
		g.errorf(p, eConvert, "cannot implicitly convert from '%s' to '%s'", src.t, dst.t)
		return
	}
	if g.cdepth > dst.objAt {
		g.errorf(p, eNotImplemented, "not supported by this compiler: assigning a %s inside a condition or loop (the binding must be known when the shader compiles)", dst.t)
		return
	}
	dst.res, dst.resIdx = src.res, src.resIdx
}
