package llmtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"reins/internal/llm"
)

// Request is a captured request.
type Request struct {
	Header http.Header
	Path   string
	Body   []byte // as received

	Model     string            `json:"model"`
	MaxTokens int               `json:"max_tokens"`
	System    []json.RawMessage `json:"-"`
	Tools     []json.RawMessage `json:"tools"`
	Messages  []*llm.Message    `json:"-"`
	Thinking  json.RawMessage   `json:"thinking"`
	Stream    bool              `json:"stream"`

	rawSystem   json.RawMessage
	rawMessages []json.RawMessage
	// Turn is the index of the scripted turn that answered it (-1: none).
	Turn int
	// Arrived is when the request arrived.
	Arrived time.Time
}

// SystemText joins the system prompt's text.
func (r *Request) SystemText() string {
	var sb strings.Builder
	for _, s := range r.System {
		var b struct {
			Text string `json:"text"`
		}
		json.Unmarshal(s, &b)
		sb.WriteString(b.Text)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// LastUserText is the text of the last user message (text blocks and
// tool_result text).
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != llm.RoleUser {
			continue
		}
		var sb strings.Builder
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockText:
				sb.WriteString(b.Text)
			case llm.BlockToolResult:
				sb.WriteString(b.ResultText())
			}
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	return ""
}

// Effort is the request's output_config.effort ("" when it has none)
// and whether its anthropic-beta header names the effort beta.
func (r *Request) Effort() (level string, beta bool) {
	var b struct {
		OutputConfig struct {
			Effort string `json:"effort"`
		} `json:"output_config"`
	}
	json.Unmarshal(r.Body, &b)
	for _, v := range strings.Split(r.Header.Get("anthropic-beta"), ",") {
		beta = beta || strings.TrimSpace(v) == llm.EffortBeta
	}
	return b.OutputConfig.Effort, beta
}

// ToolNames lists the names of the tools sent.
func (r *Request) ToolNames() []string {
	var out []string
	for _, t := range r.Tools {
		var v struct {
			Name string `json:"name"`
		}
		json.Unmarshal(t, &v)
		out = append(out, v.Name)
	}
	return out
}

// ToolResults returns the tool_result blocks of the last user message.
func (r *Request) ToolResults() []llm.ContentBlock {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.RoleUser {
			var out []llm.ContentBlock
			for _, b := range r.Messages[i].Content {
				if b.Type == llm.BlockToolResult {
					out = append(out, b)
				}
			}
			return out
		}
	}
	return nil
}

// Server is a fake Messages API. Create it with Start. Requests and
// Violations include every request that has arrived: they wait for the
// checks of requests still being answered.
type Server struct {
	URL string

	srv *http.Server
	ln  net.Listener
	wg  sync.WaitGroup

	mu         sync.Mutex
	turns      []Turn
	used       []bool
	requests   []*Request
	violations []string
	convs      map[string]*conv
	cache      parseCache
	msgSeq     int
	bytesIn    int64
	// checked is closed when the latest request has been decoded and
	// checked; each request's checks wait for the one before.
	checked chan struct{}
	heads   int // HEAD requests (a client warming its connection)
}

type conv struct {
	prefix   []byte   // system+tools bytes
	messages [][]byte // canonical message encodings of the last request
}

// Start starts a server on a loopback port with the given script.
func Start(turns ...Turn) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("llmtest: listen: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln, convs: map[string]*conv{},
		cache: parseCache{messages: map[string]*llm.Message{}, toolNames: map[string]string{}}}
	s.Add(turns...)
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.srv.Serve(ln)
	}()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.wg.Wait()
	s.settled()
	return err
}

// Add appends turns to the script.
func (s *Server) Add(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
	s.used = append(s.used, make([]bool, len(turns))...)
}

// Requests returns the requests captured so far.
func (s *Server) Requests() []*Request {
	s.settled()
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// BytesReceived is the total size of request bodies.
func (s *Server) BytesReceived() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytesIn
}

// Heads is the number of HEAD requests received: clients send one to warm
// their connection. They are answered 404 and are not model requests.
func (s *Server) Heads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heads
}

// Remaining is the number of scripted turns not yet used.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, u := range s.used {
		if !u {
			n++
		}
	}
	return n
}

// Violations returns the protocol violations seen.
func (s *Server) Violations() []string {
	s.settled()
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// TB is the part of testing.TB the server reports to.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// AssertClean fails t for each protocol violation.
func (s *Server) AssertClean(t TB) {
	t.Helper()
	for _, v := range s.Violations() {
		t.Errorf("fake model server: %s", v)
	}
}

func (s *Server) violate(format string, args ...any) {
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

// ServeHTTP answers /v1/messages.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		s.mu.Lock()
		s.heads++
		s.mu.Unlock()
	}
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"not found"}}`, http.StatusNotFound)
		return
	}
	arrived := time.Now()
	buf := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+512))
	_, err := buf.ReadFrom(r.Body)
	body := buf.Bytes()
	if err != nil {
		return
	}
	req, serr := splitBody(body)
	s.mu.Lock()
	if serr != nil {
		s.violate("request %d: malformed body: %v", len(s.requests), serr)
		s.mu.Unlock()
		writeError(w, 400, "invalid_request_error", "malformed request body: "+serr.Error(), nil)
		return
	}
	req.Body = body
	req.Arrived = arrived
	req.Header = r.Header.Clone()
	req.Path = r.URL.RequestURI()
	// The answer waits only for what chooses it. When the next unused turn
	// takes any request, the messages are decoded and the protocol
	// checked after the response has started (in arrival order, see
	// checked), so the fake's own work does not count as the agent's
	// latency; a turn that matches on content needs the decoding first.
	idx := -1
	for i := range s.turns {
		if !s.used[i] {
			idx = i
			break
		}
	}
	decoded := false
	if idx < 0 || s.turns[idx].selective() {
		if perr := decodeRequest(req, &s.cache); perr != nil {
			s.violate("request %d: malformed body: %v", len(s.requests), perr)
			s.mu.Unlock()
			writeError(w, 400, "invalid_request_error", "malformed request body: "+perr.Error(), nil)
			return
		}
		decoded = true
		idx = -1
		for i := range s.turns {
			if !s.used[i] && s.turns[i].matches(req) {
				idx = i
				break
			}
		}
	}
	if idx >= 0 {
		s.used[idx] = true
	}
	s.bytesIn += int64(len(body))
	req.Turn = idx
	n := len(s.requests)
	s.requests = append(s.requests, req)
	var turn Turn
	if idx >= 0 {
		turn = s.turns[idx]
	}
	s.msgSeq++
	msgID := fmt.Sprintf("msg_%03d", s.msgSeq)
	prev, done := s.checked, make(chan struct{})
	s.checked = done
	s.mu.Unlock()

	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if !decoded {
			if perr := decodeRequest(req, &s.cache); perr != nil {
				s.violate("request %d: malformed body: %v", n, perr)
				return
			}
		}
		s.checkLocked(n, req, turn)
	}()

	if idx < 0 {
		writeError(w, 500, "api_error", fmt.Sprintf("fake model server: no scripted turn left for request %d", n), nil)
		return
	}
	s.respond(w, r, req, turn, msgID, n)
}

// settled waits until every request that arrived so far is decoded and
// checked.
func (s *Server) settled() {
	s.mu.Lock()
	last := s.checked
	s.mu.Unlock()
	if last != nil {
		<-last
	}
}

// parseCache keeps what earlier requests parsed, keyed by the raw bytes:
// a conversation resends its whole history and tool list every turn, and
// parsing them again made the fake slower than the agents it measures.
type parseCache struct {
	messages  map[string]*llm.Message
	toolNames map[string]string
}

// splitBody is the quick part of parsing: the top-level members, with the
// system prompt, tools and messages kept raw.
func splitBody(body []byte) (*Request, error) {
	var w struct {
		Model     string            `json:"model"`
		MaxTokens int               `json:"max_tokens"`
		System    json.RawMessage   `json:"system"`
		Tools     []json.RawMessage `json:"tools"`
		Messages  []json.RawMessage `json:"messages"`
		Thinking  json.RawMessage   `json:"thinking"`
		Stream    bool              `json:"stream"`
	}
	if !splitRequest(body, &w.Model, &w.MaxTokens, &w.System, &w.Tools, &w.Messages, &w.Thinking, &w.Stream) {
		w.Tools, w.Messages = nil, nil
		if err := json.Unmarshal(body, &w); err != nil {
			return nil, err
		}
	}
	if len(w.Messages) == 0 {
		return nil, fmt.Errorf("no messages")
	}
	return &Request{Model: w.Model, MaxTokens: w.MaxTokens, Tools: w.Tools, Thinking: w.Thinking, Stream: w.Stream,
		rawSystem: w.System, rawMessages: w.Messages}, nil
}

// decodeRequest decodes the system prompt and the messages of a split
// request, and checks the tools are JSON.
func decodeRequest(req *Request, c *parseCache) error {
	sys := req.rawSystem
	if len(sys) > 0 && sys[0] == '[' {
		if err := json.Unmarshal(sys, &req.System); err != nil {
			return fmt.Errorf("system: %w", err)
		}
	} else if len(sys) > 0 && string(sys) != "null" {
		var s string
		if err := json.Unmarshal(sys, &s); err != nil {
			return fmt.Errorf("system: %w", err)
		}
		b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
		req.System = []json.RawMessage{b}
	}
	for i, t := range req.Tools {
		if _, seen := c.toolNames[string(t)]; !seen && !json.Valid(t) {
			return fmt.Errorf("tool %d: invalid JSON", i)
		}
	}
	msgs := make([]*llm.Message, 0, len(req.rawMessages))
	for i, m := range req.rawMessages {
		msg := c.messages[string(m)]
		if msg == nil {
			msg = new(llm.Message)
			if err := json.Unmarshal(m, msg); err != nil {
				return fmt.Errorf("message %d: %w", i, err)
			}
			c.messages[string(m)] = msg
		}
		msgs = append(msgs, msg)
	}
	req.Messages = msgs
	return nil
}

// splitRequest fills the request's fields from the top-level split of
// body, decoding the scalars; it reports false when body needs
// encoding/json (to decode it, or to say what is wrong with it).
func splitRequest(body []byte, model *string, maxTokens *int, system *json.RawMessage, tools, messages *[]json.RawMessage,
	thinking *json.RawMessage, stream *bool) bool {
	m, ok := splitObject(body)
	if !ok {
		return false
	}
	// The members decoded nowhere else are checked here, so a malformed
	// body is still refused.
	for k, v := range m {
		switch k {
		case "messages", "tools", "system", "model", "max_tokens", "stream":
		default:
			if !json.Valid(v) {
				return false
			}
		}
	}
	for _, f := range []struct {
		key string
		dst any
	}{{"model", model}, {"max_tokens", maxTokens}, {"stream", stream}} {
		if v, ok := m[f.key]; ok && json.Unmarshal(v, f.dst) != nil {
			return false
		}
	}
	*system, *thinking = json.RawMessage(m["system"]), json.RawMessage(m["thinking"])
	for _, f := range []struct {
		key string
		dst *[]json.RawMessage
	}{{"tools", tools}, {"messages", messages}} {
		v, ok := m[f.key]
		if !ok || string(v) == "null" {
			continue
		}
		elems, ok := splitArray(v)
		if !ok {
			return false
		}
		*f.dst = make([]json.RawMessage, len(elems))
		for i, e := range elems {
			(*f.dst)[i] = e
		}
	}
	return true
}

// checkLocked runs the protocol checks on request n.
func (s *Server) checkLocked(n int, req *Request, turn Turn) {
	// Roles alternate, starting with user.
	if req.Messages[0].Role != llm.RoleUser {
		s.violate("request %d: first message is %s, not user", n, req.Messages[0].Role)
	}
	for i := 1; i < len(req.Messages); i++ {
		if req.Messages[i].Role == req.Messages[i-1].Role {
			s.violate("request %d: messages %d and %d are both %s", n, i-1, i, req.Messages[i].Role)
		}
	}
	// The API refuses text blocks with nothing but white space.
	for i, m := range req.Messages {
		for j, b := range m.Content {
			if b.Type == llm.BlockText && strings.TrimSpace(b.Text) == "" {
				s.violate("request %d: message %d block %d is a text block with no text (the API refuses it)", n, i, j)
			}
		}
	}
	// Every tool_use answered exactly once in the next message.
	for i, m := range req.Messages {
		if m.Role != llm.RoleAssistant {
			continue
		}
		uses := map[string]bool{}
		for _, b := range m.Content {
			if b.Type == llm.BlockToolUse {
				if uses[b.ID] {
					s.violate("request %d: duplicate tool_use id %s", n, b.ID)
				}
				uses[b.ID] = true
			}
		}
		if len(uses) == 0 {
			continue
		}
		if i+1 >= len(req.Messages) {
			s.violate("request %d: last message is an assistant message with unanswered tool_use", n)
			continue
		}
		answered := map[string]int{}
		for _, b := range req.Messages[i+1].Content {
			if b.Type == llm.BlockToolResult {
				answered[b.ToolUseID]++
			}
		}
		for id := range uses {
			if answered[id] != 1 {
				s.violate("request %d: tool_use %s answered %d times in message %d", n, id, answered[id], i+1)
			}
		}
		for id := range answered {
			if !uses[id] {
				s.violate("request %d: tool_result %s has no tool_use in message %d", n, id, i)
			}
		}
	}
	for i, m := range req.Messages {
		if m.Role != llm.RoleUser || i == 0 {
			if m.Role == llm.RoleUser && i == 0 {
				for _, b := range m.Content {
					if b.Type == llm.BlockToolResult {
						s.violate("request %d: tool_result %s in the first message", n, b.ToolUseID)
					}
				}
			}
			continue
		}
		if req.Messages[i-1].Role != llm.RoleAssistant {
			continue
		}
		hasUse := false
		for _, b := range req.Messages[i-1].Content {
			hasUse = hasUse || b.Type == llm.BlockToolUse
		}
		if !hasUse {
			for _, b := range m.Content {
				if b.Type == llm.BlockToolResult {
					s.violate("request %d: tool_result %s follows an assistant message without tool_use", n, b.ToolUseID)
				}
			}
		}
	}
	// Cache breakpoints.
	if c := bytes.Count(req.Body, []byte(`"cache_control"`)); c > 4 {
		s.violate("request %d: %d cache_control breakpoints (max 4)", n, c)
	}
	if turn.Side {
		return
	}
	// Cache stability within a conversation.
	prefix := append([]byte{}, req.rawSystem...)
	for _, t := range req.Tools {
		prefix = append(append(prefix, '\n'), t...)
	}
	prefix = stripCache(prefix)
	key := s.convKey(req)
	msgs := make([][]byte, len(req.rawMessages))
	for i, m := range req.rawMessages {
		msgs[i] = stripCache(m)
	}
	c := s.convs[key]
	if c != nil && !turn.ResetPrefix {
		if !bytes.Equal(c.prefix, prefix) {
			s.violate("request %d: system prompt or tools changed within a conversation", n)
		}
		// All but the previous request's last message must be repeated
		// byte for byte (the last one may have grown by merged blocks).
		prev := c.messages
		if len(prev) > 0 {
			prev = prev[:len(prev)-1]
		}
		if len(msgs) < len(prev) {
			s.violate("request %d: history shrank from %d to %d messages without a compaction", n, len(c.messages), len(msgs))
		} else {
			for i := range prev {
				if !bytes.Equal(prev[i], msgs[i]) {
					s.violate("request %d: message %d differs from the previous request (cache prefix broken)", n, i)
					break
				}
			}
		}
	}
	s.convs[key] = &conv{prefix: prefix, messages: msgs}
}

// convKey identifies a conversation: its model, system prompt and family
// of tools; the first user message tells sub-agents apart.
func (s *Server) convKey(req *Request) string {
	h := sha256.New()
	// Each model has a cache of its own.
	h.Write([]byte(req.Model))
	h.Write(stripCache(req.rawSystem))
	for _, t := range req.Tools {
		name, ok := s.cache.toolNames[string(t)]
		if !ok {
			var v struct {
				Name string `json:"name"`
			}
			json.Unmarshal(t, &v)
			name = v.Name
			s.cache.toolNames[string(t)] = name
		}
		h.Write([]byte(name))
	}
	if len(req.rawMessages) > 0 {
		h.Write(stripCache(req.rawMessages[0]))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// stripCache removes cache_control members so breakpoints moving between
// requests do not count as a change. It edits the bytes as sent (the key
// cannot occur unescaped inside a string), so everything else is compared
// byte for byte, as the API's prompt cache compares it.
func stripCache(b []byte) []byte {
	key := []byte(`"cache_control"`)
	if !bytes.Contains(b, key) {
		return b
	}
	out := make([]byte, 0, len(b))
	rest := b
	for {
		i := bytes.Index(rest, key)
		if i < 0 {
			return append(out, rest...)
		}
		j := skipSpace(rest, i+len(key))
		if j >= len(rest) || rest[j] != ':' {
			out = append(out, rest[:i+len(key)]...)
			rest = rest[i+len(key):]
			continue
		}
		end := skipValue(rest, skipSpace(rest, j+1))
		// Drop the member with the comma that separates it from its
		// neighbour: the one before it, else the one after it.
		k := i
		for k > 0 && isSpace(rest[k-1]) {
			k--
		}
		if k > 0 && rest[k-1] == ',' {
			out = append(out, rest[:k-1]...)
		} else {
			out = append(out, rest[:i]...)
			end = skipSpace(rest, end)
			if end < len(rest) && rest[end] == ',' {
				end = skipSpace(rest, end+1)
			}
		}
		rest = rest[end:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at i (or
// len(b) when it does not end).
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return min(i+1, len(b))
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the enclosing value
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(b)
}
