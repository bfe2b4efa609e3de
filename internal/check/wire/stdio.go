package wire

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// An Event is something a stdio server wrote outside the exchange it
// belonged to, or that breaks the framing.
type Event struct {
	Kind EventKind
	Line []byte // the line (at most 512 bytes of it)
	At   time.Time
}

// EventKind says what an Event is.
type EventKind int

// The kinds of Event.
const (
	NotMessage EventKind = iota + 1 // a stdout line that is not one JSON-RPC message
	TooLong                         // a stdout line over MaxBytes
	UnknownID                       // a response to an id never sent
	Duplicate                       // a second response to one id
	Request                         // a request from the server (answered: ping with {}, the rest -32601)
	Stray                           // a notification while no exchange was waiting
)

// Stdio is a server process spoken to over its standard input and output.
type Stdio struct {
	lim    Limits
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tail
	wmu    sync.Mutex // serializes writes to stdin

	mu       sync.Mutex
	waiting  map[string]*waiter // by IDKey
	current  *waiter            // the exchange in flight, for notifications
	answered map[string]bool    // ids whose response came
	sent     map[string]bool    // ids sent
	events   []Event
	exited   chan struct{}
	exitErr  *ExitError
	closed   bool
	closeRes *CloseResult
}

type waiter struct {
	x        *Exchange
	key      string
	lim      Limits
	done     chan struct{}
	finished bool
	err      error
}

// finish ends w's exchange: nothing more reaches its Exchange. The
// caller holds s.mu.
func (s *Stdio) finish(w *waiter, err error) {
	if w.finished {
		return
	}
	w.finished = true
	w.err = err
	if w.key != "" && s.waiting[w.key] == w {
		delete(s.waiting, w.key)
	}
	if s.current == w {
		s.current = nil
	}
	close(w.done)
}

// StartStdio starts the command (argv) with the process's environment
// and working directory.
func StartStdio(argv []string, lim Limits) (*Stdio, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	setProcAttr(cmd)
	s := &Stdio{lim: lim, cmd: cmd, stderr: &tail{max: 8 << 10}, waiting: map[string]*waiter{},
		answered: map[string]bool{}, sent: map[string]bool{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.stdin = in
	readDone := make(chan struct{})
	go func() {
		s.read(out)
		close(readDone)
	}()
	go func() {
		<-readDone // stdout first: a last response must not be lost to the exit
		err := cmd.Wait()
		status := "exit status 0"
		if err != nil {
			status = strings.TrimPrefix(err.Error(), "exec: ")
		}
		s.mu.Lock()
		s.exitErr = &ExitError{Status: status, Stderr: s.stderr.String()}
		close(s.exited)
		for _, w := range s.waiting {
			s.finish(w, s.exitErr)
		}
		if s.current != nil {
			s.finish(s.current, s.exitErr)
		}
		s.mu.Unlock()
	}()
	return s, nil
}

// Stderr returns the end of what the server wrote on standard error.
func (s *Stdio) Stderr() string { return s.stderr.String() }

// Exited returns the exit of the process, nil while it runs.
func (s *Stdio) Exited() *ExitError {
	select {
	case <-s.exited:
		return s.exitErr
	default:
		return nil
	}
}

// Events returns (and forgets) what was seen outside exchanges.
func (s *Stdio) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := s.events
	s.events = nil
	return ev
}

// maxEvents bounds the events kept between two Events calls.
const maxEvents = 100

func (s *Stdio) event(k EventKind, line []byte) {
	if len(s.events) >= maxEvents {
		return
	}
	if len(line) > 512 {
		line = line[:512]
	}
	s.events = append(s.events, Event{Kind: k, Line: append([]byte(nil), line...), At: time.Now()})
}

// read routes every stdout line until the output ends.
func (s *Stdio) read(out io.Reader) {
	r := bufio.NewReaderSize(out, 64<<10)
	max := s.lim.MaxBytes
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > int(max)+1 {
			// Over the limit: keep the start for the event, skip to the end of the line.
			if len(line) < 512 {
				line = append(line, frag[:min(len(frag), 512)]...)
			}
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			s.mu.Lock()
			s.event(TooLong, line)
			if s.current != nil {
				s.finish(s.current, &LimitError{What: "the server wrote a line longer than " + byteSize(max) + " (the limit of one message)"})
			}
			s.mu.Unlock()
			line = line[:0]
			if err != nil {
				return
			}
			continue
		}
		line = append(line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(line) > 0 {
			s.route(trimEOL(line))
		}
		line = line[:0]
		if err != nil {
			return
		}
	}
}

func trimEOL(b []byte) []byte {
	b = append([]byte(nil), b...)
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func (s *Stdio) route(msg []byte) {
	env, kind := parseEnvelope(msg)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case 0:
		s.event(NotMessage, msg)
	case 'r':
		key := IDKey(env.ID)
		w := s.waiting[key]
		switch {
		case w != nil:
			s.answered[key] = true
			w.x.Messages = append(w.x.Messages, msg)
			w.x.Response = msg
			s.finish(w, nil)
		case s.answered[key]:
			s.event(Duplicate, msg)
		case s.sent[key]:
			s.answered[key] = true // an exchange that gave up (Until, timeout)
		case s.current != nil && s.current.x.ID == "":
			s.current.x.Messages = append(s.current.x.Messages, msg) // an answer to a notification
		default:
			s.event(UnknownID, msg)
		}
	case 'q':
		s.event(Request, msg)
		if s.current != nil {
			s.record(s.current, msg)
		}
		answer := `{"jsonrpc":"2.0","id":` + string(env.ID) + `,"error":{"code":-32601,"message":"mcpgen check answers no requests"}}`
		if *env.Method == "ping" {
			answer = `{"jsonrpc":"2.0","id":` + string(env.ID) + `,"result":{}}`
		}
		go func() { _ = s.write(context.Background(), []byte(answer)) }()
	case 'n':
		if s.current == nil {
			s.event(Stray, msg)
			return
		}
		s.record(s.current, msg)
	}
}

// record adds msg to the exchange of w, or counts it past the limit, and
// stops the exchange when Until says so.
func (s *Stdio) record(w *waiter, msg []byte) {
	if w.x.Until != nil && w.x.Until(msg) {
		w.x.Messages = append(w.x.Messages, msg)
		w.x.Stopped = msg
		s.finish(w, nil)
		return
	}
	if len(w.x.Messages) >= w.lim.MaxMessages {
		w.x.Dropped++
		s.finish(w, &LimitError{What: "more than " + strconv.Itoa(w.lim.MaxMessages) + " messages before the answer"})
		return
	}
	w.x.Messages = append(w.x.Messages, msg)
}

func (s *Stdio) write(ctx context.Context, b []byte) error {
	done := make(chan error, 1)
	go func() {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		_, err := s.stdin.Write(append(b[:len(b):len(b)], '\n'))
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Do sends x.Body as one line and waits for the response to x.ID (for a
// notification, x.Quiet long for anything at all), within the limits and
// ctx. The error is x.Err.
func (s *Stdio) Do(ctx context.Context, x *Exchange) error {
	lim := s.lim
	start := time.Now()
	defer func() { x.Elapsed = time.Since(start) }()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		x.Err = ErrClosed
		return x.Err
	}
	if e := s.Exited(); e != nil {
		s.mu.Unlock()
		x.Err = e
		return x.Err
	}
	w := &waiter{x: x, lim: lim, done: make(chan struct{})}
	if x.ID != "" {
		w.key = IDKey([]byte(x.ID))
		s.waiting[w.key] = w
		s.sent[w.key] = true
	}
	s.current = w
	s.mu.Unlock()
	// stop ends the wait from this side; after it nothing touches x.
	stop := func(err error) {
		s.mu.Lock()
		if !w.finished {
			s.finish(w, err)
		}
		x.Err = w.err
		s.mu.Unlock()
	}

	ctx, cancel := context.WithTimeoutCause(ctx, lim.Timeout, &TimeoutError{After: lim.Timeout})
	defer cancel()
	if err := s.write(ctx, x.Body); err != nil {
		if e := s.waitExit(); e != nil {
			err = e
		}
		stop(err)
		return x.Err
	}
	if x.ID == "" {
		t := time.NewTimer(x.Quiet)
		defer t.Stop()
		select {
		case <-t.C:
			stop(nil)
		case <-w.done:
			stop(nil)
		case <-ctx.Done():
			stop(nil)
		}
		return x.Err
	}
	select {
	case <-w.done:
		stop(nil)
	case <-ctx.Done():
		err := context.Cause(ctx)
		if e := s.Exited(); e != nil {
			err = e
		}
		stop(err)
	}
	return x.Err
}

// waitExit gives a process whose stdin broke a moment to be seen exiting.
func (s *Stdio) waitExit() *ExitError {
	select {
	case <-s.exited:
		return s.exitErr
	case <-time.After(500 * time.Millisecond):
		return nil
	}
}

// Notify sends a message without waiting for anything.
func (s *Stdio) Notify(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, s.lim.Timeout)
	defer cancel()
	return s.write(ctx, body)
}

// CloseResult is how a stdio server ended once its input was closed.
type CloseResult struct {
	// ExitedOnEOF is set when it exited within Limits.ExitWait.
	ExitedOnEOF bool
	After       time.Duration
	// Signal is "SIGTERM" or "SIGKILL" when one was needed.
	Signal string
	Exit   *ExitError
}

// Close closes the server's standard input and waits for it to exit:
// ExitWait, then SIGTERM to its process group, ExitWait again, then
// SIGKILL. It may be called more than once.
func (s *Stdio) Close() *CloseResult {
	s.mu.Lock()
	if s.closeRes != nil {
		r := s.closeRes
		s.mu.Unlock()
		return r
	}
	s.closed = true
	s.mu.Unlock()
	start := time.Now()
	_ = s.stdin.Close()
	res := &CloseResult{}
	wait := func(d time.Duration) bool {
		select {
		case <-s.exited:
			return true
		case <-time.After(d):
			return false
		}
	}
	if wait(s.lim.ExitWait) {
		res.ExitedOnEOF = true
	} else {
		res.Signal = "SIGTERM"
		signalGroup(s.cmd, syscall.SIGTERM)
		if !wait(s.lim.ExitWait) {
			res.Signal = "SIGKILL"
			signalGroup(s.cmd, syscall.SIGKILL)
			<-s.exited
		}
	}
	// Whatever the server started is stopped with it.
	signalGroup(s.cmd, syscall.SIGKILL)
	res.After = time.Since(start)
	res.Exit = s.exitErr
	s.mu.Lock()
	s.closeRes = res
	s.mu.Unlock()
	return res
}

// Kill stops the server at once (SIGKILL to its process group).
func (s *Stdio) Kill() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	_ = s.stdin.Close()
	signalGroup(s.cmd, syscall.SIGKILL)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

// byteSize writes n as KiB or MiB when it is a whole number of them.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
