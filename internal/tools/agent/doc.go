// Package agent is the Agent tool (formerly Task): it starts a sub-agent
// of a type from the agent catalog, in the foreground (the call runs the
// sub-agent to the end, passes its events up as progress, and returns its
// final report with usage) or in the background (the sub-agent becomes a
// task in the session's registry and the call returns its id at once).
// A foreground run registers itself as movable (task.Registry.AddMovable):
// moved by the user (Ctrl+B, the SDK's background_tasks), the call
// answers at once like a background launch and the sub-agent finishes as
// a task under its agent id.
//
// The tool decides what to start and narrows it: the sub-agent gets only
// the parent's tools that its definition allows (never the main-only ones,
// and the Agent tool only while nesting is allowed), the model its
// definition or the caller names, and a background run cannot ask for
// permission. Running the conversation is the Spawner's job
// (internal/agent); the CLI implements it on the engine. Several calls in
// one turn run concurrently.
//
// This package must not import the engine or any front end.
package agent
