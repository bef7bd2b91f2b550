package llm

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// APIError is an error answered by the model API, either as an HTTP status
// or as an error event inside a stream. Providers return every API failure
// as an *APIError (wrapped or not); find it with errors.As.
type APIError struct {
	Status     int           // HTTP status; 0 for an error event in a stream
	Type       string        // e.g. "overloaded_error", "invalid_request_error"
	Message    string        // the API's message
	RequestID  string        // request-id header, when present
	RetryAfter time.Duration // from retry-after / retry-after-ms; 0 if absent
	// ShouldRetry is the x-should-retry header: nil when absent.
	ShouldRetry *bool
}

func (e *APIError) Error() string {
	var sb strings.Builder
	sb.WriteString("API error")
	if e.Status != 0 {
		fmt.Fprintf(&sb, " %d", e.Status)
	}
	if e.Type != "" {
		fmt.Fprintf(&sb, " (%s)", e.Type)
	}
	if e.Message != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Message)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&sb, " [request %s]", e.RequestID)
	}
	return sb.String()
}

// Retryable reports whether repeating the same request may succeed:
// x-should-retry when present, else 408, 409, 429, 5xx, 529, and overloaded
// or api_error events in a stream.
func (e *APIError) Retryable() bool {
	if e.ShouldRetry != nil {
		return *e.ShouldRetry
	}
	switch {
	case e.Status == 408, e.Status == 409, e.Status == 429, e.Status >= 500:
		return true
	case e.Status == 0:
		return e.Type == "overloaded_error" || e.Type == "api_error" || e.Type == "rate_limit_error"
	}
	return false
}

// Overloaded reports whether the error says the model is overloaded (529).
func (e *APIError) Overloaded() bool {
	return e.Status == 529 || e.Type == "overloaded_error"
}

// IsPromptTooLong reports whether err is the API refusing a prompt that
// exceeds the model's context window.
func IsPromptTooLong(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	m := strings.ToLower(ae.Message)
	return (ae.Status == 400 || ae.Status == 413 || ae.Status == 0) &&
		(strings.Contains(m, "prompt is too long") || strings.Contains(m, "too many tokens") ||
			strings.Contains(m, "context length") || strings.Contains(m, "context window"))
}

// IsOverloaded reports whether err is an overloaded API error.
func IsOverloaded(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Overloaded()
}

// IsAuth reports whether err is the API refusing the credentials.
func IsAuth(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && (ae.Status == 401 || ae.Type == "authentication_error")
}

// ConnError is a transport failure: the connection could not be made, was
// reset, or went idle past the stream timeout. It is always retryable when
// no output has been used yet.
type ConnError struct {
	Op  string // what was being done, e.g. "read stream"
	Err error
}

func (e *ConnError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *ConnError) Unwrap() error { return e.Err }

// IsRetryable reports whether err is worth retrying: a retryable APIError
// or a ConnError.
func IsRetryable(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Retryable()
	}
	var ce *ConnError
	return errors.As(err, &ce)
}
