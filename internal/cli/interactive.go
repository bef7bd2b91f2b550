package cli

import "context"

// runInteractive starts the terminal UI.
func runInteractive(ctx context.Context, env *Env, o *Options) error {
	return runPrint(ctx, env, o)
}
