package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SDKHost carries JSON-RPC messages to servers that live inside the Agent
// SDK client (config type "sdk"). The SDK front end implements it with
// the control protocol's mcp_message request.
type SDKHost interface {
	// Message sends one JSON-RPC message to the named server and returns
	// its reply: the JSON-RPC response to a request, nil for a
	// notification. It blocks until the reply or ctx ends.
	Message(ctx context.Context, server string, msg json.RawMessage) (json.RawMessage, error)
}

// sdkTransport is an MCP transport over an SDKHost.
type sdkTransport struct {
	host   SDKHost
	server string
}

func (t *sdkTransport) Connect(context.Context) (sdk.Connection, error) {
	ctx, cancel := context.WithCancel(context.Background())
	return &sdkConn{host: t.host, server: t.server, in: make(chan jsonrpc.Message, 16), ctx: ctx, cancel: cancel}, nil
}

// sdkConn turns request/reply exchanges into a message stream: each
// written message is sent through the host, and its reply is queued for
// Read.
type sdkConn struct {
	host   SDKHost
	server string
	in     chan jsonrpc.Message
	ctx    context.Context // cancelled by Close; bounds host calls
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
	mu     sync.Mutex // guards closed, so no exchange starts after Close
	closed bool
}

func (c *sdkConn) SessionID() string { return "" }

func (c *sdkConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.ctx.Done():
		return nil, io.EOF
	}
}

func (c *sdkConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("sdk server %s: encode: %w", c.server, err)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return sdk.ErrConnectionClosed
	}
	// The reply is awaited beside the caller, so a slow tool never holds
	// up other messages.
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		reply, err := c.host.Message(c.ctx, c.server, data)
		if err != nil || len(reply) == 0 || string(reply) == "null" {
			if err != nil {
				c.replyError(msg, err)
			}
			return
		}
		m, err := jsonrpc.DecodeMessage(reply)
		if err != nil {
			c.replyError(msg, fmt.Errorf("bad reply: %w", err))
			return
		}
		select {
		case c.in <- m:
		case <-c.ctx.Done():
		}
	}()
	return nil
}

// replyError answers a request whose exchange failed, so its caller does
// not wait forever.
func (c *sdkConn) replyError(msg jsonrpc.Message, err error) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return
	}
	resp := &jsonrpc.Response{ID: req.ID, Error: fmt.Errorf("sdk server %s: %w", c.server, err)}
	select {
	case c.in <- resp:
	case <-c.ctx.Done():
	}
}

func (c *sdkConn) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.cancel()
		c.wg.Wait()
	})
	return nil
}
