//go:build !unix

package tui

// jobControl is false where processes cannot be stopped and resumed.
func jobControl() bool { return false }
