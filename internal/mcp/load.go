package mcp

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"reins/internal/fsutil"
)

// ProjectFile is the project-scope configuration file, in the project
// folder.
const ProjectFile = ".mcp.json"

// UserFileName is reins's own file of user- and local-scope servers, in
// the user config folder.
const UserFileName = "mcp.json"

// Approval is what settings say about project (.mcp.json) servers.
type Approval struct {
	EnableAll bool     // enableAllProjectMcpServers
	Enabled   []string // enabledMcpjsonServers
	Disabled  []string // disabledMcpjsonServers
}

// LoadOptions says where configurations are read from. Zero fields are
// skipped: no ClaudeJSON and no Home means no Claude Code file, no
// ConfigDir no reins file.
type LoadOptions struct {
	Cwd  string // the project folder
	Home string // the user's home: Claude Code's file is ~/.claude.json unless ClaudeJSON says otherwise
	// ClaudeJSON is Claude Code's global config file when it is not
	// ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json when that is set).
	ClaudeJSON string
	ConfigDir  string // reins's user config folder (~/.reins or REINS_CONFIG_DIR)
	// MCPConfig are the --mcp-config values: a file path or a JSON object.
	MCPConfig []string
	// Strict (--strict-mcp-config) uses only MCPConfig.
	Strict bool
	// ProjectDir, when set, holds the project's .mcp.json in place of Cwd
	// (--project-config-root).
	ProjectDir string
	// ExplicitOnly (bare mode) uses only what the command line named:
	// Plugins (--plugin-dir) and MCPConfig, none of the files found on
	// disk.
	ExplicitOnly bool
	// Managed are the administrator's managed-mcp.json files, highest
	// first (DefaultManagedFiles; nil means none). The first that exists
	// is exclusive: its servers are the only ones, every other source and
	// --mcp-config included is ignored, as in Claude Code.
	Managed []string
	// Plugins are the servers of the session's plugins (named
	// plugin:<plugin>:<server>), the lowest layer: a server configured
	// by hand that runs the same command or reaches the same URL wins
	// over a plugin's. --strict-mcp-config and a managed configuration
	// leave them out.
	Plugins []Server
	// Approval is what settings say about project servers. The approvals
	// Claude Code keeps in its global config for this project
	// (projects[<path>].enabledMcpjsonServers and the like) are added to
	// it: they are the user's own answers, not the repository's.
	Approval Approval
}

// claudeJSON is the path of Claude Code's global config, "" for none.
func (o LoadOptions) claudeJSON() string {
	switch {
	case o.ClaudeJSON != "":
		return o.ClaudeJSON
	case o.Home != "":
		return filepath.Join(o.Home, ".claude.json")
	}
	return ""
}

// Config is the merged server list.
type Config struct {
	// Servers by name, sorted; the highest-precedence entry of each name.
	Servers []Server
	// Warnings are problems that did not stop loading (a bad file, a
	// duplicate dropped).
	Warnings []string
}

// UserFile returns the path of reins's user MCP file.
func UserFile(configDir string) string { return filepath.Join(configDir, UserFileName) }

// Load reads and merges every source. Precedence, lowest first: user scope
// (Claude Code's ~/.claude.json, then reins's file), project (.mcp.json),
// local scope (Claude Code's, then reins's), then --mcp-config. A bad
// --mcp-config value is an error; a bad file elsewhere is a warning. A
// managed configuration (Managed) replaces all of them.
func Load(opts LoadOptions) (*Config, error) {
	cfg := &Config{}
	if managed, path, err := readManaged(opts.Managed); err != nil || path != "" {
		if err != nil {
			// A policy file that cannot be read must not open the way
			// to every other source: no server starts.
			cfg.Warnings = append(cfg.Warnings, err.Error()+"; no MCP server is started")
			return cfg, nil
		}
		if len(opts.MCPConfig) > 0 {
			cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("--mcp-config is ignored: the managed MCP configuration %s is in force", path))
		}
		cfg.Servers = managed
		return cfg, nil
	}
	var layers [][]Server
	if opts.ExplicitOnly && !opts.Strict {
		layers = append(layers, opts.Plugins)
	}
	if !opts.Strict && !opts.ExplicitOnly {
		var claudeUser, claudeLocal, reinsUser, reinsLocal []Server
		appr := opts.Approval
		if path := opts.claudeJSON(); path != "" {
			f, err := readUserFile(path, opts.Cwd)
			if err != nil {
				cfg.Warnings = append(cfg.Warnings, err.Error())
			}
			claudeUser, claudeLocal = f.user, f.local
			appr = appr.with(f.approval)
		}
		if opts.ConfigDir != "" {
			f, err := readUserFile(UserFile(opts.ConfigDir), opts.Cwd)
			if err != nil {
				cfg.Warnings = append(cfg.Warnings, err.Error())
			}
			reinsUser, reinsLocal = f.user, f.local
			appr = appr.with(f.approval)
		}
		project, err := readProject(cmp.Or(opts.ProjectDir, opts.Cwd))
		if err != nil {
			cfg.Warnings = append(cfg.Warnings, err.Error())
		}
		for i := range project {
			project[i].Disabled = approvalState(project[i].Name, appr)
		}
		layers = append(layers, opts.Plugins, claudeUser, reinsUser, project, claudeLocal, reinsLocal)
	}
	for _, v := range opts.MCPConfig {
		servers, err := parseFlag(v, opts.Cwd)
		if err != nil {
			return nil, err
		}
		layers = append(layers, servers)
	}
	byName := map[string]Server{}
	for _, layer := range layers {
		for _, s := range layer {
			byName[s.Name] = s
		}
	}
	for _, s := range byName {
		cfg.Servers = append(cfg.Servers, s)
	}
	sort.Slice(cfg.Servers, func(i, j int) bool { return cfg.Servers[i].Name < cfg.Servers[j].Name })
	cfg.Servers, cfg.Warnings = dropDuplicates(cfg.Servers, cfg.Warnings)
	return cfg, nil
}

// DefaultManagedFiles are the managed MCP configuration files an
// administrator may install, highest first: reins's own, then Claude
// Code's (Linux, then macOS).
func DefaultManagedFiles() []string {
	return []string{
		"/etc/reins/managed-mcp.json",
		"/etc/claude-code/managed-mcp.json",
		"/Library/Application Support/ClaudeCode/managed-mcp.json",
	}
}

// readManaged reads the first of paths that exists; its path is "" when
// none does.
func readManaged(paths []string) ([]Server, string, error) {
	for _, path := range paths {
		data, err := fsutil.ReadRegularFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, path, fmt.Errorf("read managed MCP servers from %s: %w", path, err)
		}
		servers, err := ParseServers(data, ScopeManaged, path)
		if err != nil {
			return nil, path, fmt.Errorf("managed MCP configuration: %w", err)
		}
		return servers, path, nil
	}
	return nil, "", nil
}

// readProject reads .mcp.json in cwd; a missing file gives nothing.
func readProject(cwd string) ([]Server, error) {
	if cwd == "" {
		return nil, nil
	}
	path := filepath.Join(cwd, ProjectFile)
	data, err := fsutil.ReadRegularFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read MCP servers from %s: %w", path, err)
	}
	return ParseServers(data, ScopeProject, path)
}

// with adds the approvals of b to a.
func (a Approval) with(b Approval) Approval {
	return Approval{
		EnableAll: a.EnableAll || b.EnableAll,
		Enabled:   dedupe(append(slices.Clone(a.Enabled), b.Enabled...)),
		Disabled:  dedupe(append(slices.Clone(a.Disabled), b.Disabled...)),
	}
}

// approvalState is why a project server is not started, "" when approved.
func approvalState(name string, a Approval) string {
	switch {
	case slices.Contains(a.Disabled, name):
		return "disabled in settings (disabledMcpjsonServers)"
	case a.EnableAll || slices.Contains(a.Enabled, name):
		return ""
	}
	return "not approved: servers from .mcp.json start only once you approve them (/mcp enable " + name + " in the terminal UI, or enabledMcpjsonServers / enableAllProjectMcpServers in settings)"
}

// NeedsApproval lists the project servers waiting for the user's approval.
func (c *Config) NeedsApproval() []string {
	var out []string
	for _, s := range c.Servers {
		if s.Scope == ScopeProject && strings.HasPrefix(s.Disabled, "not approved") {
			out = append(out, s.Name)
		}
	}
	return out
}

// Approve marks project servers approved for this session.
func (c *Config) Approve(names ...string) {
	for i, s := range c.Servers {
		if s.Scope == ScopeProject && slices.Contains(names, s.Name) {
			c.Servers[i].Disabled = ""
		}
	}
}

// Get returns the server with name.
func (c *Config) Get(name string) (Server, bool) {
	for _, s := range c.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// parseFlag reads one --mcp-config value.
func parseFlag(v, cwd string) ([]Server, error) {
	t := strings.TrimSpace(v)
	if strings.HasPrefix(t, "{") {
		servers, err := ParseServers([]byte(t), ScopeDynamic, "--mcp-config")
		if err != nil {
			return nil, fmt.Errorf("--mcp-config: %w", err)
		}
		return servers, invalidError(servers)
	}
	path := t
	if !filepath.IsAbs(path) && cwd != "" {
		path = filepath.Join(cwd, path)
	}
	data, err := fsutil.ReadRegularFile(path)
	if err != nil {
		return nil, fmt.Errorf("--mcp-config %s: %w", v, err)
	}
	servers, err := ParseServers(data, ScopeDynamic, path)
	if err != nil {
		return nil, fmt.Errorf("--mcp-config: %w", err)
	}
	return servers, invalidError(servers)
}

// invalidError reports the invalid entries of an explicit --mcp-config.
func invalidError(servers []Server) error {
	var errs []string
	for _, s := range servers {
		if s.Invalid != "" {
			errs = append(errs, s.Invalid)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("--mcp-config: %s", strings.Join(errs, "; "))
}

// dropDuplicates keeps, among enabled servers that run the same command or
// reach the same URL under different names, the one of highest
// precedence.
func dropDuplicates(servers []Server, warnings []string) ([]Server, []string) {
	best := map[string]Server{}
	for _, s := range servers {
		if s.Disabled != "" || s.Invalid != "" {
			continue
		}
		sig := s.Config.Signature()
		if b, ok := best[sig]; !ok || scopeRank(s.Scope) > scopeRank(b.Scope) {
			best[sig] = s
		}
	}
	var out []Server
	for _, s := range servers {
		if s.Disabled == "" && s.Invalid == "" {
			if b := best[s.Config.Signature()]; b.Name != s.Name {
				warnings = append(warnings, fmt.Sprintf("MCP server %q (%s) is the same as %q (%s) and was left out", s.Name, s.Scope, b.Name, b.Scope))
				continue
			}
		}
		out = append(out, s)
	}
	return out, warnings
}
