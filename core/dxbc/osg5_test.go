package dxbc

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestOSG5RoundTrip: a gs_5_0 listing whose output rows name their
// streams (m1:COLOR) assembles to an OSG5 chunk with those streams; the
// listing prints them back the same way, and that listing assembles to
// the same bytes.
func TestOSG5RoundTrip(t *testing.T) {
	text, err := os.ReadFile("../umd/translate/testdata/geometry/streams.asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(bc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Chunk("OSGN") != nil || c.Chunk("OSG5") == nil {
		t.Fatal("want an OSG5 chunk and no OSGN")
	}
	sig, err := c.Signature(false)
	if err != nil {
		t.Fatal(err)
	}
	var streams []uint32
	for _, e := range sig.Elements {
		streams = append(streams, e.Stream)
	}
	if len(streams) != 4 || streams[0] != 0 || streams[1] != 0 || streams[2] != 1 || streams[3] != 1 || sig.Elements[2].Name != "SV_Position" {
		t.Fatalf("streams %v, elements %+v", streams, sig.Elements)
	}
	list, err := Listing(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, "// m1:COLOR ") || !strings.Contains(list, "// m0:SV_Position ") {
		t.Fatalf("listing without the streams:\n%s", list)
	}
	again, err := Assemble(list)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, bc) {
		t.Fatal("the listing assembles to other bytes")
	}
}
