package conformance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/legacyserver"
)

// Sessions an anonymous flood cannot take away (issue 27): eviction takes
// sessions that never made a second request before established ones, a
// client past MaxSessionsPerClient displaces only its own sessions, and a
// session answers only the principal that opened it.

// floodClient posts to a handler from one remote address.
type floodClient struct {
	t    *testing.T
	h    http.Handler
	addr string
	hdr  map[string]string
}

func (c floodClient) post(body, sid string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.RemoteAddr = c.addr
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		r.Header.Set("Mcp-Session-Id", sid)
	}
	for k, v := range c.hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, r)
	return w
}

// open initializes a session as a client of version would, sending
// notifications/initialized and a ping after it, so that it is established.
func (c floodClient) open(version string) string {
	c.t.Helper()
	w := c.post(initMsg("0", version, allCaps), "")
	if w.Code != http.StatusOK {
		c.t.Fatalf("initialize from %s: %d %s", c.addr, w.Code, w.Body)
	}
	sid := w.Header().Get("Mcp-Session-Id")
	if w := c.post(notification("notifications/initialized", ""), sid); w.Code != http.StatusAccepted {
		c.t.Fatalf("notifications/initialized: %d %s", w.Code, w.Body)
	}
	c.wantPing(sid, http.StatusOK)
	return sid
}

func (c floodClient) wantPing(sid string, status int) {
	c.t.Helper()
	if w := c.post(request("9", "ping", ""), sid); w.Code != status {
		c.t.Fatalf("ping in session %.8s... from %s: %d %s, want %d", sid, c.addr, w.Code, w.Body, status)
	}
}

// initOnly sends an initialize that never comes back, and returns its
// session id ("" when refused).
func (c floodClient) initOnly(i int, version string) string {
	w := c.post(initMsg(strconv.Itoa(i), version, "{}"), "")
	if w.Code != http.StatusOK {
		return ""
	}
	return w.Header().Get("Mcp-Session-Id")
}

func TestSessionHTTPFlood(t *testing.T) {
	const flood = 20000
	for _, tc := range []struct {
		name string
		// from gives the remote address of the flood's i-th request.
		from func(i int) string
	}{
		// The flood comes from the established client's own address
		// (behind one NAT): MaxSessionsPerClient bounds it, and it
		// displaces its own fresh sessions, not the established one.
		{"same address", func(int) string { return "192.0.2.7:4000" }},
		// The flood comes from 20,000 addresses: MaxSessions bounds it,
		// and fresh sessions go before established ones.
		{"many addresses", func(i int) string {
			return "10." + strconv.Itoa(i>>16&255) + "." + strconv.Itoa(i>>8&255) + "." + strconv.Itoa(i&255) + ":4000"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := legacyserver.New("2025-11-25", legacyserver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			h := s.HTTP(legacyserver.HTTPConfig{}) // the defaults: 1000 sessions, 100 per client
			real := floodClient{t: t, h: h, addr: "192.0.2.7:3999"}
			sid := real.open("2025-11-25")
			other := floodClient{t: t, h: h, addr: "198.51.100.1:3999"}
			otherSid := other.open("2025-11-25")

			ids := make([]string, 0, flood)
			for i := range flood {
				c := floodClient{t: t, h: h, addr: tc.from(i)}
				id := c.initOnly(i, "2025-11-25")
				if id == "" {
					t.Fatalf("flood initialize %d refused: every session is idle, so one is replaced", i)
				}
				ids = append(ids, id)
			}
			real.wantPing(sid, http.StatusOK)
			other.wantPing(otherSid, http.StatusOK)
			// The flood displaced itself: its first sessions are gone, its
			// last one is there.
			first := floodClient{t: t, h: h, addr: tc.from(0)}
			first.wantPing(ids[0], http.StatusNotFound)
			last := floodClient{t: t, h: h, addr: tc.from(flood - 1)}
			last.wantPing(ids[flood-1], http.StatusOK)
		})
	}
}

// TestSessionHTTPFloodEstablished: a client that makes its sessions
// established (a second request each) is bounded by MaxSessionsPerClient:
// past it, it replaces its own sessions and no one else's.
func TestSessionHTTPFloodEstablished(t *testing.T) {
	s, err := legacyserver.New("2025-06-18", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := s.HTTP(legacyserver.HTTPConfig{MaxSessions: 50, MaxPerClient: 10})
	victims := make([]string, 0, 30)
	var clients []floodClient
	for i := range 30 {
		c := floodClient{t: t, h: h, addr: "198.51.100." + strconv.Itoa(i) + ":1"}
		clients = append(clients, c)
		victims = append(victims, c.open("2025-06-18"))
	}
	attacker := floodClient{t: t, h: h, addr: "203.0.113.9:1"}
	var mine []string
	for range 500 {
		mine = append(mine, attacker.open("2025-06-18"))
	}
	for i, c := range clients {
		c.wantPing(victims[i], http.StatusOK)
	}
	live := 0
	for _, id := range mine {
		if attacker.post(request("1", "ping", ""), id).Code == http.StatusOK {
			live++
		}
	}
	if live != 10 {
		t.Errorf("the attacker keeps %d sessions, want MaxSessionsPerClient, 10", live)
	}
}

// TestServeOlderHTTPPrincipal: a session of an older client opened by one
// principal is not found for another (404, as an unknown session), on
// POST, GET and DELETE; its own principal keeps using it. Sessions count
// against their principal, not the address they come from.
func TestServeOlderHTTPPrincipal(t *testing.T) {
	principal := func(ctx context.Context) string {
		if r := mcp.HTTPRequestFromContext(ctx); r != nil {
			return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		return ""
	}
	for _, v := range olderVersions {
		t.Run(v, func(t *testing.T) {
			d := mcp.NewServerDispatcher(&eraServer{}, mcp.ServerOptions{
				ServerInfo: mcp.Implementation{Name: "era", Version: "1.0.0"},
				Capabilities: mcp.ServerCapabilities{
					Tools: &mcp.ServerCapabilitiesTools{},
				},
				Principal: principal,
			})
			h := mcp.NewHTTPHandler(d, mcp.HTTPOptions{MaxSessionsPerClient: 3})
			alice := floodClient{t: t, h: h, addr: "192.0.2.1:1", hdr: map[string]string{"Authorization": "Bearer alice"}}
			bob := floodClient{t: t, h: h, addr: "192.0.2.1:2", hdr: map[string]string{"Authorization": "Bearer bob"}}
			anon := floodClient{t: t, h: h, addr: "192.0.2.1:3"}
			sid := alice.open(v)

			bob.wantPing(sid, http.StatusNotFound)
			anon.wantPing(sid, http.StatusNotFound)
			if w := bob.post(callMsg("2", "echo", `{"y":1}`), sid); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "echo") {
				t.Errorf("tools/call of bob in alice's session: %d %s", w.Code, w.Body)
			}
			for _, method := range []string{http.MethodGet, http.MethodDelete} {
				r := httptest.NewRequest(method, "http://127.0.0.1/mcp", nil)
				r.RemoteAddr = bob.addr
				r.Header.Set("Accept", "text/event-stream")
				r.Header.Set("Authorization", "Bearer bob")
				r.Header.Set("Mcp-Session-Id", sid)
				r.Header.Set("MCP-Protocol-Version", v)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusNotFound {
					t.Errorf("%s of bob in alice's session: %d %s, want 404", method, w.Code, w.Body)
				}
			}
			alice.wantPing(sid, http.StatusOK)

			// Bob's sessions, from alice's address, do not displace hers:
			// they count against bob.
			var bobs []string
			for range 10 {
				bobs = append(bobs, bob.open(v))
			}
			alice.wantPing(sid, http.StatusOK)
			bob.wantPing(bobs[0], http.StatusNotFound)
			bob.wantPing(bobs[9], http.StatusOK)
		})
	}
}
