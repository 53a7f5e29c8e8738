package scenario

// ClearUnorderedAccessViewUint, ClearUnorderedAccessViewFloat and
// CopyStructureCount:
//
//	ctx.ClearUnorderedAccessViewUint UAV V0 [V1=0] [V2=0] [V3=0]
//	ctx.ClearUnorderedAccessViewFloat UAV R [G=0] [B=0] [A=0]
//	ctx.CopyStructureCount BUF OFFSET UAV

func init() {
	ctx := methods[tContext]
	ctx["ClearUnorderedAccessViewUint"] = &method{pos: []param{{name: "UAV", kind: pObj, types: tUAV}, {name: "V0", kind: pUint},
		{name: "V1", kind: pUint, opt: true}, {name: "V2", kind: pUint, opt: true}, {name: "V3", kind: pUint, opt: true}},
		exec: func(x *call) error {
			return x.ctx().ClearUnorderedAccessViewUint(x.view(0), [4]uint32{x.uint(1), x.uint(2), x.uint(3), x.uint(4)})
		}}
	ctx["ClearUnorderedAccessViewFloat"] = &method{pos: []param{{name: "UAV", kind: pObj, types: tUAV}, {name: "R", kind: pFloat},
		{name: "G", kind: pFloat, opt: true}, {name: "B", kind: pFloat, opt: true}, {name: "A", kind: pFloat, opt: true}},
		exec: func(x *call) error {
			return x.ctx().ClearUnorderedAccessViewFloat(x.view(0), [4]float32{x.f32(1), x.f32(2), x.f32(3), x.f32(4)})
		}}
	ctx["CopyStructureCount"] = &method{pos: []param{{name: "BUF", kind: pObj, types: tBuffer}, {name: "OFFSET", kind: pUint},
		{name: "UAV", kind: pObj, types: tUAV}},
		exec: func(x *call) error { return x.ctx().CopyStructureCount(x.res(0), x.uint(1), x.view(2)) }}
}
