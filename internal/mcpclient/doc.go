// Package mcpclient is the runner's side of the MCP boundary: it connects
// to a browser tool server (spawned over stdio, or in memory in tests),
// lists its tools, offers only those on an allow-list, and calls them with
// per-call timing and response size.
//
// The runner is the agent's only MCP client, so every call the agent makes
// passes through a Session: a call to a tool that is not offered is refused
// here, without reaching the server, and recorded as refused.
//
// It must not import the judge side (contract, judge, phash).
package mcpclient
