package sdk

import (
	"context"
	"sync"
	"time"

	"reins/internal/mcp"
	"reins/internal/tool"
)

// sdkMCPWait bounds how long a turn waits for the client's MCP servers to
// finish connecting for the first time.
const sdkMCPWait = 30 * time.Second

// sdkServers are the MCP servers the client declares in initialize
// (sdkMcpServers) rather than with --mcp-config: they live in the client
// and are reached with mcp_message.
type sdkServers struct {
	mu  sync.Mutex // guards mgr
	mgr *mcp.Manager
}

// start connects the named servers. Names the application already
// connects (its --mcp-config has them) are skipped.
func (s *Server) startSDKServers(names []string) {
	known := map[string]bool{}
	if s.cfg.MCPStatus != nil {
		for _, st := range s.cfg.MCPStatus() {
			known[st.Name] = true
		}
	}
	var servers []mcp.Server
	for _, n := range names {
		if n == "" || known[n] {
			continue
		}
		known[n] = true
		servers = append(servers, mcp.Server{Name: n, Scope: mcp.ScopeDynamic, Source: "initialize",
			Config: mcp.ServerConfig{Type: mcp.TransportSDK, Name: n}})
	}
	if len(servers) == 0 {
		return
	}
	mgr := mcp.NewManager(mcp.Options{Servers: servers, SDK: s.MCPHost(), ClientName: "reins",
		ClientVersion: s.cfg.ClientVersion, Logger: s.cfg.Logger})
	s.sdkMCP.mu.Lock()
	s.sdkMCP.mgr = mgr
	s.sdkMCP.mu.Unlock()
	mgr.Start()
}

func (s *Server) sdkManager() *mcp.Manager {
	s.sdkMCP.mu.Lock()
	defer s.sdkMCP.mu.Unlock()
	return s.sdkMCP.mgr
}

// waitSDKServers waits, bounded, for the client's servers to connect.
func (s *Server) waitSDKServers(ctx context.Context) {
	if m := s.sdkManager(); m != nil {
		wctx, cancel := context.WithTimeout(ctx, sdkMCPWait)
		defer cancel()
		m.Wait(wctx)
	}
}

// sdkServerTools are the tools of the client's connected servers.
func (s *Server) sdkServerTools() []tool.Tool {
	if m := s.sdkManager(); m != nil {
		return m.Snapshot().Tools
	}
	return nil
}

// sdkServerStatus describes the client's servers.
func (s *Server) sdkServerStatus() []MCPServerStatus {
	m := s.sdkManager()
	if m == nil {
		return nil
	}
	var out []MCPServerStatus
	for _, st := range m.Status() {
		out = append(out, MCPStatusFrom(st))
	}
	return out
}

// closeSDKServers ends the connections to the client's servers.
func (s *Server) closeSDKServers() {
	if m := s.sdkManager(); m != nil {
		m.Close()
	}
}

// MCPStatusFrom converts a server's status to its mcp_status form.
func MCPStatusFrom(st mcp.ServerStatus) MCPServerStatus {
	out := MCPServerStatus{Name: st.Name, Status: string(st.State), Error: st.Err, Scope: string(st.Scope)}
	if st.ServerName != "" {
		out.ServerInfo = &MCPServerInfo{Name: st.ServerName, Version: st.ServerVersion}
	}
	for _, t := range st.Tools {
		out.Tools = append(out.Tools, MCPToolInfo{Name: t})
	}
	return out
}
