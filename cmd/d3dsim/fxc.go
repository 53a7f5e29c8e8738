package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
)

// fxcOptions are the options of `d3dsim fxc`, named and spelled as
// Microsoft's "Effect-Compiler Tool" page names fxc's: /T profile, /E
// entry point, /Fo object file, /Fh header, /Vn the header's variable,
// /Fc listing. Each takes a value but /Gec (backwards compatibility mode,
// hlsl.FlagBackCompat) and /nologo, which is accepted and does nothing
// (this tool prints no banner).
var fxcOptions = map[string]bool{"T": true, "E": true, "Fo": true, "Fh": true, "Fc": true, "Vn": true, "Gec": false, "nologo": false}

// fxcMaxSource bounds the file read; the compiler refuses a source over
// its own, smaller limit with an error in fxc's form.
const fxcMaxSource = 4 << 20

var cIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parseFxcArgs reads fxc's command line: options start with / or - and
// take their value as the next word or attached (/Tps_5_0); the one other
// word is the source file (- for standard input). A word starting with /
// that is no option is a path (/tmp/a.hlsl).
func parseFxcArgs(words []string) (opts map[string]string, file string, err error) {
	opts = map[string]string{}
	var files []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "-" || !(strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-")) {
			files = append(files, w)
			continue
		}
		body := w[1:]
		name, val, attached := "", "", false
		if _, ok := fxcOptions[body]; ok {
			name = body
		} else {
			for n, takes := range fxcOptions {
				// The attached form: a value with no / (profiles, names, a file
				// in the current directory), so /Foo/a.hlsl stays a path.
				if takes && strings.HasPrefix(body, n) && len(body) > len(n) && !strings.Contains(body[len(n):], "/") && len(n) > len(name) {
					name, val, attached = n, body[len(n):], true
				}
			}
		}
		if name == "" {
			if strings.HasPrefix(w, "/") {
				files = append(files, w) // an absolute path
				continue
			}
			return nil, "", badf("unknown option %s (known: /T, /E, /Fo, /Fh, /Fc, /Vn, /Gec, /nologo)", w)
		}
		if _, dup := opts[name]; dup {
			return nil, "", badf("option /%s given twice", name)
		}
		if fxcOptions[name] && !attached {
			if i+1 >= len(words) {
				return nil, "", badf("option /%s needs a value", name)
			}
			i++
			val = words[i]
		}
		opts[name] = val
	}
	if len(files) != 1 {
		return nil, "", badf("give one source FILE (or - for standard input), got %d", len(files))
	}
	if opts["T"] == "" {
		return nil, "", badf("give the target profile: /T vs_4_0, vs_5_0, ps_4_0 or ps_5_0")
	}
	if v, ok := opts["Vn"]; ok && !cIdent.MatchString(v) {
		return nil, "", badf("option /Vn %q: must be a C identifier", v)
	}
	if e, ok := opts["E"]; ok && e == "" {
		return nil, "", badf("option /E needs an entry point name")
	}
	return opts, files[0], nil
}

// cmdFxc compiles HLSL as fxc does: the listing to standard output unless
// /Fo, /Fh or /Fc say where the results go; errors and warnings in fxc's
// form ("file(line,col): error X3004: ...") on standard error.
func cmdFxc(words []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, file, err := parseFxcArgs(words)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim fxc: %v\n%s", err, usage)
		return exitBadIn
	}
	var src []byte
	if file == "-" {
		src, err = io.ReadAll(io.LimitReader(stdin, fxcMaxSource+1))
		if err == nil && len(src) > fxcMaxSource {
			err = fmt.Errorf("standard input: over %d bytes", fxcMaxSource)
		}
	} else {
		src, err = readLimited(file, fxcMaxSource)
	}
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim fxc: %v\n", err)
		return exitBadIn
	}
	entry := opts["E"]
	if entry == "" {
		entry = "main" // fxc's default entry point
	}
	name := file
	if file == "-" {
		name = "stdin"
	}
	var lim hlsl.Limits
	if _, ok := opts["Gec"]; ok {
		lim.Flags |= hlsl.FlagBackCompat
	}
	res, err := hlsl.CompileWith(src, name, entry, opts["T"], lim)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n\ncompilation failed; no code produced\n", err)
		return exitBadIn
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, w)
	}
	c, err := dxbc.Parse(res.Bytecode)
	if err == nil {
		var listing string
		if listing, err = dxbc.Listing(c); err == nil {
			return writeFxcOutputs(opts, entry, listing, res.Bytecode, stdout, stderr)
		}
	}
	// Compile returned bytecode its own checks accepted: a bug if reached.
	fmt.Fprintf(stderr, "d3dsim fxc: internal error: %v\n", err)
	return exitFailed
}

func writeFxcOutputs(opts map[string]string, entry, listing string, blob []byte, stdout, stderr io.Writer) int {
	_, fo := opts["Fo"]
	_, fh := opts["Fh"]
	_, fc := opts["Fc"]
	if !fo && !fh && !fc {
		fmt.Fprint(stdout, listing)
		return exitOK
	}
	vn := opts["Vn"]
	if vn == "" {
		vn = "g_" + entry // fxc's default variable name
	}
	outputs := []struct {
		opt, what string
		data      []byte
	}{
		{"Fo", "object", blob},
		{"Fh", "header", []byte(fxcHeader(vn, listing, blob))},
		{"Fc", "code", []byte(listing)},
	}
	for _, o := range outputs {
		path, ok := opts[o.opt]
		if !ok {
			continue
		}
		if err := os.WriteFile(path, o.data, 0o644); err != nil {
			fmt.Fprintf(stderr, "d3dsim fxc: writing /%s: %v\n", o.opt, err)
			return exitIO
		}
		fmt.Fprintf(stdout, "compilation %s save succeeded; see %s\n", o.what, path)
	}
	return exitOK
}

// fxcHeader is the C header fxc /Fh writes: the listing inside "#if 0",
// then the bytes as "const BYTE name[] = { 68, 88, 66, 67, ... };", six a
// row, as fxc lays them out.
func fxcHeader(name, listing string, blob []byte) string {
	var b strings.Builder
	b.WriteString("#if 0\n")
	b.WriteString(listing)
	if !strings.HasSuffix(listing, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "#endif\n\nconst BYTE %s[] =\n{\n", name)
	for i, v := range blob {
		if i%6 == 0 {
			b.WriteString("    ")
		}
		fmt.Fprintf(&b, "%3d", v)
		switch {
		case i == len(blob)-1:
			b.WriteByte('\n')
		case i%6 == 5:
			b.WriteString(",\n")
		default:
			b.WriteString(", ")
		}
	}
	b.WriteString("};\n")
	return b.String()
}
