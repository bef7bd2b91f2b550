//go:build !unix

package command

import "os/exec"

// killGroup leaves the default: cancelling kills the shell only.
func killGroup(*exec.Cmd) {}
