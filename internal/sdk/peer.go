package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
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

	mu      sync.Mutex // guards pending, seq and closed
	pending map[string]*outgoing
	seq     int
	closed  bool // the input ended; no answer will come
}

// outgoing is a request awaiting its answer: the line that asked it, in
// the order sent (seq), and where the answer goes.
type outgoing struct {
	ch      chan *Answer
	subtype string
	line    streamjson.ControlRequest
	seq     int
}

func newPeer(w *streamjson.Writer) *peer {
	return &peer{w: w, pending: map[string]*outgoing{}}
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
	line := streamjson.NewControlRequest(id, req)
	p.seq++
	p.pending[id] = &outgoing{ch: ch, subtype: subtype, line: line, seq: p.seq}
	p.mu.Unlock()
	if err := p.w.Line(line); err != nil {
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
	o, ok := p.pending[a.RequestID]
	delete(p.pending, a.RequestID)
	p.mu.Unlock()
	if ok {
		o.ch <- a
	}
	return ok
}

// unanswered returns the lines of the requests of a subtype that still
// await their answers, in the order they were sent (never nil), for a
// client that initializes again to learn what it was asked.
func (p *peer) unanswered(subtype string) []streamjson.ControlRequest {
	p.mu.Lock()
	var outs []*outgoing
	for _, o := range p.pending {
		if o.subtype == subtype {
			outs = append(outs, o)
		}
	}
	p.mu.Unlock()
	sort.Slice(outs, func(i, j int) bool { return outs[i].seq < outs[j].seq })
	lines := make([]streamjson.ControlRequest, 0, len(outs))
	for _, o := range outs {
		lines = append(lines, o.line)
	}
	return lines
}

// close fails every pending request and refuses new ones: the input ended.
func (p *peer) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for id, o := range p.pending {
		o.ch <- nil
		delete(p.pending, id)
	}
}

// waiting is the number of requests awaiting an answer.
func (p *peer) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pending)
}
