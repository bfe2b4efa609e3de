package protocol

import (
	"context"
	"sync"
)

// This file is the notification bus: how a notification produced on one
// replica of a server (a resource updated, a list changed) reaches the
// clients of every replica. A server publishes the change on its Bus and
// each replica subscribes once and hands what it receives to its own
// clients: its subscriptions/listen streams and, for clients of older
// revisions, ServerDispatcher.Broadcast and NotifyResourceUpdated.
// MemoryBus is the bus of one process; the module
// github.com/mcpgen/mcpgen/replicas has one on Redis.

// BusMessage is one message of a Bus: a notification's method and params.
type BusMessage struct {
	// Method is the notification's method, such as
	// notifications/resources/updated; empty in a gap.
	Method string
	// Params is the notification's params as JSON (an object), or nil.
	// Whoever forwards it adds what belongs to one stream (the
	// subscription id of subscriptions/listen).
	Params []byte
	// Gap is set on a message that stands for messages the subscriber
	// did not get (its buffer overflowed, or the bus lost its connection
	// to the backing service). The subscriber then tells its clients
	// everything it might have missed: every list_changed and
	// resources/updated they listen to (hints to fetch again, for which an
	// extra one is harmless and a lost one is not).
	Gap bool
}

// Bus fans notifications out to the replicas of a server.
//
// Order: the bus has one order of messages; every subscriber gets the
// messages in it, so a publisher's messages arrive in the order it
// published them. Activation: once Subscribe returns, every message whose
// Publish returns afterwards reaches the subscription (or a Gap in its
// place), so a subscriptions/listen handler subscribes, then sends its
// acknowledgement, then forwards: nothing published after the
// acknowledgement is missed, and nothing comes before it. A slow subscriber
// does not hold up publishers or other subscribers: its buffer is bounded,
// and past it the messages it missed become one Gap.
type Bus interface {
	// Publish sends m to every subscriber of every replica, this one's
	// included. It returns once m has its place in the order; an error
	// when the bus cannot be reached (m is not sent).
	Publish(ctx context.Context, m BusMessage) error
	// Subscribe delivers the messages published from now on, until ctx
	// ends; then the channel is closed.
	Subscribe(ctx context.Context) (<-chan BusMessage, error)
}

// defaultBusBuffer is the buffer of a MemoryBus subscriber.
const defaultBusBuffer = 256

// MemoryBus is a Bus in the memory of one process.
type MemoryBus struct {
	mu     sync.Mutex
	subs   map[*busSub]struct{}
	buffer int
}

// NewMemoryBus returns a bus whose subscribers each buffer up to buffer
// messages (zero means 256) before the ones they miss become a Gap.
func NewMemoryBus(buffer int) *MemoryBus {
	if buffer <= 0 {
		buffer = defaultBusBuffer
	}
	return &MemoryBus{subs: map[*busSub]struct{}{}, buffer: buffer}
}

// busSub is one subscription: a bounded queue that a goroutine of its own
// empties into the subscriber's channel.
type busSub struct {
	mu    sync.Mutex
	queue []BusMessage
	lost  bool // messages were dropped since the last delivery
	wake  chan struct{}
}

// Publish implements Bus.
func (b *MemoryBus) Publish(_ context.Context, m BusMessage) error {
	if m.Params != nil {
		m.Params = append([]byte(nil), m.Params...)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		s.mu.Lock()
		if len(s.queue) >= b.buffer {
			// What is queued will be told by the Gap: drop it all.
			s.queue, s.lost = nil, true
		}
		if m.Gap {
			s.lost = true
		} else {
			s.queue = append(s.queue, m)
		}
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// Subscribe implements Bus.
func (b *MemoryBus) Subscribe(ctx context.Context) (<-chan BusMessage, error) {
	s := &busSub{wake: make(chan struct{}, 1)}
	out := make(chan BusMessage)
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go func() {
		defer close(out)
		defer func() {
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
			}
			for {
				m, ok := s.next()
				if !ok {
					break
				}
				select {
				case out <- m:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// next takes the next message to deliver: a Gap first if messages were
// lost, then the queue in order.
func (s *busSub) next() (BusMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.lost:
		s.lost = false
		return BusMessage{Gap: true}, true
	case len(s.queue) > 0:
		m := s.queue[0]
		s.queue[0] = BusMessage{}
		s.queue = s.queue[1:]
		return m, true
	}
	return BusMessage{}, false
}
