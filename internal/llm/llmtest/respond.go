package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

func writeError(w http.ResponseWriter, status int, typ, msg string, hdr map[string]string) {
	for k, v := range hdr {
		if v != "" {
			w.Header().Set(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_fake")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	w.Write(b)
}

// sse writes events and applies a mid-stream fault.
type sse struct {
	w     http.ResponseWriter
	r     *http.Request
	fl    http.Flusher
	fault *Fault
	delay time.Duration
	sent  int
	dead  bool
}

// event sends one event; it returns false once the stream must stop.
func (s *sse) event(name string, data any) bool {
	if s.dead {
		return false
	}
	if f := s.fault; f != nil && s.sent == f.After && (f.Reset || f.Stall || f.Malformed || f.ErrorEvent) {
		s.dead = true
		switch {
		case f.Reset:
			if hj, ok := s.w.(http.Hijacker); ok {
				s.fl.Flush()
				conn, _, err := hj.Hijack()
				if err == nil {
					if tc, ok := conn.(interface{ SetLinger(int) error }); ok {
						tc.SetLinger(0)
					}
					conn.Close()
				}
			}
		case f.Stall:
			s.fl.Flush()
			if f.StallFor > 0 {
				select {
				case <-time.After(time.Duration(f.StallFor)):
				case <-s.r.Context().Done():
				}
			} else {
				<-s.r.Context().Done()
			}
		case f.Malformed:
			fmt.Fprintf(s.w, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"unterminated\n\n")
			s.fl.Flush()
		case f.ErrorEvent:
			typ, msg := f.ErrorType, f.Message
			if typ == "" {
				typ, msg = "overloaded_error", "Overloaded"
			}
			b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
			fmt.Fprintf(s.w, "event: error\ndata: %s\n\n", b)
			s.fl.Flush()
		}
		return false
	}
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-s.r.Context().Done():
			s.dead = true
			return false
		}
	}
	b, _ := json.Marshal(data)
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b); err != nil {
		s.dead = true
		return false
	}
	// A fault or a delay is placed between events, so those streams send
	// each event on its own. The others send at the points a client acts
	// on: the message's start, each block's end (where a tool call can
	// start) and the message's end, as a server that is not throttled by
	// generation would.
	switch {
	case s.fault != nil || s.delay > 0, name == "ping", name == "content_block_stop", name == "message_stop":
		s.fl.Flush()
	}
	s.sent++
	return true
}

func (s *Server) respond(w http.ResponseWriter, r *http.Request, req *Request, turn Turn, msgID string, n int) {
	if f := turn.Fault; f != nil && f.Status != 0 {
		typ, msg := f.ErrorType, f.Message
		if typ == "" {
			typ = "api_error"
		}
		if msg == "" {
			msg = http.StatusText(f.Status)
		}
		writeError(w, f.Status, typ, msg, map[string]string{
			"retry-after": f.RetryAfter, "retry-after-ms": f.RetryAfterMs, "x-should-retry": f.ShouldRetry})
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, 500, "api_error", "no flusher", nil)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("request-id", fmt.Sprintf("req_%03d", n))
	w.WriteHeader(http.StatusOK)
	st := &sse{w: w, r: r, fl: fl, fault: turn.Fault, delay: time.Duration(turn.Delay)}

	usage := map[string]int{"input_tokens": len(req.Body) / 4, "output_tokens": 1,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	outTokens := 0
	for _, b := range turn.Blocks {
		outTokens += (len(b.Text) + len(b.Thinking) + len(b.Input)) / 4
	}
	outTokens = max(outTokens, 1)
	if u := turn.Usage; u != nil {
		usage["input_tokens"] = u.InputTokens
		usage["cache_read_input_tokens"] = u.CacheReadInputTokens
		usage["cache_creation_input_tokens"] = u.CacheCreationInputTokens
		if u.OutputTokens > 0 {
			outTokens = u.OutputTokens
		}
	}
	model := req.Model
	if !st.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}}) {
		return
	}
	st.event("ping", map[string]string{"type": "ping"})
	stop := turn.StopReason
	for i, b := range turn.Blocks {
		if !s.streamBlock(st, i, b, n) {
			return
		}
		if stop == "" && b.Type == "tool_use" {
			stop = "tool_use"
		}
	}
	if stop == "" {
		stop = "end_turn"
	}
	final := map[string]any{"output_tokens": outTokens}
	if u := turn.Usage; u != nil {
		for k, v := range u.Final {
			final[k] = v
		}
	}
	if !st.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": final}) {
		return
	}
	st.event("message_stop", map[string]string{"type": "message_stop"})
}

func (s *Server) streamBlock(st *sse, i int, b Block, n int) bool {
	switch b.Type {
	case "text":
		if !st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "text", "text": ""}}) {
			return false
		}
		for _, chunk := range chunks(b.Text, 24) {
			if !st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "text_delta", "text": chunk}}) {
				return false
			}
		}
	case "thinking":
		if !st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}}) {
			return false
		}
		for _, chunk := range chunks(b.Thinking, 24) {
			if !st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "thinking_delta", "thinking": chunk}}) {
				return false
			}
		}
		if !st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
			"delta": map[string]string{"type": "signature_delta", "signature": b.Signature}}) {
			return false
		}
	case "redacted_thinking":
		if !st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "redacted_thinking", "data": b.Data}}) {
			return false
		}
	case "tool_use":
		id := b.ID
		if id == "" {
			id = fmt.Sprintf("toolu_%03d_%d", n, i)
		}
		if !st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "tool_use", "id": id, "name": b.Name, "input": map[string]any{}}}) {
			return false
		}
		input := string(b.Input)
		if b.RawInputJSON != nil {
			input = *b.RawInputJSON
		}
		if input == "" {
			input = "{}"
		}
		for _, chunk := range chunks(input, 16) {
			if !st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "input_json_delta", "partial_json": chunk}}) {
				return false
			}
		}
	case "raw":
		var blk map[string]any
		json.Unmarshal(b.Raw, &blk)
		if !st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": blk}) {
			return false
		}
	}
	return st.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
}

// chunks splits s into pieces of about n bytes without cutting UTF-8.
func chunks(s string, n int) []string {
	if s == "" {
		return nil
	}
	var out []string
	for len(s) > n {
		cut := n
		for cut < len(s) && !utf8Start(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
