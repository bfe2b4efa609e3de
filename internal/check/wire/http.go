package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"time"
)

// HTTP is a Streamable HTTP endpoint.
type HTTP struct {
	URL    string
	lim    Limits
	client *http.Client
}

// NewHTTP returns the endpoint at url. Redirects are not followed, and
// responses are not decompressed (the limits are on what the server sent).
func NewHTTP(url string, lim Limits) *HTTP {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = lim.Timeout
	tr.DisableCompression = true
	tr.MaxIdleConnsPerHost = 4
	return &HTTP{URL: url, lim: lim, client: &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Close releases idle connections.
func (h *HTTP) Close() { h.client.CloseIdleConnections() }

// Do sends x and reads the answer: a JSON body, or an event stream up to
// the response (then Linger more, to see whether the stream ends), or
// Until's message. The error is x.Err.
func (h *HTTP) Do(ctx context.Context, x *Exchange) error {
	start := time.Now()
	defer func() { x.Elapsed = time.Since(start) }()
	x.Err = h.do(ctx, x)
	return x.Err
}

func (h *HTTP) do(ctx context.Context, x *Exchange) error {
	ctx, cancel := context.WithTimeoutCause(ctx, h.lim.Timeout, &TimeoutError{After: h.lim.Timeout})
	defer cancel()
	// The stream may outlive ctx by Linger after the response.
	rctx, rcancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer rcancel(nil)
	stop := context.AfterFunc(ctx, func() { rcancel(context.Cause(ctx)) })
	defer stop()

	method := x.Method
	if method == "" {
		method = http.MethodPost
	}
	var body io.Reader
	if x.Body != nil {
		body = bytes.NewReader(x.Body)
	}
	req, err := http.NewRequestWithContext(rctx, method, h.URL, body)
	if err != nil {
		return err
	}
	for k, v := range x.Header {
		req.Header[k] = v
	}
	if x.Host != "" {
		req.Host = x.Host
	}
	resp, err := h.client.Do(req)
	if err != nil {
		if c := context.Cause(rctx); c != nil {
			return c
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return &TimeoutError{After: h.lim.Timeout}
		}
		return err
	}
	defer resp.Body.Close()
	x.Status = resp.StatusCode
	x.RespHeader = resp.Header
	if x.HeadersOnly {
		return nil
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "text/event-stream" {
		x.SSE = true
		return h.readSSE(rctx, resp.Body, x)
	}
	tooLong := &LimitError{What: "the answer exceeds " + byteSize(h.lim.MaxBytes) + " (the limit of one message)"}
	if resp.ContentLength > h.lim.MaxBytes {
		return tooLong
	}
	b, err := readLimited(resp.Body, h.lim.MaxBytes)
	if err != nil {
		if c := context.Cause(rctx); c != nil {
			return c
		}
		return err
	}
	if b == nil {
		return tooLong
	}
	b = bytes.TrimSpace(b)
	if ct == "application/json" && len(b) > 0 && Kind(b) != 0 {
		x.Messages = append(x.Messages, b)
		if Kind(b) == 'r' {
			x.Response = b
		}
		return nil
	}
	x.Raw = b[:min(len(b), 2048)]
	return nil
}

// readSSE reads events until the response (then watches Linger for the
// end of the stream), Until's message, the end of the stream, or ctx.
func (h *HTTP) readSSE(rctx context.Context, body io.Reader, x *Exchange) error {
	r := bufio.NewReaderSize(body, 64<<10)
	var data []byte
	hasData, hasID, first := false, false, true
	cause := func(err error) error {
		if c := context.Cause(rctx); c != nil {
			return c
		}
		return err
	}
	for {
		line, err := readLine(r, h.lim.MaxBytes)
		if err != nil {
			if errors.Is(err, io.EOF) {
				if x.Response == nil && x.Stopped == nil {
					return errors.New("the event stream ended without the response")
				}
				return nil
			}
			var le *LimitError
			if errors.As(err, &le) {
				return err
			}
			return cause(err)
		}
		if len(line) == 0 { // end of an event
			if first && hasID && len(data) == 0 {
				x.Priming = true
			}
			if hasData || hasID {
				first = false
			}
			if hasData && len(data) > 0 {
				msg := bytes.TrimSpace(data)
				if done, err := h.event(rctx, r, x, msg); done || err != nil {
					return err
				}
			}
			data, hasData, hasID = data[:0], false, false
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if int64(len(data)+len(value)) > h.lim.MaxBytes {
				return &LimitError{What: "an event exceeds " + byteSize(h.lim.MaxBytes) + " (the limit of one message)"}
			}
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			hasData = true
		case "id":
			hasID = true
		}
	}
}

// event handles one event's message; done ends the exchange.
func (h *HTTP) event(rctx context.Context, r *bufio.Reader, x *Exchange, msg []byte) (bool, error) {
	k := Kind(msg)
	if k == 0 {
		if x.Raw == nil {
			x.Raw = append([]byte(nil), msg[:min(len(msg), 2048)]...)
		}
	}
	if k == 'r' {
		x.Messages = append(x.Messages, append([]byte(nil), msg...))
		x.Response = x.Messages[len(x.Messages)-1]
		x.StreamEnded = h.linger(rctx, r)
		return true, nil
	}
	if x.Until != nil && x.Until(msg) {
		x.Messages = append(x.Messages, append([]byte(nil), msg...))
		x.Stopped = x.Messages[len(x.Messages)-1]
		return true, nil
	}
	if len(x.Messages) >= h.lim.MaxMessages {
		x.Dropped++
		return true, &LimitError{What: "more than " + strconv.Itoa(h.lim.MaxMessages) + " messages before the response"}
	}
	x.Messages = append(x.Messages, append([]byte(nil), msg...))

	return false, nil
}

// linger reads on for Linger and reports whether the stream ended.
func (h *HTTP) linger(rctx context.Context, r *bufio.Reader) bool {
	done := make(chan bool, 1)
	go func() {
		_, err := io.Copy(io.Discard, io.LimitReader(r, h.lim.MaxBytes))
		done <- err == nil && rctx.Err() == nil
	}()
	select {
	case ended := <-done:
		return ended
	case <-time.After(h.lim.Linger):
		return false
	}
}

// readLine reads one SSE line (ending in LF, CR or CRLF) of at most max
// bytes, without the ending.
func readLine(r *bufio.Reader, max int64) ([]byte, error) {
	var line []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			if len(line) > 0 && errors.Is(err, io.EOF) {
				return line, nil
			}
			return nil, err
		}
		switch b {
		case '\n':
			return line, nil
		case '\r':
			if next, err := r.Peek(1); err == nil && next[0] == '\n' {
				_, _ = r.ReadByte()
			}
			return line, nil
		}
		if int64(len(line)) >= max {
			return nil, &LimitError{What: "an event stream line exceeds " + byteSize(max)}
		}
		line = append(line, b)
	}
}

// readLimited reads r to its end, at most max bytes, in pieces joined
// once: a body costs at most twice its size. It returns nil, nil when r
// holds more than max bytes, having read max+1 of them.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	var pieces [][]byte
	var total int64
	for size := int64(32 << 10); ; size = min(2*size, 4<<20) {
		piece := make([]byte, min(size, max+1-total))
		n, err := io.ReadFull(r, piece)
		total += int64(n)
		if n > 0 {
			pieces = append(pieces, piece[:n])
		}
		if total > max {
			return nil, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	out := make([]byte, 0, total)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out, nil
}
