package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// Interaction is the step of the authorization code grant that involves
// the user: it names the redirect URI to register and send, then takes
// the user to the authorization URL and returns the parameters of the
// redirect back (code, state, iss; or error).
type Interaction interface {
	RedirectURI(ctx context.Context) (string, error)
	Authorize(ctx context.Context, authURL string) (url.Values, error)
}

// Loopback is the Interaction of command-line programs (RFC 8252
// section 7.3): it listens on a loopback address, has the user open the
// authorization URL in a browser, and takes the redirect to
// http://127.0.0.1:PORT/callback.
type Loopback struct {
	// Addr is the address to listen on; empty means "127.0.0.1:0" (a
	// port the system picks). Give a fixed port when the redirect URI is
	// registered in advance (a Client ID Metadata Document, a
	// pre-registered client).
	Addr string
	// Open shows the authorization URL to the user; nil means printing
	// it on standard error. OpenBrowser opens the user's browser.
	Open func(authURL string) error
	// Timeout bounds the wait for the redirect; 0 means 5 minutes.
	Timeout time.Duration

	mu  sync.Mutex
	ln  net.Listener
	uri string
}

// RedirectURI starts listening (once) and returns the redirect URI.
func (l *Loopback) RedirectURI(ctx context.Context) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln != nil {
		return l.uri, nil
	}
	addr := l.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if !isLoopback(host) {
		return "", fmt.Errorf("auth: loopback address %q is not a loopback address", addr)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	l.ln = ln
	l.uri = "http://" + ln.Addr().String() + "/callback"
	return l.uri, nil
}

// Close stops listening, if RedirectURI started to and Authorize did not
// run (the authorization failed before the user was asked).
func (l *Loopback) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln == nil {
		return nil
	}
	err := l.ln.Close()
	l.ln = nil
	return err
}

// Authorize shows authURL and waits for the redirect. The listener is
// closed when it returns; a later RedirectURI listens anew.
func (l *Loopback) Authorize(ctx context.Context, authURL string) (url.Values, error) {
	if _, err := l.RedirectURI(ctx); err != nil {
		return nil, err
	}
	l.mu.Lock()
	ln := l.ln
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		ln.Close()
		l.ln = nil
		l.mu.Unlock()
	}()
	timeout := l.Timeout
	if timeout == 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	got := make(chan url.Values, 1)
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/callback" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprint(w, "<!doctype html><title>Authorization</title><p>You can close this window and return to the program.</p>")
			select {
			case got <- r.URL.Query():
			default:
			}
		}),
	}
	go srv.Serve(ln)
	defer srv.Close()

	open := l.Open
	if open == nil {
		open = func(u string) error {
			_, err := fmt.Fprintf(os.Stderr, "Open this URL in a browser to authorize:\n\n  %s\n\n", u)
			return err
		}
	}
	if err := open(authURL); err != nil {
		return nil, err
	}
	select {
	case q := <-got:
		return q, nil
	case <-ctx.Done():
		return nil, errors.Join(errors.New("auth: no authorization redirect came back"), ctx.Err())
	}
}

// OpenBrowser opens u in the user's browser (xdg-open, open or
// rundll32, by operating system), for Loopback.Open. It returns once the
// browser was started.
func OpenBrowser(u string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
