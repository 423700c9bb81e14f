// Package agent is the loop between an LLM provider and a browser tool
// server: it hands the provider the instruction and the offered tools,
// executes each tool call over MCP, feeds the results back, and stops at a
// final answer, the context's deadline, or a budget cap. RunExec plays
// the same part for an outside agent: a command given the task through its
// environment and the offered tools over MCP streamable HTTP on loopback,
// each call forwarded, counted and recorded as the loop does its own.
//
// The loop produces what the agent did (calls, usage, cost, answer). It
// never decides whether the task succeeded: the judge grades the browser,
// and the answer is recorded, never used as evidence. It must not import
// the judge side (contract, judge, phash).
//
// The null agents, which do not try to do the task, are package nullagent.
package agent
