package bench

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	mcpgen "github.com/mcpgen/mcpgen/generated/mcp20260728"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The hostile-message benchmarks: the bytes a server allocates to answer
// one large or deep tools/call over Streamable HTTP, divided by the size
// of the body, for three messages a hostile client can send within the
// default 4 MiB body limit:
//
//	ManyMembers  params with 100,000 members the schema does not name
//	             ("x0":0, "x1":0, ...), about 1.1 MB
//	Deep         arguments with an array of 200 objects, each nested 900
//	             deep ({"c":{"c":...}}; the go-sdk refuses depth over 1000),
//	             about 1.1 MB
//	LargeString  arguments with a 1 MiB string member
//
// each sent as a 2026-07-28 request (per-request _meta, stateless) and as
// a 2025-11-25 request (in an initialized session; mcpgen serves it with
// its 2026-07-28 handlers through the conversions). Servers, all on the
// same "add" tool as the dispatcher benchmarks, called through
// http.Handler.ServeHTTP with an httptest recorder (no network):
//
//	Mcpgen       mcpgen.NewHTTPHandler(newMcpgenDispatcher(), ...)
//	GoSDK        sdk.NewStreamableHTTPHandler(newGoSDKServer(), Stateless,
//	             JSONResponse), supporting 2026-07-28 and 2025-11-25
//
// B/op is process-wide; the benchmark reports it divided by the body size
// as "alloc/body" (the target: at most 10, and at most the go-sdk's).
// TestHostileAnswers checks, before anything is timed, that every server
// answers every message with the sum.

// hostileMessages are the params of the three messages (without _meta).
var hostileMessages = []struct {
	name   string
	params func() string
}{
	{"ManyMembers", func() string {
		var b strings.Builder
		b.WriteString(`{"name":"add","arguments":{"a":40,"b":2}`)
		for i := range 100_000 {
			b.WriteString(`,"x` + strconv.Itoa(i) + `":0`)
		}
		return b.String()
	}},
	{"Deep", func() string {
		const depth, branches = 900, 200
		one := strings.Repeat(`{"c":`, depth) + `0` + strings.Repeat(`}`, depth)
		return `{"name":"add","arguments":{"a":40,"b":2,"c":[` + strings.Repeat(one+`,`, branches-1) + one + `]}`
	}},
	{"LargeString", func() string {
		return `{"name":"add","arguments":{"a":40,"b":2,"s":"` + strings.Repeat("abcdefgh", 128<<10) + `"}`
	}},
}

// hostileBody is the JSON-RPC request for params p (which lacks its
// closing brace) in revision version.
func hostileBody(p, version string) []byte {
	if version == dispVersion {
		p += `,"_meta":` + dispMeta
	}
	return []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + p + `}}`)
}

const olderVersion = "2025-11-25"

// hostileServer is one server under test, set up for one revision.
type hostileServer struct {
	h       http.Handler
	version string
	session string // Mcp-Session-Id of the initialized session (2025-11-25)
}

func (s *hostileServer) post(body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", s.version)
	if s.session != "" {
		r.Header.Set("Mcp-Session-Id", s.session)
	}
	if s.version == dispVersion {
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "add")
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	return w
}

// newHostileServer builds the server impl for version, initializing a
// session for 2025-11-25.
func newHostileServer(impl, version string) (*hostileServer, error) {
	s := &hostileServer{version: version}
	switch impl {
	case "Mcpgen":
		s.h = mcpgen.NewHTTPHandler(newMcpgenDispatcher(), mcpgen.HTTPOptions{})
	case "GoSDK":
		srv := newGoSDKServerVersions(dispVersion, olderVersion)
		s.h = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	default:
		return nil, fmt.Errorf("no server %q", impl)
	}
	if version == dispVersion {
		return s, nil
	}
	w := s.post([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + olderVersion + `","capabilities":{},"clientInfo":{"name":"bench-client","version":"0.0.1"}}}`))
	if w.Code != http.StatusOK {
		return nil, fmt.Errorf("%s: initialize: %d %s", impl, w.Code, w.Body)
	}
	s.session = w.Header().Get("Mcp-Session-Id")
	w = s.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if w.Code != http.StatusAccepted {
		return nil, fmt.Errorf("%s: notifications/initialized: %d %s", impl, w.Code, w.Body)
	}
	return s, nil
}

// hostileCheck checks one answer to a hostile message: 200 and the sum
// (an SSE response carries it in its one event).
func hostileCheck(w *httptest.ResponseRecorder) error {
	body, _ := io.ReadAll(w.Result().Body)
	if w.Code != http.StatusOK || !bytes.Contains(body, []byte(`{"sum":42}`)) {
		if len(body) > 300 {
			body = append(body[:300], "..."...)
		}
		return fmt.Errorf("unexpected answer: %d %s", w.Code, body)
	}
	return nil
}

var hostileImpls = []string{"Mcpgen", "GoSDK"}
var hostileVersions = []string{dispVersion, olderVersion}

func TestHostileAnswers(t *testing.T) {
	for _, impl := range hostileImpls {
		for _, v := range hostileVersions {
			s, err := newHostileServer(impl, v)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range hostileMessages {
				if err := hostileCheck(s.post(hostileBody(m.params(), v))); err != nil {
					t.Errorf("%s %s %s: %v", impl, v, m.name, err)
				}
			}
		}
	}
}

// BenchmarkHostile/<server>/<revision>/<message>.
func BenchmarkHostile(b *testing.B) {
	for _, impl := range hostileImpls {
		b.Run(impl, func(b *testing.B) {
			for _, v := range hostileVersions {
				b.Run(strings.ReplaceAll(v, "-", ""), func(b *testing.B) {
					for _, m := range hostileMessages {
						b.Run(m.name, func(b *testing.B) {
							s, err := newHostileServer(impl, v)
							if err != nil {
								b.Fatal(err)
							}
							body := hostileBody(m.params(), v)
							if err := hostileCheck(s.post(body)); err != nil {
								b.Fatal(err)
							}
							b.ReportAllocs()
							runtime.GC()
							var ms0, ms1 runtime.MemStats
							runtime.ReadMemStats(&ms0)
							cpu0 := cpuNanos()
							for b.Loop() {
								s.post(body)
							}
							cpu1 := cpuNanos()
							runtime.ReadMemStats(&ms1)
							b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(len(body)), "alloc/body")
							b.ReportMetric(float64(len(body)), "body-bytes")
							b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
						})
					}
				})
			}
		})
	}
}

// newGoSDKServerVersions is newGoSDKServer supporting versions.
func newGoSDKServerVersions(versions ...string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: dispServerName, Version: dispServerVersion}, &sdk.ServerOptions{
		Instructions:              dispInstructions,
		Capabilities:              &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		SupportedProtocolVersions: versions,
	})
	addGoSDKTool(s)
	return s
}
