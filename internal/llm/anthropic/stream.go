package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"reins/internal/llm"
)

// stream is an llm.Stream over one HTTP response.
type stream struct {
	body    io.ReadCloser
	sse     *sseReader
	idle    time.Duration
	timer   *time.Timer
	pending []llm.Event // events read ahead (the first event is peeked)
	stopped bool        // message_stop was returned
	// requestID is the response's request-id header, given to the
	// message that message_start opens.
	requestID string

	mu      sync.Mutex
	closed  bool
	timeout bool // the idle timer fired
}

func newStream(body io.ReadCloser, idle time.Duration) *stream {
	s := &stream{body: body, sse: newSSEReader(body), idle: idle}
	if idle > 0 {
		s.timer = time.AfterFunc(idle, func() {
			s.mu.Lock()
			s.timeout = true
			s.mu.Unlock()
			body.Close()
		})
	}
	return s
}

func (s *stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	return s.body.Close()
}

func (s *stream) Next() (llm.Event, error) {
	if len(s.pending) > 0 {
		ev := s.pending[0]
		s.pending = s.pending[1:]
		s.stopped = ev.Type == llm.EventMessageStop
		if ev.Type == llm.EventMessageStart && ev.Message != nil {
			ev.Message.RequestID = s.requestID
		}
		return ev, nil
	}
	if s.stopped {
		return llm.Event{}, io.EOF
	}
	for {
		raw, err := s.sse.next()
		if s.timer != nil {
			s.timer.Reset(s.idle)
		}
		if err != nil {
			s.mu.Lock()
			timedOut, closed := s.timeout, s.closed
			s.mu.Unlock()
			switch {
			case timedOut:
				return llm.Event{}, &llm.ConnError{Op: "read stream", Err: fmt.Errorf("no data for %s", s.idle)}
			case closed:
				return llm.Event{}, &llm.ConnError{Op: "read stream", Err: errors.New("stream closed")}
			case err == io.EOF:
				return llm.Event{}, &llm.ConnError{Op: "read stream", Err: errors.New("stream ended before message_stop")}
			}
			return llm.Event{}, &llm.ConnError{Op: "read stream", Err: err}
		}
		ev, err := decodeEvent(raw)
		if err != nil {
			return llm.Event{}, err
		}
		if ev.Type == "" {
			continue // unknown event: ignore
		}
		s.stopped = ev.Type == llm.EventMessageStop
		return ev, nil
	}
}

// wire shapes of the SSE data payloads.
type wireEvent struct {
	Type         string          `json:"type"`
	Index        int             `json:"index"`
	Message      *llm.Message    `json:"message"`
	ContentBlock json.RawMessage `json:"content_block"`
	Delta        json.RawMessage `json:"delta"`
	Usage        *llm.Usage      `json:"usage"`
	Error        *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type wireDelta struct {
	Type         string  `json:"type"`
	Text         string  `json:"text"`
	PartialJSON  string  `json:"partial_json"`
	Thinking     string  `json:"thinking"`
	Signature    string  `json:"signature"`
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

// decodeEvent turns one SSE event into an llm.Event. An error event
// becomes an *llm.APIError. Unknown event types give a zero Type.
func decodeEvent(raw sseEvent) (llm.Event, error) {
	var w wireEvent
	if err := json.Unmarshal(raw.data, &w); err != nil {
		return llm.Event{}, &llm.ConnError{Op: "decode stream event " + raw.name, Err: fmt.Errorf("malformed JSON: %w", err)}
	}
	name := w.Type
	if name == "" {
		name = raw.name
	}
	ev := llm.Event{Type: llm.EventType(name), Index: w.Index, Raw: raw.data}
	switch ev.Type {
	case llm.EventMessageStart:
		if w.Message == nil {
			return ev, malformed(name, "no message")
		}
		ev.Message = w.Message
	case llm.EventContentBlockStart:
		var b llm.ContentBlock
		if err := json.Unmarshal(w.ContentBlock, &b); err != nil {
			return ev, malformed(name, err.Error())
		}
		if b.Type == llm.BlockToolUse {
			// The input arrives as input_json_delta fragments.
			b.Input = nil
		}
		ev.Block = &b
	case llm.EventContentBlockDelta:
		var d wireDelta
		if err := json.Unmarshal(w.Delta, &d); err != nil {
			return ev, malformed(name, err.Error())
		}
		ev.DeltaType = llm.DeltaType(d.Type)
		ev.DeltaRaw = w.Delta
		switch ev.DeltaType {
		case llm.DeltaText:
			ev.Delta = d.Text
		case llm.DeltaInputJSON:
			ev.Delta = d.PartialJSON
		case llm.DeltaThinking:
			ev.Delta = d.Thinking
		case llm.DeltaSignature:
			ev.Delta = d.Signature
		}
	case llm.EventContentBlockStop, llm.EventMessageStop, llm.EventPing:
	case llm.EventMessageDelta:
		var d wireDelta
		if len(w.Delta) > 0 {
			if err := json.Unmarshal(w.Delta, &d); err != nil {
				return ev, malformed(name, err.Error())
			}
		}
		if d.StopReason != nil {
			ev.StopReason = *d.StopReason
		}
		if d.StopSequence != nil {
			ev.StopSequence = *d.StopSequence
		}
		ev.Usage = w.Usage
	case "error":
		ae := &llm.APIError{Type: "api_error", Message: "stream error"}
		if w.Error != nil {
			ae.Type, ae.Message = w.Error.Type, w.Error.Message
		}
		return ev, ae
	default:
		ev.Type = ""
	}
	return ev, nil
}

func malformed(event, why string) error {
	return &llm.ConnError{Op: "decode stream event " + event, Err: errors.New("malformed: " + why)}
}
