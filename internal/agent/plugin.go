package agent

import (
	"fmt"
	"os"

	"reins/internal/fsutil"
)

// LoadPlugin reads a plugin's agents from paths (agent files, or folders
// of them walked as agents/ is). Each is named "<plugin>:<name>" and has
// SourcePlugin. As in Claude Code, a plugin's agent may not bring hooks,
// MCP servers or a permission mode: those fields are dropped and
// reported. expand, when set, substitutes the plugin's variables in the
// agents' prompts.
func LoadPlugin(plugin string, paths []string, expand func(string) string) ([]*Definition, []error) {
	var (
		defs []*Definition
		errs []error
	)
	seen := map[string]bool{}
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("load agents of plugin %s: %w", plugin, err))
			continue
		}
		files := []string{path}
		if fi.IsDir() {
			files = markdownFiles(path, &errs)
		}
		for _, p := range files {
			if seen[realPath(p)] {
				continue
			}
			seen[realPath(p)] = true
			data, err := fsutil.ReadRegularFileMax(p, MaxFileSize)
			if err != nil {
				errs = append(errs, fmt.Errorf("load agent %s: %w; the agent is left out", p, err))
				continue
			}
			d, problems, err := parseDefinition(data, p, SourcePlugin)
			for _, pr := range problems {
				errs = append(errs, fmt.Errorf("load agent %s: %w (ignored)", p, pr))
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("load agent %s: %w", p, err))
				continue
			}
			for _, f := range []struct {
				name string
				set  bool
			}{{"hooks", d.Hooks != nil}, {"mcpServers", d.MCPServers != nil}, {"permissionMode", d.PermissionMode != ""}} {
				if f.set {
					errs = append(errs, fmt.Errorf("load agent %s: %s is not allowed in a plugin's agent (ignored)", p, f.name))
				}
			}
			d.Hooks, d.MCPServers, d.PermissionMode = nil, nil, ""
			d.Name = plugin + ":" + d.Name
			if expand != nil {
				d.Prompt = expand(d.Prompt)
			}
			defs = append(defs, d)
		}
	}
	return defs, errs
}
