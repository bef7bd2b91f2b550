package cli

import (
	"reins/internal/prompt"
	"reins/internal/settings"
	"reins/internal/tool"
)

// Bare mode (--bare, or CLAUDE_CODE_SIMPLE set in the environment) is
// Claude Code's minimal mode for scripts: a run does the same on every
// machine because it reads nothing the user or the project configured on
// disk. It skips
//   - hooks from settings files (hooks in --settings, plugins loaded with
//     --plugin-dir and skills run by name still apply);
//   - CLAUDE.md, CLAUDE.local.md and rules (managed memory, which an
//     administrator sets, still loads, and so does an --add-dir folder's
//     memory with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD);
//   - MCP servers from .mcp.json and the user's configuration (--mcp-config
//     and --plugin-dir servers start);
//   - enabled plugins (--plugin-dir loads), agent files (--agents
//     defines), output styles, and an apiKeyHelper not given in --settings.
//
// The model gets a short system prompt (who it is, the working folder and
// the date, then --append-system-prompt) and the Bash, Read and Edit
// tools, with Agent too when --agents defines sub-agents; --tools still
// chooses from every built-in. Permission rules and the settings env
// apply as usual. Custom commands and skills still run when the prompt
// names them (/name), as Claude Code's bare mode resolves them.

// simpleEnv is the variable that turns bare mode on, and that --bare sets
// for the tools, hooks and MCP servers it starts.
const simpleEnv = "CLAUDE_CODE_SIMPLE"

// bare reports whether the session runs in bare mode.
func (a *app) bare() bool {
	return a.opts.Bare || envTrue(a.env.Getenv(simpleEnv))
}

// simpleTool reports whether a built-in is one of bare mode's.
func simpleTool(name string) bool {
	switch name {
	case "Bash", "Read", "Edit":
		return true
	}
	return false
}

// bareTools narrows the built-ins to bare mode's.
func (a *app) bareTools(all []tool.Tool) []tool.Tool {
	var out []tool.Tool
	for _, t := range all {
		if simpleTool(t.Name()) || (t.Name() == "Agent" && len(a.flagAgents) > 0) {
			out = append(out, t)
		}
	}
	return out
}

// applyBareSettings drops what bare mode does not take from settings
// files: their hooks and their apiKeyHelper (those of --settings stay).
func (a *app) applyBareSettings() {
	s := a.settings
	if s == nil {
		return
	}
	kept := map[string][]settings.HookMatcher{}
	for ev, ms := range s.Hooks {
		for _, m := range ms {
			if m.Source == settings.SourceFlag {
				kept[ev] = append(kept[ev], m)
			}
		}
	}
	s.Hooks = kept
	if s.APIKeyHelper != nil && s.APIKeyHelper.Source != settings.SourceFlag {
		s.APIKeyHelper = nil
	}
}

// bareMemoryKinds are the memory kinds bare mode loads besides managed
// memory: an --add-dir folder's, when the environment asks for them.
func bareMemoryKinds() []prompt.Kind { return []prompt.Kind{prompt.KindAdditional} }
