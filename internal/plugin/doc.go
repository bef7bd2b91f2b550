// Package plugin finds and reads Claude Code plugins: folders with an
// optional .claude-plugin/plugin.json manifest and the standard layout
// (commands/, agents/, skills/<name>/SKILL.md, hooks/hooks.json, .mcp.json,
// and settings.json, whose one documented key, "agent", names the plugin
// agent the main conversation runs as).
//
// Plugins come from two places, both local: folders named for this
// session (--plugin-dir, the SDK's plugins option), and plugins the
// settings enable ("enabledPlugins": {"name@marketplace": true}) that
// Claude Code has installed, found through its install records
// (<claude config>/plugins/installed_plugins.json). Nothing is fetched:
// a plugin that is enabled but not installed is reported, not installed.
// InstalledPlugins lists every install that applies to the project,
// enabled or not.
//
// The package only reads and resolves: it says which files hold a
// plugin's commands, skills and agents, and returns its hooks (settings
// form) and MCP servers (named plugin:<plugin>:<server>) with
// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} expanded. The command,
// agent, hooks and mcp packages load and run them. Problems are returned
// as Errors that name the plugin, the file and what is wrong; a plugin
// with a bad component still loads the rest.
package plugin
