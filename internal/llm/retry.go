package llm

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Retry policy shared by providers and the engine.
const (
	// MaxRetries is how many times a failed request is retried.
	MaxRetries = 10
	// BaseRetryDelay is the first backoff step.
	BaseRetryDelay = 500 * time.Millisecond
	// MaxRetryDelay caps a computed backoff step (not a server's
	// retry-after, which is honoured up to MaxRetryAfter).
	MaxRetryDelay = 32 * time.Second
	// MaxRetryAfter caps a server-requested wait.
	MaxRetryAfter = 5 * time.Minute
)

// Backoff returns the wait before retry number attempt (1-based): the
// server's retryAfter when given, else exponential from BaseRetryDelay with
// up to 25% jitter, capped at MaxRetryDelay.
func Backoff(attempt int, retryAfter time.Duration) time.Duration {
	return BackoffFrom(BaseRetryDelay, attempt, retryAfter)
}

// BackoffFrom is Backoff with another base step (tests use a small one).
func BackoffFrom(base time.Duration, attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, MaxRetryAfter)
	}
	if attempt < 1 {
		attempt = 1
	}
	d := base << min(attempt-1, 16)
	if d > MaxRetryDelay || d <= 0 {
		d = MaxRetryDelay
	}
	return d + time.Duration(rand.Int64N(int64(d)/4+1))
}

// RetryAfter returns the server-requested wait carried by err, or 0.
func RetryAfter(err error) time.Duration {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}
