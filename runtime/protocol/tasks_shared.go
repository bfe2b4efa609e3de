package protocol

import (
	"context"
	"errors"
	"sync"
	"time"
)

// This file is what the replicas of one server share of the tasks
// extension: TaskRecord, the SharedTasks interface a TaskStore keeps its
// tasks in, and MemoryTasks, its in-memory implementation (the default of
// every TaskStore, and the store of replicas in one process). A Redis
// implementation is in the module github.com/mcpgen/mcpgen/replicas.

// ErrTasksFull is what SharedTasks.Create returns when the store holds as
// many unexpired tasks as it may.
var ErrTasksFull = errors.New("mcp: the task store is full")

// TaskRecord is a task as a SharedTasks store keeps it: everything a
// replica needs to answer tasks/get, tasks/update and tasks/cancel for it.
// The function of a running task stays in the process of the replica that
// created it (Owner).
type TaskRecord struct {
	ID     string `json:"id"`
	Method string `json:"method"` // of the request it answers
	// Principal is the digest of the principal that created it, or nil.
	Principal []byte `json:"principal,omitempty"`
	// Meta is {"_meta":...} of the creating request (its client
	// capabilities, against which input requests are checked), or nil.
	Meta []byte `json:"meta,omitempty"`
	// Owner is the replica that runs the task (TaskStoreOptions.Replica).
	Owner string `json:"owner"`

	Status  string    `json:"status"` // working, input_required, completed, failed, cancelled
	Message string    `json:"message,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Expires is when the task is forgotten (Created + ttl).
	Expires time.Time `json:"expires"`

	// Pending are the input requests of the current round not answered
	// yet, by key; Answers the answers received in the round; InputReady
	// is set when the round is complete, until the task takes the answers.
	// Used are the keys asked over the task's life.
	Pending    map[string][]byte `json:"pending,omitempty"`
	Answers    map[string][]byte `json:"answers,omitempty"`
	InputReady bool              `json:"inputReady,omitempty"`
	Used       []string          `json:"used,omitempty"`

	Result []byte `json:"result,omitempty"` // completed: the result object
	Error  []byte `json:"error,omitempty"`  // failed: the JSON-RPC error object
}

// Terminal reports whether the task's status never changes again.
func (t *TaskRecord) Terminal() bool {
	return t.Status == taskCompleted || t.Status == taskFailed || t.Status == taskCancelled
}

// Clone returns a deep copy of t.
func (t *TaskRecord) Clone() *TaskRecord {
	c := *t
	c.Principal = cloneBytes(t.Principal)
	c.Meta = cloneBytes(t.Meta)
	c.Result = cloneBytes(t.Result)
	c.Error = cloneBytes(t.Error)
	c.Pending = cloneMap(t.Pending)
	c.Answers = cloneMap(t.Answers)
	if t.Used != nil {
		c.Used = append([]string(nil), t.Used...)
	}
	return &c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func cloneMap(m map[string][]byte) map[string][]byte {
	if m == nil {
		return nil
	}
	c := make(map[string][]byte, len(m))
	for k, v := range m {
		c[k] = cloneBytes(v)
	}
	return c
}

// SharedTasks keeps the tasks of the replicas of one server
// (TaskStoreOptions.Shared). The TaskStore of each replica runs the
// functions of the tasks it creates and reads and changes every task
// through the store, so that a task created through one replica is read,
// answered and cancelled through any.
//
// Records handed to the store and returned by it are the caller's: the
// store keeps copies. Every method is safe for concurrent use, from
// several processes for a shared implementation.
type SharedTasks interface {
	// Create stores a new task. When it returns nil, Get from every
	// replica finds it (SEP-2663: creation is strongly consistent). It
	// fails with ErrTasksFull when the store holds max tasks that have
	// neither finished nor expired at now (finished ones kept until they
	// expire do not count). An error that is an *Unavailable means the
	// store cannot be reached for now: the request fails with it,
	// retryable.
	Create(ctx context.Context, t *TaskRecord, max int, now time.Time) error
	// Get returns the task with the id, or nil (and no error) when the
	// store has none; it may return a task past its Expires, which the
	// caller treats as gone.
	Get(ctx context.Context, id string) (*TaskRecord, error)
	// Update changes the task with the id atomically: fn gets the current
	// record, changes it in place and returns true to store it, or false
	// to leave it as it is; fn may be called more than once (when another
	// replica changed the task meanwhile) and must depend only on the
	// record it gets. Update returns the record as stored (or as left),
	// nil when there is no such task.
	Update(ctx context.Context, id string, fn func(*TaskRecord) bool) (*TaskRecord, error)
	// Delete forgets the task with the id (one past its Expires); nothing
	// happens when there is none.
	Delete(ctx context.Context, id string) error
	// Beat records that the replica is alive until now+lease; Alive
	// reports whether a replica's last Beat has not run out. A task whose
	// owner is no longer alive is failed by the replica that reads it
	// (which beats before it asks). A store that can be out (Redis) tells
	// a replica's silence from its own outage: after a gap in the beats
	// of all replicas, Alive reports every replica alive for a lease, so
	// that an outage fails no task of a live replica.
	Beat(ctx context.Context, replica string, lease time.Duration) error
	Alive(ctx context.Context, replica string) (bool, error)
}

// MemoryTasks is a SharedTasks in the memory of one process: the default
// store of a TaskStore, and a store that TaskStores in one process (the
// replicas of a test) share. Expired tasks are dropped when Create needs
// the room and once a second.
type MemoryTasks struct {
	mu        sync.Mutex
	tasks     map[string]*TaskRecord
	running   int // tasks not finished
	alive     map[string]time.Time
	lastSweep time.Time
	now       func() time.Time // for Alive; time.Now unless a test sets it
}

// NewMemoryTasks returns an empty in-memory task store.
func NewMemoryTasks() *MemoryTasks {
	return &MemoryTasks{tasks: map[string]*TaskRecord{}, alive: map[string]time.Time{}, now: time.Now}
}

// memoryFinishedPerTask bounds the finished tasks a MemoryTasks keeps
// until they expire: this many times Create's max. Past it the finished
// task that expires first is dropped early, so that memory stays bounded
// whatever the rate of tasks.
const memoryFinishedPerTask = 100

// Create implements SharedTasks.
func (m *MemoryTasks) Create(_ context.Context, t *TaskRecord, max int, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	full := m.running >= max || len(m.tasks)-m.running >= memoryFinishedPerTask*max
	if full || now.Sub(m.lastSweep) >= taskSweepEvery {
		m.lastSweep = now
		for id, x := range m.tasks {
			if !now.Before(x.Expires) {
				m.dropLocked(id)
			}
		}
	}
	if m.running >= max {
		return ErrTasksFull
	}
	if len(m.tasks)-m.running >= memoryFinishedPerTask*max {
		var first *TaskRecord
		for _, x := range m.tasks {
			if x.Terminal() && (first == nil || x.Expires.Before(first.Expires)) {
				first = x
			}
		}
		if first != nil {
			m.dropLocked(first.ID)
		}
	}
	c := t.Clone()
	m.tasks[t.ID] = c
	if !c.Terminal() {
		m.running++
	}
	return nil
}

// dropLocked forgets a task.
func (m *MemoryTasks) dropLocked(id string) {
	if x := m.tasks[id]; x != nil {
		if !x.Terminal() {
			m.running--
		}
		delete(m.tasks, id)
	}
}

// Get implements SharedTasks.
func (m *MemoryTasks) Get(_ context.Context, id string) (*TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.tasks[id]; t != nil {
		return t.Clone(), nil
	}
	return nil, nil
}

// Update implements SharedTasks.
func (m *MemoryTasks) Update(_ context.Context, id string, fn func(*TaskRecord) bool) (*TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tasks[id]
	if t == nil {
		return nil, nil
	}
	c := t.Clone()
	if !fn(c) {
		return t.Clone(), nil
	}
	if !t.Terminal() && c.Terminal() {
		m.running--
	} else if t.Terminal() && !c.Terminal() {
		m.running++
	}
	m.tasks[id] = c
	return c.Clone(), nil
}

// Delete implements SharedTasks.
func (m *MemoryTasks) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropLocked(id)
	return nil
}

// Beat implements SharedTasks.
func (m *MemoryTasks) Beat(_ context.Context, replica string, lease time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.alive[replica] = m.now().Add(lease)
	return nil
}

// Alive implements SharedTasks.
func (m *MemoryTasks) Alive(_ context.Context, replica string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	until, ok := m.alive[replica]
	return ok && m.now().Before(until), nil
}

// Forget drops a replica's liveness record, as if it had died (for tests
// of what the other replicas then do).
func (m *MemoryTasks) Forget(replica string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.alive, replica)
}

// len is how many tasks the store holds (for tests).
func (m *MemoryTasks) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tasks)
}
