package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// CommandOptions is what the `reins mcp` subcommands need from the CLI.
type CommandOptions struct {
	Cwd        string // the project folder
	Home       string // for ~/.claude.json
	ClaudeJSON string // Claude Code's global config when not ~/.claude.json
	ConfigDir  string // reins's user config folder
	// Approval is what settings say about .mcp.json servers; nil means
	// none approved. It is a function so that only list and get, which
	// need it, read the settings.
	Approval func() Approval
	// Plugins are the servers of the plugins settings enable (see
	// LoadOptions.Plugins); nil means none. Only list and get call it.
	Plugins func() []Server
	// Managed are the managed MCP configuration files (see
	// LoadOptions.Managed).
	Managed []string
	// MCPConfig and Strict are the root command's --mcp-config and
	// --strict-mcp-config, when the CLI passes them down.
	MCPConfig []string
	Strict    bool
	Getenv    func(string) string
	// Serve runs `reins mcp serve` on stdin/stdout (the CLI supplies the
	// tools and the permission gate and calls Serve); nil makes serve fail.
	Serve func(ctx context.Context, stdin io.Reader, stdout io.Writer) error
	// ResetChoices forgets the answers given about the project's
	// .mcp.json servers (`reins mcp reset-project-choices`) and says what
	// it did; nil makes the subcommand fail.
	ResetChoices func() (string, error)
	// HealthTimeout bounds the connection checks of list and get (0: 10s).
	HealthTimeout time.Duration
	Version       string
}

// NewCommand returns `mcp` with its subcommands add, add-json, list, get,
// remove, serve, login, logout and reset-project-choices, for the CLI to
// mount on its root command.
func NewCommand(opts CommandOptions) *cobra.Command {
	if opts.HealthTimeout <= 0 {
		opts.HealthTimeout = 10 * time.Second
	}
	root := &cobra.Command{
		Use:   "mcp",
		Short: "Configure and manage MCP servers",
		Long:  "Configure the MCP servers reins connects to, check them, and serve reins's own tools over MCP.",
	}
	root.AddCommand(addCommand(opts), addJSONCommand(opts), addFromDesktopCommand(opts), listCommand(opts), getCommand(opts), removeCommand(opts), serveCommand(opts),
		loginCommand(opts), logoutCommand(opts), resetChoicesCommand(opts))
	return root
}

func files(opts CommandOptions) Files { return Files{Cwd: opts.Cwd, ConfigDir: opts.ConfigDir} }

func scopeFlag(cmd *cobra.Command, dst *string, def string) {
	cmd.Flags().StringVarP(dst, "scope", "s", def, "where to keep the server: local (this project, only you), project (.mcp.json, shared) or user (every project)")
}

func addCommand(opts CommandOptions) *cobra.Command {
	var scope, transport, clientID string
	var envs, headers []string
	var clientSecret bool
	var callbackPort int
	cmd := &cobra.Command{
		Use:   "add [flags] <name> <command-or-url> [-- args...]",
		Short: "Add an MCP server",
		Example: `  reins mcp add files -- npx -y @modelcontextprotocol/server-filesystem ~/notes
  reins mcp add --transport http github https://api.example.com/mcp -H "Authorization: Bearer ${TOKEN}"
  reins mcp add -s user -e API_KEY=xyz search -- /usr/local/bin/search-server --stdio`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc, err := ParseScope(scope)
			if err != nil {
				return err
			}
			name, target, rest := args[0], args[1], args[2:]
			cfg := ServerConfig{}
			switch strings.ToLower(transport) {
			case "", TransportStdio:
				cfg.Command, cfg.Args = target, rest
			case TransportHTTP, TransportSSE:
				if len(rest) > 0 {
					return fmt.Errorf("a %s server takes a URL and no further arguments (got %q)", transport, rest)
				}
				cfg.Type, cfg.URL = strings.ToLower(transport), target
			default:
				return fmt.Errorf("unknown transport %q: want stdio, http or sse", transport)
			}
			for _, e := range envs {
				k, v, err := parseEnv(e)
				if err != nil {
					return err
				}
				if cfg.Env == nil {
					cfg.Env = map[string]string{}
				}
				cfg.Env[k] = v
			}
			for _, h := range headers {
				k, v, err := parseHeader(h)
				if err != nil {
					return err
				}
				if cfg.Headers == nil {
					cfg.Headers = map[string]string{}
				}
				cfg.Headers[k] = v
			}
			if len(cfg.Headers) > 0 && cfg.URL == "" {
				return fmt.Errorf("--header applies to http and sse servers only")
			}
			if clientID != "" || clientSecret || callbackPort != 0 {
				if cfg.URL == "" {
					return fmt.Errorf("--client-id, --client-secret and --callback-port apply to http and sse servers only")
				}
				if clientID == "" {
					return fmt.Errorf("--client-secret and --callback-port go with --client-id (the client registered with the server's authorization server)")
				}
				if callbackPort < 0 || callbackPort > 65535 {
					return fmt.Errorf("--callback-port %d is not a port", callbackPort)
				}
				cfg.OAuth = &OAuthClient{ClientID: clientID, CallbackPort: callbackPort}
			}
			var secret string
			if clientSecret {
				if secret, err = readClientSecret(cmd, opts, name); err != nil {
					return err
				}
			}
			if err := files(opts).AddServer(sc, name, cfg); err != nil {
				return err
			}
			if secret != "" {
				if err := Credentials(opts.ConfigDir).SetClientSecret(name, cfg.URL, secret); err != nil {
					return fmt.Errorf("keep the client secret of %s: %w", name, err)
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Added %s MCP server %s (%s scope)\n", cfg.Transport(), name, sc)
			return nil
		},
	}
	// A server's own flags (npx -y ...) read as reins's unless they come
	// after "--": say so rather than only "unknown flag".
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return fmt.Errorf("%w\nPut the server's command and its arguments after --, for example: reins mcp add NAME -- npx -y some-mcp-server", err)
	})
	scopeFlag(cmd, &scope, string(ScopeLocal))
	cmd.Flags().StringVarP(&transport, "transport", "t", TransportStdio, "stdio, http or sse")
	cmd.Flags().StringArrayVarP(&envs, "env", "e", nil, "environment variable for a stdio server, KEY=value (repeatable)")
	cmd.Flags().StringArrayVarP(&headers, "header", "H", nil, "HTTP header for a remote server, \"Name: value\" (repeatable)")
	cmd.Flags().StringVar(&clientID, "client-id", "", "OAuth client id registered with the remote server's authorization server, for servers that do not register clients themselves")
	cmd.Flags().BoolVar(&clientSecret, "client-secret", false, "the client has a secret: read it from MCP_CLIENT_SECRET, else ask for it; it is kept with the MCP credentials, not in the config")
	cmd.Flags().IntVar(&callbackPort, "callback-port", 0, "loopback port of the OAuth redirect URI registered with the client (http://localhost:PORT/callback)")
	return cmd
}

// readClientSecret reads an OAuth client secret from MCP_CLIENT_SECRET,
// else one line of standard input (with a prompt on stderr).
func readClientSecret(cmd *cobra.Command, opts CommandOptions, name string) (string, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if s := strings.TrimSpace(getenv("MCP_CLIENT_SECRET")); s != "" {
		return s, nil
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "OAuth client secret for %s: ", name)
	line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
	fmt.Fprintln(cmd.ErrOrStderr())
	if s := strings.TrimSpace(line); s != "" {
		return s, nil
	}
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read the client secret: %w", err)
	}
	return "", errors.New("no client secret given (set MCP_CLIENT_SECRET, or type it when asked)")
}

func addJSONCommand(opts CommandOptions) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:     "add-json [flags] <name> <json>",
		Short:   "Add an MCP server from its JSON entry",
		Example: `  reins mcp add-json weather '{"type":"stdio","command":"/opt/weather/server","args":["--stdio"]}'`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc, err := ParseScope(scope)
			if err != nil {
				return err
			}
			// Unknown fields are refused (a misspelt "args" would be lost
			// silently); Claude Code's fields reins does not use are kept.
			var entry struct {
				ServerConfig
			}
			dec := json.NewDecoder(strings.NewReader(args[1]))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&entry); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					te.Field = strings.TrimPrefix(te.Field, "ServerConfig.") // the embedding is no field of the entry
				}
				return fmt.Errorf("server entry for %s: %s", args[0], entryProblem(err))
			}
			cfg := entry.ServerConfig
			if err := files(opts).AddServerJSON(sc, args[0], json.RawMessage(args[1])); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Added %s MCP server %s (%s scope)\n", cfg.Transport(), args[0], sc)
			return nil
		},
	}
	scopeFlag(cmd, &scope, string(ScopeLocal))
	return cmd
}

func removeCommand(opts CommandOptions) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "remove [flags] <name>",
		Short: "Remove an MCP server",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var sc Scope
			if scope != "" {
				var err error
				if sc, err = ParseScope(scope); err != nil {
					return err
				}
			}
			got, err := files(opts).RemoveServer(sc, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Removed MCP server %s (%s scope)\n", args[0], got)
			return nil
		},
	}
	scopeFlag(cmd, &scope, "")
	return cmd
}

func resetChoicesCommand(opts CommandOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "reset-project-choices",
		Short: "Forget which of this project's .mcp.json servers were approved or refused",
		Long: "Forget the approvals and refusals of this project's .mcp.json servers (enabledMcpjsonServers, disabledMcpjsonServers " +
			"and enableAllProjectMcpServers in .claude/settings.local.json), so that each waits for approval again.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.ResetChoices == nil {
				return errors.New("reset-project-choices is not available here")
			}
			msg, err := opts.ResetChoices()
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), msg)
			return nil
		},
	}
}

// ProjectChoices returns the answers about .mcp.json servers that the
// user file at path (Claude Code's ~/.claude.json, reins's mcp.json)
// records for project cwd.
func ProjectChoices(path, cwd string) (Approval, error) {
	u, err := readUserFile(path, cwd)
	return u.approval, err
}

// load reads the configuration for list and get.
func load(opts CommandOptions) (*Config, error) {
	var appr Approval
	if opts.Approval != nil {
		appr = opts.Approval()
	}
	var plugins []Server
	if opts.Plugins != nil && !opts.Strict {
		plugins = opts.Plugins()
	}
	return Load(LoadOptions{Cwd: opts.Cwd, Home: opts.Home, ClaudeJSON: opts.ClaudeJSON, ConfigDir: opts.ConfigDir,
		MCPConfig: opts.MCPConfig, Strict: opts.Strict, Plugins: plugins, Approval: appr, Managed: opts.Managed})
}

// check connects to servers and reports their status.
func check(ctx context.Context, opts CommandOptions, servers []Server) []ServerStatus {
	m := NewManager(Options{Servers: servers, Getenv: opts.Getenv, Cwd: opts.Cwd, ClientVersion: opts.Version, MaxReconnects: -1,
		Credentials: Credentials(opts.ConfigDir)})
	defer m.Close()
	m.Start()
	ctx, cancel := context.WithTimeout(ctx, opts.HealthTimeout)
	defer cancel()
	m.Wait(ctx)
	return m.Status()
}

// statusLine is a server's status as `mcp list` and `mcp get` show it:
// Claude Code's words (scripts that read its output look for "✔
// Connected"), with reins's reason after a failure.
func statusLine(st ServerStatus) string {
	switch st.State {
	case StateConnected:
		return "✔ Connected"
	case StatePending:
		return "… Still connecting"
	case StateNeedsAuth:
		return "! Needs authentication (reins mcp login " + st.Name + ")"
	case StateDisabled:
		return "○ Disabled: " + st.Err
	}
	return "✘ Failed to connect: " + st.Err
}

// scopeLabel names a scope as Claude Code's `mcp get` does, with where
// the entry is for the scopes it does not have.
func scopeLabel(s Server) string {
	switch s.Scope {
	case ScopeLocal:
		return "Local config (private to you in this project)"
	case ScopeProject:
		return "Project config (shared via .mcp.json)"
	case ScopeUser:
		return "User config (available in all your projects)"
	}
	return fmt.Sprintf("%s (%s)", s.Scope, s.Source)
}

// Target is what a server runs or reaches, for people: its command line,
// or its URL and transport.
func (c ServerConfig) Target() string {
	switch c.Transport() {
	case TransportStdio:
		return strings.TrimSpace(c.Command + " " + strings.Join(c.Args, " "))
	case TransportSDK:
		return "sdk:" + c.Name
	}
	return c.URL + " (" + strings.ToUpper(c.Transport()) + ")"
}

func listCommand(opts CommandOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List MCP servers and check their connections",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := load(opts)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, w := range cfg.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			if len(cfg.Servers) == 0 {
				fmt.Fprintln(out, "No MCP servers configured. Add one with: reins mcp add")
				return nil
			}
			fmt.Fprintln(out, "Checking MCP server health…")
			fmt.Fprintln(out)
			byName := map[string]ServerStatus{}
			for _, st := range check(cmd.Context(), opts, cfg.Servers) {
				byName[st.Name] = st
			}
			for _, s := range cfg.Servers {
				fmt.Fprintf(out, "%s: %s - %s\n", s.Name, s.Config.Target(), statusLine(byName[s.Name]))
			}
			return nil
		},
	}
}

func getCommand(opts CommandOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "get <name>",
		Short: "Show one MCP server's configuration and status",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := load(opts)
			if err != nil {
				return err
			}
			s, ok := cfg.Get(args[0])
			if !ok {
				return fmt.Errorf("no MCP server named %q", args[0])
			}
			// Claude Code's layout and order, which scripts read; the
			// file the entry is in, and the tools, come after.
			st := check(cmd.Context(), opts, []Server{s})[0]
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s:\n  Scope: %s\n  Status: %s\n  Type: %s\n", s.Name, scopeLabel(s), statusLine(st), s.Config.Transport())
			c := s.Config
			if c.Command != "" {
				fmt.Fprintf(out, "  Command: %s\n  Args: %s\n", c.Command, strings.Join(c.Args, " "))
			}
			if c.URL != "" {
				fmt.Fprintf(out, "  URL: %s\n", c.URL)
			}
			printMap(out, "Environment", "%s=%s", c.Env)
			printMap(out, "Headers", "%s: %s", c.Headers)
			if o := c.OAuth; o != nil && o.ClientID != "" {
				line := "client_id configured"
				if o.CallbackPort != 0 {
					line += fmt.Sprintf(", callback_port %d", o.CallbackPort)
				}
				fmt.Fprintf(out, "  OAuth: %s\n", line)
			}
			if s.Source != "" {
				fmt.Fprintf(out, "  Config file: %s\n", s.Source)
			}
			if len(st.Tools) > 0 {
				fmt.Fprintf(out, "  Tools: %s\n", strings.Join(st.Tools, ", "))
			}
			fmt.Fprintf(out, "\nTo remove this server, run: reins mcp remove \"%s\" -s %s\n", s.Name, s.Scope)
			return nil
		},
	}
}

// printMap prints a titled map, each pair with format, sorted by key.
func printMap(w io.Writer, title, format string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "  %s:\n", title)
	for _, k := range keys {
		fmt.Fprintf(w, "    "+format+"\n", k, m[k])
	}
}

func serveCommand(opts CommandOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve reins's tools to an MCP client over stdio",
		Long:  "Serve reins's built-in tools over MCP on stdin/stdout. As with Claude Code, the MCP client is responsible for confirming each call with its user: a call your permission rules would ask about runs, while a deny rule still refuses it (with the reason).",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Serve == nil {
				return fmt.Errorf("mcp serve is not available in this build")
			}
			return opts.Serve(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
}

// Credentials is the store of `reins mcp login` tokens under the user
// config folder.
func Credentials(configDir string) *CredentialStore {
	return &CredentialStore{Path: filepath.Join(configDir, "mcp-credentials.json")}
}

// remoteServer finds the configured http or sse server name, with its
// variables expanded.
func remoteServer(opts CommandOptions, name string) (ServerConfig, error) {
	cfg, err := load(opts)
	if err != nil {
		return ServerConfig{}, err
	}
	s, ok := cfg.Get(name)
	if !ok {
		return ServerConfig{}, fmt.Errorf("no MCP server named %q", name)
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	c, missing := s.Config.Expand(getenv)
	if len(missing) > 0 {
		return ServerConfig{}, fmt.Errorf("MCP server %q cannot be used: %s", name, UnsetVarsMessage(missing))
	}
	if t := c.Transport(); t != TransportHTTP && t != TransportSSE {
		return ServerConfig{}, fmt.Errorf("%s is a %s server; only http and sse servers log in", name, t)
	}
	return c, nil
}

func loginCommand(opts CommandOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "login <name>",
		Short: "Authorize reins with a remote MCP server (OAuth, in the browser)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := remoteServer(opts, args[0])
			if err != nil {
				return err
			}
			getenv := opts.Getenv
			if getenv == nil {
				getenv = os.Getenv
			}
			return Login(cmd.Context(), args[0], c, Credentials(opts.ConfigDir),
				LoginOptions{Out: cmd.ErrOrStderr(), Open: BrowserOpener(getenv)})
		},
	}
}

func logoutCommand(opts CommandOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "logout <name>",
		Short: "Forget the OAuth tokens of a remote MCP server",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := remoteServer(opts, args[0])
			if err != nil {
				return err
			}
			had, err := Credentials(opts.ConfigDir).Remove(args[0], c.URL)
			if err != nil {
				return err
			}
			if !had {
				fmt.Fprintf(cmd.OutOrStdout(), "reins was not logged in to %s.\n", args[0])
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Logged out of %s.\n", args[0])
			return nil
		},
	}
}
