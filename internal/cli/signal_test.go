package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestNotifyContextCancelsWithTheSignalAsCause checks that the context
// ends when the signal arrives, with a cause naming it, and that stop
// leaves the context cancelled.
func TestNotifyContextCancelsWithTheSignalAsCause(t *testing.T) {
	// A second registration keeps SIGUSR1 from ending the test process
	// before notifyContext's goroutine has registered.
	guard := make(chan os.Signal, 8)
	signal.Notify(guard, syscall.SIGUSR1)
	defer signal.Stop(guard)

	ctx, stop := notifyContext(context.Background(), syscall.SIGUSR1)
	defer stop()
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		syscall.Kill(os.Getpid(), syscall.SIGUSR1)
		select {
		case <-ctx.Done():
		case <-tick.C:
		case <-deadline:
			t.Fatal("the context was not cancelled by SIGUSR1")
		}
	}
	var se signalError
	if cause := context.Cause(ctx); !errors.As(cause, &se) || se.Error() != "user defined signal 1 signal received" {
		t.Errorf("cause %v (%T), want the signal named", cause, cause)
	}
}

// TestNotifyContextStopCancels checks that stop without a signal cancels
// the context with context.Canceled, and that the parent's end reaches it.
func TestNotifyContextStopCancels(t *testing.T) {
	ctx, stop := notifyContext(context.Background(), syscall.SIGUSR2)
	if ctx.Err() != nil {
		t.Fatal("cancelled before any signal")
	}
	stop()
	if !errors.Is(context.Cause(ctx), context.Canceled) {
		t.Errorf("after stop the cause is %v, want context.Canceled", context.Cause(ctx))
	}
	stop() // a second stop is harmless

	parent, cancel := context.WithCancel(context.Background())
	ctx, stop = notifyContext(parent, syscall.SIGUSR2)
	defer stop()
	cancel()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the parent's cancellation did not reach the context")
	}
}
