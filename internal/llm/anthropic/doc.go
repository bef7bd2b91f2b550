// Package anthropic is an llm.Provider for the Anthropic Messages API,
// written on the standard library: request encoding with prompt-cache
// breakpoints, server-sent-event streaming, retries with backoff, and an
// idle-stream timeout.
//
// The request body is assembled from cached per-message encodings, so a
// long history is not re-encoded every turn, and adjacent messages of the
// same role are sent as one message. At most four cache_control
// breakpoints are placed: on system blocks marked Cache (at most two), on
// the last tool, and on the last block of the newest message.
//
// Failures before the first content event (HTTP 408, 409, 429, 5xx, 529,
// connection errors, an overloaded error event) are retried up to
// MaxRetries times with exponential backoff and jitter, honouring
// retry-after, retry-after-ms and x-should-retry. Once content has
// streamed, errors are returned from Stream.Next for the engine to decide.
package anthropic
