package protocol

import (
	"context"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is the runtime of a generated package's Server beyond its
// tools: an ordered, keyed set of items (resources, templates, prompts) with
// removal and pages, and the fan-out of the notifications a change sends.

// Entries is an ordered set of items by key (a resource's URI, a prompt's
// name), each with a function F that serves it. It is safe for concurrent
// use; the zero value is empty.
type Entries[T, F any] struct {
	mu    sync.RWMutex
	index map[string]int
	keys  []string
	items []T
	funcs []F
}

// Add adds an item; it reports false, adding nothing, when the set has one
// of that key already.
func (s *Entries[T, F]) Add(key string, item T, f F) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.index[key]; dup {
		return false
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	s.index[key] = len(s.items)
	s.keys = append(s.keys, key)
	s.items = append(s.items, item)
	s.funcs = append(s.funcs, f)
	return true
}

// Remove removes the items of the keys and returns how many it removed;
// unknown keys are ignored.
func (s *Entries[T, F]) Remove(keys ...string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, k := range keys {
		i, ok := s.index[k]
		if !ok {
			continue
		}
		n++
		// New slices: a page or list handed out earlier keeps its items.
		s.keys = append(s.keys[:i:i], s.keys[i+1:]...)
		s.items = append(s.items[:i:i], s.items[i+1:]...)
		s.funcs = append(s.funcs[:i:i], s.funcs[i+1:]...)
		delete(s.index, k)
		for j := i; j < len(s.keys); j++ {
			s.index[s.keys[j]] = j
		}
	}
	return n
}

// Get returns the item of key and its function.
func (s *Entries[T, F]) Get(key string) (T, F, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.index[key]
	if !ok {
		var t T
		var f F
		return t, f, false
	}
	return s.items[i], s.funcs[i], true
}

// Func returns the function of key, or the zero F.
func (s *Entries[T, F]) Func(key string) (F, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.index[key]
	if !ok {
		var f F
		return f, false
	}
	return s.funcs[i], true
}

// Len is the number of items.
func (s *Entries[T, F]) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.items)
}

// List returns the items in the order they were added.
func (s *Entries[T, F]) List() []T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append(make([]T, 0, len(s.items)), s.items...)
}

// Each calls f for each item and its function, in order, until f returns
// false. It sees the set as it was when Each began.
func (s *Entries[T, F]) Each(f func(T, F) bool) {
	s.mu.RLock()
	items, funcs := s.items, s.funcs
	s.mu.RUnlock()
	for i := range items {
		if !f(items[i], funcs[i]) {
			return
		}
	}
}

// Page returns the items of one page of a list answer: size items (all of
// them when size is zero or less) from the position cursor names (the
// start when cursor is nil), and the cursor of the next page (nil on the
// last). A cursor is the position as decimal digits, an opaque string to
// clients; one the set did not hand out, or past its end, is invalid
// params (pagination.mdx). A change between pages may show an item twice
// or skip one; the set's list_changed notification tells the client to
// list again.
func (s *Entries[T, F]) Page(cursor *string, size int) ([]T, *string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	start := 0
	if cursor != nil {
		n, err := strconv.Atoi(*cursor)
		if err != nil || n < 0 || n > len(s.items) || strconv.Itoa(n) != *cursor {
			return nil, nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor " + codec.Quote(*cursor)}
		}
		start = n
	}
	end := len(s.items)
	if size > 0 && end-start > size {
		end = start + size
	}
	page := append(make([]T, 0, end-start), s.items[start:end]...)
	if end == len(s.items) {
		return page, nil, nil
	}
	next := strconv.Itoa(end)
	return page, &next, nil
}

// NotifyTarget is where a Notifier sends: the Core of a generated
// ServerDispatcher (Core.Announce reaches the sessions it serves).
type NotifyTarget interface {
	Announce(c Change)
}

// Change is one change a server announces: a list_changed notification
// (Method: notifications/tools/list_changed, .../prompts/list_changed or
// .../resources/list_changed), or notifications/resources/updated (Method
// and the resource's URI). A Notifier sends them; a Client's Listen
// receives them.
type Change struct {
	Method string
	URI    string
}

// Listener receives the changes a Notifier announces that its filter
// wants, on a buffered channel; a listener that does not keep up misses
// changes (list_changed notifications coalesce) rather than holding the
// notifier up.
type Listener struct {
	C    <-chan Change
	c    chan Change
	want func(Change) bool
}

// listenerBuffer is how many changes a Listener holds unread.
const listenerBuffer = 16

// Notifier fans a server set's changes out: to every dispatcher that
// serves the set (their sessions of the initialize era), and to the
// listeners of subscriptions/listen streams (2026-07-28). The zero value
// is ready; it is safe for concurrent use.
type Notifier struct {
	mu        sync.Mutex
	targets   []NotifyTarget
	listeners map[*Listener]struct{}
	ended     chan struct{} // closed by End
}

// Attach adds a dispatcher to notify; one attached already is ignored.
// When the dispatcher stops gracefully (a *Core's OnStop), the listeners'
// streams end (End).
func (n *Notifier) Attach(t NotifyTarget) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, x := range n.targets {
		if x == t {
			return
		}
	}
	n.targets = append(n.targets, t)
	if s, ok := t.(interface{ OnStop(func()) }); ok {
		s.OnStop(n.End)
	}
}

// Listen opens a listener for the changes want accepts; close it with
// Unlisten.
func (n *Notifier) Listen(want func(Change) bool) *Listener {
	c := make(chan Change, listenerBuffer)
	l := &Listener{C: c, c: c, want: want}
	n.mu.Lock()
	if n.listeners == nil {
		n.listeners = map[*Listener]struct{}{}
	}
	n.listeners[l] = struct{}{}
	n.mu.Unlock()
	return l
}

// Unlisten closes l: it receives nothing more.
func (n *Notifier) Unlisten(l *Listener) {
	n.mu.Lock()
	delete(n.listeners, l)
	n.mu.Unlock()
}

// Notify announces c: to the dispatchers (Core.Announce) and to the
// listeners that want it.
func (n *Notifier) Notify(c Change) {
	n.mu.Lock()
	targets := n.targets
	for l := range n.listeners {
		if l.want != nil && !l.want(c) {
			continue
		}
		select {
		case l.c <- c:
		default:
		}
	}
	n.mu.Unlock()
	for _, t := range targets {
		t.Announce(c)
	}
}

// Serving reports whether a dispatcher serves the set: before one does,
// a change has no one to tell.
func (n *Notifier) Serving() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.targets) > 0
}

// End ends the listeners' streams: ServeListen returns nil, and the
// handler answers subscriptions/listen with its result (a graceful end).
// Listen streams opened later end at once. End is idempotent.
func (n *Notifier) End() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ended == nil {
		n.ended = make(chan struct{})
	}
	select {
	case <-n.ended:
	default:
		close(n.ended)
	}
}

func (n *Notifier) endedChan() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ended == nil {
		n.ended = make(chan struct{})
	}
	return n.ended
}

// JSONParams is the params of a notification.
type JSONParams = interface {
	AppendJSON([]byte) ([]byte, error)
}

// ServeListen serves the stream of a subscriptions/listen request for a
// Server (basic/patterns/subscriptions.mdx): it sends ack, the
// acknowledgement (ackMethod), then the notification note makes of each
// change want accepts, until ctx is done (it returns ctx's error) or
// Notifier.End (it returns nil: the handler answers with its result).
func ServeListen(ctx context.Context, n *Notifier, want func(Change) bool, ackMethod string, ack JSONParams, note func(Change) JSONParams) error {
	l := n.Listen(want)
	defer n.Unlisten(l)
	ended := n.endedChan()
	if err := SendNotification(ctx, ackMethod, ack); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ended:
			return nil
		case c := <-l.C:
			if err := SendNotification(ctx, c.Method, note(c)); err != nil {
				return err
			}
		}
	}
}

// Template is a resource template of a Server, with the function that
// reads the resources it matches.
type Template[P, R any] struct {
	URI  *URITemplate
	Read func(ctx context.Context, p *P, vars map[string]string) (*R, error)
}

// ReadResource serves resources/read for a Server: the resource of uri
// if the set has it, else the first template (in the order they were
// added) that matches uri, else notFound's error.
func ReadResource[Res, Tmpl, P, R any](ctx context.Context, res *Entries[Res, func(context.Context, *P) (*R, error)], tmpls *Entries[Tmpl, Template[P, R]], uri string, p *P, notFound func(uri string) error) (*R, error) {
	if read, ok := res.Func(uri); ok {
		return read(ctx, p)
	}
	var found Template[P, R]
	var vars map[string]string
	tmpls.Each(func(_ Tmpl, t Template[P, R]) bool {
		if v, ok := t.URI.Match(uri); ok {
			found, vars = t, v
			return false
		}
		return true
	})
	if found.Read == nil {
		return nil, notFound(uri)
	}
	return found.Read(ctx, p, vars)
}

// KnownURIs returns the URIs of uris that the set has a resource of, or
// that one of its templates matches: those a subscription can hear of.
func KnownURIs[Res, Tmpl, P, R any](res *Entries[Res, func(context.Context, *P) (*R, error)], tmpls *Entries[Tmpl, Template[P, R]], uris []string) []string {
	var out []string
	for _, u := range uris {
		_, ok := res.Func(u)
		if !ok {
			tmpls.Each(func(_ Tmpl, t Template[P, R]) bool {
				_, ok = t.URI.Match(u)
				return !ok
			})
		}
		if ok {
			out = append(out, u)
		}
	}
	return out
}
