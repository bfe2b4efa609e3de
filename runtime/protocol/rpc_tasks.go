package protocol

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"runtime/debug"
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
)

// taskStore holds the tasks of one server dispatcher.
type taskStore struct {
	max  int
	ttl  time.Duration
	poll time.Duration
	now  func() time.Time

	// Set when a dispatcher adopts the store (attachTasks).
	d         *Core
	principal func(context.Context) string
	meta      []byte // `"_meta":{...}` of every result, or nil
	finish    map[string]func(jsonrpc.Result) (jsonrpc.Result, error)

	mu        sync.Mutex
	tasks     map[string]*task
	closed    bool
	lastSweep time.Time
	running   sync.WaitGroup
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
	return taskStore{max: max, ttl: ttl, poll: poll, now: time.Now, tasks: map[string]*task{}}
}

// task is one task. The store's mutex guards its mutable fields.
type task struct {
	id        string
	method    string // of the request it answers
	principal []byte // digest of the principal that created it, or nil
	meta      []byte // {"_meta":...} of the creating request: its client capabilities
	created   time.Time
	expires   time.Time
	cancel    context.CancelFunc

	updated time.Time
	status  string
	message string
	result  []byte // completed: the result
	failure []byte // failed: the JSON-RPC error object

	// Input (AwaitInput): the keys asked over the task's life, the
	// requests of the current round still unanswered (in key order), the
	// answers received in this round, and a channel closed when the round
	// is complete.
	used     map[string]bool
	pending  []taskInput
	answers  map[string][]byte
	answered chan struct{}
}

type taskInput struct {
	key     string
	request []byte
	in      sealedInput
}

func (t *task) terminal() bool {
	return t.status == taskCompleted || t.status == taskFailed || t.status == taskCancelled
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

// attachTasks makes s the task store of r: it serves tasks/get,
// tasks/update and tasks/cancel, mirrors their taskId in the Mcp-Name
// header, and lets handlers answer the methods in finish with a task.
// finish completes a method's result as the dispatcher does before sending
// it (serverInfo, resultType, validation); serverInfo is the Implementation
// results carry in _meta, as JSON, or nil.
func (r *Core) AttachTasks(s *taskStore, finish map[string]func(jsonrpc.Result) (jsonrpc.Result, error), serverInfo []byte) {
	if s.d != nil && s.d != r {
		panic("mcp: ServerOptions.Tasks: the TaskStore already serves another dispatcher")
	}
	s.d = r
	s.principal = r.State.principal
	s.finish = finish
	if serverInfo != nil {
		s.meta = append(append([]byte(`"_meta":{"io.modelcontextprotocol/serverInfo":`), serverInfo...), '}')
	}
	methods := map[string]func(context.Context, []byte) ([]byte, error){
		spec.MethodTasksGet:    s.serveGet,
		spec.MethodTasksUpdate: s.serveUpdate,
		spec.MethodTasksCancel: s.serveCancel,
	}
	r.NameParams = map[string]string{}
	for name, fn := range methods {
		if _, ok := r.Methods[name]; ok {
			panic("mcp: ExtensionMethods: " + strconv.Quote(name) + " is served by ServerOptions.Tasks")
		}
		r.Methods[name] = &jsonrpc.Method{Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			if err := CheckProtocolVersion(params, r.Versions); err != nil {
				return nil, err
			}
			res, err := fn(ctx, params)
			if err != nil {
				return nil, err
			}
			return jsonrpc.RawResult(res), nil
		}}
		r.NameParams[name] = "taskId"
	}
	r.tasks = s
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

// runAsTask makes a task of the request ctx belongs to, which must be of
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
	caps := codec.Lookup(codec.Lookup(params, "_meta"), spec.MetaClientCapabilities)
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

func (s *taskStore) create(ctx context.Context, ri *jsonrpc.RequestInfo, fn func(context.Context) (jsonrpc.Result, error)) error {
	now := s.now()
	t := &task{
		id:      newTaskID(),
		method:  ri.Method,
		created: now,
		expires: now.Add(s.ttl),
		updated: now,
		status:  taskWorking,
	}
	if m := codec.Lookup(ri.Params, "_meta"); m != nil {
		t.meta = append(append([]byte(`{"_meta":`), m...), '}')
	}
	t.principal = s.principalOf(ctx)
	// The task outlives the request: its context keeps the request's
	// values but not its cancellation, and ends at the task's expiry.
	tctx := jsonrpc.WithLink(context.WithoutCancel(ctx), taskNotifier{s.d})
	tctx = context.WithValue(tctx, taskKey{}, &taskRef{s, t})
	tctx, cancel := context.WithDeadline(tctx, t.expires)
	t.cancel = cancel

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		cancel()
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the server is shutting down and takes no new tasks"}
	}
	if len(s.tasks) >= s.max || now.Sub(s.lastSweep) >= taskSweepEvery {
		s.sweepLocked(now)
	}
	if len(s.tasks) >= s.max {
		s.mu.Unlock()
		cancel()
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the server holds as many tasks as it keeps (" + strconv.Itoa(s.max) + "); try again later"}
	}
	s.tasks[t.id] = t
	s.running.Add(1)
	created := s.appendTask(nil, t, "task", false)
	s.mu.Unlock()

	go s.run(tctx, t, fn)
	return &taskCreated{ri: ri, result: created}
}

// sweepLocked drops the expired tasks, cancelling those still running.
func (s *taskStore) sweepLocked(now time.Time) {
	s.lastSweep = now
	for id, t := range s.tasks {
		if !now.Before(t.expires) {
			delete(s.tasks, id)
			t.cancel()
		}
	}
}

// run runs a task's function and records its outcome.
func (s *taskStore) run(ctx context.Context, t *task, fn func(context.Context) (jsonrpc.Result, error)) {
	defer s.running.Done()
	defer t.cancel()
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
	}
	if err != nil {
		var msg string
		failure, msg = taskFailure(err)
		message = "the task failed: " + msg
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.terminal() {
		// Cancelled (by the client, or at shutdown) while it ran.
		return
	}
	t.updated = s.now()
	t.pending, t.answers = nil, nil
	if err != nil {
		t.status, t.message, t.failure = taskFailed, message, failure
		return
	}
	t.status, t.message, t.result = taskCompleted, "", result
}

// call runs fn, turning a panic into an internal error.
func (s *taskStore) call(ctx context.Context, t *task, fn func(context.Context) (jsonrpc.Result, error)) (res jsonrpc.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.d.Log("mcp: panic in task %s (%s): %v\n%s", t.id, t.method, p, debug.Stack())
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
// "complete", with inputRequests, result or error by status). The caller
// holds the lock.
func (s *taskStore) appendTask(b []byte, t *task, resultType string, detailed bool) []byte {
	e := codec.Encoder{Buf: b}
	e.Buf = append(e.Buf, `{"resultType":`...)
	e.Str(resultType)
	e.Buf = append(e.Buf, `,"taskId":`...)
	e.Str(t.id)
	e.Buf = append(e.Buf, `,"status":`...)
	e.Str(t.status)
	if t.message != "" {
		e.Buf = append(e.Buf, `,"statusMessage":`...)
		e.Str(t.message)
	}
	e.Buf = append(e.Buf, `,"createdAt":`...)
	e.Str(taskTime(t.created))
	e.Buf = append(e.Buf, `,"lastUpdatedAt":`...)
	e.Str(taskTime(t.updated))
	e.Buf = append(e.Buf, `,"ttlMs":`...)
	e.Int(t.expires.Sub(t.created).Milliseconds())
	e.Buf = append(e.Buf, `,"pollIntervalMs":`...)
	e.Int(max(s.poll.Milliseconds(), 1))
	if detailed {
		switch t.status {
		case taskInputRequired:
			e.Buf = append(e.Buf, `,"inputRequests":{`...)
			for i, in := range t.pending {
				if i > 0 {
					e.Buf = append(e.Buf, ',')
				}
				e.Str(in.key)
				e.Buf = append(e.Buf, ':')
				e.Buf = append(e.Buf, in.request...)
			}
			e.Buf = append(e.Buf, '}')
		case taskCompleted:
			e.Buf = append(e.Buf, `,"result":`...)
			e.Buf = append(e.Buf, t.result...)
		case taskFailed:
			e.Buf = append(e.Buf, `,"error":`...)
			e.Buf = append(e.Buf, t.failure...)
		}
	}
	if s.meta != nil {
		e.Buf = append(e.Buf, ',')
		e.Buf = append(e.Buf, s.meta...)
	}
	return append(e.Buf, '}')
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
	meta := codec.Lookup(params, "_meta")
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

// lookupLocked finds a task for a request of the principal with the given
// digest: an unknown id, a task of another principal and an expired task
// are invalid params (-32602), which SEP-2663 names for an invalid or
// nonexistent taskId.
func (s *taskStore) lookupLocked(principal []byte, id string) (*task, error) {
	t := s.tasks[id]
	if t != nil && !bytes.Equal(t.principal, principal) {
		t = nil
	}
	if t == nil {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: no task " + codec.Quote(id)}
	}
	if !s.now().Before(t.expires) {
		delete(s.tasks, id)
		t.cancel()
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: task " + codec.Quote(id) + " has expired"}
	}
	return t, nil
}

// serveGet answers tasks/get with the task's current state.
func (s *taskStore) serveGet(ctx context.Context, params []byte) ([]byte, error) {
	id, err := checkTaskRequest(params)
	if err != nil {
		return nil, err
	}
	principal := s.principalOf(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.lookupLocked(principal, id)
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
	principal := s.principalOf(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.lookupLocked(principal, id)
	if err != nil {
		return nil, err
	}
	if t.status != taskInputRequired {
		return s.ack(), nil
	}
	var got []int // indexes into t.pending
	for i, in := range t.pending {
		ans, ok := responses[in.key]
		if !ok {
			continue
		}
		if err := s.d.checkAnswer(in.in, in.key, ans); err != nil {
			return nil, err
		}
		got = append(got, i)
	}
	if len(got) == 0 {
		return s.ack(), nil
	}
	left := t.pending[:0:0]
	for i, in := range t.pending {
		if len(got) > 0 && got[0] == i {
			got = got[1:]
			t.answers[in.key] = bytes.Clone(responses[in.key])
			continue
		}
		left = append(left, in)
	}
	t.pending = left
	t.updated = s.now()
	if len(left) == 0 {
		t.status, t.message = taskWorking, ""
		close(t.answered)
	} else {
		t.message = waitingMessage(left)
	}
	return s.ack(), nil
}

// serveCancel answers tasks/cancel: a task that has not finished is
// cancelled at once (its status becomes cancelled and its function's
// context is cancelled); a finished one stays as it is. Both get the same
// empty acknowledgement.
func (s *taskStore) serveCancel(ctx context.Context, params []byte) ([]byte, error) {
	id, err := checkTaskRequest(params)
	if err != nil {
		return nil, err
	}
	principal := s.principalOf(ctx)
	s.mu.Lock()
	t, err := s.lookupLocked(principal, id)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	cancelled := !t.terminal()
	if cancelled {
		t.status, t.message = taskCancelled, "cancelled at the client's request (tasks/cancel)"
		t.updated = s.now()
		t.pending, t.answers = nil, nil
	}
	s.mu.Unlock()
	if cancelled {
		t.cancel()
	}
	return s.ack(), nil
}

func waitingMessage(pending []taskInput) string {
	keys := make([]string, len(pending))
	for i, in := range pending {
		keys[i] = in.key
	}
	return "waiting for input: " + strings.Join(keys, ", ")
}

// awaitTaskInput asks the client for input on behalf of the task ctx
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
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pending := make([]taskInput, len(keys))
	for i, k := range keys {
		req := reqs[k]
		if req[0] != '{' {
			return nil, errors.New("mcp: AwaitInput: input request " + codec.Quote(k) + " is not a JSON object")
		}
		pending[i] = taskInput{key: k, request: bytes.Clone(req), in: inputOf(req)}
	}
	if err := InputRequestCapabilities(t.meta, append(append([]byte(`{"inputRequests":`), requests...), '}')); err != nil {
		return nil, err
	}

	s.mu.Lock()
	switch {
	case t.terminal():
		s.mu.Unlock()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("mcp: AwaitInput: the task has ended")
	case t.pending != nil:
		s.mu.Unlock()
		return nil, errors.New("mcp: AwaitInput: the task is already waiting for input")
	}
	for _, k := range keys {
		if t.used[k] {
			s.mu.Unlock()
			return nil, errors.New("mcp: AwaitInput: input request key " + codec.Quote(k) + " was used before; a key names one request over a task's life (SEP-2663)")
		}
	}
	if t.used == nil {
		t.used = map[string]bool{}
	}
	for _, k := range keys {
		t.used[k] = true
	}
	answered := make(chan struct{})
	t.pending, t.answers, t.answered = pending, map[string][]byte{}, answered
	t.status, t.message, t.updated = taskInputRequired, waitingMessage(pending), s.now()
	s.mu.Unlock()

	select {
	case <-answered:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	answers := t.answers
	t.pending, t.answers, t.answered = nil, nil, nil
	s.mu.Unlock()
	e := codec.Encoder{Buf: []byte{'{'}}
	for _, k := range keys {
		if a, ok := answers[k]; ok {
			e.Key(k)
			e.Buf = append(e.Buf, a...)
		}
	}
	return append(e.Buf, '}'), nil
}

// shutdown cancels the tasks that have not finished (their status becomes
// cancelled) and takes no new ones, then waits for their functions to
// return or ctx to end.
func (s *taskStore) shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	var cancels []context.CancelFunc
	now := s.now()
	for _, t := range s.tasks {
		if !t.terminal() {
			t.status, t.message, t.updated = taskCancelled, "cancelled: the server shut down", now
			t.pending, t.answers = nil, nil
		}
		cancels = append(cancels, t.cancel)
	}
	s.mu.Unlock()
	for _, c := range cancels {
		c()
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
