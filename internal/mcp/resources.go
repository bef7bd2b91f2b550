package mcp

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
	"reins/internal/tool"
)

// Names of the resource tools.
const (
	ListResourcesName = "ListMcpResourcesTool"
	ReadResourceName  = "ReadMcpResourceTool"
)

var (
	//go:embed list_resources.md
	listResourcesDescription string
	//go:embed read_resource.md
	readResourceDescription string
)

// ResourceInfo is one listed resource (the Data of ListMcpResourcesTool).
type ResourceInfo struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	MIMEType    string `json:"mimeType,omitempty"`
	Description string `json:"description,omitempty"`
	Server      string `json:"server"`
}

// listResourcesTool is ListMcpResourcesTool.
type listResourcesTool struct {
	tool.Defaults
	m *Manager
}

func (*listResourcesTool) Name() string { return ListResourcesName }
func (*listResourcesTool) Description() string {
	return strings.TrimSpace(listResourcesDescription)
}
func (*listResourcesTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"only this server's resources"}},"additionalProperties":false}`)
}
func (*listResourcesTool) IsReadOnly(json.RawMessage) bool        { return true }
func (*listResourcesTool) IsConcurrencySafe(json.RawMessage) bool { return true }
func (*listResourcesTool) ShouldDefer() bool                      { return true }
func (*listResourcesTool) SearchHint() string                     { return "list resources exposed by MCP servers" }

// resourceSessions returns the connected servers offering resources,
// all or the one named.
func (m *Manager) resourceSessions(name string) ([]*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*server
	for _, s := range m.servers {
		if name != "" && s.name != name {
			continue
		}
		if name != "" && (s.state != StateConnected || !s.hasResources) {
			why := string(s.state)
			if s.err != "" {
				why += ": " + s.err
			}
			return nil, fmt.Errorf("MCP server %q has no resources available (%s)", name, why)
		}
		if s.state == StateConnected && s.hasResources && s.cs != nil {
			out = append(out, s)
		}
	}
	if name != "" && len(out) == 0 {
		return nil, fmt.Errorf("no MCP server is named %q", name)
	}
	return out, nil
}

func (t *listResourcesTool) Call(ctx context.Context, _ *tool.Call, input json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var in struct {
		Server string `json:"server"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("%s input: %w", ListResourcesName, err)
	}
	servers, err := t.m.resourceSessions(in.Server)
	if err != nil {
		return nil, err
	}
	list, errs, err := t.m.listResources(ctx, servers)
	if err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(list, "", "  ")
	text := string(b)
	if len(list) == 0 {
		text = "No resources found."
	}
	if len(errs) > 0 {
		text += "\n" + strings.Join(errs, "\n")
	}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(text)}, Data: list}, nil
}

// readResourceTool is ReadMcpResourceTool.
type readResourceTool struct {
	tool.Defaults
	m *Manager
}

func (*readResourceTool) Name() string { return ReadResourceName }
func (*readResourceTool) Description() string {
	return strings.TrimSpace(readResourceDescription)
}
func (*readResourceTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"the server's name"},"uri":{"type":"string","description":"the resource URI"}},"required":["server","uri"],"additionalProperties":false}`)
}
func (*readResourceTool) IsReadOnly(json.RawMessage) bool        { return true }
func (*readResourceTool) IsConcurrencySafe(json.RawMessage) bool { return true }
func (*readResourceTool) ShouldDefer() bool                      { return true }
func (*readResourceTool) SearchHint() string                     { return "read an MCP resource by URI" }

// ReadResource reads the resource uri of the connected server name (""
// means the first that offers resources), bounded by the tool-call
// timeout.
func (m *Manager) ReadResource(ctx context.Context, name, uri string) (*sdk.ReadResourceResult, error) {
	servers, err := m.resourceSessions(name)
	if err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return nil, errors.New("no connected MCP server offers resources")
	}
	cs, err := servers[0].session()
	if err != nil {
		return nil, err
	}
	var res *sdk.ReadResourceResult
	err = servers[0].bounded(ctx, "read "+uri, func(ctx context.Context) (err error) {
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (t *readResourceTool) Call(ctx context.Context, _ *tool.Call, input json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var in struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("%s input: %w", ReadResourceName, err)
	}
	res, err := t.m.ReadResource(ctx, in.Server, in.URI)
	if err != nil {
		return nil, err
	}
	out := &tool.Result{Data: res}
	for _, c := range res.Contents {
		if c != nil {
			out.Content = append(out.Content, resourceBlock(c))
		}
	}
	return out, nil
}

// listResources lists the resources of servers; errs are the failures of
// single servers, err is ctx's end.
func (m *Manager) listResources(ctx context.Context, servers []*server) ([]ResourceInfo, []string, error) {
	list := []ResourceInfo{}
	var errs []string
	for _, s := range servers {
		cs, err := s.session()
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		var found []ResourceInfo
		err = s.bounded(ctx, "resources/list", func(ctx context.Context) error {
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					return err
				}
				found = append(found, ResourceInfo{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType, Description: r.Description, Server: s.name})
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, err
			}
			errs = append(errs, err.Error())
		}
		list = append(list, found...)
	}
	return list, errs, nil
}

// Resources lists the resources of every connected server, sorted by
// server then URI (for @ completion). Servers that fail to list are left
// out.
func (m *Manager) Resources(ctx context.Context) []ResourceInfo {
	servers, err := m.resourceSessions("")
	if err != nil {
		return nil
	}
	list, _, _ := m.listResources(ctx, servers)
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Server != list[j].Server {
			return list[i].Server < list[j].Server
		}
		return list[i].URI < list[j].URI
	})
	return list
}
