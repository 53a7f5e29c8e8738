//go:build !js

package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHostGuard(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	tests := []struct {
		desc, listen string
		extra        []string
		host         string
		want         bool
	}{
		{"loopback address", "127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"localhost", "127.0.0.1:8080", nil, "localhost:8080", true},
		{"localhost, any case", "127.0.0.1:8080", nil, "LocalHost:8080", true},
		{"a .localhost name", "127.0.0.1:8080", nil, "demo.localhost:8080", true},
		{"IPv6 loopback", "[::1]:8080", nil, "[::1]:8080", true},
		{"other loopback address", "127.0.0.1:8080", nil, "127.0.0.2:8080", true},
		{"DNS rebinding: a foreign name", "127.0.0.1:8080", nil, "evil.example:8080", false},
		{"a foreign name without port", "127.0.0.1:8080", nil, "evil.example", false},
		{"another port", "127.0.0.1:8080", nil, "127.0.0.1:9999", false},
		{"no port means 80", "127.0.0.1:8080", nil, "127.0.0.1", false},
		{"empty Host", "127.0.0.1:8080", nil, "", false},
		{"a LAN address when bound to it", "192.168.1.5:8080", nil, "192.168.1.5:8080", true},
		{"another LAN address", "192.168.1.5:8080", nil, "192.168.1.6:8080", false},
		{"any address literal when bound to all", "0.0.0.0:8080", nil, "10.0.0.7:8080", true},
		{"but no foreign name when bound to all", "0.0.0.0:8080", nil, "evil.example:8080", false},
		{"a name allowed with -allow-host", "0.0.0.0:8080", []string{"devbox.lan"}, "DevBox.lan:8080", true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g := newHostGuard(ok, tt.listen, tt.extra)
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.Host = tt.host
			rec := httptest.NewRecorder()
			g.ServeHTTP(rec, req)
			if got := rec.Code == http.StatusOK; got != tt.want {
				t.Errorf("Host %q on %s: status %d, want allowed=%v", tt.host, tt.listen, rec.Code, tt.want)
			}
			if !tt.want && !strings.Contains(rec.Body.String(), "-allow-host") {
				t.Errorf("the refusal does not say how to allow a name: %q", rec.Body.String())
			}
		})
	}
}

func TestNoDotfiles(t *testing.T) {
	web, scen := testSite(t)
	h := newHandler(web, scen, nil)
	for _, p := range []string{"/.env", "/.git/config", "/sub/.hidden", "/assets/scenarios/.secret.d3ds"} {
		if resp := get(t, h, p, nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	web, scen := testSite(t)
	h := newHandler(web, scen, nil)
	page := get(t, h, "/", nil)
	csp := page.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "'wasm-unsafe-eval'", "object-src 'none'", "frame-ancestors"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if got := page.Header.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy = %q", got)
	}
	if js := get(t, h, "/app.js", nil); js.Header.Get("Content-Security-Policy") != "" || js.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("a script's headers: %v", js.Header)
	}
}

// TestCSPHashesInlineScripts: each inline script is allowed by its own hash
// and nothing else inline is.
func TestCSPHashesInlineScripts(t *testing.T) {
	csp := contentSecurityPolicy([]byte("<script>a()</script><p><script src=x.js></script><script>b()</script><script>a()</script>"))
	// sha256("a()") and sha256("b()"), once each.
	for _, h := range []string{"'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='", "'sha256-cf242PFc/kb7xD0Qzhsmd9vvRkc+cWFmbi+k+YvtdKc='"} {
		if strings.Count(csp, h) != 1 {
			t.Errorf("CSP %q: want %s once", csp, h)
		}
	}
	if strings.Contains(strings.Split(csp, ";")[1], "unsafe-inline") {
		t.Errorf("script-src allows any inline script: %q", csp)
	}
}
