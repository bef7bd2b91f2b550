package engine

import (
	"errors"
	"fmt"
	"testing"

	"reins/internal/llm"
)

// StopFailure matchers see the kinds of error Claude Code names.
func TestStopFailureKinds(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&llm.APIError{Status: 429, Type: "rate_limit_error"}, "rate_limit"},
		{fmt.Errorf("stream: %w", &llm.APIError{Status: 401, Type: "authentication_error"}), "authentication_failed"},
		{&llm.APIError{Status: 402, Type: "billing_error"}, "billing_error"},
		{&llm.APIError{Status: 400, Type: "invalid_request_error"}, "invalid_request"},
		{&llm.APIError{Status: 529, Type: "overloaded_error"}, "overloaded"},
		{&llm.APIError{Status: 404, Type: "not_found_error"}, "model_not_found"},
		{&llm.APIError{Status: 503}, "server_error"},
		{&llm.APIError{Type: "api_error"}, "server_error"},
		{ErrMaxOutputTokens, "max_output_tokens"},
		{errors.New("connection reset"), "unknown"},
	} {
		if got := stopFailureKind(tt.err); got != tt.want {
			t.Errorf("stopFailureKind(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// The SDKs' assistant message error keeps its older names for the kinds
// StopFailure splits out.
func TestFailureKindKeepsTheSDKNames(t *testing.T) {
	if got := FailureKind(&llm.APIError{Status: 529, Type: "overloaded_error"}); got != "server_error" {
		t.Errorf("overloaded: %q", got)
	}
	if got := FailureKind(&llm.APIError{Status: 404, Type: "not_found_error"}); got != "invalid_request" {
		t.Errorf("model not found: %q", got)
	}
}
