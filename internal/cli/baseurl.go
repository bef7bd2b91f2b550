package cli

import (
	"fmt"
	"net/url"
)

// checkBaseURL refuses an ANTHROPIC_BASE_URL that is not an http(s) URL
// with a host: such a value can never connect, and retrying it as a
// connection error would keep the user waiting for minutes.
func checkBaseURL(base string) error {
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("ANTHROPIC_BASE_URL %q is not an http(s) URL (want for example https://api.anthropic.com)", base)
	}
	return nil
}
