package tui

import (
	"io"
	"sync"

	"github.com/charmbracelet/colorprofile"
)

// Colors returns the terminal's colour profile (see DetectColors).
type Colors func() colorprofile.Profile

// DetectColors starts finding the colour profile of the terminal behind
// output, given the environment, and returns a function that waits for
// it. The detection reads the terminfo database and, inside tmux, runs
// `tmux info`, a few milliseconds that start-up can spend on other work;
// one detection serves the trust prompt and the UI alike.
func DetectColors(output io.Writer, environ []string) Colors {
	var p colorprofile.Profile
	var wg sync.WaitGroup
	wg.Go(func() { p = colorprofile.Detect(output, environ) })
	return func() colorprofile.Profile {
		wg.Wait()
		return p
	}
}
