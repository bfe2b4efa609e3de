package interop

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// httpWire records what a client's Streamable HTTP transport sends and
// receives, below the SDK (an http.RoundTripper): the methods of the
// messages it POSTs with the MCP-Protocol-Version header of each POST,
// and the requests the server sends in responses (SSE events or JSON
// bodies). Unlike wrapping the SDK's transport, this leaves the client's
// own code path alone (go-sdk sets the version header only on its own
// connection type).
type httpWire struct {
	mu             sync.Mutex
	clientMethods  []string
	headerVersions []string // "method=version" for each POSTed request
	serverRequests []string
}

func (w *httpWire) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		w.mu.Lock()
		for _, m := range wireMessages(body) {
			if m.Method != "" {
				w.clientMethods = append(w.clientMethods, m.Method)
				if m.ID != nil {
					w.headerVersions = append(w.headerVersions, m.Method+"="+req.Header.Get("MCP-Protocol-Version"))
				}
			}
		}
		w.mu.Unlock()
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	resp.Body = &scanBody{ReadCloser: resp.Body, sse: sse, w: w}
	return resp, nil
}

func (w *httpWire) record(data []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range wireMessages(data) {
		if m.Method != "" && m.ID != nil {
			w.serverRequests = append(w.serverRequests, m.Method)
		}
	}
}

func (w *httpWire) fill(res *legResult) {
	w.mu.Lock()
	defer w.mu.Unlock()
	res.Wire = true
	res.ClientMethods = append([]string(nil), w.clientMethods...)
	res.ServerRequests = append([]string(nil), w.serverRequests...)
	res.HeaderVersions = append([]string(nil), w.headerVersions...)
}

// scanBody passes a response body through, handing each complete SSE data
// line (or, for a JSON body, the whole body at its end) to the wire.
type scanBody struct {
	io.ReadCloser
	sse  bool
	w    *httpWire
	buf  []byte
	done bool
}

func (b *scanBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf = append(b.buf, p[:n]...)
	if b.sse {
		for {
			i := bytes.IndexByte(b.buf, '\n')
			if i < 0 {
				break
			}
			line := bytes.TrimRight(b.buf[:i], "\r")
			if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				b.w.record(bytes.TrimSpace(data))
			}
			b.buf = b.buf[i+1:]
		}
	} else if err == io.EOF && !b.done {
		b.done = true
		b.w.record(b.buf)
	}
	return n, err
}

// wireMessages decodes one JSON-RPC message or a batch; what is not JSON
// gives nothing.
func wireMessages(data []byte) []message {
	data = bytes.TrimSpace(data)
	var raws []json.RawMessage
	if bytes.HasPrefix(data, []byte("[")) {
		if json.Unmarshal(data, &raws) != nil {
			return nil
		}
	} else {
		raws = []json.RawMessage{data}
	}
	var out []message
	for _, r := range raws {
		if m, err := parseMessage(r); err == nil {
			out = append(out, m)
		}
	}
	return out
}
