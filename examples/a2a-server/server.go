package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/examples/a2a-server/a2a"
)

// maxTasks bounds the tasks the agent remembers (the oldest go first).
const maxTasks = 1000

// maxBody bounds the size of a request.
const maxBody = 1 << 20

// agent is the A2A handler: an echo agent whose tasks complete at once.
type agent struct {
	a2a.UnimplementedServerHandler
	card a2a.AgentCard
	now  func() time.Time

	mu    sync.Mutex
	tasks map[string]*a2a.Task
	order []string // task ids, oldest first
	next  int
}

func newAgent(url string, now func() time.Time) *agent {
	return &agent{
		now:   now,
		tasks: map[string]*a2a.Task{},
		card: a2a.AgentCard{
			ProtocolVersion:    a2a.ProtocolVersion,
			Name:               "Echo Agent",
			Description:        "Repeats the text of each message in a completed task's artifact.",
			URL:                url,
			PreferredTransport: new("JSONRPC"),
			Version:            "1.0.0",
			Capabilities:       a2a.AgentCapabilities{Streaming: new(false), PushNotifications: new(false)},
			DefaultInputModes:  []string{"text/plain"},
			DefaultOutputModes: []string{"text/plain"},
			Skills: []a2a.AgentSkill{{
				ID: "echo", Name: "Echo", Description: "Answers with the text it is sent.",
				Tags: []string{"echo", "test"}, Examples: []string{"hello"},
			}},
		},
	}
}

// rpcError is an A2A error answer.
func rpcError(code int64, format string, args ...any) error {
	return &a2a.RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// SendMessage completes a task at once: the history holds the message and
// the agent's reply, the artifact the echoed text.
func (a *agent) SendMessage(_ context.Context, p *a2a.MessageSendParams) (a2a.SendMessageSuccessResponseResult, error) {
	if p.Message.Role != a2a.MessageRoleUser {
		return nil, rpcError(a2a.CodeInvalidParams, "invalid params: the message's role must be %q", a2a.MessageRoleUser)
	}
	var text []string
	for _, part := range p.Message.Parts {
		t, ok := part.(*a2a.TextPart)
		if !ok {
			return nil, rpcError(a2a.CodeContentTypeNotSupported, "this agent reads text parts only")
		}
		text = append(text, t.Text)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if id := p.Message.GetTaskID(); id != "" {
		if _, ok := a.tasks[id]; !ok {
			return nil, rpcError(a2a.CodeTaskNotFound, "task not found: %s", strconv.Quote(id))
		}
		return nil, rpcError(a2a.CodeUnsupportedOperation, "task %s is completed; send a new message without taskId", strconv.Quote(id))
	}
	a.next++
	id := "task-" + strconv.Itoa(a.next)
	contextID := p.Message.GetContextID()
	if contextID == "" {
		contextID = "context-" + strconv.Itoa(a.next)
	}
	user := p.Message
	user.TaskID, user.ContextID = &id, &contextID
	reply := strings.Join(text, "\n")
	answer := a2a.Message{
		Role: a2a.MessageRoleAgent, MessageID: id + "-reply", TaskID: &id, ContextID: &contextID,
		Parts: []a2a.Part{&a2a.TextPart{Text: reply}},
	}
	task := &a2a.Task{
		ID: id, ContextID: contextID,
		Status:    a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: new(a.now().UTC().Format(time.RFC3339))},
		History:   []a2a.Message{user, answer},
		Artifacts: []a2a.Artifact{{ArtifactID: id + "-echo", Name: new("echo"), Parts: []a2a.Part{&a2a.TextPart{Text: reply}}}},
	}
	a.tasks[id] = task
	a.order = append(a.order, id)
	if len(a.order) > maxTasks {
		delete(a.tasks, a.order[0])
		a.order = a.order[1:]
	}
	c := *task
	return &c, nil
}

// GetTask returns a task, with at most historyLength messages of its
// history (the latest).
func (a *agent) GetTask(_ context.Context, p *a2a.TaskQueryParams) (*a2a.Task, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.tasks[p.ID]
	if !ok {
		return nil, rpcError(a2a.CodeTaskNotFound, "task not found: %s", strconv.Quote(p.ID))
	}
	c := *t
	if n := p.GetHistoryLength(); p.HistoryLength != nil && n >= 0 && int(n) < len(c.History) {
		c.History = c.History[len(c.History)-int(n):]
	}
	return &c, nil
}

// CancelTask: the agent's tasks complete at once, so none can be canceled.
func (a *agent) CancelTask(_ context.Context, p *a2a.TaskIdParams) (*a2a.Task, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.tasks[p.ID]; !ok {
		return nil, rpcError(a2a.CodeTaskNotFound, "task not found: %s", strconv.Quote(p.ID))
	}
	return nil, rpcError(a2a.CodeTaskNotCancelable, "task %s is completed and cannot be canceled", strconv.Quote(p.ID))
}

// SendStreamingMessage: the card declares no streaming.
func (a *agent) SendStreamingMessage(context.Context, *a2a.MessageSendParams) (a2a.SendStreamingMessageSuccessResponseResult, error) {
	return nil, rpcError(a2a.CodeUnsupportedOperation, "this agent does not stream (capabilities.streaming is false); use message/send")
}

func (a *agent) SetTaskPushNotificationConfig(context.Context, *a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
	return nil, errNoPush
}

func (a *agent) GetTaskPushNotificationConfig(context.Context, a2a.GetTaskPushNotificationConfigRequestParams) (*a2a.TaskPushNotificationConfig, error) {
	return nil, errNoPush
}

func (a *agent) ListTaskPushNotificationConfig(context.Context, *a2a.ListTaskPushNotificationConfigParams) (a2a.ListTaskPushNotificationConfigSuccessResponseResult, error) {
	return nil, errNoPush
}

func (a *agent) DeleteTaskPushNotificationConfig(context.Context, *a2a.DeleteTaskPushNotificationConfigParams) (a2a.DeleteTaskPushNotificationConfigSuccessResponseResult, error) {
	return nil, errNoPush
}

var errNoPush = rpcError(a2a.CodePushNotificationNotSupported, "this agent sends no push notifications (capabilities.pushNotifications is false)")

// GetAuthenticatedExtendedCard: the card does not offer one.
func (a *agent) GetAuthenticatedExtendedCard(context.Context) (*a2a.AgentCard, error) {
	return nil, rpcError(a2a.CodeAuthenticatedExtendedCardNotConfigured, "this agent has no authenticated extended card")
}

// newHandler serves the agent: its card at /.well-known/agent-card.json,
// and JSON-RPC requests POSTed to /, each answered by the dispatcher.
func newHandler(a *agent) http.Handler {
	d := a2a.NewServerDispatcher(a, a2a.ServerOptions{})
	card, err := a.card.MarshalJSON()
	if err != nil {
		panic(err) // the card is built above; a bad one is a bug here
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(card)
	})
	mux.HandleFunc("POST /{$}", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		resp := d.Handle(r.Context(), body)
		if resp == nil {
			w.WriteHeader(http.StatusNoContent) // a notification
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(resp)
	})
	return mux
}
