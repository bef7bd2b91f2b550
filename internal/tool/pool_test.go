package tool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/tool"
)

type named struct {
	tool.Defaults
	name, origin string
}

func (n named) Name() string                 { return n.name }
func (n named) Description() string          { return n.origin }
func (n named) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (n named) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	return nil, nil
}

func TestAssembleKeepsBuiltinsFirstSortedAndWinsOnCollision(t *testing.T) {
	got := tool.Assemble(
		[]tool.Tool{named{name: "Read", origin: "builtin"}, named{name: "Bash", origin: "builtin"}},
		[]tool.Tool{named{name: "mcp__a__x", origin: "mcp"}, named{name: "Bash", origin: "mcp"}})
	var names []string
	for _, t := range got {
		names = append(names, t.Name()+"/"+t.Description())
	}
	if s := strings.Join(names, ","); s != "Bash/builtin,Read/builtin,mcp__a__x/mcp" {
		t.Errorf("pool = %s", s)
	}
}
