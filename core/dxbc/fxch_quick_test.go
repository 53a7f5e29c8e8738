package dxbc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestQuick(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.h")
	for _, f := range files {
		text, _ := os.ReadFile(f)
		b, err := ParseFxcHeader(string(text))
		if err != nil {
			t.Fatal(f, err)
		}
		c, err := Parse(b)
		if err != nil {
			t.Fatal(f, err)
		}
		for _, ch := range c.Chunks {
			t.Log(f, ch.FourCC, len(ch.Data))
		}
	}
}
