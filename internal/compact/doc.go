// Package compact keeps a session's history within the model's context
// window. A Compactor is the engine's engine.Compactor: before every
// request it runs, in order,
//
//   - microcompaction: when the prompt cache has certainly expired (no
//     request for MicroGap, 60 minutes by default), the results of older
//     Read, Bash, Grep, Glob, WebFetch, WebSearch, Edit and Write calls,
//     all but the newest five, are replaced by a short placeholder. It
//     costs no model call and is idempotent.
//   - autocompaction: when the context in use (the last response's exact
//     usage plus an estimate of what came after it) reaches the threshold
//     (window − min(max output, 20,000) − 13,000, lowered by
//     REINS_AUTOCOMPACT_PCT or CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), the
//     history is summarised by the model and replaced: a compaction
//     boundary, the summary, the last API round kept verbatim, and
//     restored context (the files read most recently, re-read from disk,
//     the todo list, the plan, and the text of the skills and custom
//     commands run in the summarised part, most recent first, each cut to
//     MaxTokensPerSkill and all within RestoredSkillsBudget). Three
//     failures in a row turn
//     autocompaction off for the session; /compact still works.
//
// The summary call reuses the conversation's system prompt, tools and
// messages unchanged and only appends its request, so it reads the
// prompt cache instead of writing a new one. Any tool call in its reply
// fails the attempt; a summary request that is itself too long drops the
// oldest API rounds and retries, at most three times.
//
// Reactive compaction (after the API refused a prompt as too long) and
// manual compaction (/compact [instructions]) use the same path.
//
// The package changes history only through engine.Session (SetHistory,
// Record); it never writes transcript files itself.
package compact
