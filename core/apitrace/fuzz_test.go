package apitrace

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"d3dsim/core/memlimit"
)

// FuzzReader feeds arbitrary files to the binary reader: it must end with
// io.EOF or a FormatError, never panic, and allocate at most 256 MiB per
// input (a lying length must not allocate what it claims).
func FuzzReader(f *testing.F) {
	good := everyValueBig(100)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("at"))
	f.Add(container(header().enter(0, "f", "a").b(1, 0, 4, 7, 0).b(1).u(0).b(0), 8))
	f.Add(container(sb{}.u(2).b(0).u(0).str("g").u(1).str("e").b(1, 0, 9).u(5).str("GL_ONE").b(4, 1).b(0), 64))
	f.Add(container(header().enter(0, "f", "a").b(1, 0, 0x0b).u(3).b(0x0c).u(1).str("S").u(1).str("m").b(0x0e, 7).str("x").b(8).u(2).b(1, 2, 0x0f).u(1).u(0x2603).b(0), 16))
	f.Fuzz(func(t *testing.T, data []byte) {
		memlimit.Check(t, 256<<20, "reading the trace", func() {
			for _, tolerant := range []bool{false, true} {
				r, err := NewReader(bytes.NewReader(data), Options{Tolerant: tolerant})
				if err != nil {
					checkErr(t, err)
					continue
				}
				for range 100000 {
					c, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						checkErr(t, err)
						break
					}
					var s strings.Builder
					DumpCall(&s, c, DumpOptions{ThreadIDs: true})
				}
			}
		})
	})
}

func checkErr(t *testing.T, err error) {
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a FormatError", err, err)
	}
	if !strings.Contains(err.Error(), "byte") {
		t.Fatalf("error %q names no byte", err)
	}
}
