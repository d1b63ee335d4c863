// Package mcpbridge serves a protocol v1 adapter (docs/protocol.md) as an
// MCP server: one MCP tool per protocol tool, each tools/call run through
// the adapter's own http.Handler in process, its envelope translated into
// an MCP tool result ("The reference adapter over MCP" in
// docs/protocol.md).
//
// [New] builds the *mcp.Server from the handler and its [Tool]s
// ([ReferenceTools] lists the reference adapter's, which every mutant
// shares); [ServeStdio], [Handler] and [Serve] serve it over stdio or
// streamable HTTP, and [ListenAndServe] does either for a [Mode] named on a
// command line.
//
// The adapter judges everything: the arguments travel to it as the client
// sent them (the go-sdk's typed AddTool, which validates arguments against
// the input schema and fills in defaults, is not used), and the session
// token travels from the request's _meta into the Authorization header.
// Nothing of the adapter's answer reaches the client but what the
// translation names: the data of a success, the code and retryable flag of
// a failure, and the request id.
package mcpbridge
