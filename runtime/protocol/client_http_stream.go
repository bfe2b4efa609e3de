package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is Streamable HTTP as a jsonrpc.Stream (HTTPTransport.Connect),
// for a peer of one's own: a proxy, a test driver, a client written
// against the messages rather than the generated Client (which sends each
// request itself, with what it knows of the session).

// Connect opens a stream of messages to the server over Streamable HTTP.
// The generated Client does not use it: it sends each request itself.
//
// Each message written is POSTed with the headers its revision asks for,
// read from the message and from what the stream has seen: a request of
// 2026-07-28 (whose _meta names its protocol version) gets
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and the Mcp-Param-* headers of
// the tools a tools/list response listed; any other message gets the
// Mcp-Session-Id and the protocol version the response to initialize
// named. What the server sends is read from the stream: JSON responses,
// the events of response streams, and those of the session's GET stream,
// opened once notifications/initialized has been accepted.
//
// Write returns once a notification or response has been accepted (202);
// a request is sent in the background, and a POST that fails, or a
// response stream that ends without the response, answers it with an
// error response: code -32603, the HTTP status or what went wrong as its
// message, and {"httpStatus":N} as its data for an HTTP error. Writing
// notifications/cancelled for a 2026-07-28 request that is still open
// closes its response stream instead, which is how that revision cancels
// over HTTP. A broken response stream is not resumed. Close ends every
// stream and the session (DELETE).
func (t *HTTPTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if t.URL == "" {
		return nil, errors.New("mcp: HTTPTransport: URL is empty")
	}
	s := &httpStream{httpBase: t.base(), msgs: make(chan []byte, 64), open: map[string]context.CancelFunc{}, lists: map[string]bool{}}
	return s, nil
}

// httpStream is HTTPTransport.Connect's stream.
type httpStream struct {
	*httpBase
	msgs    chan []byte // what Read returns
	headers headerBook

	// Under mu:
	//
	// open cancels the POSTs of 2026-07-28 requests still waiting for
	// their responses, by id (jsonrpc.IDKey).
	open map[string]context.CancelFunc
	// initID is the id of the initialize request waiting for its
	// response, lists those of the 2026-07-28 tools/list requests.
	initID string
	lists  map[string]bool
}

// errHTTPStreamClosed is what the stream's Read and Write return after Close.
var errHTTPStreamClosed = errors.New("mcp: the stream is closed")

func (s *httpStream) Read(ctx context.Context) ([]byte, error) {
	select {
	case msg := <-s.msgs:
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.ctx.Done():
		return nil, io.EOF
	}
}

func (s *httpStream) Write(ctx context.Context, msg []byte) error {
	if s.ctx.Err() != nil {
		return errHTTPStreamClosed
	}
	msg = append([]byte(nil), msg...) // the caller may reuse it
	i := codec.FirstByte(msg)
	if i < 0 {
		return errors.New("mcp: the message is empty")
	}
	if msg[i] == '[' {
		// A batch (2025-03-26): its responses come in one answer.
		return s.post(ctx, msg, nil, &clientRequest{version: s.legacyVersion()})
	}
	id := codec.Lookup(msg, "id")
	method, _ := HeaderText(codec.Lookup(msg, "method"))
	params := codec.Lookup(msg, "params")
	r := &clientRequest{method: method, params: params}
	if v, ok := HeaderText(codec.Lookup(params, spec.MemberMeta, spec.MetaProtocolVersion)); ok && v != "" {
		r.version, r.modern = v, true
		s.headers.fill(r)
	} else {
		r.version = s.legacyVersion()
	}
	if method == spec.MethodCancelled {
		if rid := codec.Lookup(params, "requestId"); rid != nil && jsonrpc.IsRequestID(rid) {
			s.mu.Lock()
			cancel := s.open[jsonrpc.IDKey(rid)]
			s.mu.Unlock()
			if cancel != nil {
				cancel()
				return nil
			}
		}
	}
	if method == "" || id == nil || !jsonrpc.IsRequestID(id) {
		// A notification or a response.
		return s.post(ctx, msg, nil, r)
	}
	key := jsonrpc.IDKey(id)
	rctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		cancel()
		return errHTTPStreamClosed
	}
	switch {
	case method == spec.MethodInitialize:
		// A new session: the old one, if any, is over.
		s.initID, s.session, s.version = key, "", ""
	case method == spec.MethodListTools && r.modern:
		s.lists[key] = true
	}
	if r.modern {
		s.open[key] = cancel
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer cancel()
		if err := s.post(rctx, msg, id, r); err != nil && rctx.Err() == nil {
			s.answerError(id, err)
		}
		s.mu.Lock()
		delete(s.open, key)
		delete(s.lists, key)
		s.mu.Unlock()
	}()
	return nil
}

// legacyVersion is the version initialize negotiated, for the
// MCP-Protocol-Version header of the messages of the session.
func (s *httpStream) legacyVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// post POSTs a message and passes on what the server answers. For a
// request (id not nil) it returns an error when the answer holds no
// response to it; for anything else, when the server does not accept it.
func (s *httpStream) post(ctx context.Context, msg, id []byte, r *clientRequest) error {
	if id == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	req, err := s.newRequest(ctx, msg, r)
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if r.method == spec.MethodInitialize {
		if sid := resp.Header.Get(spec.HeaderSessionID); sid != "" {
			s.mu.Lock()
			s.session = sid
			s.mu.Unlock()
		}
	}
	ct := mediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 != 2 {
		return statusError(resp, ct)
	}
	answered := false
	switch ct {
	case "application/json":
		body, err := readBodySized(resp.Body, resp.ContentLength, s.maxMessage())
		if err != nil {
			return fmt.Errorf("reading the response: %w", err)
		}
		answered = s.deliver(body, id)
	case "text/event-stream":
		sr := newSSEReader(resp.Body, s.maxMessage())
		for !answered {
			ev, err := sr.next()
			if err != nil {
				if id == nil || ctx.Err() != nil {
					return nil
				}
				return streamEnded(r.method, err)
			}
			if codec.FirstByte(ev.data) >= 0 {
				answered = s.deliver(ev.data, id)
			}
		}
	default:
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	}
	if id == nil {
		if r.method == spec.MethodInitialized && s.hasSession() {
			s.startListening()
		}
		return nil
	}
	if !answered {
		if ctx.Err() != nil {
			return nil // cancelled: no response is due
		}
		return fmt.Errorf("the server answered %s with no response to the request (Content-Type %s)", resp.Status, codec.Quote(resp.Header.Get("Content-Type")))
	}
	return nil
}

// deliver passes a message the server sent on to Read, after learning
// what it says of the session, and reports whether it is the response to
// the request id (nil: to none).
func (s *httpStream) deliver(msg, id []byte) bool {
	rid, result, _, isResponse := parseResponse(msg)
	if isResponse && rid != nil {
		key := jsonrpc.IDKey(rid)
		s.mu.Lock()
		if key == s.initID && s.initID != "" {
			s.initID = ""
			if v, ok := HeaderText(codec.Lookup(result, "protocolVersion")); ok {
				s.version = v
			}
		}
		list := s.lists[key]
		s.mu.Unlock()
		if list && result != nil {
			s.headers.learn(result, nil)
		}
	}
	select {
	case s.msgs <- msg:
	case <-s.ctx.Done():
	}
	return isResponse && id != nil && rid != nil && jsonrpc.IDKey(rid) == jsonrpc.IDKey(id)
}

// answerError answers the request id with an error response saying why
// its POST failed.
func (s *httpStream) answerError(id []byte, err error) {
	var data []byte
	var se *HTTPStatusError
	if errors.As(err, &se) {
		data = strconv.AppendInt([]byte(`{"httpStatus":`), int64(se.StatusCode), 10)
		data = append(data, '}')
	}
	var re *jsonrpc.RPCError
	if errors.As(err, &re) {
		// The server's own JSON-RPC error, in an HTTP error response.
		s.deliver((&jsonrpc.Dispatcher{}).ErrorResponse(id, re.Code, re.Message, re.Data), nil)
		return
	}
	s.deliver((&jsonrpc.Dispatcher{}).ErrorResponse(id, jsonrpc.CodeInternalError, err.Error(), data), nil)
}

// startListening opens the session's GET stream, unless it is open.
func (s *httpStream) startListening() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listening || s.closed {
		return
	}
	s.listening = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.listen(nil, func(_ context.Context, msg []byte) { s.deliver(msg, nil) })
		s.mu.Lock()
		s.listening = false
		s.mu.Unlock()
	}()
}

func (s *httpStream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	session, version := s.session, s.version
	s.mu.Unlock()
	s.stop()
	s.end(session, version)
	return nil
}
