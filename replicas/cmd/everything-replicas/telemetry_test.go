package main

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// TestReplicaTelemetry: a replica started with OTEL_EXPORTER_OTLP_ENDPOINT
// naming an OTLP/HTTP receiver on 127.0.0.1 (this test's) and
// OTEL_RESOURCE_ATTRIBUTES naming it exports its SERVER span of a
// tools/call, with service.name everything-server and its
// service.instance.id, and the metric mcp.server.operation.duration.
func TestReplicaTelemetry(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Redis and a replica")
	}
	type span struct{ name, service, instance string }
	var mu sync.Mutex
	var spans []span
	var metrics, bad []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		mu.Lock()
		defer mu.Unlock()
		var resp proto.Message
		switch r.URL.Path {
		case "/v1/traces":
			var req coltracepb.ExportTraceServiceRequest
			if err := proto.Unmarshal(b, &req); err != nil {
				bad = append(bad, err.Error())
				break
			}
			for _, rs := range req.ResourceSpans {
				res := map[string]string{}
				for _, kv := range rs.GetResource().GetAttributes() {
					res[kv.Key] = kv.GetValue().GetStringValue()
				}
				for _, ss := range rs.ScopeSpans {
					for _, s := range ss.Spans {
						if s.Kind.String() == "SPAN_KIND_SERVER" {
							spans = append(spans, span{s.Name, res["service.name"], res["service.instance.id"]})
						}
					}
				}
			}
			resp = &coltracepb.ExportTraceServiceResponse{}
		case "/v1/metrics":
			var req colmetricpb.ExportMetricsServiceRequest
			if err := proto.Unmarshal(b, &req); err != nil {
				bad = append(bad, err.Error())
				break
			}
			for _, rm := range req.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						metrics = append(metrics, m.Name)
					}
				}
			}
			resp = &colmetricpb.ExportMetricsServiceResponse{}
		default:
			bad = append(bad, r.URL.Path)
		}
		if resp == nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		out, _ := proto.Marshal(resp)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	defer collector.Close()

	r := testinfra.StartRedis(t, testinfra.RedisOptions{})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	rand.Read(key)
	addr := testinfra.Addr(testinfra.FreePort(t))
	p := testinfra.StartProc(t, "r1", t.TempDir(), []string{
		"EVERYTHING_STATE_KEY=" + hex.EncodeToString(key),
		"EVERYTHING_REPLICAS_ARGS=-replica r1 -listen " + addr + " -redis " + r.Addr,
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + collector.URL,
		"OTEL_RESOURCE_ATTRIBUTES=service.instance.id=r1",
		"OTEL_BSP_SCHEDULE_DELAY=100",
		"OTEL_METRIC_EXPORT_INTERVAL=200",
	}, exe)
	if err := p.WaitTCP(addr, 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if a := callTool("http://"+addr+"/mcp", "greet", `{"name":"x"}`); !a.ok() {
		t.Fatalf("greet: %v", a)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		mu.Lock()
		got := false
		for _, s := range spans {
			if s.name == "tools/call greet" {
				got = true
				if s.service != "everything-server" || s.instance != "r1" {
					t.Errorf("the span's resource: service.name %q, service.instance.id %q; want everything-server, r1", s.service, s.instance)
				}
			}
		}
		got = got && strings.Contains(strings.Join(metrics, ","), "mcp.server.operation.duration")
		if got || time.Now().After(deadline) {
			if !got {
				t.Errorf("within 15s the receiver got server spans %v, metrics %v", spans, metrics)
			}
			if len(bad) > 0 {
				t.Errorf("requests the receiver could not read: %v", bad)
			}
			mu.Unlock()
			break
		}
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
}
