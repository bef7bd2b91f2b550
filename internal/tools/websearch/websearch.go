package websearch

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"reins/internal/llm"
	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "WebSearch"

// Server tool facts of the Anthropic API.
const (
	// ServerToolType is the versioned type of the web search server tool.
	ServerToolType = "web_search_20250305"
	// ServerToolName is the name the server tool is given.
	ServerToolName = "web_search"
	// MaxUses is how many searches one call may run.
	MaxUses = 8
)

// Block types of the server tool's answer.
const (
	blockServerToolUse = "server_tool_use"
	blockSearchResult  = "web_search_tool_result"
)

const answerTokens = 4096

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

//go:embed system.md
var systemPrompt string

// ErrNotAvailable is returned by every call when the provider has no
// server-side web search.
var ErrNotAvailable = errors.New("WebSearch is not available: the configured model provider has no server-side web search (it needs the Anthropic API)")

// Input is the tool's input.
type Input struct {
	Query          string   `json:"query"`
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	BlockedDomains []string `json:"blocked_domains,omitempty"`
}

// Output is the structured result (tool_use_result). Query, Results and
// DurationSeconds carry Claude Code's field names; Results holds, in
// order, a SearchHits for each search and a string for each piece of the
// model's summary. Blocks is the provider's whole answer, with the server
// tool blocks exactly as they came.
type Output struct {
	Query           string             `json:"query"`
	Results         []any              `json:"results"`
	DurationSeconds float64            `json:"durationSeconds"`
	Blocks          []llm.ContentBlock `json:"blocks"`
}

// SearchHits is the outcome of one search.
type SearchHits struct {
	ToolUseID string `json:"tool_use_id"`
	Content   []Hit  `json:"content"`
	// Error is the API's error code when the search failed.
	Error string `json:"error,omitempty"`
}

// Hit is one page found.
type Hit struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Tool is the WebSearch tool. It is safe for concurrent use.
type Tool struct {
	tool.Defaults
	provider  llm.Provider
	model     string
	supported bool
	now       func() time.Time
}

// New returns the WebSearch tool. provider and model run the searches;
// supported says whether the provider offers Anthropic's server-side web
// search (false makes every call fail with ErrNotAvailable).
func New(provider llm.Provider, model string, supported bool) *Tool {
	return &Tool{provider: provider, model: model, supported: supported && provider != nil, now: time.Now}
}

// Name returns "WebSearch".
func (*Tool) Name() string { return Name }

// Description returns the tool description.
func (*Tool) Description() string { return description }

// InputSchema returns the JSON Schema of Input.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly reports true.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe reports true.
func (*Tool) IsConcurrencySafe(json.RawMessage) bool { return true }

// Available reports whether searches can run with this provider.
func (t *Tool) Available() bool { return t.supported }

// Validate checks the query and the domain lists.
func (t *Tool) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	_, err := parse(raw)
	return err
}

func parse(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("input is not valid: %w", err)
	}
	if len(strings.TrimSpace(in.Query)) < 2 {
		return in, errors.New("query: must hold at least 2 characters")
	}
	if len(in.AllowedDomains) > 0 && len(in.BlockedDomains) > 0 {
		return in, errors.New("allowed_domains and blocked_domains: give one or the other, not both")
	}
	for field, list := range map[string][]string{"allowed_domains": in.AllowedDomains, "blocked_domains": in.BlockedDomains} {
		for i, d := range list {
			if strings.TrimSpace(d) == "" || strings.ContainsAny(d, " \t\n") {
				return in, fmt.Errorf("%s[%d]: %q is not a domain", field, i, d)
			}
		}
	}
	return in, nil
}

// serverTool returns the tool definition sent to the API.
func serverTool(in Input) llm.ToolSpec {
	def := map[string]any{"type": ServerToolType, "name": ServerToolName, "max_uses": MaxUses}
	if len(in.AllowedDomains) > 0 {
		def["allowed_domains"] = in.AllowedDomains
	}
	if len(in.BlockedDomains) > 0 {
		def["blocked_domains"] = in.BlockedDomains
	}
	raw, _ := json.Marshal(def) // a map of strings and ints always encodes
	return llm.ToolSpec{Name: ServerToolName, Raw: raw}
}

// Call runs the search.
func (t *Tool) Call(ctx context.Context, _ *tool.Call, raw json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	if !t.supported {
		return nil, ErrNotAvailable
	}
	in, err := parse(raw)
	if err != nil {
		return nil, err
	}
	start := t.now()
	req := &llm.Request{
		Model:     t.model,
		System:    []llm.SystemBlock{{Text: systemPrompt}},
		Tools:     []llm.ToolSpec{serverTool(in)},
		Messages:  []*llm.Message{llm.NewUserText("Search the web for: " + in.Query)},
		MaxTokens: answerTokens,
	}
	blocks, err := collect(ctx, t.provider, req, func(query string) {
		if progress != nil {
			progress(tool.Progress{Message: "Searching: " + query, Data: map[string]string{"query": query}})
		}
	})
	if err != nil {
		return nil, fmt.Errorf("web search %q: %w", in.Query, err)
	}
	out := &Output{Query: in.Query, Blocks: blocks, Results: []any{}}
	for _, b := range blocks {
		switch {
		case b.Type == llm.BlockText && strings.TrimSpace(b.Text) != "":
			out.Results = append(out.Results, b.Text)
		case b.Type == blockSearchResult:
			out.Results = append(out.Results, parseHits(b.Raw))
		}
	}
	out.DurationSeconds = t.now().Sub(start).Seconds()
	text, ok := render(out)
	if !ok {
		return nil, fmt.Errorf("web search %q: %s", in.Query, text)
	}
	r := tool.Text(text)
	r.Data = out
	return r, nil
}

// collect streams the request and returns the answer's blocks in order.
// Server tool blocks keep their raw JSON; the input of a server_tool_use
// block, which arrives as input_json_delta fragments, is written into it.
func collect(ctx context.Context, p llm.Provider, req *llm.Request, searching func(query string)) ([]llm.ContentBlock, error) {
	st, err := p.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var acc llm.Accumulator
	inputs := map[int]*strings.Builder{}
	var blocks []llm.ContentBlock
	for {
		ev, err := st.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if ev.Type == llm.EventContentBlockDelta && ev.DeltaType == llm.DeltaInputJSON {
			if inputs[ev.Index] == nil {
				inputs[ev.Index] = &strings.Builder{}
			}
			inputs[ev.Index].WriteString(ev.Delta)
		}
		b, done, err := acc.Add(ev)
		if err != nil {
			return nil, err
		}
		if !done {
			continue
		}
		if b.Type == blockServerToolUse && b.Raw != nil {
			if sb := inputs[ev.Index]; sb != nil && sb.Len() > 0 {
				if fixed, err := withInput(b.Raw, sb.String()); err == nil {
					b.Raw = fixed
				}
			}
			if q := searchQuery(b.Raw); q != "" && searching != nil {
				searching(q)
			}
		}
		blocks = append(blocks, b)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return blocks, nil
}

// withInput replaces the "input" member of a raw block, keeping the other
// members as they were.
func withInput(raw json.RawMessage, input string) (json.RawMessage, error) {
	if !json.Valid([]byte(input)) {
		return nil, errors.New("streamed input is not valid JSON")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(input)); err != nil {
		return nil, err
	}
	members["input"] = json.RawMessage(compact.Bytes())
	// Write the members back in the API's order for this block type.
	order := []string{"type", "id", "name", "input"}
	var out []byte
	out = append(out, '{')
	first := true
	write := func(k string, v json.RawMessage) {
		if !first {
			out = append(out, ',')
		}
		first = false
		kb, _ := json.Marshal(k)
		out = append(out, kb...)
		out = append(out, ':')
		out = append(out, v...)
	}
	for _, k := range order {
		if v, ok := members[k]; ok {
			write(k, v)
			delete(members, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		write(k, members[k])
	}
	return append(out, '}'), nil
}

func searchQuery(raw json.RawMessage) string {
	var b struct {
		Input struct {
			Query string `json:"query"`
		} `json:"input"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	return b.Input.Query
}

// parseHits reads a web_search_tool_result block.
func parseHits(raw json.RawMessage) SearchHits {
	var b struct {
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
	}
	hits := SearchHits{Content: []Hit{}}
	if err := json.Unmarshal(raw, &b); err != nil {
		hits.Error = "unreadable result block"
		return hits
	}
	hits.ToolUseID = b.ToolUseID
	var list []struct {
		Type  string `json:"type"`
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	if err := json.Unmarshal(b.Content, &list); err == nil {
		for _, r := range list {
			if r.URL != "" {
				hits.Content = append(hits.Content, Hit{Title: r.Title, URL: r.URL})
			}
		}
		return hits
	}
	var failure struct {
		ErrorCode string `json:"error_code"`
	}
	if json.Unmarshal(b.Content, &failure) == nil && failure.ErrorCode != "" {
		hits.Error = failure.ErrorCode
	} else {
		hits.Error = "unreadable result content"
	}
	return hits
}

// render writes the text the model sees. ok is false when nothing was
// found and a search failed; the text then says why.
func render(out *Output) (text string, ok bool) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Web search results for %q:\n", out.Query)
	n := 0
	var failures []string
	var summary []string
	for _, r := range out.Results {
		switch r := r.(type) {
		case SearchHits:
			if r.Error != "" {
				failures = append(failures, r.Error)
				continue
			}
			for _, h := range r.Content {
				n++
				title := strings.TrimSpace(h.Title)
				if title == "" {
					title = h.URL
				}
				fmt.Fprintf(&sb, "%d. %s\n   %s\n", n, title, h.URL)
			}
		case string:
			summary = append(summary, r)
		}
	}
	if n == 0 && len(summary) == 0 {
		if len(failures) > 0 {
			return "the search failed (" + strings.Join(failures, ", ") + ")", false
		}
		return fmt.Sprintf("No results found for %q.", out.Query), true
	}
	if n == 0 {
		sb.WriteString("(no pages listed)\n")
	}
	if len(failures) > 0 {
		fmt.Fprintf(&sb, "(some searches failed: %s)\n", strings.Join(failures, ", "))
	}
	if len(summary) > 0 {
		sb.WriteString("\nSummary:\n")
		sb.WriteString(strings.TrimSpace(strings.Join(summary, "")))
		sb.WriteString("\n")
	}
	sb.WriteString("\nWhen you use these results, cite the pages you rely on as Markdown links ([title](URL)) in a Sources list at the end of your answer.")
	return sb.String(), true
}
