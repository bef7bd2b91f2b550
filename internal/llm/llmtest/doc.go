// Package llmtest is a scripted fake of the Anthropic Messages API for
// tests and benchmarks: it plays scripted assistant turns as server-sent
// events (text, parallel tool_use, thinking), captures every request, checks
// protocol invariants on each one, and injects faults (HTTP errors with
// retry-after, overloaded, a connection reset mid-stream, a stall,
// malformed events, max_tokens, prompt too long).
//
// A Server is started with Start; point a client at its URL
// (ANTHROPIC_BASE_URL). Each request consumes the first unused Turn whose
// Match accepts it (a Turn without Match accepts any request), so
// interleaved conversations (sub-agents) can be scripted by matching on
// their system prompt or last message.
//
// Protocol checks run on every captured request: every tool_use is
// answered by exactly one tool_result with the same id in the next user
// message, no tool_result is orphaned, and within one conversation (same
// system prompt and tools) the system and tool bytes never change and the
// messages of the previous request are a prefix of the next (cache
// stability), except across turns marked Side or ResetPrefix. Violations
// are collected and reported by Violations / AssertClean.
//
// The fake's own work stays off the client's clock where it can: when the
// next turn accepts any request, the answer starts before the request is
// decoded and checked (the checks follow in arrival order, and Requests
// and Violations wait for them), and events are sent at the points a
// client acts on (the message's start, each block's end, the message's
// end) rather than one write each, unless the turn has a fault or a
// delay placed between events.
package llmtest
