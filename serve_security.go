//go:build !js

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// The dev server is reachable by any page the developer's browser opens, so
// it answers only requests that name it (a DNS-rebinding page names its own
// host), serves no dotfiles, and sends the headers a static app should send.
// The same headers are written for static hosts by `make site` (siteHeaders).

// hostGuard answers 421 Misdirected Request unless the Host header names
// this server: a loopback name or address, the address it listens on, or a
// name given with -allow-host. A page on evil.example that rebinds its name
// to 127.0.0.1 sends "Host: evil.example" and gets nothing.
type hostGuard struct {
	next    http.Handler
	port    string          // the listener's port; a Host with another port is refused
	allowed map[string]bool // lower-case host names and literal addresses, without port
	anyIP   bool            // listening on every interface: any address literal is this machine's
}

// newHostGuard builds the guard for a listener address ("127.0.0.1:8080",
// "[::]:9000") and extra host names.
func newHostGuard(next http.Handler, listen string, extra []string) *hostGuard {
	g := &hostGuard{next: next, allowed: map[string]bool{"localhost": true}}
	host, port, err := net.SplitHostPort(listen)
	if err == nil {
		g.port = port
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() || host == "" {
			g.anyIP = true
		} else {
			g.allowed[strings.ToLower(host)] = true
		}
	}
	for _, h := range extra {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			g.allowed[strings.Trim(h, "[]")] = true
		}
	}
	return g
}

// allow reports whether a Host header value names this server.
func (g *hostGuard) allow(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil { // no port: the default one, which is not ours unless we listen on 80
		host, port = hostport, "80"
	}
	if g.port != "" && g.port != "0" && port != g.port {
		return false
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "" {
		return false
	}
	if g.allowed[host] || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || g.anyIP
	}
	return false
}

func (g *hostGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.allow(r.Host) {
		http.Error(w, "d3dsim dev server: this server answers only requests for its own address (127.0.0.1, localhost or -addr); start it with -allow-host NAME to serve another name", http.StatusMisdirectedRequest)
		return
	}
	g.next.ServeHTTP(w, r)
}

// dotPath reports whether a cleaned URL path names a dotfile or anything
// inside a dot-directory (.git, .env, .DS_Store ...).
func dotPath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// securityHeaders are sent with every file. The page runs a WebAssembly
// module ('wasm-unsafe-eval'), loads only its own scripts (and its inline
// bootstrap scripts by hash), styles itself inline, draws PNG downloads as
// blob: and data: URLs, and fetches only from its own origin.
//
// Framing is a feature, not a risk to defend against: embed.html is made to
// sit in other sites' iframes, and the exported single-file repro, opened
// from disk, frames index.html. The page holds no session or secret a
// clickjacker could use, so frame-ancestors names every web and file origin
// rather than 'self'.
func securityHeaders(h http.Header, name string, body []byte) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if strings.HasSuffix(name, ".html") {
		h.Set("Content-Security-Policy", contentSecurityPolicy(body))
	}
}

// inlineScript finds the inline <script> elements of a page (no src).
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// contentSecurityPolicy is the policy for one HTML page: its inline scripts
// are allowed by their SHA-256, nothing else inline.
func contentSecurityPolicy(body []byte) string {
	var hashes []string
	for _, m := range inlineScript.FindAllSubmatch(body, -1) {
		sum := sha256.Sum256(m[1])
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	var b bytes.Buffer
	b.WriteString("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'")
	for _, h := range hashes {
		b.WriteString(" " + h)
	}
	b.WriteString("; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors * file:")
	return b.String()
}
