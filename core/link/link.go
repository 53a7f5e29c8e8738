package link

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Version is the link format this d3dsim writes and reads: the prefix of the
// payload ("1.").
const Version = "1"

// MaxSize is the largest scenario a link may carry, decompressed.
const MaxSize = 1 << 20

// DefaultBase is where links point when URL is given no base: the app as
// `go run .` serves it.
const DefaultBase = "http://127.0.0.1:8080/"

// maxPayload bounds the base64 text Decode accepts: enough for MaxSize bytes
// of incompressible data (DEFLATE stored blocks add 5 bytes per 64 KiB), so
// no valid link is refused, while a huge string is refused before any
// allocation.
var maxPayload = len(Version) + 1 + base64.RawURLEncoding.EncodedLen(MaxSize+MaxSize/1024+64)

// maxURL bounds what FromURL looks at.
var maxURL = maxPayload + 64<<10

// Encode returns the link payload for a scenario: "1." followed by the
// base64url (no padding) of its DEFLATE compression.
func Encode(src []byte) string {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		panic(err) // only for a bad level
	}
	w.Write(src) // writes to a bytes.Buffer do not fail
	w.Close()
	return Version + "." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// Decode returns the scenario a link payload ("1.xxx") carries.
func Decode(payload string) ([]byte, error) {
	payload = strings.TrimSpace(payload)
	if payload == "" {
		return nil, errors.New("link: the link holds no scenario (empty payload)")
	}
	if len(payload) > maxPayload {
		return nil, fmt.Errorf("link: link too long (%d characters; a link holds at most a 1 MiB scenario)", len(payload))
	}
	version, data, ok := strings.Cut(payload, ".")
	if !ok {
		return nil, fmt.Errorf("link: link payload has no version prefix (want %q followed by the data)", Version+".")
	}
	if version != Version {
		return nil, fmt.Errorf("link: link version %s is not supported by this d3dsim (it reads version %s)", quote(version), Version)
	}
	data = strings.TrimRight(data, "=") // tolerate padding added by other tools
	if data == "" {
		return nil, fmt.Errorf("link: the link holds no scenario (nothing after %q)", Version+".")
	}
	z, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("link: link payload is not valid base64url (bad character at offset %d; was the link cut or altered?)", int64(ce)+int64(len(version))+1)
		}
		return nil, fmt.Errorf("link: link payload is not valid base64url: %v", err)
	}
	return inflate(z)
}

// inflate decompresses z, refusing more than MaxSize bytes of output. It
// decompresses twice: once to measure, keeping nothing, then into a buffer of
// exactly the right size. So a zip bomb stops after MaxSize+1 bytes having
// allocated only the decompressor's state, and a good link allocates its
// scenario once.
func inflate(z []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(z))
	n, err := io.Copy(io.Discard, io.LimitReader(r, MaxSize+1))
	r.Close()
	switch {
	case err == io.ErrUnexpectedEOF:
		return nil, errors.New("link: link payload is cut short (the compressed data ends early; was the link truncated?)")
	case err != nil:
		return nil, fmt.Errorf("link: link payload is corrupt (%v; was the link altered?)", err)
	case n > MaxSize:
		return nil, errors.New("link: link payload too large (the scenario is over 1 MiB when decompressed)")
	}
	out := make([]byte, n)
	r = flate.NewReader(bytes.NewReader(z))
	defer r.Close()
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, fmt.Errorf("link: link payload is corrupt (%v)", err) // not reached: the first pass read the same
	}
	return out, nil
}

// URL returns a shareable link to the app at base (DefaultBase if empty)
// that carries the scenario src. A fragment already on base is replaced.
func URL(base, src string) string {
	if base == "" {
		base = DefaultBase
	}
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	return base + "#s=" + Encode([]byte(src))
}

// TutorialURL is URL with the fragment key t=NAME after s=: the link of a
// tutorial (assets/tutorials/NAME.d3ds), which the page opens with the
// tutorial's notes beside the timeline. The s= part is URL's, so a reader
// that knows only s= (FromURL ignores other keys) replays the same scenario.
// A name that is not a valid tutorial name (ValidTutorialName) is left out.
func TutorialURL(base, src, name string) string {
	u := URL(base, src)
	if ValidTutorialName(name) {
		u += "&t=" + name
	}
	return u
}

// TutorialOf returns the tutorial name a link's fragment carries (t=NAME),
// or "" when it names none or the name is not a valid tutorial name.
func TutorialOf(u string) string {
	_, frag, ok := strings.Cut(strings.TrimSpace(u), "#")
	if !ok {
		return ""
	}
	for _, part := range strings.Split(frag, "&") {
		if v, ok := strings.CutPrefix(part, "t="); ok && ValidTutorialName(v) {
			return v
		}
	}
	return ""
}

// ValidTutorialName reports whether name can be a tutorial's name in a link:
// 1 to 64 ASCII letters, digits, '-' and '_' (the NN-slug of a tutorial's
// files), so it needs no escaping in a URL fragment.
func ValidTutorialName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// FromURL returns the scenario a link carries. It accepts a full URL whose
// fragment holds s=PAYLOAD (the fragment may hold other &-separated keys), a
// bare fragment "#s=PAYLOAD", "s=PAYLOAD", or the bare payload "1.xxx".
func FromURL(u string) ([]byte, error) {
	u = strings.TrimSpace(u)
	if u == "" {
		return nil, errors.New("link: empty link")
	}
	if len(u) > maxURL {
		return nil, fmt.Errorf("link: link too long (%d characters; a link holds at most a 1 MiB scenario)", len(u))
	}
	frag := u
	if i := strings.IndexByte(u, '#'); i >= 0 {
		frag = u[i+1:]
	} else if strings.Contains(u, "://") {
		return nil, fmt.Errorf("link: the link %s has no #s= fragment holding a scenario", quote(u))
	}
	payload, found := "", false
	for rest := frag; rest != "" && !found; {
		var part string
		part, rest, _ = strings.Cut(rest, "&")
		if v, ok := strings.CutPrefix(part, "s="); ok {
			payload, found = v, true
		}
	}
	if frag == "" {
		return nil, errors.New("link: the link's fragment is empty: it holds no scenario")
	}
	if !found {
		// A bare payload has no '&' and no '=' other than base64 padding.
		key, _, hasEq := strings.Cut(frag, "=")
		if strings.Contains(frag, "&") || hasEq && strings.TrimRight(frag, "=") != key {
			return nil, fmt.Errorf("link: the link's fragment %s has no s= key holding a scenario", quote(frag))
		}
		payload = frag // the bare payload
	}
	if strings.Contains(payload, "%") {
		p, err := url.PathUnescape(payload)
		if err != nil {
			return nil, fmt.Errorf("link: the link's s= value is badly percent-encoded: %v", err)
		}
		payload = p
	}
	if payload == "" {
		return nil, errors.New("link: the link's s= key is empty: it holds no scenario")
	}
	return Decode(payload)
}

// quote quotes s for a message, shortened if long.
func quote(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q...", s[:40])
	}
	return fmt.Sprintf("%q", s)
}
