// Package agent holds sub-agent definitions: the built-in types
// (general-purpose, Explore, Plan), custom agents from .claude/agents and
// .reins/agents Markdown files, and agents given as JSON (--agents and the
// SDK initialize request). It resolves which definition wins for a name,
// which of the parent's tools a sub-agent gets, which model it runs, and
// the listing of agent types the model is shown.
//
// Precedence for one name, lowest first: built-in, plugin, user, project,
// flag (--agents, SDK), managed. Within one level the definition added
// later wins, so a .reins file beats its .claude twin.
//
// Permissions only narrow (DESIGN invariant 5): FilterTools never returns
// a tool the parent lacks, drops the tools only the main conversation may
// use, and drops the Agent tool unless nesting is allowed.
//
// The listing is a <system-reminder> for a message, not part of the Agent
// tool's description, so the tool list stays cache-stable.
//
// # Running sub-agents
//
// The runtime is split across layers. This package defines what a
// sub-agent run is (Spec, Result) and the Spawner and Conversation
// interfaces the CLI implements on the engine; the Agent tool
// (internal/tools/agent) decides what to start and reports the result;
// Gate narrows the parent's permission gate for a definition; and
// TaskReminders announces finished background tasks to the model.
//
// This package must not import the engine or any front end.
package agent
