package compact

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"reins/internal/engine"
	"reins/internal/llm"
)

//go:embed text
var texts embed.FS

func mustText(name string) string {
	b, err := texts.ReadFile("text/" + name)
	if err != nil {
		panic("compact: missing embedded text " + name) // a build defect, caught by every test
	}
	return strings.TrimSpace(string(b))
}

// MaxPTLRetries is how many times a summary request that is itself too
// long is retried with its oldest API rounds dropped.
const MaxPTLRetries = 3

// ErrToolCall is returned when the summary reply calls a tool.
var ErrToolCall = errors.New("the summary reply called a tool instead of answering in text")

// ErrEmptySummary is returned when the summary reply holds no summary.
var ErrEmptySummary = errors.New("the summary reply was empty")

// summaryRequest is the user message appended to the conversation to ask
// for its summary.
func summaryRequest(instructions string) *llm.Message {
	var b strings.Builder
	b.WriteString(mustText("summary-request.md"))
	if s := strings.TrimSpace(instructions); s != "" {
		b.WriteString("\n\nAdditional instructions for this summary:\n" + s)
	}
	b.WriteString("\n\n" + mustText("summary-reminder.md"))
	return llm.NewUserText(b.String())
}

// requestFor builds the summary request from the session's own settings,
// so that its system prompt, tools and message prefix match the last
// conversation request byte for byte and read the prompt cache.
func requestFor(ctx context.Context, s *engine.Session, history []*llm.Message, instructions string) *llm.Request {
	cfg := s.Config()
	model := s.Model()
	req := &llm.Request{Model: model, System: cfg.System, Betas: cfg.Betas,
		CacheTTL: cfg.CacheTTL, NoCache: cfg.NoCache, Extra: cfg.Extra}
	if cfg.Tools != nil {
		ts := cfg.Tools(ctx)
		req.Tools = ts.Specs
		if req.Tools == nil {
			for _, tl := range ts.Tools {
				req.Tools = append(req.Tools, llm.ToolSpec{Name: tl.Name(), Description: tl.Description(), InputSchema: tl.InputSchema()})
			}
		}
	}
	req.Messages = messagesFor(cfg.UserContext, s.ForModel(history, model), instructions)
	info := cfg.Models.Info(model)
	req.MaxTokens = SummaryOutputReserve
	if info.MaxOutput > 0 && info.MaxOutput < req.MaxTokens {
		req.MaxTokens = info.MaxOutput
	}
	req.Thinking, req.MaxTokens = info.ThinkingFor(cfg.Thinking, cfg.MaxThinkingTokens, req.MaxTokens)
	// The same effort level and beta header as the conversation's
	// requests: the summary is asked at the level the user chose.
	info.ApplyEffort(req, cfg.Effort)
	return req
}

// messagesFor is the user context message (built as the engine builds
// it), the history, and the summary request.
func messagesFor(userContext string, history []*llm.Message, instructions string) []*llm.Message {
	msgs := make([]*llm.Message, 0, len(history)+2)
	if userContext != "" {
		msgs = append(msgs, &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(userContext)}})
	}
	msgs = append(msgs, history...)
	return append(msgs, summaryRequest(instructions))
}

// summarize asks the model for a summary of history, dropping the oldest
// API rounds when the request itself is too long. It returns the summary
// text and the usage of the successful call.
func summarize(ctx context.Context, s *engine.Session, history []*llm.Message, instructions string) (string, llm.Usage, error) {
	req := requestFor(ctx, s, history, instructions)
	userContext := s.Config().UserContext
	for attempt := 0; ; attempt++ {
		text, usage, err := call(ctx, s.Config().Provider, req)
		if err == nil {
			return text, usage, nil
		}
		if !llm.IsPromptTooLong(err) || attempt >= MaxPTLRetries {
			return "", usage, err
		}
		cut, ok := dropOldestRounds(history, tokenGap(err))
		if !ok {
			return "", usage, fmt.Errorf("%w (nothing left to drop)", err)
		}
		history = cut
		req.Messages = messagesFor(userContext, history, instructions)
	}
}

// call sends req and returns the reply's summary text.
func call(ctx context.Context, p llm.Provider, req *llm.Request) (string, llm.Usage, error) {
	st, err := p.Stream(ctx, req)
	if err != nil {
		return "", llm.Usage{}, err
	}
	defer st.Close()
	var acc llm.Accumulator
	for {
		ev, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", llm.Usage{}, err
		}
		// An out-of-order event is dropped by the accumulator; a tool call
		// with malformed input is still kept, and refused below.
		acc.Add(ev) //nolint:errcheck
	}
	if !acc.Started() {
		return "", llm.Usage{}, &llm.ConnError{Op: "read summary stream", Err: io.ErrUnexpectedEOF}
	}
	msg := acc.Message()
	var usage llm.Usage
	if msg.Usage != nil {
		usage = *msg.Usage
	}
	if len(msg.ToolUses()) > 0 {
		return "", usage, ErrToolCall
	}
	text := extractSummary(msg.Text())
	if text == "" {
		return "", usage, ErrEmptySummary
	}
	return text, usage, nil
}

var (
	analysisRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<analysis>.*?</analysis>`) })
	summaryRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<summary>(.*?)(?:</summary>|$)`) })
)

// extractSummary drops the <analysis> scratch text and returns what is
// inside <summary> tags, or the whole remaining text when there are none.
func extractSummary(text string) string {
	text = analysisRe().ReplaceAllString(text, "")
	if m := summaryRe().FindStringSubmatch(text); m != nil {
		return strings.TrimSpace(m[1])
	}
	if i := strings.Index(text, "<analysis>"); i >= 0 {
		text = text[:i] // an analysis that never closed
	}
	return strings.TrimSpace(text)
}

var gapRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\s*tokens?\s*>\s*(\d+)`) })

// tokenGap reads by how many tokens a prompt was too long from the API's
// message ("prompt is too long: 210000 tokens > 200000 maximum"); 0 when
// the message does not say.
func tokenGap(err error) int {
	var ae *llm.APIError
	if !errors.As(err, &ae) {
		return 0
	}
	m := gapRe().FindStringSubmatch(ae.Message)
	if m == nil {
		return 0
	}
	got, _ := strconv.Atoi(m[1])
	limit, _ := strconv.Atoi(m[2])
	return max(got-limit, 0)
}

// rounds splits history into API rounds: a new round starts at each
// assistant message with an id not seen just before, so a tool call is
// never separated from its result.
func rounds(history []*llm.Message) [][]*llm.Message {
	var out [][]*llm.Message
	start := 0
	lastID := ""
	for i, m := range history {
		if m.Role != llm.RoleAssistant {
			continue
		}
		if i > start && (m.ID == "" || m.ID != lastID) {
			out = append(out, history[start:i])
			start = i
		}
		lastID = m.ID
	}
	return append(out, history[start:])
}

// dropOldestRounds removes the oldest rounds: enough to free gap tokens,
// or a fifth of them (at least one) when the gap is unknown. At least one
// round is kept. A history that then starts with the assistant gets a
// short user message in front, as the API requires.
func dropOldestRounds(history []*llm.Message, gap int) ([]*llm.Message, bool) {
	if len(history) > 0 && history[0].Role == llm.RoleUser && history[0].Text() == mustText("ptl-marker.md") {
		history = history[1:] // a marker from an earlier retry is not progress
	}
	rs := rounds(history)
	drop := 0
	if gap > 0 {
		freed := 0
		for drop < len(rs) && freed < gap {
			freed += EstimateMessages(rs[drop])
			drop++
		}
	} else {
		drop = max(1, len(rs)/5)
	}
	if drop >= len(rs) {
		return nil, false
	}
	var out []*llm.Message
	for _, r := range rs[drop:] {
		out = append(out, r...)
	}
	if out[0].Role == llm.RoleAssistant {
		out = append([]*llm.Message{llm.NewUserText(mustText("ptl-marker.md"))}, out...)
	}
	return out, true
}
