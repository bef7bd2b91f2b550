// Package llm defines the provider-neutral language of a model conversation:
// messages and their content blocks, the request sent for one model call, the
// events a streamed response produces, token usage and its cost, and the small
// Provider interface every model back end implements.
//
// It owns no network code and no policy. Back ends live in sub-packages
// (llm/anthropic); the engine consumes a Provider and never looks behind it.
//
// # Messages
//
// A Message is a role and an ordered list of ContentBlocks. Blocks are kept in
// the shape of the Anthropic Messages API because that is the richest wire
// format in use: text, image, document, tool_use, tool_result, thinking and
// redacted_thinking. Any block type this package does not know (server tool
// blocks such as server_tool_use or web_search_tool_result) is kept as its raw
// JSON and written back byte for byte, so history survives new API features.
//
// A Message caches its own JSON encoding the first time it is marshalled;
// messages are treated as immutable once complete, which lets a long history
// be re-sent each turn without re-encoding it.
//
// # Streaming
//
// Provider.Stream returns a Stream whose Next method yields Events in arrival
// order and io.EOF after a clean end. An Accumulator folds events into the
// assistant Message, reporting each content block as soon as it is complete so
// a tool can start before the response ends.
package llm
