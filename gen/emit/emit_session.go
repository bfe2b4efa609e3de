package emit

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file emits the typed glue of what the runtime keeps per peer
// (runtime/protocol: session.go, server_http_session.go): the option
// that bounds requests sent to the peer, the dispatcher methods that notify
// every session, and the documentation of the methods the runtime answers.

// sessionMethodDoc is the sentence the handler interface's doc adds for a
// method the runtime keeps the bookkeeping of (ir.DefaultSession).
func sessionMethodDoc(dispatcher, method string) string {
	what := "the resource among the session's subscriptions, which NotifyResourceUpdated reaches"
	if method == spec.MethodSetLevel {
		what = "the level in the session, by which Log filters messages"
	}
	return fmt.Sprintf("The %s answers it with an empty result when the handler does not implement it; either way, once it succeeds, the runtime keeps %s.", dispatcher, what)
}

// sessionOptionFields declares the options of requests sent to the peer.
func sessionOptionFields(server bool) []jen.Code {
	doc := "RequestTimeout bounds how long a request sent to the peer (SendRequest,\nSession.Request) waits for its response; then notifications/cancelled tells the\npeer, and the call fails with an error wrapping context.DeadlineExceeded. A\nshorter deadline of the call's context wins. 0 means 5 minutes; a negative\nvalue, no limit but the context's."
	if !server {
		doc = "RequestTimeout bounds how long a request sent to the peer waits for its\nresponse; then notifications/cancelled tells the peer, and the call fails with\nan error wrapping context.DeadlineExceeded. A shorter deadline of the call's\ncontext wins. 0 means 5 minutes; a negative value, no limit but the context's."
	}
	return []jen.Code{
		jen.Comment(commentText(doc)),
		jen.Id("RequestTimeout").Qual("time", "Duration"),
	}
}

// httpSessionDoc documents NewHTTPHandler of a revision with the initialize
// handshake.
func httpSessionDoc() string {
	return "NewHTTPHandler returns an http.Handler that serves d at one endpoint (mount it\nat the endpoint's path) with sessions, as the revision's transport page\ndescribes: initialize opens a session and its response carries the\nMcp-Session-Id header; every later request names it (404 once it has ended);\nGET opens the stream of the server's messages that belong to no request;\nDELETE ends the session; response streams can be resumed with GET and\nLast-Event-ID. Revisions before 2025-03-26 get the HTTP+SSE transport of their\ntime instead. HTTPOptions bound the sessions (MaxSessions, SessionIdleTimeout,\nSessionHistoryBytes); HTTPOptions.Stateless serves without sessions. See\nHTTPHandler.NewServer for an http.Server with timeouts."
}

// emitSessionMethods writes the ServerDispatcher methods that send to every
// session: Broadcast, and NotifyResourceUpdated where the revision has
// resources/subscribe.
func (e *emitter) emitSessionMethods(f *jen.File, p *ir.Protocol, s *ir.Side, ms []*ir.Method) {
	recv := jen.Id("d").Op("*").Id(s.Dispatcher)
	appendJSON := jen.Interface(jen.Id("AppendJSON").Params(jen.Index().Byte()).Params(jen.Index().Byte(), jen.Error()))
	if e.serveOlder(p) {
		e.emitOlderServe(f, p, recv, appendJSON)
		return
	}
	if p.Modern {
		return
	}
	f.Comment(commentText("Broadcast sends a notification (such as notifications/tools/list_changed) to\nthe clients of every session d serves: connections served by Serve, and HTTP\nsessions (on their GET streams). params may be nil. It returns how many\nsessions it reached."))
	f.Func().Params(recv.Clone()).Id("Broadcast").Params(jen.Id("method").String(), jen.Id("params").Add(appendJSON)).Params(jen.Int(), jen.Error()).Block(
		jen.Return(jen.Id("d").Dot("rpc").Dot("BroadcastJSON").Call(jen.Id("method"), jen.Id("params"))),
	)
	for _, m := range ms {
		if m.Name != spec.MethodSubscribe {
			continue
		}
		f.Comment(commentText("NotifyResourceUpdated sends notifications/resources/updated for uri to the\nclients of every session that subscribed to it (resources/subscribe) and has not\nunsubscribed since, and returns how many it reached."))
		f.Func().Params(recv.Clone()).Id("NotifyResourceUpdated").Params(jen.Id("uri").String()).Int().Block(
			jen.Return(jen.Id("d").Dot("rpc").Dot("NotifyResourceUpdated").Call(jen.Id("uri"))),
		)
	}
}

// serveOlder reports whether the package serves the clients of older
// revisions with its own handlers (a modern revision with conversions).
func (e *emitter) serveOlder(p *ir.Protocol) bool {
	return e.clientOlder(p) && p.Client != nil
}

// emitOlderServe writes what the server dispatcher of a modern package with
// conversions needs to serve the clients of older revisions: Broadcast and
// NotifyResourceUpdated (which reach those clients' sessions).
func (e *emitter) emitOlderServe(f *jen.File, p *ir.Protocol, recv, appendJSON *jen.Statement) {
	f.Comment(commentText("Broadcast sends a notification (such as notifications/tools/list_changed) to\nthe clients of " + e.pkg.OlderRevisions + " d serves: their HTTP sessions (on\ntheir GET streams) and the connections served by Serve that opened with\ninitialize. params may be nil. It returns how many sessions it reached.\nClients of " + e.pkg.Revision + " hear of changes through the subscriptions they\nopen (subscriptions/listen)."))
	f.Func().Params(recv.Clone()).Id("Broadcast").Params(jen.Id("method").String(), jen.Id("params").Add(appendJSON)).Params(jen.Int(), jen.Error()).Block(
		jen.List(jen.Id("msg"), jen.Id("err")).Op(":=").Qual(protocolPkg, "NotificationJSON").Call(jen.Id("method"), jen.Id("params")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Id("err"))),
		jen.Return(jen.Id("d").Dot("rpc").Dot("BroadcastOlder").Call(jen.Id("msg"), jen.Nil()), jen.Nil()),
	)
	f.Comment(commentText("NotifyResourceUpdated sends notifications/resources/updated for uri to the\nclients of " + e.pkg.OlderRevisions + " that subscribed to it (resources/subscribe)\nand have not unsubscribed since, and returns how many it reached."))
	f.Func().Params(recv.Clone()).Id("NotifyResourceUpdated").Params(jen.Id("uri").String()).Int().Block(
		jen.Return(jen.Id("d").Dot("rpc").Dot("BroadcastOlder").Call(jen.Qual(protocolPkg, "ResourceUpdatedJSON").Call(jen.Id("uri")),
			jen.Func().Params(jen.Id("s").Op("*").Add(e.rt(protocolPkg, "Session"))).Bool().Block(jen.Return(jen.Id("s").Dot("Subscribed").Call(jen.Id("uri")))))),
	)
}
