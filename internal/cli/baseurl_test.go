package cli

import "testing"

func TestCheckBaseURLAcceptsOnlyHTTPURLsWithAHost(t *testing.T) {
	for base, ok := range map[string]bool{
		"":                            true,
		"https://api.anthropic.com":   true,
		"http://127.0.0.1:8080/proxy": true,
		"api.anthropic.com":           false,
		"example.com:8080/anthropic":  false,
		"https://":                    false,
		"ftp://example.com":           false,
		"http//typo.example.com":      false,
	} {
		if err := checkBaseURL(base); (err == nil) != ok {
			t.Errorf("checkBaseURL(%q) = %v, want ok=%v", base, err, ok)
		}
	}
}
