package shader_test

import (
	"fmt"

	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// A pixel program assembled, encoded (what the UMD places in GPU memory),
// decoded (what the GPU does before it runs it) and run over one block.
func Example() {
	p, err := shaderisa.Assemble(`ps inputs=1 outputs=1 temps=1
		mul r0, v0, l(0.5, 0.5, 0.5, 1.0)
		mov_sat o0, r0`)
	if err != nil {
		panic(err)
	}
	words := p.Encode()
	q, err := shaderisa.Decode(words)
	if err != nil {
		panic(err)
	}
	m := shader.NewMachine(q)
	for c, v := range []float32{1, 0.5, 4, 1} {
		for l := range shader.Lanes {
			m.In(0).F(c)[l] = v
		}
	}
	if _, err := m.Run(shader.AllLanes); err != nil {
		panic(err)
	}
	o := m.Out(0)
	fmt.Println(len(words), "words")
	fmt.Println(o.F(0)[0], o.F(1)[0], o.F(2)[0], o.F(3)[0])
	fmt.Print(q)
	// Output:
	// 19 words
	// 0.5 0.25 1 1
	// ps inputs=1 outputs=1 temps=1
	// mul r0, v0, l(0.5, 0.5, 0.5, 1.0)
	// mov_sat o0, r0
}
