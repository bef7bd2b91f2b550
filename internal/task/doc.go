// Package task keeps the session's background tasks: shell commands the
// Bash tool started with run_in_background, and (later) sub-agents sent to
// the background. A task has an id, a kind, a description, a status
// (running, completed, failed, killed), start and end times, an exit code
// when it has one, and an output buffer the model reads incrementally
// ("what is new since I last looked").
//
// The Registry owns every task's goroutine: Start runs the task's
// RunFunc in a goroutine the registry waits for, Stop cancels the task's
// context (the RunFunc must then end its work, e.g. kill its process
// group), and Close stops everything and waits. Finished tasks are
// announced to the model once: TakeFinished returns the finished tasks
// not yet announced and marks them.
//
// The registry also knows the foreground tool calls that could go on as
// tasks (AddMovable); Background moves them when the user asks (Ctrl+B,
// the SDK's background_tasks).
//
// This package runs no processes itself and knows nothing of tools or the
// engine.
package task
