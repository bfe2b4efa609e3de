package protocol

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file is the exported part of the tasks extension's server side
// (extensions/tasks, SEP-2663); the machinery is in tasks_store.go. It comes
// with the revisions that have the extension, next to the generated
// RunAsTask and AwaitInput.

// TasksExtension is the identifier of the tasks extension, the key of its
// entry in the extensions of client and server capabilities.
const TasksExtension = spec.TasksExtension

// TaskStoreOptions configure a TaskStore. The zero value is usable.
type TaskStoreOptions struct {
	// MaxTasks bounds the tasks the store holds at once: those running or
	// waiting for input, and finished ones kept until their ttl ends. When
	// the store is full even after dropping expired tasks, RunAsTask fails
	// with an internal error (-32603). Zero means 1000.
	MaxTasks int
	// TTL is every task's ttlMs: how long after its creation the task can
	// be read with tasks/get. A task that is still running when it expires
	// is cancelled (its context ends) and dropped. Zero means one hour.
	TTL time.Duration
	// PollInterval is the pollIntervalMs the store suggests to clients.
	// Zero means one second.
	PollInterval time.Duration

	// Shared, if set, keeps the tasks where the replicas of the server
	// share them (for example in Redis, with the module
	// github.com/mcpgen/mcpgen/replicas; docs/replicas.md): a task created
	// through one replica is read, answered and cancelled through any. Its
	// function runs on the replica that created it; what a client does
	// through another reaches the function within a third of Lease. Nil
	// keeps the tasks in this store's memory.
	Shared SharedTasks
	// Lease is how long, with Shared, a replica is taken for alive after
	// it last said so (it does every third of Lease while it runs tasks):
	// a task whose replica stopped (killed, or cut off from the store) is
	// reported failed (-32603, "the replica running the task stopped")
	// to the first tasks/get after that. The function is not run again
	// elsewhere: it may have done part of its work. Zero means 10 seconds.
	Lease time.Duration
	// Replica names this replica in Shared; every replica needs its own
	// name. Empty means a random one (a restarted process is another
	// replica).
	Replica string
}

// TaskStore holds the tasks of a server that serves the tasks extension:
// give it to one ServerDispatcher in ServerOptions.Tasks. The dispatcher
// then advertises the extension in server/discover, serves tasks/get,
// tasks/update and tasks/cancel (to clients that declare the extension in
// the request's client capabilities; -32021 otherwise), and lets a
// tools/call handler answer with a task (RunAsTask).
//
// Tasks live in the memory of the process unless TaskStoreOptions.Shared
// names a store that the replicas of the server share. Task ids are 128
// random bits; with ServerOptions.Principal set, a task is visible only to
// the principal that created it.
type TaskStore struct {
	Store taskStore
}

// NewTaskStore returns an empty task store.
func NewTaskStore(opts TaskStoreOptions) *TaskStore {
	s := &TaskStore{Store: newTaskStore(opts.MaxTasks, opts.TTL, opts.PollInterval)}
	if opts.Shared != nil {
		s.Store.shared, s.Store.private = opts.Shared, false
	}
	if opts.Lease > 0 {
		s.Store.lease = opts.Lease
	}
	if opts.Replica != "" {
		s.Store.replica = opts.Replica
	}
	return s
}

// Shutdown cancels the tasks that have not finished (their status becomes
// cancelled), refuses new ones, and waits until the functions of the
// cancelled tasks have returned or ctx is done. Finished tasks can still be
// read until the process ends.
func (s *TaskStore) Shutdown(ctx context.Context) error {
	return s.Store.shutdown(ctx)
}

// ClientSupportsTasks reports whether the client of the request ctx
// belongs to declared the tasks extension in its capabilities. A handler
// that can work either way asks it before RunAsTask, which fails with
// MissingRequiredClientCapabilityError (-32021) for such a client.
func ClientSupportsTasks(ctx context.Context) bool {
	ri := jsonrpc.RequestFromContext(ctx)
	return ri != nil && clientHasExtension(ri.Params, TasksExtension)
}

// withExtension returns extensions (server capabilities) with the
// extension id in it, adding id with empty settings to a copy when it is
// missing.
func WithExtension[M ~map[string]V, V ~[]byte](extensions M, id string) M {
	if _, ok := extensions[id]; ok {
		return extensions
	}
	c := make(M, len(extensions)+1)
	for k, v := range extensions {
		c[k] = v
	}
	c[id] = V("{}")
	return c
}
