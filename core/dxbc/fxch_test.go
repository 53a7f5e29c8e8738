package dxbc

import (
	"strings"
	"testing"
)

func TestParseFxcHeader(t *testing.T) {
	for _, tc := range []struct {
		desc, text string
		want       []byte
		err        string
	}{
		{"decimal", "const BYTE g_main[] =\n{\n     68,  88,  66,  67,\n      1,   0\n};\n", []byte{68, 88, 66, 67, 1, 0}, ""},
		{"hex and suffixes", "const unsigned char g_ps[] = { 0x44, 0X58, 66u, 0x43 };", []byte{68, 88, 66, 67}, ""},
		{"comments", "/* a\n{ 1, 2 } */\n// { 3 }\nconst BYTE x[] = { 68, /* 9, */ 88 // 7,\n, 66 };", []byte{68, 88, 66}, ""},
		{"listing in #if 0", "#if 0\nmov r0.xyzw, l(1, 2)\n{ 5, 6 }\n#endif\nconst BYTE g[] = {68};", []byte{68}, ""},
		{"nested #if inside #if 0", "#if 0\n#ifdef X\n{1}\n#endif\n{2}\n#endif\nconst BYTE g[] = {3};", []byte{3}, ""},
		{"first array only", "const BYTE a[] = {1, 2};\nconst BYTE b[] = {3};", []byte{1, 2}, ""},
		{"CRLF", "const BYTE a[] =\r\n{\r\n 1,\r\n 2\r\n};\r\n", []byte{1, 2}, ""},
		{"over 255", "const BYTE a[] = {\n 1,\n 256 };", nil, "fxc header line 3: 256 is over 255"},
		{"not a number", "const BYTE a[] = {\n 1, g_x };", nil, `fxc header line 2: "g_x" is not a byte value`},
		{"negative", "const BYTE a[] = { -1 };", nil, `line 1: "-1" is not a byte value`},
		{"unclosed", "const BYTE a[] = { 1, 2,\n 3", nil, "closing } is missing"},
		{"unclosed comment", "/* {1}", nil, "never closed"},
		{"no array", "// nothing here\nint x;", nil, "no byte array"},
		{"empty array", "const BYTE a[] = { };", nil, "the byte array is empty"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := ParseFxcHeader(tc.text)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
