package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// desktopConfigPaths are where Claude Desktop keeps its configuration,
// most likely first: the macOS and Windows folders, the Linux builds'
// ~/.config/Claude, and under WSL the Windows users' folders.
func desktopConfigPaths(home string, getenv func(string) string, goos string) []string {
	const file = "claude_desktop_config.json"
	var out []string
	switch goos {
	case "darwin":
		out = append(out, filepath.Join(home, "Library", "Application Support", "Claude", file))
	case "windows":
		if appData := getenv("APPDATA"); appData != "" {
			out = append(out, filepath.Join(appData, "Claude", file))
		}
	default:
		cfg := getenv("XDG_CONFIG_HOME")
		if cfg == "" {
			cfg = filepath.Join(home, ".config")
		}
		out = append(out, filepath.Join(cfg, "Claude", file))
		if wsl, _ := filepath.Glob("/mnt/c/Users/*/AppData/Roaming/Claude/" + file); len(wsl) > 0 {
			out = append(out, wsl...)
		}
	}
	return out
}

// addFromDesktopCommand imports Claude Desktop's servers, as Claude
// Code's command of the same name does (which asks which to take; here
// the names given, or all). A name already used in the scope gets a
// number (github_1), as there.
func addFromDesktopCommand(opts CommandOptions) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "add-from-claude-desktop [flags] [name...]",
		Short: "Import MCP servers from Claude Desktop (the names given, or all)",
		RunE: func(cmd *cobra.Command, names []string) error {
			sc, err := ParseScope(scope)
			if err != nil {
				return err
			}
			getenv := opts.Getenv
			if getenv == nil {
				getenv = os.Getenv
			}
			home := opts.Home
			if home == "" {
				home, _ = os.UserHomeDir()
			}
			paths := desktopConfigPaths(home, getenv, runtime.GOOS)
			var path string
			var data []byte
			for _, p := range paths {
				if data, err = os.ReadFile(p); err == nil {
					path = p
					break
				}
			}
			if path == "" {
				return fmt.Errorf("no Claude Desktop configuration found (looked for %s)", strings.Join(paths, ", "))
			}
			var top struct {
				MCPServers map[string]json.RawMessage `json:"mcpServers"`
			}
			if err := json.Unmarshal(utf8Text(data), &top); err != nil {
				return fmt.Errorf("read Claude Desktop configuration %s: %w", path, located(data, err))
			}
			if len(top.MCPServers) == 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "No MCP servers found in the Claude Desktop configuration (%s).\n", path)
				return nil
			}
			for _, n := range names {
				if _, ok := top.MCPServers[n]; !ok {
					return fmt.Errorf("Claude Desktop has no MCP server named %q (it has %s)", n, strings.Join(slices.Sorted(maps.Keys(top.MCPServers)), ", "))
				}
			}
			if len(names) == 0 {
				names = slices.Sorted(maps.Keys(top.MCPServers))
			}
			var added []string
			for _, n := range names {
				got, err := addNumbered(files(opts), sc, n, top.MCPServers[n])
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: not imported: %v\n", n, err)
					continue
				}
				added = append(added, got)
			}
			if len(added) == 0 {
				return errors.New("no MCP server was imported")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Imported %d MCP server(s) from Claude Desktop to %s config: %s\n", len(added), sc, strings.Join(added, ", "))
			return nil
		},
	}
	scopeFlag(cmd, &scope, string(ScopeLocal))
	return cmd
}

// addNumbered adds entry as name, or as name_1, name_2 … when the scope
// already has the name, and returns the name used.
func addNumbered(f Files, sc Scope, name string, entry json.RawMessage) (string, error) {
	try := name
	for i := 1; ; i++ {
		err := f.AddServerJSON(sc, try, entry)
		if !errors.Is(err, ErrExists) {
			return try, err
		}
		try = fmt.Sprintf("%s_%d", name, i)
	}
}
