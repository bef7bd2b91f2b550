package cli

import "context"

// runSDK runs the SDK protocol over stdin/stdout (--input-format stream-json).
func runSDK(ctx context.Context, env *Env, o *Options) error {
	return usageError{"--input-format stream-json is not available yet"}
}
