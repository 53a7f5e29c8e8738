package scenario

import "d3dsim/core/d3d11"

// Device features:
//
//	dev.CheckFeatureSupport FEATURE     (the BOOL members to `expect got`)

func init() {
	methods[tDevice]["CheckFeatureSupport"] = &method{pos: []param{{name: "FEATURE", kind: pEnum, enum: "Feature"}},
		exec: func(x *call) error {
			data, err := x.dev().CheckFeatureSupport(d3d11.Feature(x.enum(0)))
			x.run.got, x.run.lastData = nil, 0
			for i, f := range data {
				if f.Value {
					x.run.lastData |= 1 << i
					x.run.got = append(x.run.got, "TRUE")
				} else {
					x.run.got = append(x.run.got, "FALSE")
				}
			}
			return err
		}}
}
