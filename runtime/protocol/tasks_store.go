package protocol

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is the server side of the tasks extension (extensions/tasks,
// SEP-2663), as JSON: a store of tasks, the methods tasks/get, tasks/update
// and tasks/cancel, and the CreateTaskResult a tools/call handler answers
// with when it hands its work to a task. The exported API is in tasks.go
// and the typed glue (RunAsTask, AwaitInput) is generated; both come only
// with revisions that have the extension. This file comes with every
// dispatcher, because the dispatcher's request path knows the store.

// Task statuses (SEP-2663, "Task Status").
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// Defaults of TaskStoreOptions.
const (
	defaultMaxTasks     = 1000
	defaultTaskTTL      = time.Hour
	defaultPollInterval = time.Second
	// taskSweepEvery is how often creating a task also drops the
	// expired ones (a full store always does).
	taskSweepEvery = time.Second
	// defaultTaskLease is TaskStoreOptions.Lease's default.
	defaultTaskLease = 10 * time.Second
)

// taskStore is the task store of one server dispatcher: it keeps its
// tasks in a SharedTasks (its own MemoryTasks unless
// TaskStoreOptions.Shared names one) and runs the functions of the tasks it
// creates.
type taskStore struct {
	max  int
	ttl  time.Duration
	poll time.Duration
	now  func() time.Time

	shared SharedTasks
	// private: shared is the store's own, no other replica reads it (no
	// liveness, no watching).
	private bool
	replica string
	lease   time.Duration

	// Set when a dispatcher adopts the store (attachTasks).
	d         *Core
	principal func(context.Context) string
	meta      []byte // `"_meta":{...}` of every result, or nil
	finish    map[string]func(jsonrpc.Result) (jsonrpc.Result, error)

	mu       sync.Mutex
	local    map[string]*task // the tasks whose functions run here
	closed   bool
	watching bool
	lastBeat time.Time
	running  sync.WaitGroup
}

func newTaskStore(max int, ttl, poll time.Duration) taskStore {
	if max <= 0 {
		max = defaultMaxTasks
	}
	if ttl <= 0 {
		ttl = defaultTaskTTL
	}
	if poll <= 0 {
		poll = defaultPollInterval
	}
	return taskStore{max: max, ttl: ttl, poll: poll, now: time.Now, shared: NewMemoryTasks(), private: true, replica: newTaskID(), lease: defaultTaskLease, local: map[string]*task{}}
}

// task is a task whose function runs in this process; its state is in
// the shared store. The store's mutex guards answered.
type task struct {
	id     string
	method string // of the request it answers
	meta   []byte // {"_meta":...} of the creating request: its client capabilities
	cancel context.CancelFunc
	// expires is when the task is forgotten: its outcome is recorded
	// until then.
	expires time.Time
	// stored is set once the task is in the shared store (the store's
	// mutex guards it): before, the watch loop leaves it alone.
	stored bool
	// answered is closed when the input round the function waits for is
	// complete; nil when it waits for none.
	answered chan struct{}
}

// taskKey is the context key of the task a task's function runs for.
type taskKey struct{}

type taskRef struct {
	s *taskStore
	t *task
}

// taskNotifier is the notifier of a task's context: the extension carries
// no notifications/progress or notifications/message for tasks, and the
// request that created the task has been answered.
type taskNotifier struct{ d *Core }

func (taskNotifier) Notify([]byte) error {
	return errors.New("mcp: SendNotification: a task has no response stream (the tasks extension carries no notifications for a task's work)")
}

func (taskNotifier) Peer() *jsonrpc.Peer               { return nil }
func (n taskNotifier) Dispatcher() *jsonrpc.Dispatcher { return &n.d.Dispatcher }
func (taskNotifier) HTTPRequest() *http.Request        { return nil }
func (taskNotifier) Progress(float64) error {
	return errors.New("mcp: SendProgress: a task has no response stream")
}

// AttachTasks makes s the task store of c: it serves tasks/get,
// tasks/update and tasks/cancel, mirrors their taskId in the Mcp-Name
// header, and lets handlers answer the methods in finish with a task.
// finish completes a method's result as the dispatcher does before sending
// it (serverInfo, resultType, validation); serverInfo is the Implementation
// results carry in _meta, as JSON, or nil.
func (c *Core) AttachTasks(s *taskStore, finish map[string]func(jsonrpc.Result) (jsonrpc.Result, error), serverInfo []byte) {
	if s.d != nil && s.d != c {
		panic("mcp: ServerOptions.Tasks: the TaskStore already serves another dispatcher")
	}
	s.d = c
	s.principal = c.State.principal
	s.finish = finish
	if serverInfo != nil {
		s.meta = append(append([]byte(`"_meta":{"io.modelcontextprotocol/serverInfo":`), serverInfo...), '}')
	}
	methods := map[string]func(context.Context, []byte) ([]byte, error){
		spec.MethodTasksGet:    s.serveGet,
		spec.MethodTasksUpdate: s.serveUpdate,
		spec.MethodTasksCancel: s.serveCancel,
	}
	c.NameParams = map[string]string{}
	for name, fn := range methods {
		if _, ok := c.Methods[name]; ok {
			panic("mcp: ExtensionMethods: " + strconv.Quote(name) + " is served by ServerOptions.Tasks")
		}
		c.Methods[name] = &jsonrpc.Method{Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			if err := CheckProtocolVersion(params, c.Versions); err != nil {
				return nil, err
			}
			res, err := fn(ctx, params)
			if err != nil {
				return nil, err
			}
			return jsonrpc.RawResult(res), nil
		}}
		c.NameParams[name] = "taskId"
	}
	c.tasks = s
}

// taskCreated carries a CreateTaskResult from a handler to the dispatcher,
// which answers the request with it; see runAsTask.
type taskCreated struct {
	ri     *jsonrpc.RequestInfo
	result []byte
}

func (*taskCreated) Error() string {
	return "mcp: the request is answered with a task (return RunAsTask's error from the handler)"
}

func (tc *taskCreated) EncodeJSON(e *codec.Encoder) { e.Buf = append(e.Buf, tc.result...) }

// AnswerFor answers the request ri with the task, when the task is ri's
// (jsonrpc.Answer).
func (tc *taskCreated) AnswerFor(ri *jsonrpc.RequestInfo) (jsonrpc.Result, bool) {
	return tc, tc.ri == ri
}

// taskStoreKey is the context key of the task store of the dispatcher
// serving a request, when it has one.
type taskStoreKey struct{}

// RunAsTask makes a task of the request ctx belongs to, which must be of
// method, and runs fn for it in a goroutine of its own. It returns the
// error the handler returns so that the dispatcher answers with the
// CreateTaskResult: the task exists by then (a tasks/get finds it).
func RunAsTask(ctx context.Context, method string, fn func(context.Context) (jsonrpc.Result, error)) error {
	if fn == nil {
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: RunAsTask without a function"}
	}
	if ctx.Value(taskKey{}) != nil {
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: RunAsTask inside a task (a task's function returns its result)"}
	}
	ri := jsonrpc.RequestFromContext(ctx)
	store, _ := ctx.Value(taskStoreKey{}).(*taskStore)
	switch {
	case ri == nil:
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: RunAsTask: the context does not belong to a request"}
	case store == nil:
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: RunAsTask needs a task store (ServerOptions.Tasks)"}
	case store.finish[ri.Method] == nil || ri.Method != method:
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: RunAsTask answers " + method + " requests, not " + ri.Method}
	}
	if !clientHasExtension(ri.Params, TasksExtension) {
		return requireTasksExtension()
	}
	return store.create(ctx, ri, fn)
}

// clientHasExtension reports whether the client capabilities in params'
// _meta declare the extension id.
func clientHasExtension(params []byte, id string) bool {
	caps := codec.Lookup(codec.Lookup(params, spec.MemberMeta), spec.MetaClientCapabilities)
	ext := codec.Lookup(codec.Lookup(caps, "extensions"), id)
	return ext != nil && ext[0] == '{'
}

// requireTasksExtension is the error for a client that did not declare the
// extension (SEP-2663, "Capability Negotiation").
func requireTasksExtension() error {
	return RequireClientCapabilities([]byte(`{"extensions":{"` + TasksExtension + `":{}}}`))
}

// newTaskID returns an unguessable task id: 128 random bits.
func newTaskID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// storeTimeout bounds a call to the shared store made outside a request.
const storeTimeout = 10 * time.Second

// storeError is the error of a request whose call to the shared store
// failed.
// A store that cannot be reached (its error is an Unavailable) makes the
// request fail with an Unavailable: retryable, 503 over HTTP.
func (s *taskStore) storeError(err error) error {
	s.d.LogAttrs(slog.LevelWarn, "mcp: tasks: the task store failed", slog.String("error", err.Error()))
	var u *Unavailable
	if errors.As(err, &u) {
		return &Unavailable{What: "the task store", RetryAfter: u.RetryAfter, Err: err}
	}
	return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the task store failed"}
}

func (s *taskStore) create(ctx context.Context, ri *jsonrpc.RequestInfo, fn func(context.Context) (jsonrpc.Result, error)) error {
	now := s.now()
	rec := &TaskRecord{
		ID:      newTaskID(),
		Method:  ri.Method,
		Owner:   s.replica,
		Status:  taskWorking,
		Created: now,
		Updated: now,
		Expires: now.Add(s.ttl),
	}
	if m := codec.Lookup(ri.Params, spec.MemberMeta); m != nil {
		rec.Meta = append(append([]byte(`{"_meta":`), m...), '}')
	}
	rec.Principal = s.principalOf(ctx)
	t := &task{id: rec.ID, method: rec.Method, meta: rec.Meta, expires: rec.Expires}
	// The task outlives the request: its context keeps the request's
	// values but not its cancellation, and ends at the task's expiry.
	tctx := jsonrpc.WithLink(context.WithoutCancel(ctx), taskNotifier{s.d})
	tctx = context.WithValue(tctx, taskKey{}, &taskRef{s, t})
	tctx, cancel := context.WithDeadline(tctx, rec.Expires)
	t.cancel = cancel

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		cancel()
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the server is shutting down and takes no new tasks"}
	}
	s.local[t.id] = t
	s.running.Add(1)
	s.mu.Unlock()
	drop := func() {
		s.mu.Lock()
		delete(s.local, t.id)
		s.mu.Unlock()
		s.running.Done()
		cancel()
	}
	if !s.private {
		// The other replicas fail a task whose owner does not beat: beat
		// before the task is visible.
		if err := s.beat(ctx, false); err != nil {
			drop()
			return s.storeError(err)
		}
	}
	if err := s.shared.Create(ctx, rec, s.max, now); err != nil {
		drop()
		if errors.Is(err, ErrTasksFull) {
			return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the server runs as many tasks as it may (" + strconv.Itoa(s.max) + "); try again later"}
		}
		return s.storeError(err)
	}
	s.mu.Lock()
	t.stored = true
	s.mu.Unlock()
	if !s.private {
		s.watch()
	}
	created := s.appendTask(nil, rec, "task", false)
	go s.run(tctx, t, fn)
	return &taskCreated{ri: ri, result: created}
}

// beat records that this replica is alive (SharedTasks.Beat), unless it
// did within a third of the lease and not force.
func (s *taskStore) beat(ctx context.Context, force bool) error {
	now := time.Now()
	s.mu.Lock()
	due := force || now.Sub(s.lastBeat) >= s.lease/3
	s.mu.Unlock()
	if !due {
		return nil
	}
	if err := s.shared.Beat(ctx, s.replica, s.lease); err != nil {
		return err
	}
	s.mu.Lock()
	s.lastBeat = now
	s.mu.Unlock()
	return nil
}

// watch starts the goroutine that, while tasks run here, beats and looks
// for what other replicas did to them: a task cancelled (or failed, or
// expired) elsewhere has its function cancelled, and one whose input
// round was completed elsewhere gets its answers. Done on this replica,
// both happen at once; done elsewhere, within a third of the lease.
func (s *taskStore) watch() {
	s.mu.Lock()
	if s.watching {
		s.mu.Unlock()
		return
	}
	s.watching = true
	s.mu.Unlock()
	go func() {
		every := max(s.lease/3, time.Millisecond)
		// After a failed beat (the store is out), the next comes sooner, so
		// that this replica says it is alive at once when the store is back.
		retry := min(every, 100*time.Millisecond)
		wait := every
		for {
			time.Sleep(wait)
			s.mu.Lock()
			ids := make([]string, 0, len(s.local))
			n := len(s.local)
			for id, t := range s.local {
				if t.stored {
					ids = append(ids, id)
				}
			}
			if n == 0 {
				s.watching = false
				s.mu.Unlock()
				return
			}
			s.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), min(storeTimeout, every))
			wait = every
			if err := s.beat(ctx, true); err != nil {
				wait = retry
				s.d.LogAttrs(slog.LevelWarn, "mcp: tasks: the task store failed", slog.String("error", err.Error()))
				cancel()
				continue
			}
			for _, id := range ids {
				rec, err := s.shared.Get(ctx, id)
				switch {
				case err != nil:
					s.d.LogAttrs(slog.LevelWarn, "mcp: tasks: the task store failed", slog.String("error", err.Error()))
				case rec == nil || rec.Terminal():
					s.cancelLocal(id)
				case rec.InputReady:
					s.wake(id)
				}
			}
			cancel()
		}
	}()
}

// cancelLocal cancels the function of a task that runs here.
func (s *taskStore) cancelLocal(id string) {
	s.mu.Lock()
	t := s.local[id]
	s.mu.Unlock()
	if t != nil {
		t.cancel()
	}
}

// wake hands a completed input round to the function of a task that runs
// here and waits for it.
func (s *taskStore) wake(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.local[id]; t != nil && t.answered != nil {
		close(t.answered)
		t.answered = nil
	}
}

// run runs a task's function and records its outcome.
func (s *taskStore) run(ctx context.Context, t *task, fn func(context.Context) (jsonrpc.Result, error)) {
	defer s.running.Done()
	defer t.cancel()
	// The task stays in s.local until its outcome is recorded: its owner
	// reports it working meanwhile, not stopped.
	defer func() {
		s.mu.Lock()
		delete(s.local, t.id)
		s.mu.Unlock()
	}()
	res, err := s.call(ctx, t, fn)
	var result, failure []byte
	var message string
	if err == nil {
		if fin := s.finish[t.method]; fin != nil {
			res, err = fin(res)
		}
	}
	if err == nil {
		e := codec.Encoder{Buf: make([]byte, 0, 256)}
		res.EncodeJSON(&e)
		if e.Err != nil {
			err = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: cannot encode the result: " + e.Err.Error()}
		} else {
			result = e.Buf
		}
		if lim := s.d.Limits.ResultLimit(); lim > 0 && len(result) > lim-min(taskResultRoom, lim/2) {
			max := lim - min(taskResultRoom, lim/2)
			if t.method == spec.MethodCallTool {
				result = toolResultTooLarge(result, max, s.d.Modern)
			} else {
				result, err = nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the result is " + strconv.Itoa(len(result)) + " bytes long; this server sends results of at most " + strconv.Itoa(max)}
			}
		}
	}
	if err != nil {
		var msg string
		failure, msg = taskFailure(err)
		message = "the task failed: " + msg
	}
	now := s.now()
	// A shared store may be out for a while (Redis restarting, failing
	// over): the outcome is recorded when it is back, until the task
	// expires.
	sctx, cancel := context.WithDeadline(context.Background(), t.expires)
	defer cancel()
	record := func() error {
		_, uerr := s.shared.Update(sctx, t.id, func(r *TaskRecord) bool {
			if r.Terminal() {
				// Cancelled (by the client, or at shutdown) while it ran.
				return false
			}
			r.Updated = now
			r.Pending, r.Answers, r.InputReady = nil, nil, false
			if err != nil {
				r.Status, r.Message, r.Result, r.Error = taskFailed, message, nil, failure
			} else {
				r.Status, r.Message, r.Result, r.Error = taskCompleted, "", result, nil
			}
			return true
		})
		return uerr
	}
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		uerr := record()
		if uerr == nil {
			return
		}
		select {
		case <-sctx.Done():
			s.d.LogAttrs(slog.LevelWarn, "mcp: tasks: cannot record the outcome of a task", slog.String("task", t.id), slog.String("error", uerr.Error()))
			return
		case <-time.After(wait):
		}
	}
}

// call runs fn, turning a panic into an internal error.
func (s *taskStore) call(ctx context.Context, t *task, fn func(context.Context) (jsonrpc.Result, error)) (res jsonrpc.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.d.LogAttrs(slog.LevelError, "mcp: panic in task", slog.String("task", t.id), slog.String(jsonrpc.LogKeyMethod, t.method), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			res, err = nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the task panicked"}
		}
	}()
	res, err = fn(ctx)
	if err == nil && res == nil {
		err = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the task returned no result and no error"}
	}
	return res, err
}

// taskFailure is the JSON-RPC error object a failed task carries, and its
// message. The request would have been answered with this error had it run
// synchronously.
func taskFailure(err error) ([]byte, string) {
	var re *jsonrpc.RPCError
	var ir *InputRequired
	var tc *taskCreated
	switch {
	case errors.As(err, &ir):
		re = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: a task cannot answer with NeedInput; it asks for input with AwaitInput"}
	case errors.As(err, &tc):
		re = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: RunAsTask inside a task"}
	case errors.As(err, &re):
	case errors.Is(err, context.DeadlineExceeded):
		re = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the task ran past its ttl"}
	default:
		re = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	e := codec.Encoder{Buf: make([]byte, 0, 64)}
	e.Buf = append(e.Buf, `{"code":`...)
	e.Int(re.Code)
	e.Buf = append(e.Buf, `,"message":`...)
	e.Str(re.Message)
	if re.Data != nil && codec.ValidJSON(re.Data) {
		e.Buf = append(e.Buf, `,"data":`...)
		e.Buf = append(e.Buf, re.Data...)
	}
	e.Buf = append(e.Buf, '}')
	return e.Buf, re.Message
}

// appendTask appends a task as a result: a CreateTaskResult (resultType
// "task", the Task alone) or, detailed, the result of tasks/get (resultType
// "complete", with inputRequests, result or error by status).
func (s *taskStore) appendTask(b []byte, t *TaskRecord, resultType string, detailed bool) []byte {
	e := codec.Encoder{Buf: b}
	e.Buf = append(e.Buf, `{"resultType":`...)
	e.Str(resultType)
	e.Buf = append(e.Buf, `,"taskId":`...)
	e.Str(t.ID)
	e.Buf = append(e.Buf, `,"status":`...)
	e.Str(t.Status)
	if t.Message != "" {
		e.Buf = append(e.Buf, `,"statusMessage":`...)
		e.Str(t.Message)
	}
	e.Buf = append(e.Buf, `,"createdAt":`...)
	e.Str(taskTime(t.Created))
	e.Buf = append(e.Buf, `,"lastUpdatedAt":`...)
	e.Str(taskTime(t.Updated))
	e.Buf = append(e.Buf, `,"ttlMs":`...)
	e.Int(t.Expires.Sub(t.Created).Milliseconds())
	e.Buf = append(e.Buf, `,"pollIntervalMs":`...)
	e.Int(max(s.poll.Milliseconds(), 1))
	if detailed {
		switch t.Status {
		case taskInputRequired:
			e.Buf = append(e.Buf, `,"inputRequests":{`...)
			for i, k := range sortedKeys(t.Pending) {
				if i > 0 {
					e.Buf = append(e.Buf, ',')
				}
				e.Str(k)
				e.Buf = append(e.Buf, ':')
				e.Buf = append(e.Buf, t.Pending[k]...)
			}
			e.Buf = append(e.Buf, '}')
		case taskCompleted:
			e.Buf = append(e.Buf, `,"result":`...)
			e.Buf = append(e.Buf, t.Result...)
		case taskFailed:
			e.Buf = append(e.Buf, `,"error":`...)
			e.Buf = append(e.Buf, t.Error...)
		}
	}
	if s.meta != nil {
		e.Buf = append(e.Buf, ',')
		e.Buf = append(e.Buf, s.meta...)
	}
	return append(e.Buf, '}')
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// taskTime formats a task timestamp: ISO 8601 in UTC, to the millisecond.
func taskTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// ack is the empty result of tasks/update and tasks/cancel.
func (s *taskStore) ack() []byte {
	b := []byte(`{"resultType":"complete"`)
	if s.meta != nil {
		b = append(append(b, ','), s.meta...)
	}
	return append(b, '}')
}

// checkTaskRequest checks what every tasks/* request needs before its task
// is looked up: the _meta of a 2026-07-28 request (-32602 without it), the
// extension among the client's capabilities (-32021 without it; SEP-2663,
// "Protocol Errors") and a taskId.
func checkTaskRequest(params []byte) (id string, err error) {
	if err := checkRequestMeta(params); err != nil {
		return "", err
	}
	if !clientHasExtension(params, TasksExtension) {
		return "", requireTasksExtension()
	}
	raw := codec.Lookup(params, "taskId")
	if raw == nil {
		return "", paramError("/params", "required", `missing required member "taskId"`)
	}
	if raw[0] != '"' {
		return "", paramError("/params/taskId", "type", "must be a string, not "+codec.KindOf(raw[0]))
	}
	id, _ = HeaderText(raw)
	return id, nil
}

// checkRequestMeta checks the members the _meta of a request must have in
// revisions with per-request _meta (RequestMetaObject): the protocol
// version and the client capabilities.
func checkRequestMeta(params []byte) error {
	if params == nil || params[0] != '{' {
		return paramError("", "required", `missing required member "params"`)
	}
	meta := codec.Lookup(params, spec.MemberMeta)
	switch {
	case meta == nil:
		return paramError("/params", "required", `missing required member "_meta"`)
	case meta[0] != '{':
		return paramError("/params/_meta", "type", "must be an object, not "+codec.KindOf(meta[0]))
	}
	if v := codec.Lookup(meta, spec.MetaProtocolVersion); v == nil || v[0] != '"' {
		return paramError("/params/_meta", "required", "missing required string member "+codec.Quote(spec.MetaProtocolVersion))
	}
	if c := codec.Lookup(meta, spec.MetaClientCapabilities); c == nil || c[0] != '{' {
		return paramError("/params/_meta", "required", "missing required object member "+codec.Quote(spec.MetaClientCapabilities))
	}
	return nil
}

// principalOf is the digest of the principal of a request, or nil when the
// server names none.
func (s *taskStore) principalOf(ctx context.Context) []byte {
	if s.principal == nil {
		return nil
	}
	return principalDigest(s.principal(ctx))
}

// lookup finds a task for a request of the principal with the given
// digest: an unknown id, a task of another principal and an expired task
// are invalid params (-32602), which SEP-2663 names for an invalid or
// nonexistent taskId. A task whose owner has stopped (another replica
// that no longer beats) is failed first.
func (s *taskStore) lookup(ctx context.Context, principal []byte, id string) (*TaskRecord, error) {
	t, err := s.shared.Get(ctx, id)
	if err != nil {
		return nil, s.storeError(err)
	}
	if t != nil && !bytes.Equal(t.Principal, principal) {
		t = nil
	}
	if t == nil {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: no task " + codec.Quote(id)}
	}
	if !s.now().Before(t.Expires) {
		s.cancelLocal(id)
		if err := s.shared.Delete(ctx, id); err != nil {
			return nil, s.storeError(err)
		}
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: task " + codec.Quote(id) + " has expired"}
	}
	if s.private || t.Terminal() {
		return t, nil
	}
	if t.Owner == s.replica {
		// Ours: stopped only if its function no longer runs here (its
		// outcome could not be recorded).
		s.mu.Lock()
		_, running := s.local[id]
		s.mu.Unlock()
		if running {
			return t, nil
		}
	} else {
		// This replica says it is alive too before it judges another: a
		// shared store may tell a gap in the beats of all replicas (the
		// store was out) from the silence of one (SharedTasks.Alive).
		if err := s.beat(ctx, false); err != nil {
			return nil, s.storeError(err)
		}
		alive, err := s.shared.Alive(ctx, t.Owner)
		if err != nil {
			return nil, s.storeError(err)
		}
		if alive {
			return t, nil
		}
	}
	now := s.now()
	t, err = s.shared.Update(ctx, id, func(r *TaskRecord) bool {
		if r.Terminal() {
			return false
		}
		r.Status, r.Message, r.Updated = taskFailed, "the task failed: "+ownerStopped, now
		r.Error = []byte(`{"code":-32603,"message":` + codec.Quote(ownerStopped) + `}`)
		r.Pending, r.Answers, r.InputReady, r.Result = nil, nil, false, nil
		return true
	})
	if err != nil {
		return nil, s.storeError(err)
	}
	if t == nil {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: no task " + codec.Quote(id)}
	}
	return t, nil
}

// ownerStopped is the message of a task failed because the replica running
// it stopped beating.
const ownerStopped = "internal error: the replica running the task stopped"

// serveGet answers tasks/get with the task's current state.
func (s *taskStore) serveGet(ctx context.Context, params []byte) ([]byte, error) {
	id, err := checkTaskRequest(params)
	if err != nil {
		return nil, err
	}
	t, err := s.lookup(ctx, s.principalOf(ctx), id)
	if err != nil {
		return nil, err
	}
	return s.appendTask(nil, t, "complete", true), nil
}

// serveUpdate answers tasks/update: answers to the input requests the task
// is waiting for are checked (as the answers of a multi round-trip
// request are) and handed to it; answers to keys it is not waiting for are
// ignored, as SEP-2663 says. A partial set of answers is kept until the
// round is complete.
func (s *taskStore) serveUpdate(ctx context.Context, params []byte) ([]byte, error) {
	id, err := checkTaskRequest(params)
	if err != nil {
		return nil, err
	}
	raw := codec.Lookup(params, "inputResponses")
	switch {
	case raw == nil:
		return nil, paramError("/params", "required", `missing required member "inputResponses"`)
	case raw[0] != '{':
		return nil, paramError("/params/inputResponses", "type", "must be an object, not "+codec.KindOf(raw[0]))
	}
	responses, ok := codec.ObjectMembers(raw)
	if !ok {
		return nil, paramError("/params/inputResponses", "type", "must be an object")
	}
	t, err := s.lookup(ctx, s.principalOf(ctx), id)
	if err != nil {
		return nil, err
	}
	if t.Status != taskInputRequired {
		return s.ack(), nil
	}
	// The answers to the keys outstanding are checked against their
	// requests; keys are unique over a task's life, so a key checked
	// here names the same request in the update below.
	checked := map[string][]byte{}
	for _, k := range sortedKeys(t.Pending) {
		ans, ok := responses[k]
		if !ok {
			continue
		}
		if err := s.d.checkAnswer(inputOf(t.Pending[k]), k, ans); err != nil {
			return nil, err
		}
		checked[k] = ans
	}
	if len(checked) == 0 {
		return s.ack(), nil
	}
	now := s.now()
	t, err = s.shared.Update(ctx, id, func(r *TaskRecord) bool {
		if r.Status != taskInputRequired {
			return false
		}
		took := false
		for k, ans := range checked {
			if _, ok := r.Pending[k]; ok {
				if r.Answers == nil {
					r.Answers = map[string][]byte{}
				}
				r.Answers[k] = bytes.Clone(ans)
				delete(r.Pending, k)
				took = true
			}
		}
		if !took {
			return false
		}
		r.Updated = now
		if len(r.Pending) == 0 {
			r.Pending, r.InputReady = nil, true
			r.Status, r.Message = taskWorking, ""
		} else {
			r.Message = waitingMessage(sortedKeys(r.Pending))
		}
		return true
	})
	if err != nil {
		return nil, s.storeError(err)
	}
	if t != nil && t.InputReady {
		s.wake(id)
	}
	return s.ack(), nil
}

// serveCancel answers tasks/cancel: a task that has not finished is
// cancelled at once (its status becomes cancelled and its function's
// context is cancelled: at once on the replica running it, within a third
// of the lease on another); a finished one stays as it is. Both get the
// same empty acknowledgement.
func (s *taskStore) serveCancel(ctx context.Context, params []byte) ([]byte, error) {
	id, err := checkTaskRequest(params)
	if err != nil {
		return nil, err
	}
	if _, err := s.lookup(ctx, s.principalOf(ctx), id); err != nil {
		return nil, err
	}
	now := s.now()
	cancelled := false
	if _, err := s.shared.Update(ctx, id, func(r *TaskRecord) bool {
		cancelled = false
		if r.Terminal() {
			return false
		}
		r.Status, r.Message, r.Updated = taskCancelled, "cancelled at the client's request (tasks/cancel)", now
		r.Pending, r.Answers, r.InputReady = nil, nil, false
		cancelled = true
		return true
	}); err != nil {
		return nil, s.storeError(err)
	}
	if cancelled {
		s.cancelLocal(id)
	}
	return s.ack(), nil
}

func waitingMessage(keys []string) string {
	return "waiting for input: " + strings.Join(keys, ", ")
}

// AwaitTaskInput asks the client for input on behalf of the task ctx
// belongs to: the task shows the requests (a JSON object of input requests
// by key) in tasks/get with status input_required until tasks/update has
// answered them all, and the answers come back as a JSON object by key.
// Keys are unique over the task's life. The requests must be covered by
// the capabilities the client declared on the request that created the
// task (-32021 otherwise).
func AwaitTaskInput(ctx context.Context, requests []byte) ([]byte, error) {
	ref, _ := ctx.Value(taskKey{}).(*taskRef)
	if ref == nil {
		return nil, errors.New("mcp: AwaitInput: the context is not a task's (a request handler asks for input with NeedInput)")
	}
	reqs, ok := codec.ObjectMembers(requests)
	if !ok {
		return nil, errors.New("mcp: AwaitInput: the input requests are not a JSON object")
	}
	if len(reqs) == 0 {
		return nil, errors.New("mcp: AwaitInput: no input requests")
	}
	s, t := ref.s, ref.t
	pending := make(map[string][]byte, len(reqs))
	for k, req := range reqs {
		if req[0] != '{' {
			return nil, errors.New("mcp: AwaitInput: input request " + codec.Quote(k) + " is not a JSON object")
		}
		pending[k] = bytes.Clone(req)
	}
	keys := sortedKeys(pending)
	if err := InputRequestCapabilities(t.meta, append(append([]byte(`{"inputRequests":`), requests...), '}')); err != nil {
		return nil, err
	}

	answered := make(chan struct{})
	s.mu.Lock()
	if t.answered != nil {
		s.mu.Unlock()
		return nil, errors.New("mcp: AwaitInput: the task is already waiting for input")
	}
	t.answered = answered
	s.mu.Unlock()
	stop := func() {
		s.mu.Lock()
		if t.answered == answered {
			t.answered = nil
		}
		s.mu.Unlock()
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	var refusal error
	now := s.now()
	_, err := s.shared.Update(sctx, t.id, func(r *TaskRecord) bool {
		refusal = nil
		switch {
		case r.Terminal():
			refusal = errors.New("mcp: AwaitInput: the task has ended")
			return false
		case r.Pending != nil || r.InputReady:
			refusal = errors.New("mcp: AwaitInput: the task is already waiting for input")
			return false
		}
		for _, k := range keys {
			if slices.Contains(r.Used, k) {
				refusal = errors.New("mcp: AwaitInput: input request key " + codec.Quote(k) + " was used before; a key names one request over a task's life (SEP-2663)")
				return false
			}
		}
		r.Used = append(r.Used, keys...)
		r.Pending, r.Answers = cloneMap(pending), nil
		r.Status, r.Message, r.Updated = taskInputRequired, waitingMessage(keys), now
		return true
	})
	if err == nil && refusal != nil {
		err = refusal
		if cerr := ctx.Err(); cerr != nil {
			err = cerr
		}
	}
	if err != nil {
		stop()
		return nil, err
	}

	select {
	case <-answered:
	case <-ctx.Done():
		stop()
		return nil, ctx.Err()
	}
	var answers map[string][]byte
	if _, err := s.shared.Update(sctx, t.id, func(r *TaskRecord) bool {
		answers = nil
		if !r.InputReady {
			return false
		}
		answers, r.Answers, r.InputReady = r.Answers, nil, false
		return true
	}); err != nil {
		return nil, err
	}
	if answers == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("mcp: AwaitInput: the task has ended")
	}
	e := codec.Encoder{Buf: []byte{'{'}}
	for _, k := range keys {
		if a, ok := answers[k]; ok {
			e.Key(k)
			e.Buf = append(e.Buf, a...)
		}
	}
	return append(e.Buf, '}'), nil
}

// shutdown cancels the tasks that run here and have not finished (their
// status becomes cancelled) and takes no new ones, then waits for their
// functions to return or ctx to end.
func (s *taskStore) shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	local := make([]*task, 0, len(s.local))
	for _, t := range s.local {
		local = append(local, t)
	}
	s.mu.Unlock()
	now := s.now()
	for _, t := range local {
		if _, err := s.shared.Update(ctx, t.id, func(r *TaskRecord) bool {
			if r.Terminal() {
				return false
			}
			r.Status, r.Message, r.Updated = taskCancelled, "cancelled: the server shut down", now
			r.Pending, r.Answers, r.InputReady = nil, nil, false
			return true
		}); err != nil && s.d != nil {
			s.d.LogAttrs(slog.LevelWarn, "mcp: tasks: cannot record the cancellation of a task", slog.String("task", t.id), slog.String("error", err.Error()))
		}
		t.cancel()
	}
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
