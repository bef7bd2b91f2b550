package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"reins/internal/agent"
)

// agentsCommand is `reins agents`: the sub-agent types a session here
// has, grouped by where each comes from, as Claude Code's `claude agents`
// lists them. Nothing is started: no MCP server, no model.
func agentsCommand(env *Env) *cobra.Command {
	var flagAgents string
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "List the sub-agents a session here can use, by where they are defined",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			trusted := true // listing runs nothing the project defines
			o := &Options{OutputFormat: "text", InputFormat: "text", NoPersist: true, Agents: flagAgents}
			a, err := newAppFor(ctx, env, o, frontServe, appHooks{Trusted: &trusted})
			if err != nil {
				return fmt.Errorf("agents: %w", err)
			}
			defer a.close()
			cat := a.agentCatalog()
			if cat == nil {
				fmt.Fprintln(env.Stdout, "No agents.")
				return nil
			}
			writeAgentList(env.Stdout, cat.All(), a.cwd)
			for _, w := range a.startupWarnings() {
				fmt.Fprintf(env.Stderr, "reins: warning: %s\n", w)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&flagAgents, "agents", "", "also list these agents, given as JSON (as the --agents option takes them)")
	return cmd
}

// agentGroups orders the sources in the listing: the ones that win a name
// first.
var agentGroups = []struct {
	title string
	src   []agent.Source
}{
	{"Managed agents", []agent.Source{agent.SourceManaged}},
	{"Session agents (--agents)", []agent.Source{agent.SourceFlag, agent.SourceSDK}},
	{"Project agents", []agent.Source{agent.SourceProject}},
	{"User agents", []agent.Source{agent.SourceUser}},
	{"Plugin agents", []agent.Source{agent.SourcePlugin}},
	{"Built-in agents", []agent.Source{agent.SourceBuiltin}},
}

// writeAgentList prints defs by group, one line per agent: its name, its
// model and what else sets it apart, then where it is defined.
func writeAgentList(w io.Writer, defs []*agent.Definition, cwd string) {
	fmt.Fprintf(w, "%d agents\n", len(defs))
	for _, g := range agentGroups {
		var in []*agent.Definition
		for _, d := range defs {
			for _, s := range g.src {
				if d.Source == s {
					in = append(in, d)
				}
			}
		}
		if len(in) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, d := range in {
			model := d.Model
			if model == "" {
				model = "inherit"
			}
			facts := []string{model}
			if d.Memory != "" {
				facts = append(facts, "memory: "+d.Memory)
			}
			if d.Background {
				facts = append(facts, "background")
			}
			if d.Isolation != "" {
				facts = append(facts, "isolation: "+d.Isolation)
			}
			line := "  " + d.Name + " · " + strings.Join(facts, " · ")
			if d.Path != "" {
				path := d.Path
				if rel, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
					path = rel
				}
				line += "  (" + path + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
}
