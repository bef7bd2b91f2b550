// Package toolsearch keeps the schemas of rarely used tools out of the
// model's request until the model looks for them (deferred tools, seed 000).
//
// Core tools (file, shell, search, task, plan and agent tools; IsCore) are
// always sent. Every other tool that IsDeferred — MCP tools by default,
// built-ins implementing tool.Deferrable with ShouldDefer true — is only
// named to the model, in a <system-reminder> listing, and is found with
// SearchExtraTools and run with ExecuteExtraTool. The tools array therefore
// holds the same tools for the whole session, whatever is discovered,
// which keeps the prompt cache warm (seed 000 §3.5).
//
// # Wiring
//
// Make one Session per conversation (and per sub-agent), with the mode
// from ModeFromEnv and the weights from WeightsFromEnv, and Close it when
// the conversation ends. At each turn start the engine's Config.Tools
// calls Session.ToolSet with the full pool (built-ins then MCP tools, in
// send order); the engine.ToolSet it returns carries:
//
//   - Tools: what may be called directly (loaded tools, SearchExtraTools,
//     ExecuteExtraTool);
//   - Specs: what is sent (the same tools, stable within the session);
//   - Deferred: the answer to a direct call of a deferred tool, telling the
//     model to search for it and run it through ExecuteExtraTool;
//   - Reminders: called by the engine before each request with the
//     history; each text returned is appended as a meta user message. The
//     first lists every deferred tool, later ones only the names added or
//     removed (the announced set is read back from the history, so resume
//     and compaction need nothing else), and prefetch adds the tools found
//     for the conversation.
//
// ExecuteExtraTool is a tool.Proxy: tool.Pipeline runs its target through
// schema validation, the target's Validate, the Gate, Call, Gate.After and
// the result policy under the target's own name, so permission rules,
// hooks, denials and the SDK's can_use_tool see the deferred tool.
//
// # Search
//
// SearchExtraTools takes select:A,B (exact names), discover:<need>,
// plain keywords (an exact name or an mcp__server prefix answers
// directly) and +required words. Ranking combines a keyword score (name
// parts split on "__", "_" and CamelCase, search hint, description),
// normalised by the best candidate, with a TF-IDF cosine whose fields
// weigh name 3.0, hint 2.5 and description 1.0: 0.4 × keyword + 0.6 ×
// TF-IDF, results under 0.10 hidden. CJK text is cut into letters and
// letter pairs, and a small glossary (glossary.txt) bridges Chinese words
// and English descriptions.
//
// # Prefetch
//
// At the first request the user's prompt is searched; after each
// assistant message the conversation is searched in the background and
// what it finds is announced before the next request. Only tools whose
// own name words all appear in the text are recommended, each once per
// session (a bounded set of 500, trimmed to 400).
//
// This package must not be imported by the engine or the tool package.
package toolsearch
