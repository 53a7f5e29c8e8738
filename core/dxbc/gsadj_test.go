package dxbc_test

import (
	"bytes"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// The adjacency input primitives as fxc lists them (lineadj, triangleadj)
// and as the listings of older d3dsim versions did (line_adj,
// triangle_adj): both assemble to D3D10_SB_PRIMITIVE_LINE_ADJ (6) and
// D3D10_SB_PRIMITIVE_TRIANGLE_ADJ (7), which disassemble as fxc's.
func TestAssembleAdjacencyPrimitives(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"lineadj", "lineadj"}, {"line_adj", "lineadj"}, {"triangleadj", "triangleadj"}, {"triangle_adj", "triangleadj"},
	} {
		src := "gs_4_0\ndcl_inputprimitive " + tc.in + "\ndcl_outputtopology pointlist\ndcl_maxout 1\nret\n"
		code, err := dxbc.Assemble(src)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		text, err := dxbc.D3DDisassemble(code)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !strings.Contains(text, "dcl_inputprimitive "+tc.want+"\n") {
			t.Errorf("%s: disassembly\n%s\nwant dcl_inputprimitive %s", tc.in, text, tc.want)
		}
		if again, err := dxbc.Assemble(text); err != nil || !bytes.Equal(again, code) {
			t.Errorf("%s: the disassembly does not assemble to the same bytes: %v", tc.in, err)
		}
	}
	if _, err := dxbc.Assemble("gs_4_0\ndcl_inputprimitive quadadj\n"); err == nil || !strings.Contains(err.Error(), "dcl_inputprimitive") {
		t.Errorf("quadadj: %v", err)
	}
}
