// Package taskoutput holds the tools that look after background tasks:
// TaskOutput reads what a task printed since the last look (optionally
// waiting for it to finish) and TaskStop ends a running task. Both work on
// the session's task.Registry, which the Bash tool (run_in_background) and
// background sub-agents fill.
//
// This package must not import the engine or any front end.
package taskoutput
