package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"reins/internal/automode"
)

// autoModeCommand is `reins auto-mode`: `defaults` prints the built-in
// rules of auto mode's classifier as JSON, in the shape of the autoMode
// setting, as a start for one's own.
func autoModeCommand(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auto-mode",
		Short: "Inspect auto mode's classifier rules",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "defaults",
		Short: "Print the built-in classifier rules as JSON (the autoMode setting's shape)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			b, err := json.MarshalIndent(automode.Defaults(), "", "  ")
			if err != nil {
				return fmt.Errorf("auto-mode defaults: %w", err)
			}
			_, err = fmt.Fprintln(env.Stdout, string(b))
			return err
		},
	})
	return cmd
}
