package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"reins/internal/settings"
)

// authStatus is what `reins auth status` reports: where the credentials
// of a session started here would come from. reins signs in only with an
// API key or token from the environment (or the settings' env) or an
// apiKeyHelper command; it keeps no account login of its own.
type authStatus struct {
	LoggedIn     bool   `json:"loggedIn"`
	AuthMethod   string `json:"authMethod"`             // api_key, auth_token, api_key_helper or none
	APIKeySource string `json:"apiKeySource,omitempty"` // the variable or setting it comes from
	APIProvider  string `json:"apiProvider"`
	BaseURL      string `json:"baseUrl,omitempty"`
	Helper       string `json:"apiKeyHelper,omitempty"` // the helper's settings file
}

// readAuthStatus works the status out without running a helper: that it
// is configured is what a session would use.
func readAuthStatus(getenv func(string) string, s *settings.Settings) authStatus {
	env := func(k string) string {
		if s != nil {
			if v, ok := s.Env[k]; ok && getenv(k) == "" {
				return v
			}
		}
		return getenv(k)
	}
	st := authStatus{AuthMethod: "none", APIProvider: "firstParty", BaseURL: env("ANTHROPIC_BASE_URL")}
	switch {
	case env("ANTHROPIC_API_KEY") != "":
		st.LoggedIn, st.AuthMethod, st.APIKeySource = true, "api_key", "ANTHROPIC_API_KEY"
	case env("ANTHROPIC_AUTH_TOKEN") != "":
		st.LoggedIn, st.AuthMethod, st.APIKeySource = true, "auth_token", "ANTHROPIC_AUTH_TOKEN"
	case s != nil && s.APIKeyHelper != nil:
		st.LoggedIn, st.AuthMethod, st.APIKeySource = true, "api_key_helper", "apiKeyHelper"
		st.Helper = s.APIKeyHelper.File
	}
	return st
}

// authCommand is `reins auth`: status reports the credentials a session
// here would use (JSON, or --text), exiting 1 when there are none; login
// and logout say how reins is given a key, as it has no account login.
func authCommand(env *Env, settingsHere func() (*settings.Settings, error)) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Show where reins gets its API credentials (reins uses API keys, not an account login)",
	}
	var text bool
	status := &cobra.Command{
		Use:   "status",
		Short: "Report the credentials a session here would use, as JSON (--text for a sentence); exit 1 when there are none",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			s, err := settingsHere()
			if err != nil {
				return fmt.Errorf("auth status: %w", err)
			}
			st := readAuthStatus(env.Getenv, s)
			if text {
				switch {
				case !st.LoggedIn:
					fmt.Fprintln(env.Stdout, "Not signed in: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token, or apiKeyHelper in settings).")
				case st.Helper != "":
					fmt.Fprintf(env.Stdout, "Signed in with the apiKeyHelper of %s.\n", st.Helper)
				default:
					fmt.Fprintf(env.Stdout, "Signed in with %s.\n", st.APIKeySource)
				}
			} else {
				b, err := json.MarshalIndent(st, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintln(env.Stdout, string(b))
			}
			if !st.LoggedIn {
				return exitError{1}
			}
			return nil
		},
	}
	status.Flags().BoolVar(&text, "text", false, "a sentence instead of JSON")
	noLogin := func(verb string) *cobra.Command {
		return &cobra.Command{
			Use:   verb,
			Short: "reins has no account login: it reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or apiKeyHelper",
			RunE: func(*cobra.Command, []string) error {
				return fmt.Errorf("auth %s: reins has no account login; give it a key with ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or an apiKeyHelper command in settings), and see reins auth status", verb)
			},
		}
	}
	cmd.AddCommand(status, noLogin("login"), noLogin("logout"))
	return cmd
}
