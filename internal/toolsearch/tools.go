package toolsearch

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"reins/internal/tool"
)

var (
	//go:embed search_description.md
	searchDescription string
	//go:embed execute_description.md
	executeDescription string
	//go:embed deferred_hint.txt
	deferredHintFormat string
)

// Result counts of SearchExtraTools.
const (
	DefaultMaxResults = 5
	MaxMaxResults     = 20
)

// NoMatchText answers a search that found nothing (seed002 §4.2).
const NoMatchText = "No matching deferred tools found"

var searchSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"query":{"type":"string","description":"select:<name>[,<name>…], discover:<what you need>, or keywords (+word makes a word required)"},` +
	`"max_results":{"type":"number","description":"how many tools to return at most (default 5, at most 20)"}},` +
	`"required":["query"],"additionalProperties":false}`)

var executeSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"tool_name":{"type":"string","description":"the exact name of the deferred tool to run"},` +
	`"input":{"type":"object","description":"the tool's arguments, following its input schema"}},` +
	`"required":["tool_name","input"],"additionalProperties":false}`)

// searchTool is SearchExtraTools over one catalog.
type searchTool struct {
	tool.Defaults
	cat     *catalog
	weights Weights
	// found hears the tools a search returned, so prefetch does not
	// recommend them again.
	found func(names []string)
}

func (*searchTool) Name() string                           { return SearchToolName }
func (*searchTool) Description() string                    { return strings.TrimSpace(searchDescription) }
func (*searchTool) InputSchema() json.RawMessage           { return searchSchema }
func (*searchTool) IsReadOnly(json.RawMessage) bool        { return true }
func (*searchTool) IsConcurrencySafe(json.RawMessage) bool { return true }
func (*searchTool) InterruptBehavior() tool.Interrupt      { return tool.Cancel }

// SearchData is the structured result of SearchExtraTools.
type SearchData struct {
	Matches []SearchMatch `json:"matches"`
	Query   string        `json:"query"`
	// TotalDeferred is how many deferred tools there are.
	TotalDeferred int `json:"total_deferred_tools"`
}

// SearchMatch is one tool found.
type SearchMatch struct {
	Name string `json:"name"`
}

type searchInput struct {
	Query      string   `json:"query"`
	MaxResults *float64 `json:"max_results"`
}

func (s *searchTool) Call(_ context.Context, _ *tool.Call, input json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var in searchInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("SearchExtraTools input: %w", err)
	}
	limit := DefaultMaxResults
	if in.MaxResults != nil {
		limit = min(max(int(*in.MaxResults), 1), MaxMaxResults)
	}
	q, err := parseQuery(in.Query)
	if err != nil {
		return nil, err
	}
	r := s.cat.search(q, limit, s.weights)
	data := SearchData{Matches: []SearchMatch{}, Query: in.Query, TotalDeferred: len(s.cat.deferred)}
	var b strings.Builder
	for _, n := range r.loaded {
		fmt.Fprintf(&b, "%s is already loaded: call it directly, not through ExecuteExtraTool or SearchExtraTools.\n", n)
	}
	for _, n := range r.missing {
		fmt.Fprintf(&b, "No deferred tool is named %q.\n", n)
	}
	if len(r.matches) == 0 {
		if b.Len() == 0 {
			return &tool.Result{Content: tool.Text(NoMatchText).Content, Data: data}, nil
		}
		return &tool.Result{Content: tool.Text(strings.TrimSpace(b.String())).Content, Data: data}, nil
	}
	var names []string
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Found %d of %d deferred tools. Run one with ExecuteExtraTool {\"tool_name\": \"<name>\", \"input\": {…}}.\n", len(r.matches), len(s.cat.deferred))
	for _, t := range r.matches {
		b.WriteString("\n")
		b.WriteString(describe(t))
		b.WriteString("\n")
		names = append(names, t.Name())
		data.Matches = append(data.Matches, SearchMatch{Name: t.Name()})
	}
	if s.found != nil {
		s.found(names)
	}
	return &tool.Result{Content: tool.Text(strings.TrimRight(b.String(), "\n")).Content, Data: data}, nil
}

// executeTool is ExecuteExtraTool over one catalog. The tool pipeline
// runs the target in its place (it is a tool.Proxy).
type executeTool struct {
	tool.Defaults
	cat         *catalog
	unavailable func(name string) string // Options.Unavailable; may be nil
}

func (*executeTool) Name() string                 { return ExecuteToolName }
func (*executeTool) Description() string          { return strings.TrimSpace(executeDescription) }
func (*executeTool) InputSchema() json.RawMessage { return executeSchema }

type executeInput struct {
	ToolName string          `json:"tool_name"`
	Input    json.RawMessage `json:"input"`
}

// Target resolves the deferred tool to run (tool.Proxy).
func (e *executeTool) Target(input json.RawMessage) (tool.Tool, json.RawMessage, error) {
	var in executeInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, nil, fmt.Errorf("ExecuteExtraTool input: %w", err)
	}
	name := strings.TrimSpace(in.ToolName)
	if name == "" {
		return nil, nil, errors.New("ExecuteExtraTool: tool_name is empty; give the exact name of a deferred tool")
	}
	if len(in.Input) == 0 || string(in.Input) == "null" {
		in.Input = json.RawMessage(`{}`)
	}
	if t, ok := e.cat.findDeferred(name); ok {
		return t, in.Input, nil
	}
	if ln, ok := e.cat.findLoaded(name); ok {
		if t, ok := e.cat.loaded[ln]; ok && ln != ExecuteToolName {
			return t, in.Input, nil
		}
	}
	if e.unavailable != nil {
		if why := e.unavailable(name); why != "" {
			return nil, nil, fmt.Errorf("ExecuteExtraTool: %s cannot run right now: %s", name, why)
		}
	}
	return nil, nil, fmt.Errorf("ExecuteExtraTool: no deferred tool is named %q. Find the right name with SearchExtraTools.", name)
}

// IsReadOnly answers for the target.
func (e *executeTool) IsReadOnly(input json.RawMessage) bool {
	t, in, err := e.Target(input)
	return err == nil && t.IsReadOnly(in)
}

// IsConcurrencySafe answers for the target.
func (e *executeTool) IsConcurrencySafe(input json.RawMessage) bool {
	t, in, err := e.Target(input)
	return err == nil && t.IsConcurrencySafe(in)
}

// MaxResultChars is NoLimit: the target's own limit was applied already.
func (*executeTool) MaxResultChars() int { return tool.NoLimit }

// Call is not used: tool.Pipeline runs the target instead. It answers an
// error in case a caller skips the pipeline.
func (e *executeTool) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	return nil, errors.New("ExecuteExtraTool runs only through the tool pipeline, which calls the target tool itself")
}

// deferredHint is the answer to a direct call of a deferred tool.
func deferredHint(name string) string {
	return fmt.Sprintf(strings.TrimSpace(deferredHintFormat), name, name, name)
}
