// Package sdk is the front end for programs that drive reins the way the
// Claude Agent SDKs drive Claude Code: `--input-format stream-json
// --output-format stream-json`, one JSON message per line each way, with a
// control protocol multiplexed over the same two streams.
//
// A Server reads the client's lines (Reader: blank, whitespace-only and
// CRLF lines are ignored, and a bad line is answered or reported without
// ending the session), runs one engine turn per user message in arrival
// order, and writes every turn's lines through a streamjson.Writer, ending
// each with its result line. While a turn streams it answers the client's
// control requests, matched by request_id:
//
//   - initialize: registers the client's hook callbacks (hooks.Handler
//     values that send hook_callback), lets the application apply agents,
//     system prompt, title, skills and planModeInstructions options, and
//     answers with commands, agents, the *_applied confirmations of what
//     it took at start-up (MCP servers, plugins, managedSettings,
//     settings, disallowedTools),
//     output styles, models and the account.
//   - interrupt: stops the running turn and every message queued before
//     the interrupt (each still gets its result line). A user message
//     with "priority":"now" does the same before it is queued; one with
//     "shouldQuery":false starts no turn (and has no result): its content
//     goes to the model with the next message that does.
//   - set_permission_mode, set_model, set_max_thinking_tokens,
//     mcp_status, mcp_reconnect, mcp_toggle, get_context_usage, stop_task,
//     rewind_files (with file checkpointing on).
//   - apply_flag_settings and update_settings (the settings layers),
//     get_settings, list_permission_rules, read_file, seed_read_state,
//     reload_skills, reload_plugins, reload_output_styles,
//     rename_session, generate_session_title (answered from a goroutine
//     of its own, as it waits on a model), get_usage,
//     cancel_async_message (drops a queued
//     message by uuid), set_mcp_permission_mode_override ("default" only:
//     it narrows).
//   - reload_plugins finds the plugins again (add_plugins folders join
//     them) and answers with them; the servers of plugins it adds start
//     under managers of their own, which mcp_set_servers leaves alone.
//   - mcp_reconnect: reconnects a server at once (not as a crash, with
//     no backoff) and answers from a goroutine of its own once the
//     server is connected again, or with why it is not.
//   - mcp_set_servers: replaces the MCP servers the client gave at run
//     time (its own, declared in initialize, and those of earlier sets),
//     each under an MCP manager of its own, and answers once the new ones
//     have settled; mcp_read_resource reads a ui:// resource. Both are
//     answered from a goroutine of their own, since the client's servers
//     answer through the input being read.
//   - a repeated initialize (the SDK's reinitialize) registers the
//     client's hooks again, in place of the earlier ones, and answers as
//     the first did.
//   - a "/clear" prompt starts a new conversation under a new session id,
//     announced by a conversation_reset line and then the turn's one init
//     line, under the new id, before its result.
//   - a turn that ends on an API error writes a synthetic assistant
//     line (model "<synthetic>", error naming the kind) before its
//     result.
//   - an interrupted turn writes the message it leaves in the
//     conversation ("[Request interrupted by user]") as a user line
//     before its result.
//
// Anything else, or a request whose fields are malformed, is answered with
// an error control_response; the client never waits on a request reins
// cannot serve.
//
// reins's own requests go the other way: can_use_tool (Server.Asker, an
// engine.Asker for --permission-prompt-tool stdio), hook_callback, and
// mcp_message (Server.MCPHost, for {"type":"sdk"} MCP servers). A request
// abandoned before its answer (its turn was interrupted) is withdrawn with
// control_cancel_request; once the client's input has ended, pending and
// new requests fail at once instead of waiting. A can_use_tool request
// names the tool for people (display_name: an MCP tool's title) and says
// what the call does (description); a deny answer with interrupt set gives
// the model RejectedText whatever its message says. A hook_callback
// request carries the tool call's id, or for other events a fresh UUID.
//
// With a JSON schema (--json-schema, or jsonSchema in initialize) the
// Server adds the StructuredOutput tool to each turn (Server.Tools) and
// reminds the model a bounded number of times when it ends a turn without
// calling it; the input it gave becomes the result's structured_output,
// or the result is error_max_structured_output_retries.
//
// With Config.Background, background tasks that finish while no message
// waits give the model a turn of their own (their notifications as its
// input, with its own result line), and once the input has ended the
// Server waits for the tasks still running, up to the limit the
// application gives, before Run returns.
//
// Session state lines (system/session_state_changed: running,
// requires_action while a permission question waits, idle after each
// result) tell SDK hosts what the session is doing.
//
// This package speaks the protocol; deciding permissions, running hooks
// and connecting MCP servers belong to the packages it is given.
package sdk
