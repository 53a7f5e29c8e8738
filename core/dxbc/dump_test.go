package dxbc

import (
	"encoding/hex"
	"os"
	"testing"
)

func TestDump(t *testing.T) {
	text, _ := os.ReadFile(os.Getenv("F"))
	b, _ := ParseFxcHeader(string(text))
	c, _ := Parse(b)
	os.Stdout.WriteString(hex.Dump(c.Chunk(os.Getenv("C")).Data))
}
