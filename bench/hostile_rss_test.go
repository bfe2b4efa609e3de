package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgen "github.com/mcpgen/mcpgen/generated/mcp20260728"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHostilePeakRSS/<revision>: the peak resident set of a server
// process (VmHWM, Linux) that answers ten concurrent tools/call requests
// whose params carry 200,000 members no schema names (about 2.3 MB each),
// over HTTP on 127.0.0.1: mcpgen (NewHTTPHandler; a 2025-11-25 client is
// served through the conversions, in one initialized session) and the
// go-sdk (stateless, JSONResponse; it supports both revisions), each in a
// process of its own started for the measurement, one after the other.
// It reports both peaks in MB and mcpgen's as a multiple of the go-sdk's
// ("x-gosdk"). Each iteration starts both servers again: run it with
// -benchtime 1x -count 3. Every request must be answered with the sum.

// hostileServerEnv names the server a process of the test binary runs
// (TestMain), instead of the tests.
const hostileServerEnv = "MCPGEN_BENCH_HOSTILE_SERVER"

// serveHostileProcess runs the server impl on 127.0.0.1, prints its
// address, and returns when its standard input ends.
func serveHostileProcess(impl string) {
	var h http.Handler
	switch impl {
	case "Mcpgen":
		h = mcpgen.NewHTTPHandler(newMcpgenDispatcher(), mcpgen.HTTPOptions{})
	case "GoSDK":
		srv := newGoSDKServerVersions(dispVersion, olderVersion)
		h = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	default:
		fmt.Fprintln(os.Stderr, "no server", impl)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("addr", ln.Addr().String())
	go (&http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}).Serve(ln)
	io.Copy(io.Discard, os.Stdin) // until the benchmark closes it, or exits
}

// peakRSS starts the server impl, sends it ten concurrent copies of the
// many-members tools/call of version (each with an id of its own), checks
// the answers and returns the process's peak resident set in bytes.
func peakRSS(impl, version string, params string) (int64, error) {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), hostileServerEnv+"="+impl)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	sc := bufio.NewScanner(out)
	var addr string
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "addr "); ok {
			addr = a
			break
		}
	}
	if addr == "" {
		return 0, fmt.Errorf("%s: the server did not start", impl)
	}
	go io.Copy(io.Discard, out)
	client := &http.Client{Timeout: 5 * time.Minute}
	post := func(body []byte, session string) (*http.Response, []byte, error) {
		r, err := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", bytes.NewReader(body))
		if err != nil {
			return nil, nil, err
		}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", version)
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		if version == dispVersion {
			r.Header.Set("Mcp-Method", "tools/call")
			r.Header.Set("Mcp-Name", "add")
		}
		resp, err := client.Do(r)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}
	var session string
	if version == olderVersion {
		resp, b, err := post([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+olderVersion+`","capabilities":{},"clientInfo":{"name":"bench-client","version":"0.0.1"}}}`), "")
		if err != nil || resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("%s: initialize: %v %s", impl, err, b)
		}
		session = resp.Header.Get("Mcp-Session-Id")
		if resp, b, err := post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), session); err != nil || resp.StatusCode != http.StatusAccepted {
			return 0, fmt.Errorf("%s: notifications/initialized: %v %s", impl, err, b)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		body := bytes.Replace(hostileBody(params, version), []byte(`"id":7`), []byte(`"id":`+strconv.Itoa(100+i)), 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, b, err := post(body, session)
			if err == nil && (resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`{"sum":42}`))) {
				err = fmt.Errorf("%s: unexpected answer: %d %.300s", impl, resp.StatusCode, b)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", cmd.Process.Pid)
}

func BenchmarkHostilePeakRSS(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc (Linux)")
	}
	var p strings.Builder
	p.WriteString(`{"name":"add","arguments":{"a":40,"b":2}`)
	for i := range 200_000 {
		p.WriteString(`,"x` + strconv.Itoa(i) + `":0`)
	}
	params := p.String()
	for _, v := range hostileVersions {
		b.Run(strings.ReplaceAll(v, "-", ""), func(b *testing.B) {
			var mine, theirs int64
			for b.Loop() {
				var err error
				if mine, err = peakRSS("Mcpgen", v, params); err != nil {
					b.Fatal(err)
				}
				if theirs, err = peakRSS("GoSDK", v, params); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mine)/1e6, "mcpgen-MB")
			b.ReportMetric(float64(theirs)/1e6, "gosdk-MB")
			b.ReportMetric(float64(mine)/float64(theirs), "x-gosdk")
		})
	}
}
