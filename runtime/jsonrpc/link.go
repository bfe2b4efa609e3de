package jsonrpc

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
)

// Link is where the messages about one request go: the connection served
// by Serve, or the HTTP exchange (or session) of the request. A handler's
// context carries its request's Link (LinkFromContext); the transports
// make them.
type Link interface {
	// Notify sends a message (a notification, or a request to the peer)
	// about the request; it fails once the request has been answered or
	// the peer has cancelled it.
	Notify(msg []byte) error
	// Peer is the peer of the connection; nil over stateless HTTP.
	Peer() *Peer
	// Dispatcher is the dispatcher serving the request.
	Dispatcher() *Dispatcher
	// HTTPRequest is the HTTP request, or nil.
	HTTPRequest() *http.Request
	// Progress records a progress value sent for the request; it fails
	// unless the value is larger than the last one.
	Progress(p float64) error
}

type linkKey struct{}

// LinkFromContext returns the link of a handler's context, or nil.
func LinkFromContext(ctx context.Context) Link {
	l, _ := ctx.Value(linkKey{}).(Link)
	return l
}

// WithLink returns ctx with l as its link.
func WithLink(ctx context.Context, l Link) context.Context {
	return context.WithValue(ctx, linkKey{}, l)
}

// PeerFromContext returns the peer of the request a context belongs to, or
// nil.
func PeerFromContext(ctx context.Context) *Peer {
	if l := LinkFromContext(ctx); l != nil {
		return l.Peer()
	}
	return nil
}

// Rerouted is a link whose request another dispatcher serves: the same
// connection, another method table (MCP serves the clients of older
// revisions with a dispatcher of their own).
type Rerouted struct {
	Link
	To *Dispatcher
}

// Dispatcher returns To.
func (r Rerouted) Dispatcher() *Dispatcher { return r.To }

// RequestProgress makes the progress a request reports increase. The zero
// value is ready to use; links embed one.
type RequestProgress struct {
	mu   sync.Mutex
	last float64
	sent bool
}

// Progress records v, failing unless it is larger than the last value.
func (p *RequestProgress) Progress(v float64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent && !(v > p.last) {
		return errors.New("jsonrpc: SendProgress: progress must increase with each notification; it was " + strconv.FormatFloat(p.last, 'g', -1, 64) + ", now " + strconv.FormatFloat(v, 'g', -1, 64))
	}
	p.last, p.sent = v, true
	return nil
}

// ErrRequestDone is what a message about a request fails with once the
// request has been answered, or cancelled by the peer.
var ErrRequestDone = errors.New("jsonrpc: the request has been answered or cancelled; nothing more about it is sent")

// ErrCancelledByPeer is the cause of a request context cancelled by the
// peer's cancellation notification: the response is then not sent.
var ErrCancelledByPeer = errors.New("cancelled by the peer")
