package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
	"reins/internal/tool"
)

// ServeOptions configure Serve. The zero value works.
type ServeOptions struct {
	Name    string // the server's name (default "reins")
	Version string
	// Instructions are sent to the client at initialization.
	Instructions string
	// Cwd and SessionID fill the Call each tool receives.
	Cwd       string
	SessionID string
	// Store persists oversized results; nil cuts them to a preview.
	Store  *tool.ResultStore
	Logger *slog.Logger
}

// Serve exposes tools to one MCP client over in/out (newline-delimited
// JSON-RPC, as on stdio) until the client disconnects or ctx ends. Every
// call goes through tool.Pipeline with gate: schema validation, the tool's
// own validation, the gate's decision (a refusal comes back as an error
// result carrying its reason), the call, gate.After and the result size
// policy. Tools whose schema is not a JSON object schema are left out and
// reported in the error only if none can be served.
func Serve(ctx context.Context, tools []tool.Tool, gate tool.Gate, in io.Reader, out io.Writer, opts *ServeOptions) error {
	if opts == nil {
		opts = &ServeOptions{}
	}
	name := opts.Name
	if name == "" {
		name = "reins"
	}
	version := opts.Version
	if version == "" {
		version = "0"
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: name, Version: version}, &sdk.ServerOptions{Instructions: opts.Instructions, Logger: log})
	pipe := &tool.Pipeline{Gate: gate, Schemas: &tool.Schemas{}, Store: opts.Store}
	var seq atomic.Int64
	served := 0
	var skipped []string
	for _, t := range tools {
		st, err := serverTool(t)
		if err != nil {
			skipped = append(skipped, err.Error())
			log.Warn("tool not served over MCP", "tool", t.Name(), "err", err)
			continue
		}
		served++
		srv.AddTool(st, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args := json.RawMessage(`{}`)
			if req.Params != nil && len(req.Params.Arguments) > 0 && string(req.Params.Arguments) != "null" {
				args = req.Params.Arguments
			}
			call := &tool.Call{ID: "mcp_" + strconv.FormatInt(seq.Add(1), 10), Name: t.Name(), SessionID: opts.SessionID, Cwd: opts.Cwd}
			o := pipe.Run(ctx, call, t, args)
			return &sdk.CallToolResult{Content: toMCPContent(o.Block.Content), IsError: o.IsError}, nil
		})
	}
	if served == 0 && len(tools) > 0 {
		return fmt.Errorf("mcp serve: no tool can be served: %v", skipped)
	}
	tr := &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	err := srv.Run(ctx, tr)
	if err != nil && ctx.Err() == nil && err != io.EOF {
		return fmt.Errorf("mcp serve: %w", err)
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// serverTool describes t for tools/list.
func serverTool(t tool.Tool) (*sdk.Tool, error) {
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema(), &schema); err != nil {
		return nil, fmt.Errorf("%s: input schema is not a JSON object: %w", t.Name(), err)
	}
	if schema["type"] != "object" {
		return nil, fmt.Errorf("%s: input schema must have type \"object\"", t.Name())
	}
	delete(schema, "$schema")
	readOnly := safeReadOnly(t, json.RawMessage(`{}`)) && safeReadOnly(t, probeInput(schema))
	return &sdk.Tool{
		Name:        t.Name(),
		Description: t.Description(),
		InputSchema: schema,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: readOnly},
	}, nil
}

// safeReadOnly asks whether t only reads with input; a panicking tool
// says no.
func safeReadOnly(t tool.Tool, input json.RawMessage) (ro bool) {
	defer func() {
		if recover() != nil {
			ro = false
		}
	}()
	return t.IsReadOnly(input)
}

// probeWrite is a string value that writes whatever reads it as a
// command or a path list.
const probeWrite = "touch reins-probe > reins-probe"

// probeInput fills every string property of an input schema with a value
// that writes, so that a tool whose read-only answer depends on its input
// (Bash: an empty command reads nothing) is not announced read-only to
// MCP clients, which may run such tools without asking.
func probeInput(schema map[string]any) json.RawMessage {
	props, _ := schema["properties"].(map[string]any)
	in := map[string]any{}
	for name, p := range props {
		if ps, ok := p.(map[string]any); ok && ps["type"] == "string" {
			in[name] = probeWrite
		}
	}
	b, err := json.Marshal(in)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// toMCPContent turns result blocks into MCP content.
func toMCPContent(blocks []llm.ContentBlock) []sdk.Content {
	out := []sdk.Content{}
	for _, b := range blocks {
		switch {
		case b.Type == llm.BlockImage && b.Source != nil && b.Source.Type == "base64":
			data, err := base64.StdEncoding.DecodeString(b.Source.Data)
			if err == nil {
				out = append(out, &sdk.ImageContent{Data: data, MIMEType: b.Source.MediaType})
				continue
			}
			out = append(out, &sdk.TextContent{Text: "[image could not be decoded]"})
		case b.Type == llm.BlockText:
			out = append(out, &sdk.TextContent{Text: b.Text})
		default:
			if raw, err := json.Marshal(b); err == nil {
				out = append(out, &sdk.TextContent{Text: string(raw)})
			}
		}
	}
	return out
}
