package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// tightenUsage makes the command-line mistakes of c and the commands
// under it usage errors (exit code 2, with the help hint) that name the
// command and its usage line: a wrong number of arguments, and, for a
// command that only groups others (reins mcp), a name that is none of
// them, which cobra would answer with the help text and exit code 0.
func tightenUsage(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return subUsageError{fmt.Sprintf("%s: %v (usage: %s)", subcommandName(cmd), err, cmd.UseLine()), cmd.CommandPath()}
			}
			return nil
		}
	}
	if !c.Runnable() && c.HasSubCommands() {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			var names []string
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			return subUsageError{fmt.Sprintf("%s: unknown command %q (want one of: %s)", subcommandName(cmd), args[0], strings.Join(names, ", ")), cmd.CommandPath()}
		}
	}
	for _, sub := range c.Commands() {
		tightenUsage(sub)
	}
}

// subcommandName is cmd's path without the program's name ("mcp add").
func subcommandName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}
