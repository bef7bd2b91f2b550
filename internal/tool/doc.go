// Package tool defines the contract every tool implements, the per-turn
// tool pool, the streaming executor that runs a model's tool calls, and the
// policy that keeps large results out of the context.
//
// # Contract
//
// A Tool has a name, a description, a JSON input schema, and a Call method.
// It also answers, per input, whether the call only reads (IsReadOnly) and
// whether it may run beside other calls (IsConcurrencySafe; default false),
// how it behaves when the user sends a message mid-turn (InterruptBehavior),
// and how large a result may be before it is written to disk
// (MaxResultChars). Embed Defaults to get the conservative answers.
//
// Failures the model should see are returned as errors from Call (or as a
// Result with IsError); the executor turns them into error tool_results.
// Nothing a tool does may panic the process: a panic becomes an error result.
//
// # Execution
//
// Executor runs the calls of one assistant message. Each call starts as
// soon as its tool_use block is complete: queued → executing → completed →
// yielded. A concurrency-safe call runs beside other safe calls; an unsafe
// one runs alone; a queued unsafe call blocks every later call, so order is
// kept. Results are yielded in call order, progress as it happens. Every
// call is answered exactly once, whatever happens (DESIGN invariant 2).
//
// Every call passes, in order: lookup → schema validation → the tool's own
// validation → the Gate (PreToolUse hooks and the permission decision) →
// Call → Gate.After (PostToolUse hooks) → the result size policy.
//
// This package must not import the engine or any front end.
package tool
