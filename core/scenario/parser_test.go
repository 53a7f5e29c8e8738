package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseStatements(t *testing.T) {
	num := func(line, col int, text string, n float64) Value {
		return Value{Pos: Pos{line, col}, Kind: VNumber, Text: text, Num: n}
	}
	ident := func(line, col int, name string) Value {
		return Value{Pos: Pos{line, col}, Kind: VIdent, Text: name, Ident: name}
	}
	tests := []struct {
		desc string
		src  string
		want []Stmt
	}{
		{
			desc: "global function with two results",
			src:  "dev, imm = D3D11CreateDevice Flags=DEBUG\n",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Results: []string{"dev", "imm"}, Method: "D3D11CreateDevice", MethodPos: Pos{1, 12},
				Args: []Arg{{Pos: Pos{1, 30}, Key: "Flags", Value: ident(1, 36, "DEBUG")}}}},
		},
		{
			desc: "global function without results or args",
			src:  "D3D11CreateDevice",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Method: "D3D11CreateDevice", MethodPos: Pos{1, 1}}},
		},
		{
			desc: "method call with positional args, indented",
			src:  "  imm.Draw 3 0\n",
			want: []Stmt{&Call{Pos: Pos{1, 3}, Target: "imm", TargetPos: Pos{1, 3}, Method: "Draw", MethodPos: Pos{1, 7},
				Args: []Arg{{Pos: Pos{1, 12}, Value: num(1, 12, "3", 3)}, {Pos: Pos{1, 14}, Value: num(1, 14, "0", 0)}}}},
		},
		{
			desc: "one result, mixed positional and Key=Value",
			src:  "cl = dc.IASetVertexBuffers 0 vb Stride=36\n",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Results: []string{"cl"}, Target: "dc", TargetPos: Pos{1, 6}, Method: "IASetVertexBuffers", MethodPos: Pos{1, 9},
				Args: []Arg{
					{Pos: Pos{1, 28}, Value: num(1, 28, "0", 0)},
					{Pos: Pos{1, 30}, Value: ident(1, 30, "vb")},
					{Pos: Pos{1, 33}, Key: "Stride", Value: num(1, 40, "36", 36)},
				}}},
		},
		{
			desc: "binding without spaces, method without args",
			src:  "x=dev.CreateDeferredContext",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Results: []string{"x"}, Target: "dev", TargetPos: Pos{1, 3}, Method: "CreateDeferredContext", MethodPos: Pos{1, 7}}},
		},
		{
			desc: "keyword used as a bound name",
			src:  "wait = dev.CreateQuery Query=EVENT\n",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Results: []string{"wait"}, Target: "dev", TargetPos: Pos{1, 8}, Method: "CreateQuery", MethodPos: Pos{1, 12},
				Args: []Arg{{Pos: Pos{1, 24}, Key: "Query", Value: ident(1, 30, "EVENT")}}}},
		},
		{
			desc: "signal and wait",
			src:  "signal ready\nwait vb-done\n",
			want: []Stmt{&Signal{Pos: Pos{1, 1}, Event: "ready"}, &Wait{Pos: Pos{2, 1}, Event: "vb-done"}},
		},
		{
			desc: "thread with nested repeat",
			src:  "thread worker {\n  repeat 3 {\n    dc.Flush\n  }\n  signal done\n}\nwait done\n",
			want: []Stmt{
				&Thread{Pos: Pos{1, 1}, Name: "worker", Body: []Stmt{
					&Repeat{Pos: Pos{2, 3}, Count: 3, Body: []Stmt{
						&Call{Pos: Pos{3, 5}, Target: "dc", TargetPos: Pos{3, 5}, Method: "Flush", MethodPos: Pos{3, 8}},
					}},
					&Signal{Pos: Pos{5, 3}, Event: "done"},
				}},
				&Wait{Pos: Pos{7, 1}, Event: "done"},
			},
		},
		{
			desc: "empty blocks",
			src:  "thread t {\n}\nrepeat 0x10 {\n\n}",
			want: []Stmt{&Thread{Pos: Pos{1, 1}, Name: "t"}, &Repeat{Pos: Pos{3, 1}, Count: 16}},
		},
		{
			desc: "inject without and with args",
			src:  "inject gpu.hang\ninject E_OUTOFMEMORY at=dc.FinishCommandList count=2\n",
			want: []Stmt{
				&Inject{Pos: Pos{1, 1}, Fault: "gpu.hang"},
				&Inject{Pos: Pos{2, 1}, Fault: "E_OUTOFMEMORY", Args: []Arg{
					{Pos: Pos{2, 22}, Key: "at", Value: ident(2, 25, "dc.FinishCommandList")},
					{Pos: Pos{2, 46}, Key: "count", Value: num(2, 52, "2", 2)},
				}},
			},
		},
		{
			desc: "inject umd.foreign",
			src:  "inject umd.foreign target=vb on=dev2",
			want: []Stmt{&Inject{Pos: Pos{1, 1}, Fault: "umd.foreign", Args: []Arg{
				{Pos: Pos{1, 20}, Key: "target", Value: ident(1, 27, "vb")},
				{Pos: Pos{1, 30}, Key: "on", Value: ident(1, 33, "dev2")},
			}}},
		},
		{
			desc: "expect hr",
			src:  "expect hr == DXGI_ERROR_WAS_STILL_DRAWING",
			want: []Stmt{&Expect{Pos: Pos{1, 1}, Kind: ExpectHR, Name: "DXGI_ERROR_WAS_STILL_DRAWING"}},
		},
		{
			desc: "expect pixel, with a trailing comment",
			src:  "expect pixel bb 32 40 == #FF00007f # red, half\n",
			want: []Stmt{&Expect{Pos: Pos{1, 1}, Kind: ExpectPixel, Name: "bb", X: 32, Y: 40, Color: [4]uint8{0xff, 0, 0, 0x7f}}},
		},
		{
			desc: "expect pixel, six-digit colour without space after ==",
			src:  "expect pixel bb 0 0 ==#1a1a33",
			want: []Stmt{&Expect{Pos: Pos{1, 1}, Kind: ExpectPixel, Name: "bb", Color: [4]uint8{0x1a, 0x1a, 0x33, 0xff}}},
		},
		{
			desc: "expect hash, upper case stored lower, starting with a digit",
			src:  "expect hash bb == 0A1B2C3D4E5F6789\nexpect hash tex == abc",
			want: []Stmt{
				&Expect{Pos: Pos{1, 1}, Kind: ExpectHash, Name: "bb", Hex: "0a1b2c3d4e5f6789"},
				&Expect{Pos: Pos{2, 1}, Kind: ExpectHash, Name: "tex", Hex: "abc"},
			},
		},
		{
			desc: "expect calls",
			src:  "expect calls CreateResource pfnAllocateCb DxgkDdiCreateAllocation",
			want: []Stmt{&Expect{Pos: Pos{1, 1}, Kind: ExpectCalls, Names: []string{"CreateResource", "pfnAllocateCb", "DxgkDdiCreateAllocation"}}},
		},
		{
			desc: "expect violations, violation, live",
			src:  "expect violations == 0\nexpect violation CL-OOM\nexpect live == 12",
			want: []Stmt{
				&Expect{Pos: Pos{1, 1}, Kind: ExpectViolations},
				&Expect{Pos: Pos{2, 1}, Kind: ExpectViolation, Name: "CL-OOM"},
				&Expect{Pos: Pos{3, 1}, Kind: ExpectLive, N: 12},
			},
		},
		{
			desc: "until hr, the polling loop",
			src:  "until hr != S_FALSE max 1000 {\n  imm.GetData q\n}",
			want: []Stmt{&Until{Pos: Pos{1, 1}, Cond: Cond{Pos: Pos{1, 7}, HR: "S_FALSE", Op: OpNe, Text: "hr != S_FALSE"}, Max: 1000,
				Body: []Stmt{&Call{Pos: Pos{2, 3}, Target: "imm", TargetPos: Pos{2, 3}, Method: "GetData", MethodPos: Pos{2, 7}, Args: []Arg{{Pos: Pos{2, 15}, Value: ident(2, 15, "q")}}}}}},
		},
		{
			desc: "until data, nested in repeat",
			src:  "repeat 2 {\n until data occ>=0x10 max 5 {\n  imm.GetData occ\n }\n}",
			want: []Stmt{&Repeat{Pos: Pos{1, 1}, Count: 2, Body: []Stmt{&Until{Pos: Pos{2, 2}, Max: 5,
				Cond: Cond{Pos: Pos{2, 8}, Data: &DataCmp{Query: "occ", Op: OpGe, Value: 16, Text: "occ>=0x10"}, Text: "data occ>=0x10"},
				Body: []Stmt{&Call{Pos: Pos{3, 3}, Target: "imm", TargetPos: Pos{3, 3}, Method: "GetData", MethodPos: Pos{3, 7}, Args: []Arg{{Pos: Pos{3, 15}, Value: ident(3, 15, "occ")}}}}}}}},
		},
		{
			desc: "expect data: every comparison, TRUE, FALSE, another query",
			src:  "expect data q == TRUE\nexpect data q != FALSE\nexpect data occ < 5\nexpect data occ <= 5\nexpect data t2 > t1\nexpect data t2 >= 0",
			want: []Stmt{
				&Expect{Pos: Pos{1, 1}, Kind: ExpectData, Name: "q", Data: &DataCmp{Query: "q", Op: OpEq, Value: 1, Text: "q == TRUE"}},
				&Expect{Pos: Pos{2, 1}, Kind: ExpectData, Name: "q", Data: &DataCmp{Query: "q", Op: OpNe, Text: "q != FALSE"}},
				&Expect{Pos: Pos{3, 1}, Kind: ExpectData, Name: "occ", Data: &DataCmp{Query: "occ", Op: OpLt, Value: 5, Text: "occ < 5"}},
				&Expect{Pos: Pos{4, 1}, Kind: ExpectData, Name: "occ", Data: &DataCmp{Query: "occ", Op: OpLe, Value: 5, Text: "occ <= 5"}},
				&Expect{Pos: Pos{5, 1}, Kind: ExpectData, Name: "t2", Data: &DataCmp{Query: "t2", Op: OpGt, Ref: "t1", Text: "t2 > t1"}},
				&Expect{Pos: Pos{6, 1}, Kind: ExpectData, Name: "t2", Data: &DataCmp{Query: "t2", Op: OpGe, Text: "t2 >= 0"}},
			},
		},
		{
			desc: "until is a name when '=' follows it",
			src:  "until = dev.CreateQuery Query=EVENT",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Results: []string{"until"}, Target: "dev", TargetPos: Pos{1, 9}, Method: "CreateQuery", MethodPos: Pos{1, 13},
				Args: []Arg{{Pos: Pos{1, 25}, Key: "Query", Value: ident(1, 31, "EVENT")}}}},
		},
		{
			desc: "comments, blank lines, CRLF and a byte-order mark",
			src:  "\uFEFF# title\r\n\r\n   # indented comment\r\nsc.Present 1 # vsync\r\n#deadbeef is a comment at line start\r\n",
			want: []Stmt{&Call{Pos: Pos{4, 1}, Target: "sc", TargetPos: Pos{4, 1}, Method: "Present", MethodPos: Pos{4, 4},
				Args: []Arg{{Pos: Pos{4, 12}, Value: num(4, 12, "1", 1)}}}},
		},
		{
			desc: "a '#' inside a word starts a comment",
			src:  "vb.Release#note",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Target: "vb", TargetPos: Pos{1, 1}, Method: "Release", MethodPos: Pos{1, 4}}},
		},
		{
			desc: "a '#' after a word and a space that is not a colour is a comment",
			src:  "vb.Release #abc\nvb.AddRef #ff0000ffzz",
			want: []Stmt{
				&Call{Pos: Pos{1, 1}, Target: "vb", TargetPos: Pos{1, 1}, Method: "Release", MethodPos: Pos{1, 4}},
				&Call{Pos: Pos{2, 1}, Target: "vb", TargetPos: Pos{2, 1}, Method: "AddRef", MethodPos: Pos{2, 4}},
			},
		},
		{
			desc: "list over several lines with comments",
			src:  "vb.Write f32[1 2,\n  # second row\n  3, 4   # end\n] Offset=8\n",
			want: []Stmt{&Call{Pos: Pos{1, 1}, Target: "vb", TargetPos: Pos{1, 1}, Method: "Write", MethodPos: Pos{1, 4}, Args: []Arg{
				{Pos: Pos{1, 10}, Value: Value{Pos: Pos{1, 10}, Kind: VF32, Text: "f32[1 2,\n  # second row\n  3, 4   # end\n]", F32: []float32{1, 2, 3, 4}}},
				{Pos: Pos{4, 3}, Key: "Offset", Value: num(4, 10, "8", 8)},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Parse("t.d3ds", []byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(s.Stmts, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", dump(s.Stmts), dump(tt.want))
			}
		})
	}
}

func dump(stmts []Stmt) string {
	var b strings.Builder
	for _, s := range stmts {
		b.WriteString(strings.TrimSpace(strings.ReplaceAll(sprint(s), "\n", " ")))
		b.WriteByte('\n')
	}
	return b.String()
}

func sprint(s Stmt) string {
	switch s := s.(type) {
	case *Thread:
		return "thread " + s.Name + " {\n" + dump(s.Body) + "}"
	case *Repeat:
		return "repeat " + strconv.Itoa(s.Count) + " {\n" + dump(s.Body) + "}"
	case *Until:
		return fmt.Sprintf("until %+v max %d {\n%s}", s.Cond, s.Max, dump(s.Body))
	}
	return strings.TrimPrefix(fmt.Sprintf("%+v", s), "&")
}

func TestParseOptions(t *testing.T) {
	src := "# header\noption seed=42\noption driver.freethreaded=true\n\noption gpu.vram=256MiB\noption bug=CL-OOM\noption sync = false\ndev, imm = D3D11CreateDevice\n"
	s, err := Parse("o.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Option{
		{Pos{2, 1}, "seed", "42"},
		{Pos{3, 1}, "driver.freethreaded", "true"},
		{Pos{5, 1}, "gpu.vram", "256MiB"},
		{Pos{6, 1}, "bug", "CL-OOM"},
		{Pos{7, 1}, "sync", "false"},
	}
	if !reflect.DeepEqual(s.Options, want) {
		t.Errorf("options = %+v, want %+v", s.Options, want)
	}
	if s.Name != "o.d3ds" || len(s.Stmts) != 1 {
		t.Errorf("Name %q, %d statements", s.Name, len(s.Stmts))
	}
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		desc string
		arg  string
		want Value // Pos is not compared
	}{
		{"identifier", "R8G8B8A8_UNORM", Value{Kind: VIdent, Text: "R8G8B8A8_UNORM", Ident: "R8G8B8A8_UNORM"}},
		{"boolean", "TRUE", Value{Kind: VIdent, Text: "TRUE", Ident: "TRUE"}},
		{"integer", "108", Value{Kind: VNumber, Text: "108", Num: 108}},
		{"zero flags", "0", Value{Kind: VNumber, Text: "0", Num: 0}},
		{"negative", "-7", Value{Kind: VNumber, Text: "-7", Num: -7}},
		{"float", "0.5", Value{Kind: VNumber, Text: "0.5", Num: 0.5}},
		{"leading dot", ".25", Value{Kind: VNumber, Text: ".25", Num: 0.25}},
		{"negative leading dot", "-.25", Value{Kind: VNumber, Text: "-.25", Num: -0.25}},
		{"exponent", "-1e3", Value{Kind: VNumber, Text: "-1e3", Num: -1000}},
		{"negative exponent", "2.5E-1", Value{Kind: VNumber, Text: "2.5E-1", Num: 0.25}},
		{"hex", "0x10", Value{Kind: VNumber, Text: "0x10", Num: 16}},
		{"negative hex", "-0xFF", Value{Kind: VNumber, Text: "-0xFF", Num: -255}},
		{"K", "4K", Value{Kind: VNumber, Text: "4K", Num: 4096}},
		{"KiB", "64KiB", Value{Kind: VNumber, Text: "64KiB", Num: 65536}},
		{"M", "1M", Value{Kind: VNumber, Text: "1M", Num: 1 << 20}},
		{"MiB", "256MiB", Value{Kind: VNumber, Text: "256MiB", Num: 256 << 20}},
		{"G", "2G", Value{Kind: VNumber, Text: "2G", Num: 2 << 30}},
		{"GiB", "1GiB", Value{Kind: VNumber, Text: "1GiB", Num: 1 << 30}},
		{"fractional size", "0.5KiB", Value{Kind: VNumber, Text: "0.5KiB", Num: 512}},
		{"hex size", "0x2K", Value{Kind: VNumber, Text: "0x2K", Num: 2048}},
		{"flags", "VERTEX_BUFFER|SHADER_RESOURCE", Value{Kind: VFlags, Text: "VERTEX_BUFFER|SHADER_RESOURCE", Flags: []string{"VERTEX_BUFFER", "SHADER_RESOURCE"}}},
		{"flags with spaces", "A | B|C", Value{Kind: VFlags, Text: "A | B|C", Flags: []string{"A", "B", "C"}}},
		{"f32 list", "f32[1 -2.5 0x3]", Value{Kind: VF32, Text: "f32[1 -2.5 0x3]", F32: []float32{1, -2.5, 3}}},
		{"f32 list with commas", "f32[1, 2, 3,]", Value{Kind: VF32, Text: "f32[1, 2, 3,]", F32: []float32{1, 2, 3}}},
		{"empty f32 list", "f32[]", Value{Kind: VF32, Text: "f32[]", F32: []float32{}}},
		{"u16 list", "u16[0 1 65535]", Value{Kind: VU16, Text: "u16[0 1 65535]", U32: []uint32{0, 1, 65535}}},
		{"u32 list", "u32[0xffffffff, 7]", Value{Kind: VU32, Text: "u32[0xffffffff, 7]", U32: []uint32{0xffffffff, 7}}},
		{"u32 list over lines", "u32[\n1\n2\n]", Value{Kind: VU32, Text: "u32[\n1\n2\n]", U32: []uint32{1, 2}}},
		{"colour", "#102030ff", Value{Kind: VColor, Text: "#102030ff", Color: [4]uint8{0x10, 0x20, 0x30, 0xff}}},
		{"colour without alpha", "#A0B0C0", Value{Kind: VColor, Text: "#A0B0C0", Color: [4]uint8{0xa0, 0xb0, 0xc0, 0xff}}},
		{"mesh", "mesh:cube", Value{Kind: VMesh, Text: "mesh:cube", Ident: "cube"}},
		{"builtin", "builtin:ps_fault", Value{Kind: VBuiltin, Text: "builtin:ps_fault", Ident: "ps_fault"}},
		{"dotted name", "dc.FinishCommandList", Value{Kind: VIdent, Text: "dc.FinishCommandList", Ident: "dc.FinishCommandList"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			for _, src := range []string{"t.M " + tt.arg, "t.M K=" + tt.arg} {
				s, err := Parse("", []byte(src))
				if err != nil {
					t.Fatalf("Parse(%q): %v", src, err)
				}
				args := s.Stmts[0].(*Call).Args
				if len(args) != 1 {
					t.Fatalf("Parse(%q): %d args, want 1", src, len(args))
				}
				got := args[0].Value
				if want := len(src) - len(tt.arg) + 1; got.Pos != (Pos{1, want}) {
					t.Errorf("Parse(%q): value at %v, want 1:%d", src, got.Pos, want)
				}
				got.Pos = Pos{}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("Parse(%q):\n got %+v\nwant %+v", src, got, tt.want)
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		desc string
		src  string
		want string
	}{
		{"expect hr without ==", "x.F\nexpect hr S_OK", "2:11: expected '==' after 'expect hr', found \"S_OK\""},
		{"expect hr with =", "expect hr = S_OK", "1:11: expected '==' after 'expect hr', found \"=\""},
		{"unknown expect form", "expect pixels bb 1 1 == #ff0000ff", `1:8: unknown expect form "pixels" (want hr, pixel, probe, hash, calls, violations, violation, live, data, support, got)`},
		{"expect without a form", "expect\n", "1:7: expected what to expect after 'expect' (want hr, pixel, probe, hash, calls, violations, violation, live, data, support, got), found end of line"},
		{"expect pixel with a short colour", "expect pixel bb 1 2 == #f00", `1:24: expected a colour #RRGGBBAA or a texel f32[...], u32[...] or i32[...] after 'expect pixel bb 1 2 ==', found comment "#f00" (a colour is '#' then 6 or 8 hex digits, then a space or the end of the line)`},
		{"expect pixel with a comment instead of a colour", "expect pixel bb 1 2 == # red\n", "1:29: expected a colour #RRGGBBAA or a texel f32[...], u32[...] or i32[...] after 'expect pixel bb 1 2 ==', found end of line"},
		{"expect pixel with a glued colour", "expect pixel bb 1 2 == #ff0000ff;", `1:24: expected a colour #RRGGBBAA or a texel f32[...], u32[...] or i32[...] after 'expect pixel bb 1 2 ==', found comment "#ff0000ff;" (a colour is '#' then 6 or 8 hex digits, then a space or the end of the line)`},
		{"expect pixel negative coordinate", "expect pixel bb -1 2 == #ff0000ff", "1:17: pixel coordinate -1 must be at least 0"},
		{"expect pixel fractional coordinate", "expect pixel bb 1.5 2 == #ff0000ff", "1:17: pixel coordinate 1.5 is not an integer"},
		{"expect hash not hex", "expect hash bb == 12xy", `1:19: bad hash "12xy" (want 1 to 64 hex digits)`},
		{"expect hash too long", "expect hash bb == " + strings.Repeat("a", 65), `1:19: bad hash "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... (want 1 to 64 hex digits)`},
		{"expect calls empty", "expect calls\n", "1:13: expected at least one event name after 'expect calls', found end of line"},
		{"expect live extra", "expect live == 0 1", "1:18: expected end of line after 'expect live == 0', found \"1\""},
		{"until without max", "until hr == S_OK {\n x.F\n}", `1:18: expected 'max N' after 'until hr == S_OK' (an until loop is bounded: until COND max N {), found "{"`},
		{"until max 0", "until hr == S_OK max 0 {\n x.F\n}", "1:22: until max 0 must be at least 1"},
		{"until max too large", "until hr == S_OK max 2e9 {\n x.F\n}", "1:22: until max 2e9 is too large (max 1000000000)"},
		{"until without a block", "until hr == S_OK max 3\n", "1:23: expected '{' on the same line as 'until hr == S_OK max 3', found end of line"},
		{"until with an empty block", "until hr == S_OK max 3 {\n}", "1:1: an until block needs a statement (the call it polls): the condition is tested after each run of the block"},
		{"until on one line", "until hr == S_OK max 3 { x.F }", `1:26: expected end of line after '{', found "x.F" (statements in a block go on their own lines)`},
		{"until hr with <", "until hr < S_OK max 3 {\n x.F\n}", `1:10: expected '==' or '!=' after 'until hr', found "<"`},
		{"until without a condition", "until max 3 {\n x.F\n}", `1:7: expected a condition after 'until' (hr == NAME, hr != NAME or data QUERY OP VALUE), found "max"`},
		{"expect data without a comparison", "expect data q 3", `1:15: expected a comparison (== != < <= > >=) after 'expect data q', found "3"`},
		{"expect data with a colour", "expect data q == #ff0000ff", `1:18: expected a number, TRUE, FALSE or a query after 'expect data q ==', found "#ff0000ff"`},
		{"expect data negative", "expect data q >= -1", "1:18: data value -1 must be at least 0"},
		{"a lone '!'", "expect data q ! 3", `1:15: unexpected character '!'`},
		{"unterminated list at EOF", "x.F\nx.G\nvb = dev.CreateBuffer Data=f32[1 2\n 3", "4:3: unterminated list f32[ (opened at 3:28)"},
		{"unterminated list before the next statement", "vb.Write u16[1 2\nimm.Draw 3 0\n", "2:1: unterminated list u16[ (opened at 1:10)"},
		{"word inside a list", "vb.Write f32[1 x 2]", `1:16: expected a number in f32 list, found "x"`},
		{"u16 out of range", "ib.Write u16[1 70000]", "1:16: u16 value 70000 out of range"},
		{"u32 negative", "ib.Write u32[-1]", "1:14: u32 value -1 out of range"},
		{"u16 not an integer", "ib.Write u16[0.5]", "1:14: u16 value 0.5 is not an integer"},
		{"double comma", "vb.Write f32[1,,2]", "1:16: unexpected ',' in f32 list"},
		{"list without type", "vb.Write [1 2]", "1:10: a list needs a type: f32[...], u16[...] or u32[...]"},
		{"unknown list type", "vb.Write f16[1 2]", `1:10: unknown list type "f16" (want f32, u8, u16, u32, i8, i16, i32 or elem)`},
		{"option after a statement", "option seed=1\nx.F\noption sync=true", "3:1: option after the first statement"},
		{"option inside a thread", "thread t {\n option seed=1\n}", "2:2: option after the first statement"},
		{"option without value", "option seed=\n", "1:13: expected a value after 'option seed=', found end of line"},
		{"option without =", "option seed 1\n", "1:13: expected '=' after 'option seed', found \"1\""},
		{"unclosed block", "thread t {\n  x.F\n", "3:1: unclosed '{' (opened at 1:10)"},
		{"unclosed nested block", "thread t {\n  repeat 2 {\n  }\n", "4:1: unclosed '{' (opened at 1:10)"},
		{"unexpected }", "x.F\n}\n", "2:1: unexpected '}' (no block is open)"},
		{"} after a statement", "thread t {\n  x.F }\n", "2:7: '}' must be alone on its line"},
		{"something after }", "repeat 2 {\n} x.F\n", "2:3: '}' must be alone on its line, found \"x.F\" after it"},
		{"statement after {", "repeat 2 { x.F\n}", "1:12: expected end of line after '{', found \"x.F\" (statements in a block go on their own lines)"},
		{"{ on the next line", "thread t\n{\n}", "1:9: expected '{' on the same line as 'thread t', found end of line"},
		{"stray {", "{\n", "1:1: unexpected '{' (a block follows 'thread NAME', 'repeat N' or 'until COND max N' on the same line)"},
		{"repeat zero", "repeat 0 {\n}", "1:8: repeat count 0 must be at least 1"},
		{"repeat too many", "repeat 2000000000 {\n}", "1:8: repeat count 2000000000 is too large (max 1000000000)"},
		{"repeat without count", "repeat {\n}", "1:8: expected a count after 'repeat', found \"{\""},
		{"bad thread name", "thread a.b {\n}", "1:8: expected a thread name after 'thread', found \"a.b\""},
		{"signal without event", "signal\n", "1:7: expected an event name after 'signal', found end of line"},
		{"inject positional arg", "inject gpu.hang now", "1:17: expected Key=Value after 'inject gpu.hang', found \"now\""},
		{"bind to a dotted name", "a.b = dev.CreateBuffer", `1:1: cannot bind "a.b": names bound with '=' are identifiers (letters, digits and '_')`},
		{"bind without a call", "a, b =\n", "1:7: expected a call (TARGET.Method or a function) after '=', found end of line"},
		{"bind list without =", "a, b c.F", "1:6: expected ',' or '=' after \"b\", found \"c.F\""},
		{"two dots in a call", "a.b.c 1", `1:1: bad call "a.b.c" (want TARGET.Method or a function name)`},
		{"dot without a method", "dev. 1", `1:1: expected a method name after "dev."`},
		{"missing value after key", "x.F Usage=\n", "1:11: expected a value after 'Usage=', found end of line"},
		{"key=value with a bad colour", "x.F Color=#abc", `1:11: expected a value after 'Color=', found comment "#abc" (a colour is '#' then 6 or 8 hex digits, then a space or the end of the line)`},
		{"bad number", "imm.Draw 3abc 0", `1:10: bad number "3abc"`},
		{"number out of range", "imm.Draw 1e999", `1:10: number "1e999" out of range`},
		{"f32 out of range", "vb.Write f32[1e39]", "1:14: f32 value 1e39 out of range"},
		{"unknown prefix", "x.F shader:vs", `1:5: unknown value prefix "shader:" (want mesh:, builtin:, hlsl:, fxc: or bytes:)`},
		{"prefix without a name", "x.F mesh:", "1:10: expected a name after 'mesh:', found end of file"},
		{"flag without a name", "x.F A|", "1:7: expected a flag name after '|', found end of file"},
		{"flags after zero", "x.F 0|A", `1:6: expected a value, found "|"`},
		{"statement starting with a number", "42\n", `1:1: expected a statement, found "42"`},
		{"non-ASCII letter", "x.F café", "1:8: unexpected character U+00E9 'é' (names are ASCII; put text in a '#' comment)"},
		{"invalid UTF-8", "x.F \xff", "1:5: invalid UTF-8 encoding"},
		{"NUL byte", "x.F\x00", "1:4: unexpected control character U+0000"},
		{"stray punctuation", "x.F $", "1:5: unexpected character '$'"},
		{"lexical error inside a list", "x.F f32[1 @]", "1:11: unexpected character '@'"},
		{"too deep", strings.Repeat("repeat 1 {\n", 65), "65:10: blocks nested too deeply (more than 64)"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		if seen[tt.desc] {
			t.Fatalf("duplicate desc %q", tt.desc)
		}
		seen[tt.desc] = true
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Parse("", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%q) = %s, want error %q", tt.src, dump(s.Stmts), tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%q):\n got %s\nwant %s", tt.src, err, tt.want)
			}
		})
	}
}

func TestParseErrorFile(t *testing.T) {
	_, err := Parse("hello.d3ds", []byte("x.F\nexpect hr S_OK\n"))
	if got, want := err.Error(), "hello.d3ds:2:11: expected '==' after 'expect hr', found \"S_OK\""; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseTooLarge(t *testing.T) {
	src := []byte(strings.Repeat("# a comment line that takes up some room\n", MaxSource/41+1))
	_, err := Parse("big.d3ds", src)
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || e.Col != 1 || !strings.HasPrefix(e.Msg, "scenario too large") {
		t.Fatalf("got %v, want big.d3ds:1:1: scenario too large ...", err)
	}
	if _, err := Parse("ok.d3ds", src[:MaxSource]); err != nil {
		t.Fatalf("1 MiB of comments: %v", err)
	}
}

func TestParseLongLine(t *testing.T) {
	// A list of ~200k numbers on one line, and a 1 MB word.
	src := "vb.Write f32[" + strings.Repeat("1.5 ", 200000) + "]\n"
	s, err := Parse("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Stmts[0].(*Call).Args[0].Value.F32); n != 200000 {
		t.Errorf("%d floats, want 200000", n)
	}
	// A 1 MB word is refused at its start (words are at most MaxWord).
	_, err = Parse("", []byte("x.F "+strings.Repeat("A", MaxSource-10)+" $"))
	if err == nil || !strings.HasSuffix(err.Error(), "1:5: a word of 1048566 bytes: names, methods and values are at most 256 bytes") {
		t.Errorf("got %v", err)
	}
}

// TestParseAssets parses every scenario shipped in assets/scenarios.
func TestParseAssets(t *testing.T) {
	files, _ := filepath.Glob("../../assets/scenarios/*.d3ds")
	more, _ := filepath.Glob("testdata/parse/*.d3ds")
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no scenarios found")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(filepath.Base(f), src); err != nil {
			t.Errorf("%v", err)
		}
	}
}
