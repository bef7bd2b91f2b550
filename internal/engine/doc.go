// Package engine runs the conversation: the one query loop every front end
// drives (terminal UI, print mode, the SDK protocol, sub-agents).
//
// A Session holds one conversation's history and account. Session.Run takes
// a user input and returns the turn as an iterator of Events; the turn goes
// on until the model stops calling tools, a limit is reached, the context is
// cancelled, or an error ends it. The last event of every turn is a
// *TurnEnd whose Reason is one of the Reason constants.
//
// # Events
//
// Front ends switch on the concrete event type:
//
//   - *RequestStart: a model request is being sent.
//   - *StreamEvent: a raw streamed event (for --include-partial-messages).
//   - *TextDelta, *ThinkingDelta: streamed assistant text and thinking.
//   - *StreamReset: partial output shown so far is discarded (a retry).
//   - *AssistantBlock: one content block completed, as soon as it is.
//   - *AssistantMessage: an assistant message completed and was recorded.
//   - *UserMessage: a user or meta message was added.
//   - *ToolStart, *ToolProgress, *ToolResult: a tool call ran, progressed
//     and was answered (results in call order).
//   - *Retry: a failed request will be retried after a delay.
//   - *Usage: tokens and cost after each response.
//   - *Notice: something for the user outside the conversation.
//   - *CompactBoundary: earlier history was replaced by a summary.
//   - *TodoUpdate: the todo list changed.
//   - *TurnEnd: the turn is over, with its Reason.
//
// Every event carries an Origin: a sub-agent's events name the Agent
// tool_use they run under (ParentToolUseID).
//
// # Questions
//
// When a call needs the user's permission, the Gate asks through an Asker:
// the terminal UI shows a dialog, the SDK front end sends can_use_tool, a
// foreground sub-agent asks its parent's Asker, and print mode denies.
// With no Asker, asking means denying (DESIGN invariant 5).
//
// In auto mode a call the permission decision marks Classify goes to the
// gate's Classifier (automode.Classifier, a side call to the model) before
// anyone is asked: its allow runs the call, its block denies it with the
// classifier's reason (a permission denial; PermissionDenied hooks run).
// When it cannot answer, or its Guard paused auto mode after repeated
// blocks, the call is asked as above, so print mode denies it.
//
// # Invariants
//
// Every tool_use in history is answered by exactly one tool_result, on
// every path including cancellation (DESIGN invariant 2). The tools and
// settings of a turn are snapshotted when the turn starts (invariant 3).
// The request prefix (system prompt and tool list) is byte-stable across the
// turns of a session (invariant 10).
package engine
