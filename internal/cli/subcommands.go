package cli

import (
	"context"

	"github.com/spf13/cobra"
)

// subcommands returns the subcommands mounted under the root.
func subcommands(env *Env) []*cobra.Command {
	return nil
}

// runInteractive starts the terminal UI.
func runInteractive(ctx context.Context, env *Env, o *Options) error {
	return runPrint(ctx, env, o)
}

// runSDK runs the SDK protocol over stdin/stdout.
func runSDK(ctx context.Context, env *Env, o *Options) error {
	return usageError{"--input-format stream-json is not available yet"}
}
