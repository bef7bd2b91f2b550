package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"reins/internal/fsutil"
	"reins/internal/mcp"
	"reins/internal/settings"
)

// InlineMarketplace is the marketplace part of the id of a plugin loaded
// from a folder for one session (--plugin-dir), as Claude Code names it.
const InlineMarketplace = "inline"

// Error types, as Claude Code reports them in plugin_errors.
const (
	ErrPathNotFound    = "path-not-found"
	ErrManifest        = "manifest-validation-error"
	ErrNotInstalled    = "plugin-not-installed"
	ErrHookLoad        = "hook-load-failed"
	ErrMCPConfig       = "mcp-config-invalid"
	ErrComponent       = "component-load-failed" // a command, skill or agent file that cannot be used
	ErrGeneric         = "generic-error"
	ErrInstallRecords  = "installed-plugins-unreadable"
	installedPluginsFN = "installed_plugins.json"
)

// Error is one problem loading plugins. Plugin is the plugin's id
// (name@marketplace), or inline[N] for the Nth folder given for the
// session when it failed before it had a name; Path is then that folder.
type Error struct {
	Plugin  string `json:"plugin"`
	Type    string `json:"type"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
}

// Error renders e as "plugin <id>: <message>".
func (e Error) Error() string { return "plugin " + e.Plugin + ": " + e.Message }

// Dir is a plugin folder given for the session.
type Dir struct {
	Path string
	// NoMCP leaves the plugin's MCP servers out (--plugin-dir-no-mcp, the
	// SDK's skipMcpDiscovery: the host runs them).
	NoMCP bool
}

// Options say where plugins come from.
type Options struct {
	// Dirs are the session's plugin folders (--plugin-dir), relative ones
	// resolved against Cwd.
	Dirs []Dir
	// Enabled is the merged enabledPlugins setting: plugin ids
	// (name@marketplace) to true or false.
	Enabled map[string]bool
	// ClaudeDir is Claude Code's config folder (~/.claude or
	// $CLAUDE_CONFIG_DIR): its plugins/installed_plugins.json says where
	// installed plugins are, and plugins/data/ holds their data folders.
	ClaudeDir string
	// Cwd is the project folder: an install of project or local scope
	// counts only for its own project.
	Cwd string
}

// Plugin is one loaded plugin: where its components are.
type Plugin struct {
	Name        string
	ID          string // name@marketplace
	Version     string
	Description string
	// Root is the plugin's folder (absolute): ${CLAUDE_PLUGIN_ROOT}.
	Root string
	// DataDir is the plugin's persistent data folder:
	// ${CLAUDE_PLUGIN_DATA}. It is created when a hook or MCP server may
	// use it.
	DataDir string
	// Inline is set for a plugin of a session folder (--plugin-dir).
	Inline bool

	// Commands are command files, folders of them, or skill folders;
	// InlineCommands are the manifest's object-form commands.
	Commands       []string
	InlineCommands []InlineCommand
	// Skills are folders of skill folders, or skill folders.
	Skills []string
	// Agents are agent files or folders of them.
	Agents []string
	// OutputStyles are output style files or folders of them.
	OutputStyles []string
	// Unsupported are parts of the plugin that are well formed but that
	// reins does not run (a hook event it does not fire, a hook type it
	// lacks): worth a warning, not a load error.
	Unsupported []string
	// Agent is the agent its settings.json names (the "agent" key, made
	// plugin:agent when given bare): the main conversation runs as it
	// unless the session names another. "" when there is none.
	Agent string
	// BinDir is the plugin's bin/ folder, "" when it has none: its
	// programs can be run by name from the Bash tool.
	BinDir string
	// Hooks are the plugin's hooks in settings form, commands expanded.
	Hooks map[string][]settings.HookMatcher
	// MCPServers are the plugin's servers, named plugin:<name>:<server>,
	// with the plugin's variables expanded.
	MCPServers []mcp.Server
}

// Expand replaces ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} in s.
func (p *Plugin) Expand(s string) string {
	if !strings.Contains(s, "${CLAUDE_PLUGIN_") {
		return s
	}
	return strings.NewReplacer("${CLAUDE_PLUGIN_ROOT}", p.Root, "${CLAUDE_PLUGIN_DATA}", p.DataDir).Replace(s)
}

// Env is the environment a plugin's hooks and servers get: NAME=value.
func (p *Plugin) Env() []string {
	return []string{"CLAUDE_PLUGIN_ROOT=" + p.Root, "CLAUDE_PLUGIN_DATA=" + p.DataDir}
}

// Load finds the plugins: those enabled in settings that Claude Code has
// installed, then the session's folders. A session folder's plugin
// replaces an installed one of the same name. Plugins that cannot load
// are left out and reported; a plugin with a broken component loads
// without it, and that is reported too.
func Load(opts Options) ([]*Plugin, []Error) {
	l := &loader{opts: opts}
	installed := l.installed()
	var dirs []*Plugin
	names := map[string]bool{}
	seen := map[string]bool{}
	for i, d := range opts.Dirs {
		tag := fmt.Sprintf("inline[%d]", i)
		root := d.Path
		if !filepath.IsAbs(root) && opts.Cwd != "" {
			root = filepath.Join(opts.Cwd, root)
		}
		root = filepath.Clean(root)
		if seen[root] {
			continue // the same folder given twice loads once
		}
		seen[root] = true
		p := l.load(root, "", InlineMarketplace, tag, d.NoMCP)
		if p == nil || names[p.Name] {
			if p != nil {
				l.errs = append(l.errs, Error{Plugin: tag, Type: ErrGeneric, Path: root,
					Message: fmt.Sprintf("%s: another plugin folder of this session is also named %q; this one is left out", root, p.Name)})
			}
			continue
		}
		p.Inline = true
		names[p.Name] = true
		dirs = append(dirs, p)
	}
	var out []*Plugin
	for _, p := range installed {
		if !names[p.Name] {
			out = append(out, p)
		}
	}
	return append(out, dirs...), l.errs
}

type loader struct {
	opts Options
	errs []Error
}

func (l *loader) fail(plugin, typ, path, format string, args ...any) {
	l.errs = append(l.errs, Error{Plugin: plugin, Type: typ, Path: path, Message: fmt.Sprintf(format, args...)})
}

// installRecord is one installation of a plugin in installed_plugins.json
// (version 2: a list per id; version 1: one object per id).
type installRecord struct {
	Scope       string `json:"scope"`
	ProjectPath string `json:"projectPath"`
	InstallPath string `json:"installPath"`
	Version     string `json:"version"`
}

// installed loads the plugins settings enable, from Claude Code's
// install records, sorted by id.
func (l *loader) installed() []*Plugin {
	var ids []string
	for id, on := range l.opts.Enabled {
		if on {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	sort.Strings(ids)
	records, recordsPath, err := l.readRecords()
	if err != nil {
		l.fail(ids[0], ErrInstallRecords, recordsPath, "%v; the plugins enabled in settings (%s) are not loaded", err, strings.Join(ids, ", "))
		return nil
	}
	var out []*Plugin
	for _, id := range ids {
		name, market, ok := strings.Cut(id, "@")
		if !ok || name == "" || market == "" {
			l.fail(id, ErrGeneric, "", "enabledPlugins key %q is not of the form name@marketplace", id)
			continue
		}
		rec, ok := l.pick(records[id])
		if !ok {
			l.fail(id, ErrNotInstalled, "", "enabled in settings but not installed (no entry in %s for this project); reins does not download plugins: install it with Claude Code (claude plugin install %s)", recordsPath, id)
			continue
		}
		if p := l.load(rec.InstallPath, name, market, id, false); p != nil {
			if p.Version == "" {
				p.Version = rec.Version
			}
			out = append(out, p)
		}
	}
	return out
}

// readRecords reads installed_plugins.json; a missing file has no records.
func (l *loader) readRecords() (map[string][]installRecord, string, error) {
	path := filepath.Join(l.opts.ClaudeDir, "plugins", installedPluginsFN)
	if l.opts.ClaudeDir == "" {
		return nil, path, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, fmt.Errorf("read %s: %w", path, err)
	}
	var file struct {
		Version int                        `json:"version"`
		Plugins map[string]json.RawMessage `json:"plugins"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, path, fmt.Errorf("read %s: %s", path, jsonMessage(err))
	}
	out := map[string][]installRecord{}
	for id, raw := range file.Plugins {
		var list []installRecord
		if json.Unmarshal(raw, &list) == nil {
			out[id] = list
			continue
		}
		var one installRecord
		if json.Unmarshal(raw, &one) == nil {
			out[id] = []installRecord{one}
		}
	}
	return out, path, nil
}

// pick chooses the installation that applies to this project: one of
// project or local scope made for it, else a user or managed one.
func (l *loader) pick(recs []installRecord) (installRecord, bool) {
	var fallback *installRecord
	for i, r := range recs {
		if r.InstallPath == "" {
			continue
		}
		switch r.Scope {
		case "project", "local":
			if r.ProjectPath != "" && l.opts.Cwd != "" && samePath(r.ProjectPath, l.opts.Cwd) {
				return r, true
			}
		default:
			if fallback == nil {
				fallback = &recs[i]
			}
		}
	}
	if fallback != nil {
		return *fallback, true
	}
	return installRecord{}, false
}

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 == nil && err2 == nil {
		return ra == rb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// load reads the plugin at root. name is the name its install gives
// ("" to take the manifest's, or the folder's); tag names it in errors
// until its name is known.
func (l *loader) load(root, name, market, tag string, noMCP bool) *Plugin {
	// An error of a session folder that did not load carries the folder,
	// for a host that gave several to tell which failed.
	at := ""
	if market == InlineMarketplace {
		at = root
	}
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.fail(tag, ErrPathNotFound, at, "plugin folder %s does not exist", root)
		return nil
	case err != nil:
		l.fail(tag, ErrPathNotFound, at, "plugin folder %s: %v", root, err)
		return nil
	case !fi.IsDir():
		l.fail(tag, ErrPathNotFound, at, "%s is not a folder (a plugin is a folder with .claude-plugin/plugin.json, commands/, skills/ ...)", root)
		return nil
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	var m *Manifest
	mpath := filepath.Join(root, filepath.FromSlash(ManifestFile))
	data, err := fsutil.ReadRegularFile(mpath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m = &Manifest{}
	case err != nil:
		l.fail(tag, ErrManifest, at, "read %s: %v", mpath, err)
		return nil
	default:
		var problems []error
		m, problems, err = ParseManifest(data)
		if err != nil {
			l.fail(tag, ErrManifest, at, "%s: %v; the plugin is not loaded", mpath, err)
			return nil
		}
		id := m.Name + "@" + market
		for _, pr := range problems {
			l.fail(id, ErrManifest, "", "%s: %v", mpath, pr)
		}
	}
	if name == "" {
		name = m.Name
	}
	if name == "" {
		name = filepath.Base(root)
		if err := CheckName(name); err != nil {
			l.fail(tag, ErrManifest, at, "%s has no %s, and its folder name %v; add a manifest with a name", root, ManifestFile, err)
			return nil
		}
	}
	p := &Plugin{Name: name, ID: name + "@" + market, Version: m.Version, Description: m.Description, Root: root}
	if l.opts.ClaudeDir != "" {
		p.DataDir = filepath.Join(l.opts.ClaudeDir, "plugins", "data", dataID(p.ID))
	}
	abs := func(rel []string) []string {
		out := make([]string, 0, len(rel))
		for _, r := range rel {
			out = append(out, filepath.Join(root, filepath.FromSlash(r)))
		}
		return out
	}
	existing := func(rel string) []string {
		if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
			return []string{filepath.Join(root, rel)}
		}
		return nil
	}
	if m.CommandsSet {
		p.Commands = abs(m.Commands)
	} else {
		p.Commands = existing("commands")
	}
	for _, c := range m.InlineCommands {
		if c.Source != "" {
			c.Source = filepath.Join(root, filepath.FromSlash(c.Source))
		}
		p.InlineCommands = append(p.InlineCommands, c)
	}
	if m.AgentsSet {
		p.Agents = abs(m.Agents)
	} else {
		p.Agents = existing("agents")
	}
	p.Skills = append(existing("skills"), abs(m.Skills)...)
	if m.OutputStylesSet {
		p.OutputStyles = abs(m.OutputStyles)
	} else {
		p.OutputStyles = existing("output-styles")
	}
	l.settings(p)
	if fi, err := os.Stat(filepath.Join(root, "bin")); err == nil && fi.IsDir() {
		p.BinDir = filepath.Join(root, "bin")
	}
	named := slices.Concat(abs(m.Commands), abs(m.Agents), abs(m.Skills), abs(m.OutputStyles))
	for _, c := range p.InlineCommands {
		if c.Source != "" {
			named = append(named, c.Source)
		}
	}
	missing := map[string]bool{}
	for _, path := range named {
		if _, err := os.Stat(path); err != nil {
			missing[path] = true
			l.fail(p.ID, ErrPathNotFound, "", "%s names %s, which does not exist", mpath, path)
		}
	}
	if len(missing) > 0 {
		// Reported once, here: the loaders are not given them.
		gone := func(path string) bool { return missing[path] }
		p.Commands = slices.DeleteFunc(p.Commands, gone)
		p.Agents = slices.DeleteFunc(p.Agents, gone)
		p.Skills = slices.DeleteFunc(p.Skills, gone)
		p.OutputStyles = slices.DeleteFunc(p.OutputStyles, gone)
		p.InlineCommands = slices.DeleteFunc(p.InlineCommands, func(c InlineCommand) bool { return c.Source != "" && missing[c.Source] })
	}
	l.hooks(p, m)
	if !noMCP {
		l.mcpServers(p, m)
	}
	if p.DataDir != "" && (len(p.Hooks) > 0 || len(p.MCPServers) > 0) {
		if err := os.MkdirAll(p.DataDir, 0o700); err != nil {
			l.fail(p.ID, ErrGeneric, "", "create the plugin's data folder %s: %v", p.DataDir, err)
		}
	}
	return p
}

// settingsFile is a plugin's default settings, at its root.
const settingsFile = "settings.json"

// settings reads the plugin's settings.json. Claude Code documents one
// key there, "agent" (the plugin agent the main conversation runs as);
// other keys are not applied, and each is named in a warning.
func (l *loader) settings(p *Plugin) {
	path := filepath.Join(p.Root, settingsFile)
	data, err := fsutil.ReadRegularFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		l.fail(p.ID, ErrGeneric, "", "read %s: %v", path, err)
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		l.fail(p.ID, ErrGeneric, "", "%s: %s (want a JSON object such as {\"agent\": \"NAME\"}); its settings are not applied", path, jsonMessage(err))
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k == "$schema" {
			continue // an editor's hint, not a setting
		}
		if k != "agent" {
			p.Unsupported = append(p.Unsupported, fmt.Sprintf("%s: key %q is not applied; a plugin's settings may only hold \"agent\"", path, k))
			continue
		}
		var name string
		if err := json.Unmarshal(m[k], &name); err != nil || strings.TrimSpace(name) == "" {
			l.fail(p.ID, ErrGeneric, "", "%s: \"agent\" must be the name of one of the plugin's agents, not %s", path, m[k])
			continue
		}
		name = strings.TrimSpace(name)
		if !strings.Contains(name, ":") {
			name = p.Name + ":" + name
		}
		p.Agent = name
	}
}

// dataID is a plugin id made safe as a folder name: characters other
// than letters, digits, '_' and '-' become '-'.
func dataID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	return string(b)
}

// readFiles hands use each of a component's files that can be read: the
// default file (def, relative to the plugin's root; its absence is no
// error) and then the manifest's further ones (extra, whose absence is).
// A file that cannot be read is reported as errType, naming what it holds.
func (l *loader) readFiles(p *Plugin, def string, extra []string, errType, what string, use func(path string, data []byte)) {
	files := []string{def}
	for _, f := range extra {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	for i, f := range files {
		path := filepath.Join(p.Root, filepath.FromSlash(f))
		data, err := fsutil.ReadRegularFile(path)
		if err != nil {
			if i > 0 || !errors.Is(err, fs.ErrNotExist) {
				l.fail(p.ID, errType, "", "read %s %s: %v", what, path, err)
			}
			continue
		}
		use(path, data)
	}
}

// hooks reads hooks/hooks.json and the manifest's hooks.
func (l *loader) hooks(p *Plugin, m *Manifest) {
	type source struct {
		where string
		raw   json.RawMessage // a settings-form hooks object
	}
	var sources []source
	l.readFiles(p, "hooks/hooks.json", m.HookFiles, ErrHookLoad, "hooks", func(path string, data []byte) {
		var file struct {
			Hooks json.RawMessage `json:"hooks"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			l.fail(p.ID, ErrHookLoad, "", "%s: %s; its hooks are not loaded", path, jsonMessage(err))
			return
		}
		if len(file.Hooks) == 0 || string(file.Hooks) == "null" {
			l.fail(p.ID, ErrHookLoad, "", `%s has no "hooks" object; write {"hooks": {"PostToolUse": [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]}}`, path)
			return
		}
		sources = append(sources, source{path, file.Hooks})
	})
	for i, raw := range m.InlineHooks {
		sources = append(sources, source{fmt.Sprintf("%s (hooks[%d])", filepath.Join(p.Root, filepath.FromSlash(ManifestFile)), i), raw})
	}
	known := map[string]bool{}
	for _, e := range settings.KnownHookEvents {
		known[e] = true
	}
	for _, s := range sources {
		var events map[string][]settings.HookMatcher
		if err := json.Unmarshal(s.raw, &events); err != nil {
			l.fail(p.ID, ErrHookLoad, "", "%s: hooks: %s (want {\"EventName\": [{\"matcher\": \"...\", \"hooks\": [...]}]}); its hooks are not loaded", s.where, jsonMessage(err))
			continue
		}
		evs := make([]string, 0, len(events))
		for ev := range events {
			evs = append(evs, ev)
		}
		sort.Strings(evs)
		for _, ev := range evs {
			if !known[ev] {
				p.Unsupported = append(p.Unsupported, fmt.Sprintf("%s: hook event %q is not one reins fires; its hooks never run", s.where, ev))
				continue
			}
			for _, mt := range events[ev] {
				var kept []settings.HookSpec
				for _, h := range mt.Hooks {
					switch msg := h.Problem(ev); {
					case msg == "":
						h.Command = p.Expand(h.Command)
						h.URL = p.Expand(h.URL)
						if h.Args != nil {
							args := make([]string, len(*h.Args))
							for i, a := range *h.Args {
								args[i] = p.Expand(a)
							}
							h.Args = &args
						}
						kept = append(kept, h)
					case h.Type == "" || h.Type == "command" || h.Type == "http" || h.Type == "mcp_tool" || ((h.Type == "prompt" || h.Type == "agent") && strings.TrimSpace(h.Prompt) == ""):
						// A hook written wrong: the plugin is at fault.
						l.fail(p.ID, ErrHookLoad, "", "%s: %s; skipped", s.where, msg)
					default:
						// A hook reins does not run: not the plugin's fault.
						p.Unsupported = append(p.Unsupported, fmt.Sprintf("%s: %s; skipped", s.where, msg))
					}
				}
				if len(kept) == 0 {
					continue
				}
				mt.Hooks, mt.Source, mt.File = kept, settings.SourcePlugin, s.where
				if p.Hooks == nil {
					p.Hooks = map[string][]settings.HookMatcher{}
				}
				p.Hooks[ev] = append(p.Hooks[ev], mt)
			}
		}
	}
}

// mcpServers reads .mcp.json and the manifest's mcpServers.
func (l *loader) mcpServers(p *Plugin, m *Manifest) {
	var servers []mcp.Server
	l.readFiles(p, ".mcp.json", m.MCPFiles, ErrMCPConfig, "MCP servers", func(path string, data []byte) {
		ss, err := mcp.ParseServers(data, mcp.ScopePlugin, path)
		if err != nil {
			l.fail(p.ID, ErrMCPConfig, "", "%v", err)
			return
		}
		servers = append(servers, ss...)
	})
	for i, raw := range m.InlineMCP {
		where := fmt.Sprintf("%s (mcpServers[%d])", filepath.Join(p.Root, filepath.FromSlash(ManifestFile)), i)
		ss, err := mcp.ParseServers(raw, mcp.ScopePlugin, where)
		if err != nil {
			l.fail(p.ID, ErrMCPConfig, "", "%v", err)
			continue
		}
		servers = append(servers, ss...)
	}
	seen := map[string]bool{}
	for _, s := range servers {
		if seen[s.Name] {
			l.fail(p.ID, ErrMCPConfig, "", "MCP server %q is defined twice (%s); the first is kept", s.Name, s.Source)
			continue
		}
		seen[s.Name] = true
		if s.Invalid != "" {
			l.fail(p.ID, ErrMCPConfig, "", "%s", s.Invalid)
		}
		s.Name = ServerName(p.Name, s.Name)
		s.Config = p.expandServer(s.Config)
		p.MCPServers = append(p.MCPServers, s)
	}
}

// ServerName is the name a plugin's MCP server runs under:
// plugin:<plugin>:<server>. Its tools are mcp__plugin_<plugin>_<server>__<tool>.
func ServerName(plugin, server string) string { return "plugin:" + plugin + ":" + server }

// expandServer substitutes the plugin's variables in a server's
// configuration and gives a local server the plugin's environment.
func (p *Plugin) expandServer(c mcp.ServerConfig) mcp.ServerConfig {
	c.Command, c.URL, c.HeadersHelper = p.Expand(c.Command), p.Expand(c.URL), p.Expand(c.HeadersHelper)
	if c.Args != nil {
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = p.Expand(a)
		}
		c.Args = args
	}
	expandMap := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = p.Expand(v)
		}
		return out
	}
	c.Env, c.Headers = expandMap(c.Env), expandMap(c.Headers)
	if c.Transport() == mcp.TransportStdio {
		if c.Env == nil {
			c.Env = map[string]string{}
		}
		for _, kv := range p.Env() {
			k, v, _ := strings.Cut(kv, "=")
			if _, set := c.Env[k]; !set {
				c.Env[k] = v
			}
		}
	}
	return c
}

// Installed is one plugin Claude Code's install records hold for this
// project, loaded or not.
type Installed struct {
	ID      string // name@marketplace
	Name    string
	Version string
	Path    string
	// Enabled is the plugin's enabledPlugins setting: a plugin installed
	// but not enabled (false, or not named) is not loaded.
	Enabled bool
}

// InstalledPlugins lists the plugins Claude Code installed that apply to
// opts.Cwd (user and managed installs, and project and local installs
// made for this project), sorted by id, with whether settings enable
// each. An unreadable records file is an error.
func InstalledPlugins(opts Options) ([]Installed, error) {
	l := &loader{opts: opts}
	records, _, err := l.readRecords()
	if err != nil {
		return nil, err
	}
	var out []Installed
	for id, recs := range records {
		rec, ok := l.pick(recs)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(id, "@")
		out = append(out, Installed{ID: id, Name: name, Version: rec.Version, Path: rec.InstallPath, Enabled: opts.Enabled[id]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
