package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/plugin"
	"reins/internal/session"
	"reins/internal/settings"
	"reins/internal/trust"
)

// subcommands returns the subcommands mounted under the root.
func subcommands(env *Env) []*cobra.Command {
	cwd, _ := os.Getwd()
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	// Main has made sure homeDir succeeds before running a subcommand.
	home, _ := homeDir(env.Getenv)
	configDir := session.ConfigDir(env.Getenv, home)
	claudeJSON := trust.ClaudeJSONPath(env.Getenv, home)
	claudeDir := settings.ClaudeConfigDir(env.Getenv, home)
	// list and get read the settings once for approvals and plugins.
	settingsOnce := sync.OnceValues(func() (*settings.Settings, error) {
		return subcommandSettings(env, cwd, home, configDir, claudeJSON)
	})
	mcpCmd := mcp.NewCommand(mcp.CommandOptions{
		Cwd: cwd, Home: home, ClaudeJSON: claudeJSON, ConfigDir: configDir, Getenv: env.Getenv, Version: Version,
		Managed:      mcp.DefaultManagedFiles(),
		Approval:     func() mcp.Approval { return subcommandMCPApproval(env, settingsOnce) },
		Plugins:      func() []mcp.Server { return subcommandPluginServers(settingsOnce, claudeDir, cwd) },
		Serve:        func(ctx context.Context, in io.Reader, out io.Writer) error { return serveMCP(ctx, env, in, out) },
		ResetChoices: func() (string, error) { return resetMCPChoices(cwd, claudeJSON) },
	})
	settingsHere := func() (*settings.Settings, error) {
		return subcommandSettings(env, cwd, home, configDir, claudeJSON)
	}
	return append(selfUpdateCommands(), mcpCmd, sessionsCommand(env, cwd, session.Store{Root: configDir, Also: []string{settings.ClaudeConfigDir(env.Getenv, home)}}), autoModeCommand(env, settingsHere),
		pluginCommand(env, cwd, claudeDir, settingsHere), authCommand(env, settingsHere),
		doctorCommand(env, func() bool {
			ok, _ := (&trust.Store{ConfigDir: configDir, ClaudeJSON: claudeJSON, Home: home}).IsTrusted(cwd)
			return ok
		}), agentsCommand(env))
}

// subcommandMCPApproval reads the settings' answers about .mcp.json
// servers for `reins mcp list|get`, as a session in cwd would see them:
// the project's own settings files count only once the folder is trusted,
// so a cloned repository cannot approve its own servers.
func subcommandMCPApproval(env *Env, here func() (*settings.Settings, error)) mcp.Approval {
	s, err := here()
	if err != nil {
		fmt.Fprintf(env.Stderr, "reins: warning: %v\n", err)
		return mcp.Approval{}
	}
	return mcpApproval(s.Raw)
}

// subcommandPluginServers are the MCP servers of the plugins enabled in
// the settings a session in cwd would see, for `reins mcp list|get`.
func subcommandPluginServers(here func() (*settings.Settings, error), claudeDir, cwd string) []mcp.Server {
	s, err := here()
	if err != nil {
		return nil
	}
	ps, _ := plugin.Load(plugin.Options{Enabled: enabledPlugins(s.Raw), ClaudeDir: claudeDir, Cwd: cwd})
	var out []mcp.Server
	for _, p := range ps {
		out = append(out, p.MCPServers...)
	}
	return out
}

// subcommandSettings loads the settings a session in cwd would see (the
// project's own files only once the folder is trusted), printing their
// warnings to stderr.
func subcommandSettings(env *Env, cwd, home, configDir, claudeJSON string) (*settings.Settings, error) {
	ts := &trust.Store{ConfigDir: configDir, ClaudeJSON: claudeJSON, Home: home}
	trusted, _ := ts.IsTrusted(cwd)
	s, warns, err := settings.Load(context.Background(), settings.Options{Cwd: cwd, Home: home, ConfigDir: configDir,
		ClaudeDir: settings.ClaudeConfigDir(env.Getenv, home), Trusted: trusted, Getenv: env.Getenv})
	for _, w := range warns {
		fmt.Fprintf(env.Stderr, "reins: warning: %s\n", w.String())
	}
	return s, err
}

// serveMCP exposes the built-in tools over MCP on stdin/stdout. As in
// Claude Code, the MCP client confirms each call with its user, so a call
// the permission rules would ask about runs (clientConfirms); a deny rule
// still refuses it.
func serveMCP(ctx context.Context, env *Env, in io.Reader, out io.Writer) error {
	o := &Options{OutputFormat: "text", InputFormat: "text", NoPersist: true}
	a, err := newAppFor(ctx, env, o, frontServe, appHooks{Asker: clientConfirms{}})
	if err != nil {
		return err
	}
	defer a.close()
	return mcp.Serve(ctx, a.tools, a.gate, in, out, &mcp.ServeOptions{Version: Version, Cwd: a.cwd,
		SessionID: a.sessionID, Store: a.results})
}

// clientConfirms answers the questions of `reins mcp serve`: a call the
// MCP client made was confirmed there (Claude Code leaves confirmation to
// the client), so it is allowed; a sub-agent's call (an Agent call the
// client made runs a model of its own) was seen by nobody, so it is
// denied, as when nobody can be asked.
type clientConfirms struct{}

// Ask allows the client's own calls and denies a sub-agent's.
func (clientConfirms) Ask(_ context.Context, q engine.Question) (engine.Answer, error) {
	if q.AgentID != "" {
		return engine.Answer{}, engine.ErrNobodyToAsk
	}
	return engine.Answer{Allow: true}, nil
}

// noModel is the provider of a session that never calls the model (mcp
// serve without credentials); tools that need one report why.
type noModel struct{}

func (noModel) Stream(context.Context, *llm.Request) (llm.Stream, error) { return nil, errNoKey }

func sessionsCommand(env *Env, cwd string, st session.Store) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List recorded sessions (this folder's, or --all), Claude Code's too",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var infos []session.Info
			var err error
			if all {
				infos, err = st.ListAll()
			} else {
				infos, err = st.List(cwd)
			}
			if err != nil {
				return fmt.Errorf("list sessions: %w", err)
			}
			// Transcripts left out of the list because they cannot be
			// read: named, so that a session does not vanish unexplained.
			where := cwd
			if all {
				where = ""
			}
			for _, d := range st.Damaged(where) {
				fmt.Fprintf(env.Stderr, "reins: warning: transcript %s %s; not listed\n", d.Path, d.Reason)
			}
			if len(infos) == 0 {
				fmt.Fprintln(env.Stdout, "No sessions recorded here yet.")
				return nil
			}
			tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
			// A TITLE column when some session was named (/rename):
			// --resume takes the name as well as the id.
			titled := slices.ContainsFunc(infos, func(in session.Info) bool { return in.CustomTitle != "" })
			head := "MODIFIED\tSIZE\tSESSION\t"
			if all {
				// Sessions of every folder: say whose each is, as
				// --resume from another folder needs to know.
				head += "FOLDER\t"
			}
			if titled {
				head += "TITLE\t"
			}
			fmt.Fprintln(tw, head+"FIRST PROMPT")
			for _, in := range infos {
				fmt.Fprintf(tw, "%s\t%s\t%s\t", in.Modified.Local().Format(time.DateTime), size(in.Size), in.ID)
				if all {
					fmt.Fprintf(tw, "%s\t", printable(cmp.Or(in.Cwd, "?")))
				}
				if titled {
					fmt.Fprintf(tw, "%s\t", printable(in.CustomTitle))
				}
				prompt := printable(in.FirstPrompt)
				if in.Foreign {
					// reins reads it and continues it in its own store.
					prompt = "(Claude Code) " + prompt
				}
				fmt.Fprintf(tw, "%s\n", prompt)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "list the sessions of every folder")
	return cmd
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// printable returns s fit to print in a terminal's table: control
// characters (escape sequences a pasted prompt carried, tabs, newlines)
// become spaces and bytes that are not UTF-8 become U+FFFD, so a
// recorded prompt cannot recolour the terminal or break the columns.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r // strings.Map writes U+FFFD for a byte that is not UTF-8
	}, s)
}
