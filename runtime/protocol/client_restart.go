package protocol

import (
	"context"
	"errors"
	"fmt"
)

// restartOlder is called when the server's connection ended during the
// version negotiation of a modern client (err says how). A server process
// of an earlier revision may exit on the server/discover probe, or right
// after answering it (an unknown method before initialize): when the
// package converts to older revisions, the process is started once more
// and opened with the initialize handshake at the newest of them, with no
// probe (the TypeScript SDK probes on a disposable process instead). Any
// other connection, or a second end, is reported as it is.
func (c *ClientCore) restartOlder(ctx context.Context, err error) error {
	if c.restart == nil || len(c.olders) == 0 {
		return err
	}
	s, serr := c.restart()
	if serr != nil {
		return fmt.Errorf("%w; starting it again for the initialize handshake failed: %w", err, serr)
	}
	c.t.close() // the first process, which has ended
	var t clientTransport = newStreamClient(c, s)
	c.t = t
	c.live.Store(&t)
	c.restart = nil // once
	if ierr := c.initializeOlder(ctx, 0); ierr != nil {
		return fmt.Errorf("%w (the server was started a second time for the initialize handshake, as the first one ended during server/discover)", ierr)
	}
	return nil
}

// unreachable reports whether err is a transient failure that
// HTTPTransport's retries did not overcome: the server cannot be reached
// for now, which says nothing of its revision.
func unreachable(err error) bool {
	var te *transientError
	return errors.As(err, &te)
}
