package apitrace

import "testing"

// TestDetect: the format of a file from its first bytes. A Snappy trace's
// first chunk length may hold a newline byte (a chunk of 2,570 bytes is
// 0a 0a 00 00): an exported capture was once taken for a scenario.
func TestDetect(t *testing.T) {
	for _, c := range []struct {
		head string
		want Format
	}{
		{"at\x0a\x0a\x00\x00\x1f\x8b", FormatTrace},
		{"at\x2d\x01\x00\x00", FormatTrace},
		{"at\x0a", FormatTrace},
		{"\x1f\x8b\x08\x00", FormatTrace},
		{"at = dev.CreateBuffer Usage=DEFAULT\n", FormatScenario},
		{"at, imm = D3D11CreateDevice\n", FormatScenario},
		{"at\n\ndev, imm = D3D11CreateDevice\n", FormatScenario},
		{"// a comment\n\n12 @1 ID3D11DeviceContext::Draw(this = 0x1, VertexCount = 3, StartVertexLocation = 0)\n", FormatDump},
		{"<draw> ID3D11DeviceContext::Draw(this = 0x1)\n", FormatDump},
		{"# d3dsim\ndev, imm = D3D11CreateDevice\n", FormatScenario},
		{"", FormatScenario},
	} {
		if got := Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%q) = %s, want %s", c.head, got, c.want)
		}
	}
}
