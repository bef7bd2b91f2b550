// Command reins is a terminal AI coding agent. See README.md.
package main

import (
	"context"
	"os"

	"reins/internal/cli"
	"reins/internal/fastpath"
)

func main() {
	fastpath.RestoreEnv()
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
