package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/google/uuid"

	"reins/internal/streamjson"
)

// ErrInputClosed is returned for a request to the client once its input
// has ended: no answer can arrive any more.
var ErrInputClosed = errors.New("the SDK client closed its input; it can no longer answer")

// ClientError is an error answer from the client to a request reins made.
type ClientError struct {
	Subtype string // of the request
	Message string
}

func (e *ClientError) Error() string {
	return fmt.Sprintf("%s: the SDK client answered with an error: %s", e.Subtype, e.Message)
}

// peer sends reins's control requests to the client and matches the
// answers to them by request id. It is safe for concurrent use.
type peer struct {
	w *streamjson.Writer

	mu      sync.Mutex // guards pending and closed
	pending map[string]chan *Answer
	closed  bool // the input ended; no answer will come
}

func newPeer(w *streamjson.Writer) *peer {
	return &peer{w: w, pending: map[string]chan *Answer{}}
}

// request sends a control request whose body is req (it carries its
// subtype) and waits for the answer. When ctx ends first the request is
// withdrawn with a control_cancel_request and ctx's cause is returned.
func (p *peer) request(ctx context.Context, subtype string, req any) (json.RawMessage, error) {
	id := uuid.NewString()
	ch := make(chan *Answer, 1)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", subtype, ErrInputClosed)
	}
	p.pending[id] = ch
	p.mu.Unlock()
	if err := p.w.Line(streamjson.NewControlRequest(id, req)); err != nil {
		p.forget(id)
		return nil, fmt.Errorf("%s: %w", subtype, err)
	}
	select {
	case a := <-ch:
		if a == nil {
			return nil, fmt.Errorf("%s: %w", subtype, ErrInputClosed)
		}
		if a.Subtype == "error" {
			msg := a.Error
			if msg == "" {
				msg = "no reason given"
			}
			return nil, &ClientError{Subtype: subtype, Message: msg}
		}
		return a.Response, nil
	case <-ctx.Done():
		if p.forget(id) {
			p.w.Line(streamjson.NewControlCancel(id))
		}
		return nil, fmt.Errorf("%s: %w", subtype, context.Cause(ctx))
	}
}

// forget drops a pending request; it reports whether it was still pending.
func (p *peer) forget(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.pending[id]
	delete(p.pending, id)
	return ok
}

// deliver hands an answer to the request waiting for it. It reports
// whether one was (an answer to a withdrawn request is dropped).
func (p *peer) deliver(a *Answer) bool {
	p.mu.Lock()
	ch, ok := p.pending[a.RequestID]
	delete(p.pending, a.RequestID)
	p.mu.Unlock()
	if ok {
		ch <- a
	}
	return ok
}

// close fails every pending request and refuses new ones: the input ended.
func (p *peer) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for id, ch := range p.pending {
		ch <- nil
		delete(p.pending, id)
	}
}

// waiting is the number of requests awaiting an answer.
func (p *peer) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pending)
}
