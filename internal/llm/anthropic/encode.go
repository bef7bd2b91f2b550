package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"

	"reins/internal/llm"
)

// MaxBreakpoints is the API's limit on cache_control markers per request.
const MaxBreakpoints = 4

// EncodeRequest returns the JSON body for req.
func EncodeRequest(req *llm.Request) ([]byte, error) {
	return AppendRequest(nil, req)
}

// SizeHint estimates the encoded size of req, to size a buffer.
func SizeHint(req *llm.Request) int {
	n := 16 << 10
	for _, s := range req.System {
		n += len(s.Text) + 64
	}
	for _, t := range req.Tools {
		n += len(t.Description) + len(t.InputSchema) + len(t.Raw) + 64
	}
	for _, m := range req.Messages {
		n += m.EncodedSize() + 8
	}
	return n
}

// AppendRequest appends the JSON body for req to buf.
func AppendRequest(buf []byte, req *llm.Request) ([]byte, error) {
	return appendRequest(buf, req, nil)
}

// toolsCache keeps the encoding of the last tools array: a session sends
// the same tools every turn, and escaping their descriptions and
// compacting their schemas again cost more than the rest of the body
// (whose messages keep their own encodings). Safe for concurrent use.
type toolsCache struct {
	mu    sync.Mutex
	specs []llm.ToolSpec
	ttl   string
	last  bool // the last tool carried a cache breakpoint
	enc   []byte
}

// lookup returns the cached encoding of specs, or nil (also for a nil
// cache).
func (c *toolsCache) lookup(specs []llm.ToolSpec, ttl string, last bool) []byte {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.enc == nil || c.ttl != ttl || c.last != last || len(c.specs) != len(specs) {
		return nil
	}
	for i := range specs {
		a, b := &specs[i], &c.specs[i]
		// Equal strings that share their bytes compare in constant time,
		// which is the common case: the same tools, turn after turn.
		if a.Name != b.Name || a.Description != b.Description || string(a.InputSchema) != string(b.InputSchema) || string(a.Raw) != string(b.Raw) {
			return nil
		}
	}
	return c.enc
}

func (c *toolsCache) store(specs []llm.ToolSpec, ttl string, last bool, enc []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.specs, c.ttl, c.last, c.enc = slices.Clone(specs), ttl, last, slices.Clone(enc)
}

// appendRequest is AppendRequest, taking the tools array from tc (when
// not nil) if it holds the same tools.
func appendRequest(buf []byte, req *llm.Request, tc *toolsCache) ([]byte, error) {
	if need := SizeHint(req); cap(buf)-len(buf) < need {
		nb := make([]byte, len(buf), len(buf)+need)
		copy(nb, buf)
		buf = nb
	}
	buf = append(buf, `{"model":`...)
	model, _ := apiModel(req.Model)
	buf = strconv.AppendQuote(buf, model)
	buf = append(buf, `,"max_tokens":`...)
	buf = strconv.AppendInt(buf, int64(req.MaxTokens), 10)

	breaks := 0
	ttl := req.CacheTTL
	if len(req.System) > 0 {
		buf = append(buf, `,"system":[`...)
		// Only the last two cache-marked system blocks get markers.
		marked := 0
		for _, b := range req.System {
			if b.Cache {
				marked++
			}
		}
		skip := max(marked-2, 0)
		for i, b := range req.System {
			if i > 0 {
				buf = append(buf, ',')
			}
			cb := llm.TextBlock(b.Text)
			if b.Cache && !req.NoCache {
				if skip > 0 {
					skip--
				} else {
					cb.CacheControl = &llm.CacheControl{Type: "ephemeral", TTL: ttl}
					breaks++
				}
			}
			enc, err := cb.MarshalJSON()
			if err != nil {
				return nil, err
			}
			buf = append(buf, enc...)
		}
		buf = append(buf, ']')
	}
	if len(req.Tools) > 0 {
		buf = append(buf, `,"tools":`...)
		lastMarked := !req.NoCache && breaks < MaxBreakpoints-1
		if enc := tc.lookup(req.Tools, ttl, lastMarked); enc != nil {
			buf = append(buf, enc...)
		} else {
			start := len(buf)
			buf = append(buf, '[')
			for i, t := range req.Tools {
				if i > 0 {
					buf = append(buf, ',')
				}
				var err error
				if buf, err = appendTool(buf, t, lastMarked && i == len(req.Tools)-1, ttl); err != nil {
					return nil, err
				}
			}
			buf = append(buf, ']')
			tc.store(req.Tools, ttl, lastMarked, buf[start:])
		}
		if lastMarked {
			breaks++
		}
	}
	buf = append(buf, `,"messages":[`...)
	var err error
	if buf, err = appendMessages(buf, req.Messages, !req.NoCache && breaks < MaxBreakpoints, ttl); err != nil {
		return nil, err
	}
	buf = append(buf, ']')
	if req.Thinking != nil {
		buf = append(buf, `,"thinking":`...)
		tb, _ := json.Marshal(req.Thinking)
		buf = append(buf, tb...)
	}
	if req.Temperature != nil && (req.Thinking == nil || req.Thinking.Type == "disabled") {
		buf = append(buf, `,"temperature":`...)
		buf = strconv.AppendFloat(buf, *req.Temperature, 'g', -1, 64)
	}
	if len(req.ToolChoice) > 0 {
		buf = append(buf, `,"tool_choice":`...)
		buf = append(buf, req.ToolChoice...)
	}
	oc, err := outputConfig(req)
	if err != nil {
		return nil, err
	}
	if len(req.Extra) > 0 || oc != nil {
		keys := make([]string, 0, len(req.Extra)+1)
		for k := range req.Extra {
			switch k {
			case "model", "max_tokens", "system", "tools", "messages", "thinking", "stream", "output_config":
				continue // never let extras replace the core fields
			}
			keys = append(keys, k)
		}
		if oc != nil {
			keys = append(keys, "output_config")
		}
		sort.Strings(keys)
		for _, k := range keys {
			buf = append(buf, ',')
			buf = strconv.AppendQuote(buf, k)
			buf = append(buf, ':')
			if k == "output_config" {
				buf = append(buf, oc...)
			} else {
				buf = append(buf, req.Extra[k]...)
			}
		}
	}
	buf = append(buf, `,"stream":true}`...)
	return buf, nil
}

// outputConfig returns the request's output_config object, or nil for
// none: the one Extra carries, with output_config.effort set from
// req.Effort unless Extra's already names an effort.
func outputConfig(req *llm.Request) (json.RawMessage, error) {
	extra := req.Extra["output_config"]
	if req.Effort == "" {
		if len(extra) == 0 {
			return nil, nil
		}
		return extra, nil
	}
	oc := map[string]json.RawMessage{}
	if len(extra) > 0 && string(extra) != "null" {
		if err := json.Unmarshal(extra, &oc); err != nil {
			return nil, fmt.Errorf("encode output_config: the extra body's output_config is not a JSON object: %w", err)
		}
	}
	if _, ok := oc["effort"]; !ok {
		oc["effort"], _ = json.Marshal(req.Effort)
	}
	return json.Marshal(oc) // sorted keys: the same bytes every request
}

func appendTool(buf []byte, t llm.ToolSpec, cache bool, ttl string) ([]byte, error) {
	if len(t.Raw) > 0 {
		if !cache {
			return append(buf, t.Raw...), nil
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(t.Raw, &m); err != nil {
			return nil, fmt.Errorf("encode tool %s: %w", t.Name, err)
		}
		cc, _ := json.Marshal(llm.CacheControl{Type: "ephemeral", TTL: ttl})
		m["cache_control"] = cc
		b, err := json.Marshal(m)
		return append(buf, b...), err
	}
	buf = append(buf, `{"name":`...)
	buf = strconv.AppendQuote(buf, t.Name)
	buf = append(buf, `,"description":`...)
	d, _ := json.Marshal(t.Description)
	buf = append(buf, d...)
	buf = append(buf, `,"input_schema":`...)
	if len(t.InputSchema) == 0 {
		buf = append(buf, `{"type":"object","properties":{}}`...)
	} else {
		var c bytes.Buffer
		if err := json.Compact(&c, t.InputSchema); err != nil {
			return nil, fmt.Errorf("encode tool %s schema: %w", t.Name, err)
		}
		buf = append(buf, c.Bytes()...)
	}
	if cache {
		buf = append(buf, `,"cache_control":{"type":"ephemeral"`...)
		if ttl != "" {
			buf = append(buf, `,"ttl":`...)
			buf = strconv.AppendQuote(buf, ttl)
		}
		buf = append(buf, '}')
	}
	return append(buf, '}'), nil
}

// appendMessages writes the messages, merging adjacent messages of the
// same role into one (the API requires alternation) by splicing their
// cached encodings. With cache, the last block of the last message is a
// breakpoint.
func appendMessages(buf []byte, msgs []*llm.Message, cache bool, ttl string) ([]byte, error) {
	var prev llm.Role
	var err error
	for i, m := range msgs {
		if len(m.Content) == 0 {
			continue
		}
		last := i == len(msgs)-1
		start := len(buf)
		if buf, err = m.AppendAPI(buf, cache && last, ttl); err != nil {
			return nil, err
		}
		if prev == m.Role && start > 0 {
			// buf ends with ...]}<,>?{"role":"x","content":[ ... ]}
			// Drop the previous message's closing "]}" and this one's
			// opening, joining the blocks with a comma.
			enc := buf[start:]
			open := bytes.Index(enc, []byte(`"content":[`))
			if open < 0 {
				return nil, fmt.Errorf("encode message %d: unexpected encoding", i)
			}
			body := append([]byte(nil), enc[open+len(`"content":[`):]...)
			buf = buf[:start]
			// remove trailing "]}" of previous and maybe a comma
			buf = bytes.TrimSuffix(buf, []byte(","))
			buf = buf[:len(buf)-2]
			buf = append(buf, ',')
			buf = append(buf, body...)
		}
		buf = append(buf, ',')
		prev = m.Role
	}
	if len(buf) > 0 && buf[len(buf)-1] == ',' {
		buf = buf[:len(buf)-1]
	}
	return buf, nil
}
