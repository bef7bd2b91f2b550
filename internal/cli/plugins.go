package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"reins/internal/agent"
	"reins/internal/command"
	"reins/internal/hooks"
	"reins/internal/mcp"
	"reins/internal/plugin"
	"reins/internal/settings"
	"reins/internal/streamjson"
)

// pluginOptions says where the session's plugins come from: the
// --plugin-dir folders and the plugins the settings enable.
func (a *app) pluginOptions() plugin.Options {
	var dirs []plugin.Dir
	for _, d := range a.opts.PluginDirs {
		dirs = append(dirs, plugin.Dir{Path: d})
	}
	for _, d := range a.opts.PluginDirsNoMCP {
		dirs = append(dirs, plugin.Dir{Path: d, NoMCP: true})
	}
	enabled := enabledPlugins(a.settings.Raw)
	if a.bare() {
		enabled = nil // bare mode loads --plugin-dir folders only
	}
	return plugin.Options{Dirs: dirs, Enabled: enabled, ClaudeDir: a.claudeDir, Cwd: a.cwd}
}

// enabledPlugins reads the merged enabledPlugins setting; entries that
// are not true or false are left out.
func enabledPlugins(raw map[string]json.RawMessage) map[string]bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw["enabledPlugins"], &m) != nil {
		return nil
	}
	out := map[string]bool{}
	for id, v := range m {
		var on bool
		if json.Unmarshal(v, &on) == nil {
			out[id] = on
		}
	}
	return out
}

// loadPlugins finds the session's plugins; what cannot load is reported
// as a warning and kept for the init line's plugin_errors.
func (a *app) loadPlugins() {
	ps, errs := plugin.Load(a.pluginOptions())
	a.mu.Lock()
	a.plugins, a.pluginErrors = ps, errs
	a.mu.Unlock()
	for _, e := range errs {
		a.warn(e.Error())
	}
	for _, p := range ps {
		for _, u := range p.Unsupported {
			a.warn(fmt.Sprintf("plugin %s: %s", p.ID, u))
		}
	}
}

// loadedPlugins returns the session's plugins and their load errors,
// those of their command, skill and agent files included.
func (a *app) loadedPlugins() ([]*plugin.Plugin, []plugin.Error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.plugins, append(slices.Clone(a.pluginErrors), a.partErrors...)
}

// pluginHooksOff reports whether settings keep plugins' hooks from
// running (disableAllHooks, allowManagedHooksOnly).
func (a *app) pluginHooksOff() bool {
	for _, k := range []string{"disableAllHooks", "allowManagedHooksOnly"} {
		var on bool
		if json.Unmarshal(a.settings.Raw[k], &on) == nil && on {
			return true
		}
	}
	return false
}

// setPluginHooks registers the plugins' hooks with the session's runner.
func (a *app) setPluginHooks() {
	if a.hookRun == nil {
		return
	}
	var sets []hooks.PluginHooks
	if !a.pluginHooksOff() {
		ps, _ := a.loadedPlugins()
		for _, p := range ps {
			if len(p.Hooks) > 0 {
				sets = append(sets, hooks.PluginHooks{Hooks: p.Hooks, Env: p.Env()})
			}
		}
	}
	a.hookRun.SetPluginHooks(sets)
}

// withPluginBins puts the plugins' bin/ folders first on env's PATH, so
// the Bash tool runs their programs by name.
func (a *app) withPluginBins(env []string) []string {
	ps, _ := a.loadedPlugins()
	var bins []string
	for _, p := range ps {
		if p.BinDir != "" {
			bins = append(bins, p.BinDir)
		}
	}
	if len(bins) == 0 {
		return env
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v // the last one counts
		}
	}
	if path != "" {
		bins = append(bins, path)
	}
	return append(env, "PATH="+strings.Join(bins, string(os.PathListSeparator)))
}

// pluginServers are the MCP servers of the session's plugins.
func (a *app) pluginServers() []mcp.Server {
	ps, _ := a.loadedPlugins()
	var out []mcp.Server
	for _, p := range ps {
		out = append(out, p.MCPServers...)
	}
	return out
}

// pluginParts reads the plugins' commands, skills and agents; files that
// cannot be used are noted for /doctor and kept for plugin_errors.
func (a *app) pluginParts() ([]*command.Command, []*agent.Definition) {
	ps, _ := a.loadedPlugins()
	cmds, defs, bad := readPluginParts(ps)
	for _, e := range bad {
		a.note(e.Error())
	}
	a.mu.Lock()
	a.partErrors = bad
	a.mu.Unlock()
	return cmds, defs
}

// readPluginParts reads the commands, skills and agents of ps; files
// that cannot be used come back as errors of their plugin.
func readPluginParts(ps []*plugin.Plugin) ([]*command.Command, []*agent.Definition, []plugin.Error) {
	var (
		cmds []*command.Command
		defs []*agent.Definition
		bad  []plugin.Error
	)
	for _, p := range ps {
		src := command.PluginSource{Name: p.Name, Commands: p.Commands, Skills: p.Skills, Expand: p.Expand}
		for _, ic := range p.InlineCommands {
			src.Inline = append(src.Inline, command.PluginCommand{Name: ic.Name, Path: ic.Source, Content: ic.Content,
				Description: ic.Description, ArgumentHint: ic.ArgumentHint, Model: ic.Model, AllowedTools: ic.AllowedTools})
		}
		cs, cerrs := command.LoadPlugin(src)
		ds, aerrs := agent.LoadPlugin(p.Name, p.Agents, p.Expand)
		for _, err := range append(cerrs, aerrs...) {
			bad = append(bad, plugin.Error{Plugin: p.ID, Type: plugin.ErrComponent, Message: err.Error()})
		}
		cmds = append(cmds, cs...)
		defs = append(defs, ds...)
	}
	return cmds, defs, bad
}

// freePluginCommands returns the plugin commands whose names cmds (the
// session's other commands) leave free: a user's or project's command of
// the same name wins.
func freePluginCommands(cmds, fromPlugins []*command.Command) []*command.Command {
	taken := map[string]bool{}
	for _, c := range cmds {
		if c.Source != command.SourceBuiltin && c.Source != command.SourceBundled {
			taken[c.Name] = true
		}
	}
	var out []*command.Command
	for _, c := range fromPlugins {
		if !taken[c.Name] {
			out = append(out, c)
		}
	}
	return out
}

// addPluginParts adds the plugins' commands, skills and agents to the
// session's (at start, once the disk commands are read).
func (a *app) addPluginParts() {
	cmds, defs := a.pluginParts()
	if free := freePluginCommands(a.commands.All(), cmds); len(free) > 0 {
		a.commands.Add(free...)
	}
	if len(defs) > 0 {
		a.mu.Lock()
		// Plugin agents rank below the user's and the project's: the
		// catalog keeps the higher source for one name.
		a.agents = a.agents.With(defs...)
		a.mu.Unlock()
	}
}

// rereadCommands reads the custom commands, skills and agents from disk
// again, plugins' included. Built-in commands, MCP prompts and the agents
// of --agents and of an SDK client stay.
func (a *app) rereadCommands() {
	cmds, defs := a.diskCommands()
	pcmds, pdefs := a.pluginParts()
	var fresh []*command.Command
	if a.front == frontPrint || a.front == frontSDK {
		fresh = a.headlessBuiltins()
	}
	fresh = append(fresh, cmds...)
	fresh = append(fresh, freePluginCommands(fresh, pcmds)...)
	for _, c := range a.commands.All() {
		if c.Source == command.SourceMCP {
			fresh = append(fresh, c)
		}
	}
	a.commands.Reset(fresh...)
	a.mu.Lock()
	defer a.mu.Unlock()
	var fromClient []*agent.Definition
	if a.agents != nil {
		for _, d := range a.agents.All() {
			if d.Source == agent.SourceSDK {
				fromClient = append(fromClient, d)
			}
		}
	}
	a.agents = agent.NewCatalog(agent.Builtin()...).With(pdefs...).With(defs...).With(a.flagAgents...).With(fromClient...)
}

// reloadPluginSet finds the plugins again and brings their hooks and
// readable folders up to date.
func (a *app) reloadPluginSet() {
	a.loadPlugins()
	a.setPluginHooks()
	if a.checker != nil {
		a.checker.SetReadDirs(a.readDirs())
	}
}

// reloadPlugins finds the plugins again and re-reads commands, skills,
// agents and the plugins' hooks (/reload-plugins in the terminal UI). The
// MCP servers of plugins that appeared start, those of plugins that went
// away stop, and those whose configuration changed restart; the answer
// says which.
func (a *app) reloadPlugins(context.Context, string) (string, error) {
	before := a.pluginServers()
	a.reloadPluginSet()
	a.rereadCommands()
	ps, errs := a.loadedPlugins()
	msg := fmt.Sprintf("Reloaded: %d plugin(s)", len(ps))
	if len(errs) > 0 {
		msg += fmt.Sprintf(", %d error(s) (see /plugin)", len(errs))
	}
	msg += "."
	ch, err := a.syncPluginServers(before)
	for _, l := range []struct {
		label string
		names []string
	}{{"started", ch.started}, {"restarted", ch.restarted}, {"stopped", ch.stopped}} {
		if len(l.names) > 0 {
			msg += fmt.Sprintf(" MCP servers %s: %s.", l.label, strings.Join(l.names, ", "))
		}
	}
	if err != nil {
		msg += " " + err.Error()
	}
	return msg, nil
}

// serverChanges are the plugin MCP servers a reload started, restarted
// (their configuration changed) and stopped.
type serverChanges struct {
	started, restarted, stopped []string
}

// syncPluginServers brings the running plugin MCP servers in line with
// the plugins now loaded; before are the plugins' servers as they were.
// The servers go through the same configuration (managed policy,
// --strict-mcp-config) as at start.
func (a *app) syncPluginServers(before []mcp.Server) (serverChanges, error) {
	var ch serverChanges
	cfg, err := mcp.Load(a.mcpLoadOptions())
	if err != nil {
		return ch, fmt.Errorf("MCP servers not reloaded: %w", err)
	}
	want := map[string]mcp.Server{}
	for _, s := range cfg.Servers {
		if s.Scope == mcp.ScopePlugin {
			want[s.Name] = s
		}
	}
	old := map[string]mcp.ServerConfig{}
	for _, s := range before {
		old[s.Name] = s.Config
	}
	now := map[string]mcp.ServerConfig{}
	for _, s := range a.pluginServers() {
		now[s.Name] = s.Config
	}
	running := map[string]bool{}
	if a.mcpm() != nil {
		for _, st := range a.mcpm().Status() {
			if st.Scope == mcp.ScopePlugin {
				running[st.Name] = true
			}
		}
	}
	changed := func(name string) bool { return !reflect.DeepEqual(old[name], now[name]) }
	for _, name := range slices.Sorted(maps.Keys(running)) {
		if _, ok := want[name]; !ok {
			a.mcpm().Remove(name)
			ch.stopped = append(ch.stopped, name)
		}
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if running[name] && !changed(name) {
			continue
		}
		if a.mcpm() == nil {
			a.newMCPManager(nil)
		}
		if running[name] {
			a.mcpm().Remove(name)
		}
		if err := a.mcpm().Add(want[name]); err != nil {
			errs = append(errs, err)
			continue
		}
		if running[name] {
			ch.restarted = append(ch.restarted, name)
		} else {
			ch.started = append(ch.started, name)
		}
	}
	return ch, errors.Join(errs...)
}

// pluginInfos describes the loaded plugins for the init line and
// reload_plugins.
func (a *app) pluginInfos() []streamjson.Plugin {
	ps, _ := a.loadedPlugins()
	out := []streamjson.Plugin{}
	for _, p := range ps {
		out = append(out, streamjson.Plugin{Name: p.Name, Path: p.Root, Source: p.ID, Version: p.Version})
	}
	return out
}

// pluginErrorInfos are the plugin load errors for the init line.
func (a *app) pluginErrorInfos() []streamjson.PluginError {
	_, errs := a.loadedPlugins()
	var out []streamjson.PluginError
	for _, e := range errs {
		out = append(out, streamjson.PluginError{Plugin: e.Plugin, Type: e.Type, Message: e.Message, Path: e.Path})
	}
	return out
}

// viewPlugins lists the loaded plugins and what they bring, and the
// installed plugins settings leave disabled (/plugin).
func (a *app) viewPlugins(_ context.Context, args string) (string, error) {
	if f := strings.Fields(args); len(f) > 0 && f[0] != "list" {
		return "", fmt.Errorf("/plugin %s: reins loads plugins but does not install them. Load a plugin folder for a session with --plugin-dir PATH, or install it with Claude Code (claude plugin install NAME@MARKETPLACE) and enable it in settings (\"enabledPlugins\": {\"NAME@MARKETPLACE\": true}); reins reads Claude Code's installed plugins", f[0])
	}
	ps, errs := a.loadedPlugins()
	parts := map[string]*pluginParts{}
	for _, p := range ps {
		parts[p.Name] = &pluginParts{}
	}
	owner := func(name string) *pluginParts {
		plug, _, ok := strings.Cut(name, ":")
		if !ok {
			return nil
		}
		return parts[plug]
	}
	if a.commands != nil {
		for _, c := range a.commands.All() {
			if pp := owner(c.Name); pp != nil && c.Source == command.SourcePlugin {
				if c.Skill {
					pp.skills = append(pp.skills, c.Name)
				} else {
					pp.commands = append(pp.commands, "/"+c.Name)
				}
			}
		}
	}
	if cat := a.agentCatalog(); cat != nil {
		for _, d := range cat.All() {
			if pp := owner(d.Name); pp != nil && d.Source == agent.SourcePlugin {
				pp.agents = append(pp.agents, d.Name)
			}
		}
	}
	a.mu.Lock()
	opts := a.pluginOptions()
	a.mu.Unlock()
	disabled, _ := disabledPlugins(opts, ps) // unreadable records are among errs when they matter
	return describePluginsWith(ps, errs, parts) + describeDisabled(disabled), nil
}

// pluginParts are the names of what one plugin brought to the session.
type pluginParts struct {
	commands, skills, agents []string
}

// describePlugins renders plugins and load errors for people.
func describePlugins(ps []*plugin.Plugin, errs []plugin.Error) string {
	return describePluginsWith(ps, errs, nil)
}

// describePluginsWith renders plugins, with the commands, skills and
// agents of each when parts has them, and the load errors.
func describePluginsWith(ps []*plugin.Plugin, errs []plugin.Error, parts map[string]*pluginParts) string {
	var b strings.Builder
	if len(ps) == 0 {
		b.WriteString("No plugins are loaded. Load one with --plugin-dir PATH, or enable an installed one in settings (\"enabledPlugins\": {\"NAME@MARKETPLACE\": true}).\n")
	} else {
		b.WriteString("Plugins\n")
	}
	for _, p := range ps {
		line := "  " + p.ID
		if p.Version != "" {
			line += " " + p.Version
		}
		line += "  " + p.Root
		b.WriteString(line + "\n")
		if p.Description != "" {
			b.WriteString("    " + p.Description + "\n")
		}
		if pp := parts[p.Name]; pp != nil {
			for _, l := range []struct {
				label string
				names []string
			}{{"commands", pp.commands}, {"skills", pp.skills}, {"agents", pp.agents}} {
				if len(l.names) > 0 {
					b.WriteString("    " + l.label + ": " + strings.Join(l.names, ", ") + "\n")
				}
			}
		}
		var extra []string
		if n := len(p.MCPServers); n > 0 {
			var names []string
			for _, s := range p.MCPServers {
				names = append(names, s.Name)
			}
			extra = append(extra, fmt.Sprintf("%d MCP server(s): %s", n, strings.Join(names, ", ")))
		}
		if n := len(p.Hooks); n > 0 {
			extra = append(extra, fmt.Sprintf("hooks for %d event(s)", n))
		}
		if len(extra) > 0 {
			b.WriteString("    " + strings.Join(extra, "; ") + "\n")
		}
	}
	if len(errs) > 0 {
		b.WriteString("Errors\n")
		for _, e := range errs {
			b.WriteString("  " + e.Error() + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// disabledPlugins are the plugins Claude Code installed for this
// project that settings do not enable (and that are not loaded from a
// folder instead), or why the install records cannot be read.
func disabledPlugins(opts plugin.Options, loaded []*plugin.Plugin) ([]plugin.Installed, error) {
	all, err := plugin.InstalledPlugins(opts)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, p := range loaded {
		ids[p.ID] = true
	}
	var out []plugin.Installed
	for _, in := range all {
		if !in.Enabled && !ids[in.ID] {
			out = append(out, in)
		}
	}
	return out, nil
}

// describeDisabled renders installed plugins that are not enabled, for
// `reins plugin list`; "" when there are none.
func describeDisabled(ds []plugin.Installed) string {
	if len(ds) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nInstalled but disabled (enable one in settings: \"enabledPlugins\": {\"NAME@MARKETPLACE\": true})\n")
	for _, d := range ds {
		line := "  " + d.ID
		if d.Version != "" {
			line += " " + d.Version
		}
		b.WriteString(line + "  " + d.Path + "  (disabled)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// pluginCommand is `reins plugin`: `reins plugin list` shows the plugins
// a session in this folder would load. Installing is Claude Code's job.
func pluginCommand(env *Env, cwd, claudeDir string, settingsHere func() (*settings.Settings, error)) *cobra.Command {
	root := &cobra.Command{
		Use:   "plugin",
		Short: "List the Claude Code plugins a session here loads (reins does not install plugins)",
		Args:  cobra.NoArgs,
	}
	var (
		asJSON bool
		dirs   []string
	)
	list := &cobra.Command{
		Use:   "list",
		Short: "List the plugins enabled in settings and installed by Claude Code, --plugin-dir folders, and installed plugins that are disabled",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := settingsHere()
			if err != nil {
				return err
			}
			opts := plugin.Options{Enabled: enabledPlugins(s.Raw), ClaudeDir: claudeDir, Cwd: cwd}
			for _, d := range dirs {
				opts.Dirs = append(opts.Dirs, plugin.Dir{Path: d})
			}
			ps, errs := plugin.Load(opts)
			disabled, err := disabledPlugins(opts, ps)
			if err != nil && !slices.ContainsFunc(errs, func(e plugin.Error) bool { return e.Type == plugin.ErrInstallRecords }) {
				errs = append(errs, plugin.Error{Plugin: "installed plugins", Type: plugin.ErrInstallRecords, Message: err.Error() + "; installed plugins cannot be listed"})
			}
			if !asJSON {
				_, err := fmt.Fprintln(env.Stdout, describePlugins(ps, errs)+describeDisabled(disabled))
				return err
			}
			type row struct {
				ID          string `json:"id"`
				Name        string `json:"name"`
				Version     string `json:"version,omitempty"`
				Description string `json:"description,omitempty"`
				Path        string `json:"path"`
				Enabled     bool   `json:"enabled"`
			}
			out := struct {
				Plugins []row          `json:"plugins"`
				Errors  []plugin.Error `json:"errors"`
			}{Plugins: []row{}, Errors: errs}
			if out.Errors == nil {
				out.Errors = []plugin.Error{}
			}
			for _, p := range ps {
				out.Plugins = append(out.Plugins, row{ID: p.ID, Name: p.Name, Version: p.Version, Description: p.Description, Path: p.Root, Enabled: true})
			}
			for _, d := range disabled {
				out.Plugins = append(out.Plugins, row{ID: d.ID, Name: d.Name, Version: d.Version, Path: d.Path})
			}
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(out)
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	list.Flags().StringArrayVar(&dirs, "plugin-dir", nil, "also a plugin folder, as a session's --plugin-dir")
	for _, verb := range []string{"install", "uninstall", "enable", "disable", "update", "marketplace"} {
		root.AddCommand(&cobra.Command{
			Use:                verb,
			Short:              "Not in reins: use Claude Code (claude plugin " + verb + ")",
			DisableFlagParsing: true,
			RunE: func(*cobra.Command, []string) error {
				return fmt.Errorf("reins plugin %s: reins loads plugins but does not install or manage them; run claude plugin %s, and reins will load what Claude Code installed and your settings enable (or use --plugin-dir PATH for a folder)", verb, verb)
			},
		})
	}
	validate := &cobra.Command{
		Use:   "validate PATH",
		Short: "Check a plugin folder: its manifest, hooks, MCP servers, commands, skills and agents",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ps, errs := plugin.Load(plugin.Options{Dirs: []plugin.Dir{{Path: args[0]}}, ClaudeDir: claudeDir, Cwd: cwd})
			cmds, defs, bad := readPluginParts(ps)
			errs = append(errs, bad...)
			for _, p := range ps {
				for _, u := range p.Unsupported {
					fmt.Fprintf(env.Stdout, "warning: %s\n", u)
				}
			}
			for _, e := range errs {
				fmt.Fprintf(env.Stdout, "error: %s\n", e.Message)
			}
			if len(errs) > 0 {
				return exitError{1}
			}
			p := ps[0]
			_, err := fmt.Fprintf(env.Stdout, "%s is a valid plugin: %s, %d command(s) and skill(s), %d agent(s), hooks for %d event(s), %d MCP server(s)\n",
				p.Root, p.ID, len(cmds), len(defs), len(p.Hooks), len(p.MCPServers))
			return err
		},
	}
	root.AddCommand(list, validate)
	return root
}
