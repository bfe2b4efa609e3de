package protocol

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file is a Client's Listen: one way to receive the server's list
// changes and resource updates whatever the revision the connection
// speaks. In 2026-07-28 they come on a subscriptions/listen stream
// (basic/patterns/subscriptions.mdx), opted in to one by one; in the
// revisions with the initialize handshake list_changed notifications come
// unasked (server/tools.mdx, ...) and resources/updated after
// resources/subscribe (server/resources.mdx).

// Subscription names the changes Client.Listen receives; the names are
// those of 2026-07-28's SubscriptionFilter.
type Subscription struct {
	// ToolsListChanged, PromptsListChanged and ResourcesListChanged ask
	// for notifications/tools/list_changed, .../prompts/list_changed and
	// .../resources/list_changed.
	ToolsListChanged, PromptsListChanged, ResourcesListChanged bool
	// ResourceSubscriptions are the URIs whose
	// notifications/resources/updated to receive (in the revisions with
	// the initialize handshake, Listen subscribes to each with
	// resources/subscribe, and unsubscribes when it returns).
	ResourceSubscriptions []string
	// Ready, if set, is called once the subscription is in place, before
	// any change reaches Listen's function: when the server has
	// acknowledged the stream (notifications/subscriptions/acknowledged),
	// or in the earlier revisions when it has answered every
	// resources/subscribe. A change that happens after Ready is not missed.
	Ready func()
}

// wants reports whether s asks for ch.
func (s *Subscription) wants(ch Change) bool {
	switch ch.Method {
	case spec.MethodToolsListChanged:
		return s.ToolsListChanged
	case spec.MethodPromptsListChanged:
		return s.PromptsListChanged
	case spec.MethodResourcesListChanged:
		return s.ResourcesListChanged
	case spec.MethodResourceUpdated:
		return slices.Contains(s.ResourceSubscriptions, ch.URI)
	}
	return false
}

// watcher is one Listen in progress.
type watcher struct {
	sub Subscription
	on  func(Change)
	// modern: the watcher waits for the acknowledgement of its
	// subscriptions/listen request.
	awaitingAck bool
	mu          sync.Mutex // held while on runs; done stops later calls
	done        bool
}

// call gives w the change ch, unless Listen has returned.
func (w *watcher) call(ch Change) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.on(ch)
	}
}

// ready calls the subscription's Ready, unless Listen has returned.
func (w *watcher) ready() {
	if w.sub.Ready == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.sub.Ready()
	}
}

// watchers are the Listens of a ClientCore.
type watchers struct {
	mu   sync.Mutex
	list []*watcher
}

func (ws *watchers) add(w *watcher) {
	ws.mu.Lock()
	ws.list = append(ws.list, w)
	ws.mu.Unlock()
}

// remove ends w: once it returns, w's function is not called again.
func (ws *watchers) remove(w *watcher) {
	ws.mu.Lock()
	ws.list = slices.DeleteFunc(ws.list, func(x *watcher) bool { return x == w })
	ws.mu.Unlock()
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}

// announce gives ch to every watcher that asked for it, in the order they
// started.
func (ws *watchers) announce(ch Change) {
	ws.mu.Lock()
	list := slices.Clone(ws.list)
	ws.mu.Unlock()
	for _, w := range list {
		if w.sub.wants(ch) {
			w.call(ch)
		}
	}
}

// acknowledged marks the oldest watcher still waiting for its
// acknowledgement ready (the server acknowledges each stream first,
// before any change on it).
func (ws *watchers) acknowledged() {
	ws.mu.Lock()
	var w *watcher
	for _, x := range ws.list {
		if x.awaitingAck {
			x.awaitingAck, w = false, x
			break
		}
	}
	ws.mu.Unlock()
	if w != nil {
		w.ready()
	}
}

// unsubscribeTimeout bounds each resources/unsubscribe Listen sends when
// it returns.
const unsubscribeTimeout = 5 * time.Second

// Listen receives the changes s names, calling on with each, in the order
// the server sent them, on the goroutine that handles the server's
// notifications (the ClientHandler's On methods are still called too).
// It returns when ctx ends (with ctx's error), when the server ends the
// subscription (nil), or when the connection ends. listen is the typed
// subscriptions/listen request of the package (nil for a revision without
// it): in 2026-07-28 Listen sends it with s as its filter; in the
// revisions with the initialize handshake it sends resources/subscribe
// for each of s.ResourceSubscriptions (unsubscribing when it returns), and
// the list_changed notifications come unasked.
func (c *ClientCore) Listen(ctx context.Context, s Subscription, on func(Change), listen func(context.Context) error) error {
	if on == nil {
		return errors.New("mcp: Listen: the function that receives the changes is nil")
	}
	if c.closed.Load() {
		return errClientClosed
	}
	_, modern := c.negotiated()
	w := &watcher{sub: s, on: on, awaitingAck: modern}
	w.sub.ResourceSubscriptions = slices.Clone(s.ResourceSubscriptions)
	c.watchers.add(w)
	defer c.watchers.remove(w)
	if modern {
		if listen == nil {
			return errors.New("mcp: Listen: the package has no subscriptions/listen request")
		}
		return listen(ctx)
	}
	var subscribed []string
	unsubscribe := func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unsubscribeTimeout)
		defer cancel()
		for _, uri := range subscribed {
			// Best effort: the subscription ends with the session anyway.
			_, _ = c.send(uctx, &ClientMethod{Name: spec.MethodUnsubscribe}, uriParams(uri))
		}
	}
	defer unsubscribe()
	for _, uri := range w.sub.ResourceSubscriptions {
		if _, err := c.send(ctx, &ClientMethod{Name: spec.MethodSubscribe}, uriParams(uri)); err != nil {
			return errors.Join(errors.New("mcp: Listen: resources/subscribe "+codec.Quote(uri)), err)
		}
		subscribed = append(subscribed, uri)
	}
	w.ready()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ended():
		if c.closed.Load() {
			return errClientClosed
		}
		return errors.New("mcp: Listen: the connection to the server ended")
	}
}

// uriParams are the params {"uri": uri}.
func uriParams(uri string) []byte {
	e := codec.Encoder{}
	e.Buf = append(e.Buf, `{"uri":`...)
	e.Str(uri)
	return append(e.Buf, '}')
}

// ended is closed when the connection has ended: the client was closed,
// or the stream to the server ended.
func (c *ClientCore) ended() <-chan struct{} {
	c.endOnce.Do(func() {
		c.endCh = make(chan struct{})
		go func() {
			var streamDone <-chan struct{}
			if t, ok := c.t.(interface{ doneChan() <-chan struct{} }); ok {
				streamDone = t.doneChan()
			}
			select {
			case <-streamDone:
			case <-c.closing:
			}
			close(c.endCh)
		}()
	})
	return c.endCh
}
