package settings

import (
	"encoding/json"
	"sort"
)

// safeEnv are the environment variables an untrusted project may set: they
// tune models, limits and UI, and none of them sends data to a new place,
// loads code, or changes credentials, base URLs or proxies.
var safeEnv = map[string]bool{
	"ANTHROPIC_MODEL":                          true,
	"ANTHROPIC_SMALL_FAST_MODEL":               true,
	"ANTHROPIC_DEFAULT_OPUS_MODEL":             true,
	"ANTHROPIC_DEFAULT_SONNET_MODEL":           true,
	"ANTHROPIC_DEFAULT_HAIKU_MODEL":            true,
	"CLAUDE_CODE_SUBAGENT_MODEL":               true,
	"CLAUDE_CODE_MAX_OUTPUT_TOKENS":            true,
	"CLAUDE_CODE_EFFORT_LEVEL":                 true,
	"MAX_THINKING_TOKENS":                      true,
	"BASH_DEFAULT_TIMEOUT_MS":                  true,
	"BASH_MAX_TIMEOUT_MS":                      true,
	"BASH_MAX_OUTPUT_LENGTH":                   true,
	"CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR": true,
	"MAX_MCP_OUTPUT_TOKENS":                    true,
	"MCP_TIMEOUT":                              true,
	"MCP_TOOL_TIMEOUT":                         true,
	"ENABLE_TOOL_SEARCH":                       true,
	"DISABLE_AUTOUPDATER":                      true,
	"DISABLE_TELEMETRY":                        true,
	"DISABLE_ERROR_REPORTING":                  true,
	"DISABLE_BUG_COMMAND":                      true,
	"DISABLE_COST_WARNINGS":                    true,
	"DISABLE_NON_ESSENTIAL_MODEL_CALLS":        true,
	"DISABLE_PROMPT_CACHING":                   true,
	"DISABLE_AUTO_COMPACT":                     true,
	"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE":          true,
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": true,
	"CLAUDE_CODE_DISABLE_TERMINAL_TITLE":       true,
	"CLAUDE_CODE_USE_BEDROCK":                  true,
	"CLAUDE_CODE_USE_VERTEX":                   true,
	"CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL":        true,
	"USE_BUILTIN_RIPGREP":                      true,
	"OTEL_EXPORTER_OTLP_PROTOCOL":              true,
	"OTEL_METRIC_EXPORT_INTERVAL":              true,
	"OTEL_LOGS_EXPORT_INTERVAL":                true,
	"REINS_MODEL":                              true,
	"REINS_DISABLE_TELEMETRY":                  true,
}

// SafeEnv reports whether an untrusted project may set the environment
// variable name.
func SafeEnv(name string) bool { return safeEnv[name] }

// SafeEnvNames lists the variables SafeEnv allows, sorted.
func SafeEnvNames() []string {
	out := make([]string, 0, len(safeEnv))
	for k := range safeEnv {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// safeProjectKeys are the top-level keys an untrusted project file may set
// as they are. permissions and env are filtered separately.
var safeProjectKeys = map[string]bool{
	"$schema": true, "model": true, "models": true, "cleanupPeriodDays": true,
	"includeCoAuthoredBy": true, "disableAllHooks": true, "outputStyle": true,
	"spinnerTipsEnabled": true, "alwaysThinkingEnabled": true, "showThinkingSummaries": true,
	"respectGitignore": true, "theme": true, "language": true, "attribution": true,
	"includeGitInstructions": true, "sandbox": true, "verbose": true, "autoCompactEnabled": true,
	"effortLevel": true,
}

// restrict reduces an untrusted project file to its safe subset in place
// and returns what it held back.
func restrict(file string, fd *fileData) []Withheld {
	var held []Withheld
	for _, key := range fd.order {
		raw, ok := fd.values[key]
		if !ok {
			continue
		}
		switch {
		case key == "env":
			var env map[string]any
			_ = json.Unmarshal(raw, &env)
			kept := map[string]any{}
			names := make([]string, 0, len(env))
			for k := range env {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				if safeEnv[k] {
					kept[k] = env[k]
				} else {
					held = append(held, Withheld{File: file, What: "env " + k})
				}
			}
			fd.values[key] = mustMarshal(kept)
		case key == "permissions":
			var p map[string]json.RawMessage
			_ = json.Unmarshal(raw, &p)
			for _, k := range []string{"allow", "additionalDirectories"} {
				if _, ok := p[k]; ok {
					held = append(held, Withheld{File: file, What: "permissions." + k})
					delete(p, k)
				}
			}
			if m, ok := p["defaultMode"]; ok {
				var mode string
				_ = json.Unmarshal(m, &mode)
				if mode != "default" && mode != "manual" && mode != "plan" {
					held = append(held, Withheld{File: file, What: "permissions.defaultMode " + mode})
					delete(p, "defaultMode")
				}
			}
			fd.values[key] = mustMarshal(p)
		case !safeProjectKeys[key]:
			held = append(held, Withheld{File: file, What: key})
			delete(fd.values, key)
		}
	}
	return held
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		// Values here come from json.Unmarshal and always marshal.
		panic("settings: re-encoding a decoded value: " + err.Error())
	}
	return b
}
