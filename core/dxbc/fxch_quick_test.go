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

func TestQuickRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.h")
	for _, f := range files {
		text, _ := os.ReadFile(f)
		b, _ := ParseFxcHeader(string(text))
		c, _ := Parse(b)
		ch := c.Chunk("SHDR")
		if ch == nil {
			ch = c.Chunk("SHEX")
		}
		p, err := ParseProgram(ch.Data)
		if err != nil {
			t.Fatal(f, err)
		}
		out, err := p.Bytes()
		if err != nil {
			t.Fatal(f, err)
		}
		if string(out) != string(ch.Data) {
			t.Errorf("%s: round trip differs", f)
		}
		t.Log(f, len(p.Instructions))
	}
}

func TestQuickDis(t *testing.T) {
	text, _ := os.ReadFile(os.Getenv("F"))
	b, _ := ParseFxcHeader(string(text))
	c, _ := Parse(b)
	ch := c.Chunk("SHDR")
	if ch == nil {
		ch = c.Chunk("SHEX")
	}
	p, _ := ParseProgram(ch.Data)
	os.Stdout.WriteString(p.Disassemble())
}
