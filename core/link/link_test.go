package link

import (
	"bytes"
	"compress/flate"
	"d3dsim/core/memlimit"
	"encoding/base64"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

const hello = `# Hello triangle
option seed=1
dev, imm = D3D11CreateDevice
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
expect pixel bb 32 40 == #ff0000ff
`

func roundTripInputs() []struct {
	desc string
	src  []byte
} {
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 100<<10)
	rng.Read(random)
	return []struct {
		desc string
		src  []byte
	}{
		{"empty", nil},
		{"one byte", []byte("x")},
		{"scenario", []byte(hello)},
		{"unicode", []byte("# héllo wörld — 三角形 🔺\nexpect live == 0\n")},
		{"binary with NUL and invalid UTF-8", []byte("\x00\xff\xfe#\x00s=&?")},
		{"100 KB repetitive", bytes.Repeat([]byte(hello), (100<<10)/len(hello))},
		{"100 KB random", random},
		{"exactly MaxSize", bytes.Repeat([]byte{'a'}, MaxSize)},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tt := range roundTripInputs() {
		t.Run(tt.desc, func(t *testing.T) {
			p := Encode(tt.src)
			if !strings.HasPrefix(p, "1.") {
				t.Fatalf("payload %.20q does not start with 1.", p)
			}
			if i := strings.IndexFunc(p[2:], func(r rune) bool {
				return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
			}); i >= 0 {
				t.Fatalf("payload has %q at %d: not base64url without padding", p[2+i], 2+i)
			}
			if p2 := Encode(tt.src); p2 != p {
				t.Fatal("Encode is not deterministic")
			}
			got, err := Decode(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.src) {
				t.Fatalf("Decode(Encode(x)) differs from x (%d bytes, want %d)", len(got), len(tt.src))
			}
			u := URL("", string(tt.src))
			for _, link := range []string{
				u,
				"https://example.org/d3dsim/?x=1#t=3&s=" + p + "&frame=2",
				"#s=" + p,
				"s=" + p,
				p,
				"  " + u + "\n",
				u + "==",
			} {
				got, err := FromURL(link)
				if err != nil {
					t.Fatalf("FromURL(%.60q): %v", link, err)
				}
				if !bytes.Equal(got, tt.src) {
					t.Fatalf("FromURL(%.60q) differs from the source", link)
				}
			}
		})
	}
}

func TestCompresses(t *testing.T) {
	src := bytes.Repeat([]byte(hello), 100)
	if p := Encode(src); len(p) > len(src)/20 {
		t.Errorf("%d bytes of scenario gave a %d-byte payload", len(src), len(p))
	}
}

func TestURL(t *testing.T) {
	p := Encode([]byte(hello))
	tests := []struct {
		desc, base, want string
	}{
		{"default base", "", "http://127.0.0.1:8080/#s=" + p},
		{"custom base", "https://example.org/sim/", "https://example.org/sim/#s=" + p},
		{"base with a fragment", "http://localhost:9000/#s=1.old", "http://localhost:9000/#s=" + p},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := URL(tt.base, hello); got != tt.want {
				t.Errorf("URL(%q) = %q, want %q", tt.base, got, tt.want)
			}
		})
	}
}

func deflate(t testing.TB, src []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(src)
	w.Close()
	return b.Bytes()
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func TestMalformed(t *testing.T) {
	good := Encode([]byte(hello))
	z := deflate(t, []byte(hello))
	bomb := deflate(t, make([]byte, 16<<20))
	tests := []struct {
		desc string
		link string
		want string
	}{
		{"empty", "", "link: empty link"},
		{"blank", "  \n", "link: empty link"},
		{"URL without fragment", "http://127.0.0.1:8080/", `link: the link "http://127.0.0.1:8080/" has no #s= fragment holding a scenario`},
		{"fragment without s", "http://127.0.0.1:8080/#t=1&u=2", `link: the link's fragment "t=1&u=2" has no s= key holding a scenario`},
		{"empty s", "#s=", "link: the link's s= key is empty: it holds no scenario"},
		{"empty s among keys", "#a=1&s=&b=2", "link: the link's s= key is empty: it holds no scenario"},
		{"empty fragment", "http://x/#", "link: the link's fragment is empty: it holds no scenario"},
		{"empty payload", "\t", "link: empty link"},
		{"no version", "#s=" + good[2:], `link: link payload has no version prefix (want "1." followed by the data)`},
		{"unknown version", "#s=7." + good[2:], `link: link version "7" is not supported by this d3dsim (it reads version 1)`},
		{"unknown version, bare", "7.abc", `link: link version "7" is not supported by this d3dsim (it reads version 1)`},
		{"nothing after the version", "#s=1.", `link: the link holds no scenario (nothing after "1.")`},
		{"bad base64", "#s=1.ab$cd", "link: link payload is not valid base64url (bad character at offset 4; was the link cut or altered?)"},
		{"bad percent-encoding", "#s=1.ab%zz", `link: the link's s= value is badly percent-encoded: invalid URL escape "%zz"`},
		{"truncated", "#s=1." + b64(z[:len(z)/2]), "link: link payload is cut short (the compressed data ends early; was the link truncated?)"},
		{"not deflate", "#s=1." + b64([]byte{0xff, 0xff, 0xff, 0xff}), "link: link payload is corrupt (flate: corrupt input before offset 1; was the link altered?)"},
		{"zip bomb", "#s=1." + b64(bomb), "link: link payload too large (the scenario is over 1 MiB when decompressed)"},
		{"one byte over MaxSize", "1." + b64(deflate(t, make([]byte, MaxSize+1))), "link: link payload too large (the scenario is over 1 MiB when decompressed)"},
		{"huge", "#s=1." + strings.Repeat("A", 3<<20), "link: link too long (3145733 characters; a link holds at most a 1 MiB scenario)"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := FromURL(tt.link)
			if err == nil {
				t.Fatalf("FromURL(%.60q) = %.40q, want error %q", tt.link, got, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("FromURL(%.60q):\n got %s\nwant %s", tt.link, err, tt.want)
			}
		})
	}
}

// TestBombMemory checks that a link that inflates to 64 MiB costs well under
// 1 MiB to refuse.
func TestBombMemory(t *testing.T) {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	zero := make([]byte, 1<<20)
	for range 64 {
		w.Write(zero)
	}
	w.Close()
	link := "1." + b64(b.Bytes())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decode(link)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "link payload too large") {
		t.Fatalf("err = %v", err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	// The base64-decoded input (~64 KiB for 64 MiB of zeros) plus the
	// decompressor's state: no output is kept.
	limit := uint64(len(link)) + 1<<20
	t.Logf("decoding a %d-byte link to 64 MiB of zeros allocated %d bytes", len(link), alloc)
	if alloc > limit {
		t.Errorf("decoding a %d-byte bomb allocated %d bytes (limit %d)", len(link), alloc, limit)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode([]byte(hello)))
	f.Add(Encode(nil))
	f.Add("1.")
	f.Add("7.AAAA")
	f.Add("1.ab$cd")
	f.Add("1." + b64(deflate(f, make([]byte, 2<<20))))
	f.Fuzz(func(t *testing.T, payload string) {
		var got []byte
		var err error
		// A link of at most a few hundred KB decodes to at most MaxSize:
		// no input may make the decoder allocate much more.
		memlimit.Check(t, 32<<20, "Decode", func() { got, err = Decode(payload) })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "link: ") {
				t.Fatalf("error %q lacks the link: prefix", err)
			}
			return
		}
		if len(got) > MaxSize {
			t.Fatalf("decoded %d bytes, more than MaxSize", len(got))
		}
		// What decodes re-encodes to something that decodes the same.
		again, err := Decode(Encode(got))
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("round trip of a decoded payload failed: %v", err)
		}
	})
}

func FuzzFromURL(f *testing.F) {
	p := Encode([]byte(hello))
	for _, s := range []string{
		URL("", hello), "#s=" + p, "s=" + p, p, "http://x/#a=1&s=" + p + "&b", "http://x/", "#", "#&&&", "s=%41",
		"#s=1.%zz", "https://e/#s=2." + p[2:],
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		var got []byte
		var err error
		memlimit.Check(t, 32<<20, "FromURL", func() { got, err = FromURL(u) })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "link: ") {
				t.Fatalf("error %q lacks the link: prefix", err)
			}
			return
		}
		if len(got) > MaxSize {
			t.Fatalf("decoded %d bytes, more than MaxSize", len(got))
		}
	})
}

func ExampleFromURL() {
	u := URL("", "dev, imm = D3D11CreateDevice\n")
	src, err := FromURL(u)
	fmt.Printf("%q %v\n", src, err)
	_, err = FromURL("http://127.0.0.1:8080/#s=7.eJwLycgsVgCiRIWS1OISAA")
	fmt.Println(err)
	// Output:
	// "dev, imm = D3D11CreateDevice\n" <nil>
	// link: link version "7" is not supported by this d3dsim (it reads version 1)
}

func ExampleEncode() {
	p := Encode([]byte("imm.Draw 3 0\n"))
	src, _ := Decode(p)
	fmt.Println(p[:2], string(src))
	// Output: 1. imm.Draw 3 0
}

// TestTutorialURL: a tutorial's link is URL's link plus &t=NAME; FromURL
// ignores the t= key (old readers replay the same scenario) and TutorialOf
// reads it back, refusing names that would need escaping.
func TestTutorialURL(t *testing.T) {
	plain := URL("https://example.org/sim/", hello)
	tests := []struct {
		desc, name, want, back string
	}{
		{"tutorial", "05-four-threads", plain + "&t=05-four-threads", "05-four-threads"},
		{"no name", "", plain, ""},
		{"name with a space", "a b", plain, ""},
		{"name with &", "a&s=1.x", plain, ""},
		{"name too long", strings.Repeat("a", 65), plain, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			u := TutorialURL("https://example.org/sim/", hello, tt.name)
			if u != tt.want {
				t.Fatalf("TutorialURL = %q, want %q", u, tt.want)
			}
			src, err := FromURL(u)
			if err != nil || string(src) != hello {
				t.Fatalf("FromURL(%q) = %q, %v", u, src, err)
			}
			if got := TutorialOf(u); got != tt.back {
				t.Errorf("TutorialOf = %q, want %q", got, tt.back)
			}
		})
	}
	// t= before s=, and keys the reader does not know, are fine too.
	p := Encode([]byte(hello))
	for _, u := range []string{"http://x/#t=01-hello-triangle&s=" + p, "http://x/#s=" + p + "&x=1&t=01-hello-triangle"} {
		if src, err := FromURL(u); err != nil || string(src) != hello {
			t.Errorf("FromURL(%q) = %q, %v", u, src, err)
		}
		if got := TutorialOf(u); got != "01-hello-triangle" {
			t.Errorf("TutorialOf(%q) = %q", u, got)
		}
	}
	if got := TutorialOf("01-hello-triangle"); got != "" {
		t.Errorf("TutorialOf without a fragment = %q", got)
	}
}
