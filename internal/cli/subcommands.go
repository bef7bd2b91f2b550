package cli

import (
	"github.com/spf13/cobra"
)

// subcommands returns the subcommands mounted under the root.
func subcommands(env *Env) []*cobra.Command {
	return nil
}
