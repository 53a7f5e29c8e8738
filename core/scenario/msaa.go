package scenario

import (
	"fmt"

	"d3dsim/core/d3d11"
)

// Multisampling (CreateTexture2D's SampleCount and SampleQuality: table.go):
//
//	dev.CheckMultisampleQualityLevels FORMAT COUNT     (the levels to `expect got`)
//	ctx.ResolveSubresource DST DSTSUB SRC SRCSUB FORMAT

func init() {
	methods[tDevice]["CheckMultisampleQualityLevels"] = &method{pos: []param{{name: "FORMAT", kind: pEnum, enum: "Format"},
		{name: "COUNT", kind: pUint}},
		exec: func(x *call) error {
			n, err := x.dev().CheckMultisampleQualityLevels(d3d11.Format(x.enum(0)), x.uint(1))
			x.run.got = []string{fmt.Sprint(n)}
			return err
		}}
	methods[tContext]["ResolveSubresource"] = &method{pos: []param{{name: "DST", kind: pObj, types: tTexture}, {name: "DSTSUB", kind: pUint},
		{name: "SRC", kind: pObj, types: tTexture}, {name: "SRCSUB", kind: pUint}, {name: "FORMAT", kind: pEnum, enum: "Format"}},
		exec: func(x *call) error {
			return x.ctx().ResolveSubresource(x.res(0), x.uint(1), x.res(2), x.uint(3), d3d11.Format(x.enum(4)))
		}}
}
