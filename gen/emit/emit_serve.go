package emit

import "github.com/dave/jennifer/jen"

// The ServerOptions and ClientOptions fields that bound a connection
// served by Serve (runtime/jsonrpc: Limits and its defaults).

// serveOptionFields declares the fields; mcp says whether the package is
// MCP's (whose tools/call gets a tool error for a result too long).
func serveOptionFields(mcp bool) []jen.Code {
	resultDoc := "MaxResultBytes bounds the response to one request (the whole JSON-RPC\nmessage) the dispatcher sends, on any transport: a longer result is not sent,\nthe request is answered with an internal error instead. 0 means 64 MiB\n(MaxMessageSize, what a peer that reads with the default limit takes); a\nnegative value means no limit."
	if mcp {
		resultDoc = "MaxResultBytes bounds the response to one request (the whole JSON-RPC\nmessage) the dispatcher sends, on any transport: a longer result is not sent.\nA tools/call is answered with a tool error (isError) that says so instead,\nany other request with an internal error. 0 means 64 MiB (MaxMessageSize,\nwhat a peer that reads with the default limit takes); a negative value means\nno limit."
	}
	return []jen.Code{
		jen.Comment(commentText("ShutdownGrace is how long Serve waits, once its input ends or ctx is done, for\nthe handlers still running (their contexts are cancelled then, with the cause\nio.EOF at the end of the input) before it returns without their responses.\n0 means 5 seconds; a negative value means no wait.")),
		jen.Id("ShutdownGrace").Qual("time", "Duration"),
		jen.Comment(commentText("MaxInFlight is how many requests Serve handles at once on one connection;\nlater ones wait in order. 0 means 64.")),
		jen.Id("MaxInFlight").Int(),
		jen.Comment(commentText("MaxBufferedBytes bounds the messages Serve holds on one connection (read, and\nwaiting or being handled; each counts its size plus 256 bytes): once they\nreach it, Serve stops reading until some finish. 0 means 16 MiB.")),
		jen.Id("MaxBufferedBytes").Int(),
		jen.Comment(commentText(resultDoc)),
		jen.Id("MaxResultBytes").Int(),
	}
}

// clientServeOptionFields declares the same fields for a package's
// Client, which serves what the server sends on its connection: the
// comments speak of the Client and its ClientHandler.
func clientServeOptionFields() []jen.Code {
	return []jen.Code{
		jen.Comment(commentText("ShutdownGrace is how long Close waits for the ClientHandler methods still\nrunning on a stdio or stream connection (their contexts are cancelled then)\nbefore it returns without their answers. 0 means 5 seconds; a negative value\nmeans no wait.")),
		jen.Id("ShutdownGrace").Qual("time", "Duration"),
		jen.Comment(commentText("MaxInFlight is how many requests from the server (such as roots/list or\nping) the ClientHandler answers at once; later ones wait in order.\nNotifications are handled one at a time, in order. 0 means 64.")),
		jen.Id("MaxInFlight").Int(),
		jen.Comment(commentText("MaxBufferedBytes bounds the messages from the server the Client holds on a\nstdio or stream connection (read, and waiting or being handled; each counts\nits size plus 256 bytes): once they reach it, the Client stops reading until\nsome finish. 0 means 16 MiB.")),
		jen.Id("MaxBufferedBytes").Int(),
		jen.Comment(commentText("MaxResultBytes bounds the answer the Client sends to one request of the\nserver's (the whole JSON-RPC message): a longer answer is not sent, and the\nserver gets an internal error instead. 0 means 64 MiB (MaxMessageSize); a\nnegative value means no limit.")),
		jen.Id("MaxResultBytes").Int(),
	}
}

// serveLimitsValue sets the dispatcher's serveLimits from opts.
func serveLimitsValue() jen.Code {
	return jen.Id("Limits").Op(":").Qual(jsonrpcPkg, "Limits").Custom(oneALine,
		jen.Id("Grace").Op(":").Id("opts").Dot("ShutdownGrace"),
		jen.Id("MaxInFlight").Op(":").Id("opts").Dot("MaxInFlight"),
		jen.Id("MaxBuffered").Op(":").Id("opts").Dot("MaxBufferedBytes"),
		jen.Id("MaxResult").Op(":").Id("opts").Dot("MaxResultBytes"),
		jen.Id("RequestTimeout").Op(":").Id("opts").Dot("RequestTimeout"),
	)
}
