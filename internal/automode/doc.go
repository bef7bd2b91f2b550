// Package automode is Claude Code's auto permission mode: a classifier, a
// side call to the model, reviews in place of the user the tool calls
// that would otherwise ask for approval.
//
// The permission package decides first, as in every mode: deny, ask and
// allow rules apply as written (except Bash allow rules that let any code
// run, which auto mode sets aside), reads and edits inside the working
// folders are allowed as in acceptEdits, and writes to protected paths
// (.git, .claude, .vscode, .idea, shell start-up files …) still ask the
// user. What is left (permission.Decision.Classify) goes to Classifier;
// the engine's gate runs the call on "allow", refuses it with the
// classifier's reason on "block", and asks the user when the classifier
// cannot answer.
//
// The classifier's system prompt is SystemPrompt: how to decide, then
// the rules in four sections, allow (exceptions), soft_deny (destructive
// or irreversible actions that the user's clear request can clear),
// hard_deny (boundaries no request clears) and environment (what the
// user's setup trusts). Defaults holds the built-in rules; the autoMode
// setting changes them (Resolve, with "$defaults" splicing the built-in
// list in). The model sees the user's own messages and the assistant's
// earlier tool calls, never tool results, and the action (Prompt), and
// answers by calling the VerdictTool tool, which the request forces. For
// a sub-agent's call it also sees the conversation that started the
// sub-agent, and the sub-agent's task is marked as an agent's words: only
// the user's messages can clear a soft_deny rule.
//
// Guard pauses auto mode after MaxConsecutiveBlocks blocks in a row
// (until the user approves an action) or MaxTotalBlocks in a session
// (for the rest of it): actions then go to the user again.
package automode
