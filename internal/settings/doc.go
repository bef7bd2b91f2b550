// Package settings loads and merges reins' settings files, which use Claude
// Code's format so that existing .claude/settings.json files work unchanged.
//
// # Sources
//
// Load reads, highest precedence first:
//
//   - managed policy: /etc/reins/managed-settings.json,
//     /etc/claude-code/managed-settings.json and macOS's
//     /Library/Application Support/ClaudeCode/managed-settings.json, each
//     with the *.json files of its drop-in folder (managed-settings.d/,
//     merged over it in name order, hidden files left out); when none is
//     installed, the folder $REINS_MANAGED_SETTINGS_DIR names
//     (SourcePolicy);
//   - when no managed policy is installed, the policy settings of the
//     program that started reins (--managed-settings, the Agent SDK's
//     managedSettings), their restrictive part only (SourcePolicy);
//   - the --settings flag, a file or inline JSON (SourceFlag);
//   - local project: .reins/settings.local.json and
//     .claude/settings.local.json (SourceLocal);
//   - shared project: .reins/settings.json and .claude/settings.json
//     (SourceProject);
//   - user: ~/.reins/settings.json and ~/.claude/settings.json (SourceUser).
//
// Within one source the .reins/ twin wins over the .claude/ file.
//
// # Merge
//
// Scalars take the value of the highest source that sets them; objects are
// merged key by key; arrays (permission rules, hook lists, directories) are
// concatenated and de-duplicated. Permission rules, additional directories
// and hooks also keep their origin (source, file, and the folder a
// "/path" rule is relative to) so that the permission and hook packages can
// evaluate them as their authors meant.
//
// Auto mode: permissions.defaultMode "auto" and the autoMode object are
// not taken from shared project settings (a repository must not switch
// its users into auto mode or widen what its classifier allows); they are
// ignored there with a warning. disableAutoMode "disable" (or true)
// counts from any source, at the top level or inside permissions.
//
// # Trust
//
// Until a folder is trusted, its project and local files apply only a safe
// subset (see SafeEnv and Settings.Withheld): deny and ask rules, a narrowing
// default mode, the model, and allowlisted environment variables. Hooks,
// apiKeyHelper, allow rules, additional directories and every other env var
// wait for trust.
//
// # Errors
//
// A user, project or flag file that is not valid JSON is reported as a
// Warning naming its path, line and column, and skipped. A managed-policy
// file that exists but cannot be read or parsed makes Load fail: policy
// fails closed.
//
// This package reads and writes files (and runs only the apiKeyHelper
// command, and git to keep a new settings.local.json out of commits); it
// does not decide permissions or run hooks (see the permission and hooks
// packages).
package settings
