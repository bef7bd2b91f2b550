package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"reins/internal/automode"
	"reins/internal/settings"
)

// autoModeCommand is `reins auto-mode`: `defaults` prints the built-in
// rules of auto mode's classifier, `config` the rules a session here
// would use (the autoMode setting applied to them), both as JSON in the
// shape of the autoMode setting.
func autoModeCommand(env *Env, load func() (*settings.Settings, error)) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auto-mode",
		Short: "Inspect auto mode's classifier rules",
		Args:  cobra.NoArgs,
	}
	show := func(what string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("auto-mode %s: %w", what, err)
		}
		_, err = fmt.Fprintln(env.Stdout, string(b))
		return err
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "defaults",
		Short: "Print the built-in classifier rules as JSON (the autoMode setting's shape)",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return show("defaults", automode.Defaults()) },
	}, &cobra.Command{
		Use:   "config",
		Short: "Print the classifier rules in effect here: the built-in ones with your autoMode settings applied",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			s, err := load()
			if err != nil {
				return fmt.Errorf("auto-mode config: %w", err)
			}
			return show("config", struct {
				automode.Rules
				ClassifyAllShell bool `json:"classifyAllShell"`
				Disabled         bool `json:"disabled,omitempty"`
			}{automode.Resolve(s.AutoMode), s.AutoMode.ClassifyAllShell, s.DisableAutoMode})
		},
	})
	return cmd
}
