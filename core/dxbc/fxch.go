package dxbc

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseFxcHeader reads the C header fxc writes with /Fh — the listing in an
// "#if 0" block, then "const BYTE g_main[] = { 68, 88, 66, 67, ... };" —
// into the bytes of its first array. Numbers may be decimal or 0x hex; C
// comments and preprocessor blocks are skipped. Errors name the line.
func ParseFxcHeader(text string) ([]byte, error) {
	const maxBytes = MaxSize
	var out []byte
	inArray, done, skipDepth, inBlockComment := false, false, 0, false
	for n, line := range strings.Split(text, "\n") {
		lineNo := n + 1
		line = strings.TrimRight(line, "\r")
		// Block comments may span lines.
		var b strings.Builder
		for i := 0; i < len(line); {
			switch {
			case inBlockComment:
				if j := strings.Index(line[i:], "*/"); j >= 0 {
					i += j + 2
					inBlockComment = false
				} else {
					i = len(line)
				}
			case strings.HasPrefix(line[i:], "/*"):
				inBlockComment = true
				i += 2
			case strings.HasPrefix(line[i:], "//"):
				i = len(line)
			default:
				b.WriteByte(line[i])
				i++
			}
		}
		code := strings.TrimSpace(b.String())
		if strings.HasPrefix(code, "#") {
			directive := strings.Fields(strings.TrimSpace(code[1:]))
			switch {
			case len(directive) > 0 && (directive[0] == "if" || directive[0] == "ifdef" || directive[0] == "ifndef"):
				if skipDepth > 0 || len(directive) > 1 && directive[0] == "if" && directive[1] == "0" {
					skipDepth++
				}
			case len(directive) > 0 && directive[0] == "endif":
				if skipDepth > 0 {
					skipDepth--
				}
			}
			continue
		}
		if skipDepth > 0 || done {
			continue
		}
		for code != "" {
			if !inArray {
				i := strings.IndexByte(code, '{')
				if i < 0 {
					break
				}
				inArray = true
				code = code[i+1:]
				continue
			}
			end := strings.IndexByte(code, '}')
			body := code
			if end >= 0 {
				body = code[:end]
			}
			for _, f := range strings.Split(body, ",") {
				f = strings.TrimSpace(f)
				if f == "" {
					continue
				}
				v, err := parseCByte(f)
				if err != nil {
					return nil, fmt.Errorf("dxbc: fxc header line %d: %v", lineNo, err)
				}
				if len(out) >= maxBytes {
					return nil, fmt.Errorf("dxbc: fxc header line %d: the array is over %d bytes", lineNo, maxBytes)
				}
				out = append(out, v)
			}
			if end >= 0 {
				inArray, done = false, true
			}
			break
		}
	}
	switch {
	case inBlockComment:
		return nil, fmt.Errorf("dxbc: fxc header: a /* comment is never closed")
	case inArray:
		return nil, fmt.Errorf("dxbc: fxc header: the array's closing } is missing")
	case !done:
		return nil, fmt.Errorf("dxbc: fxc header: no byte array ({ 68, 88, 66, 67, ... }) found")
	case len(out) == 0:
		return nil, fmt.Errorf("dxbc: fxc header: the byte array is empty")
	}
	return out, nil
}

// parseCByte reads one C integer literal (decimal, 0x hex, optional u/U
// suffix, optional cast-free sign-less) that must fit a byte.
func parseCByte(s string) (byte, error) {
	t := strings.TrimRight(s, "uUlL")
	var v uint64
	var err error
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		v, err = strconv.ParseUint(t[2:], 16, 64)
	} else {
		v, err = strconv.ParseUint(t, 10, 64)
	}
	if err != nil || t == "" {
		return 0, fmt.Errorf("%q is not a byte value", s)
	}
	if v > 255 {
		return 0, fmt.Errorf("%s is over 255", s)
	}
	return byte(v), nil
}
