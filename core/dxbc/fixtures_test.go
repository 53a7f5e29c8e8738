package dxbc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is one fxc /Fh header from testdata: its bytes and the listing
// fxc wrote above them.
type fixture struct {
	name    string
	bytes   []byte
	listing string
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	files, err := filepath.Glob("testdata/*.h")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata: %v", err)
	}
	var out []fixture
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseFxcHeader(string(text))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, fixture{name: filepath.Base(f), bytes: b, listing: string(text)})
	}
	return out
}

// fxcCode is the code part of fxc's listing: from the profile line to the
// instruction-count comment, trailing blanks trimmed; older fxc spelled
// the constant buffer declaration in lower case.
func fxcCode(listing string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(listing, "\n") {
		l = strings.TrimRight(l, " \r")
		if !in && len(l) == 6 && l[2] == '_' && l[4] == '_' && strings.Contains("vs ps gs hs ds cs", l[:2]) {
			in = true
		}
		if in && strings.HasPrefix(l, "// Approximately") {
			break
		}
		if in {
			b.WriteString(strings.Replace(l, "dcl_constantbuffer cb", "dcl_constantbuffer CB", 1))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestFixturesRoundTrip(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			c, err := Parse(f.bytes)
			if err != nil {
				t.Fatal(err)
			}
			// The container rebuilds to the same bytes, checksum included.
			again, err := (&Container{Chunks: c.Chunks}).Build()
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(f.bytes) {
				t.Error("container: Build of the parsed chunks differs from fxc's bytes")
			}
			// The program re-encodes word for word.
			p, err := c.Program()
			if err != nil {
				t.Fatal(err)
			}
			code, err := p.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if ch := c.Chunk(p.FourCC()); ch == nil || string(code) != string(ch.Data) {
				t.Errorf("program: re-encoding differs from the %s chunk", p.FourCC())
			}
			// Signatures re-encode byte for byte.
			for _, name := range []string{"ISGN", "OSGN"} {
				ch := c.Chunk(name)
				sig, err := ParseSignature(name, ch.Data)
				if err != nil {
					t.Fatal(err)
				}
				if string(sig.Bytes()) != string(ch.Data) {
					t.Errorf("%s: re-encoding differs\n got %x\nwant %x", name, sig.Bytes(), ch.Data)
				}
			}
			// RDEF is written in its own layout: it reads back the same.
			rf, err := c.Reflection()
			if err != nil {
				t.Fatal(err)
			}
			if rf != nil {
				back, err := ParseRDEF(rf.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				if got, want := dumpReflection(back), dumpReflection(rf); got != want {
					t.Errorf("RDEF: written and read back differs\n got %s\nwant %s", got, want)
				}
			}
		})
	}
}

func dumpReflection(rf *Reflection) string {
	var b strings.Builder
	var typ func(t *Type)
	typ = func(t *Type) {
		if t == nil {
			b.WriteString("nil")
			return
		}
		name := t.Name
		if rf.Major < 5 {
			name = "" // shader model 4 does not store type names
		}
		b.WriteString(typeName(t) + "/" + name)
		for _, m := range t.Members {
			b.WriteString("{" + m.Name + ":")
			typ(m.Type)
			b.WriteString("}")
		}
	}
	b.WriteString(rf.Creator)
	for _, r := range rf.Bindings {
		b.WriteString(" " + strings.TrimSpace(strings.Join([]string{r.Name, r.Type.String()}, ":")))
		b.WriteString(strings.Repeat("|", int(r.BindPoint)+1))
	}
	for _, cb := range rf.ConstantBuffers {
		b.WriteString(" cb " + cb.Name)
		for _, v := range cb.Variables {
			b.WriteString(" " + v.Name + "@")
			b.WriteString(strings.Repeat("'", int(v.Offset/4)))
			typ(v.Type)
		}
	}
	return b.String()
}

func TestFixturesDisassembleAsFxc(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			c, err := Parse(f.bytes)
			if err != nil {
				t.Fatal(err)
			}
			p, err := c.Program()
			if err != nil {
				t.Fatal(err)
			}
			want := fxcCode(f.listing)
			if want == "" {
				t.Fatal("no code listing in the fixture")
			}
			if got := p.Disassemble(); got != want {
				t.Errorf("disassembly differs from fxc's\n got:\n%s\nwant:\n%s", got, want)
			}
			// The comment tables: every line printed appears, in order, in
			// fxc's listing (which also has its level-9 sections).
			listing, err := Listing(c)
			if err != nil {
				t.Fatal(err)
			}
			theirs := strings.Split(f.listing, "\n")
			for i := range theirs {
				theirs[i] = strings.TrimRight(theirs[i], " \r")
			}
			head, _, _ := strings.Cut(listing, p.Profile()+"\n")
			k := 0
			for _, l := range strings.Split(strings.TrimSuffix(head, "\n"), "\n") {
				if l == "//" {
					continue
				}
				for k < len(theirs) && theirs[k] != l {
					k++
				}
				if k == len(theirs) {
					t.Errorf("listing line %q is not in fxc's listing (in order)", l)
					break
				}
			}
		})
	}
}

func TestFixturesValidate(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			stage := PixelShader
			if strings.Contains(f.name, "ertex") {
				stage = VertexShader
			}
			if _, err := Validate(f.bytes, stage); err != nil {
				t.Fatal(err)
			}
			other := VertexShader + PixelShader - stage
			if _, err := Validate(f.bytes, other); err == nil || !strings.Contains(err.Error(), "not the") {
				t.Errorf("validated as the wrong stage: %v", err)
			}
		})
	}
}

// The fixtures come in pairs that an application links: Nuklear's VS and
// PS, SDL's VS and each of its PSs.
func TestFixturesLink(t *testing.T) {
	sig := func(name string, input bool) *Signature {
		for _, f := range loadFixtures(t) {
			if f.name == name {
				c, err := Parse(f.bytes)
				if err != nil {
					t.Fatal(err)
				}
				s, err := c.Signature(input)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}
		t.Fatalf("no fixture %s", name)
		return nil
	}
	pairs := [][2]string{
		{"nuklear_d3d11_vertex_shader.h", "nuklear_d3d11_pixel_shader.h"},
		{"sdl_D3D11_VertexShader.h", "sdl_D3D11_PixelShader_Colors.h"},
		{"sdl_D3D11_VertexShader.h", "sdl_D3D11_PixelShader_Textures.h"},
		{"sdl_D3D11_VertexShader.h", "sdl_D3D11_PixelShader_Advanced.h"},
	}
	for _, p := range pairs {
		if err := Link(sig(p[0], false), sig(p[1], true)); err != nil {
			t.Errorf("%s -> %s: %v", p[0], p[1], err)
		}
	}
	// Nuklear's VS puts TEXCOORD in o2 and COLOR in o1; SDL's PS wants
	// TEXCOORD in v1 and COLOR in v2.
	err := Link(sig("nuklear_d3d11_vertex_shader.h", false), sig("sdl_D3D11_PixelShader_Colors.h", true))
	if err == nil || !strings.Contains(err.Error(), "TEXCOORD0 is o2 in the vertex shader but v1") {
		t.Errorf("mismatched registers linked: %v", err)
	}
}
