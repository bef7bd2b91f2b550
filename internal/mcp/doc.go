// Package mcp connects reins to Model Context Protocol servers and serves
// reins's own tools as one.
//
// # Configuration
//
// Load merges the servers of every source: user scope (Claude Code's
// ~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json, "mcpServers", then
// reins's <config dir>/mcp.json), the project's .mcp.json (each server
// started only once approved: see Approval; the answers Claude Code keeps
// in its file's project entry count too), local scope (the "projects"[<path>]["mcpServers"] of the same
// two files), then --mcp-config values; --strict-mcp-config keeps only the
// latter. ${VAR} and ${VAR:-default} are expanded in commands, args, env
// values, URLs and header values when a server starts; a server whose
// configuration uses a variable that is unset with no default is not
// started (it fails, naming the variables). AddServer and
// RemoveServer edit the files for `reins mcp add|remove`;
// `reins mcp reset-project-choices` forgets the approvals (through
// CommandOptions.ResetChoices).
//
// # Client
//
// A Manager connects every enabled server in parallel in the background
// (stdio, streamable HTTP, SSE, and "sdk" servers through an SDKHost the
// SDK front end provides). Status reports each server as pending,
// connected, failed, needs-auth or disabled, with the reason. A server
// whose connection ends is reported failed and reconnected with backoff;
// tools/list_changed (and the prompt and resource equivalents) refresh its
// lists. Snapshot returns the tools and prompts of the servers connected at
// that moment; the engine takes one per turn, so a server connecting
// mid-turn appears at the next (DESIGN invariant 3). Close ends every
// process, connection and goroutine. A stdio server's stdout lines that
// are not JSON-RPC (banners, stray prints) are skipped and kept with its
// stderr; a remote server's headersHelper runs before each connection.
// A managed-mcp.json, when an administrator installed one, is the only
// source.
//
// A remote server that answers 401 is needs-auth until Login (`reins mcp
// login <name>`) runs the OAuth authorization code flow of the MCP
// authorization spec: the server's resource metadata names its
// authorization server, reins registers itself there (or uses the client
// registered in advance that the entry's "oauth" block names, from `reins
// mcp add --client-id --client-secret --callback-port`, its secret kept
// with the credentials), the user approves in a browser with PKCE, and the answer comes back to a one-time loopback
// listener. The tokens go to a CredentialStore (owner-only JSON, keyed by
// server name and URL), from which later connections send them, refreshed
// and saved again when they expire.
//
// A server may ask the user for input while it works on a request
// (elicitation, in the old server-to-client request form or the newer
// multi round-trip form): reins declares that it can be asked, and
// Options.Elicit answers (the front end, after the Elicitation hooks);
// without it every such request is declined, so the server goes on.
//
// Each server tool becomes a *Tool named mcp__<server>__<tool>: read-only
// when annotated readOnlyHint (and then concurrency-safe), deferred unless
// its _meta asks "anthropic/alwaysLoad", its calls bounded by the tool
// timeout (the server entry's "timeout" in milliseconds, else
// MCP_TOOL_TIMEOUT, else Claude Code's 100,000,000 ms), its results mapped to text and image blocks
// with structuredContent kept as Data; the server's progress
// notifications for a call are the call's progress ("1/2: message"). A result over the MCP output limit
// (the tool's _meta "anthropic/maxResultSizeChars", else
// MAX_MCP_OUTPUT_TOKENS when set, else the ordinary limit on a tool
// result; see tool.UserLimited) is saved to a file and the model told
// which limit applied. Resources are reached through the
// ListMcpResourcesTool and ReadMcpResourceTool tools, and through @server:uri
// mentions in prompts (ResourceMentions, AttachResources); prompts are
// Prompt values the command registry turns into /mcp__<server>__<prompt>
// commands.
//
// # Server
//
// Serve exposes a list of tool.Tool values over stdio to any MCP client;
// every call passes the supplied tool.Gate, so reins's permission rules
// apply (a refusal comes back with the reason; what the gate does with a
// call that would ask is the caller's choice: `reins mcp serve` lets the
// client, which confirms each call with its user, have it).
//
// This package must not import the engine or any front end.
package mcp
