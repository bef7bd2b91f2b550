package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"time"

	"reins/internal/mcp"
	"reins/internal/tool"
)

// sdkMCPWait bounds how long a turn waits for the client's MCP servers to
// finish connecting for the first time, and how long mcp_set_servers
// waits for the servers it starts before it answers.
const sdkMCPWait = 30 * time.Second

// sdkServers are the MCP servers the client gives at run time rather than
// with --mcp-config: those it hosts and declares in initialize
// (sdkMcpServers, reached with mcp_message), and the set mcp_set_servers
// gives, which replaces them. Each runs under a manager of its own, so
// one can start or stop without touching the others.
type sdkServers struct {
	mu      sync.Mutex // guards servers and released
	servers map[string]*dynServer
	// released are the configured servers turned off because the
	// client's set replaced them or left them out.
	released map[string]bool
}

// dynServer is one server the client gave.
type dynServer struct {
	conf mcp.Server
	mgr  *mcp.Manager
}

// startSDKServers connects the servers the client hosts, by name. Names
// the application already connects (its --mcp-config has them) are
// skipped.
func (s *Server) startSDKServers(names []string) {
	known := map[string]bool{}
	if s.cfg.MCPStatus != nil {
		for _, st := range s.cfg.MCPStatus() {
			known[st.Name] = true
		}
	}
	for _, n := range names {
		if n == "" || known[n] {
			continue
		}
		known[n] = true
		s.startDynServer(mcp.Server{Name: n, Scope: mcp.ScopeDynamic, Source: "initialize",
			Config: mcp.ServerConfig{Type: mcp.TransportSDK, Name: n}})
	}
}

// startDynServer starts conf under a manager of its own, replacing a
// server of the same name, and returns the manager.
func (s *Server) startDynServer(conf mcp.Server) *mcp.Manager {
	var opts mcp.Options
	if s.cfg.MCPOptions != nil {
		opts = s.cfg.MCPOptions()
	}
	opts.Servers = []mcp.Server{conf}
	opts.SDK = s.MCPHost()
	opts.ClientName, opts.ClientVersion = "reins", s.cfg.ClientVersion
	if opts.Logger == nil {
		opts.Logger = s.cfg.Logger
	}
	mgr := mcp.NewManager(opts)
	s.sdkMCP.mu.Lock()
	if s.sdkMCP.servers == nil {
		s.sdkMCP.servers = map[string]*dynServer{}
	}
	old := s.sdkMCP.servers[conf.Name]
	s.sdkMCP.servers[conf.Name] = &dynServer{conf: conf, mgr: mgr}
	s.sdkMCP.mu.Unlock()
	if old != nil {
		old.mgr.Close()
	}
	mgr.Start()
	return mgr
}

// dynServers returns the client's servers, by name.
func (s *Server) dynServers() []*dynServer {
	s.sdkMCP.mu.Lock()
	defer s.sdkMCP.mu.Unlock()
	out := make([]*dynServer, 0, len(s.sdkMCP.servers))
	for _, d := range s.sdkMCP.servers {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].conf.Name < out[j].conf.Name })
	return out
}

// dynServer returns the client's server of that name, or nil.
func (s *Server) dynServer(name string) *dynServer {
	s.sdkMCP.mu.Lock()
	defer s.sdkMCP.mu.Unlock()
	return s.sdkMCP.servers[name]
}

// waitSDKServers waits, bounded, for the client's servers to connect.
func (s *Server) waitSDKServers(ctx context.Context) {
	ds := s.dynServers()
	if len(ds) == 0 {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, sdkMCPWait)
	defer cancel()
	for _, d := range ds {
		d.mgr.Wait(wctx)
	}
}

// sdkServerTools are the tools of the client's connected servers.
func (s *Server) sdkServerTools() []tool.Tool {
	var out []tool.Tool
	for _, d := range s.dynServers() {
		out = append(out, d.mgr.Snapshot().Tools...)
	}
	return out
}

// sdkServerStatus describes the client's servers.
func (s *Server) sdkServerStatus() []MCPServerStatus {
	var out []MCPServerStatus
	for _, d := range s.dynServers() {
		for _, st := range d.mgr.Status() {
			out = append(out, MCPStatusFrom(st))
		}
	}
	return out
}

// closeSDKServers ends the connections to the client's servers.
func (s *Server) closeSDKServers() {
	s.sdkMCP.mu.Lock()
	ds := s.sdkMCP.servers
	s.sdkMCP.servers = nil
	s.sdkMCP.mu.Unlock()
	for _, d := range ds {
		d.mgr.Close()
	}
}

// MCPSetServersResult answers mcp_set_servers, with the Agent SDK's
// field names.
type MCPSetServersResult struct {
	Added   []string          `json:"added"`
	Removed []string          `json:"removed"`
	Errors  map[string]string `json:"errors"`
}

// setMCPServers replaces the servers the client gave at run time with
// those of the request: servers it leaves out stop (also the configured
// ones it hosts, the {"type":"sdk"} entries of --mcp-config, which the
// SDK's mcpServers option puts there), new ones start, and one whose
// configuration changed restarts. A configured server the request names
// is turned off and replaced. It returns at once; answer waits (bounded)
// for the servers it started and gives the answer.
func (s *Server) setMCPServers(raw json.RawMessage) (answer func() MCPSetServersResult, err error) {
	var req struct {
		Servers json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("mcp_set_servers: %v", err)
	}
	if len(req.Servers) == 0 || req.Servers[0] != '{' {
		return nil, errors.New("mcp_set_servers: \"servers\" must be an object of server configurations by name")
	}
	servers, err := mcp.ParseServers([]byte(`{"mcpServers":`+string(req.Servers)+`}`), mcp.ScopeDynamic, "mcp_set_servers")
	if err != nil {
		return nil, fmt.Errorf("mcp_set_servers: %v", err)
	}
	res := MCPSetServersResult{Added: []string{}, Removed: []string{}, Errors: map[string]string{}}
	want := map[string]bool{}
	for _, sv := range servers {
		want[sv.Name] = true
	}
	// Those left out stop (not plugins' servers: they are not the
	// client's set).
	for _, d := range s.dynServers() {
		if !want[d.conf.Name] && d.conf.Scope != mcp.ScopePlugin {
			s.stopDynServer(d.conf.Name)
			res.Removed = append(res.Removed, d.conf.Name)
		}
	}
	hosted := map[string]bool{}
	if s.cfg.MCPClientServers != nil {
		for _, n := range s.cfg.MCPClientServers() {
			hosted[n] = true
			if !want[n] && s.takeOver(n) && !slices.Contains(res.Removed, n) {
				res.Removed = append(res.Removed, n)
			}
		}
	}
	var started []*mcp.Manager
	var names []string
	for _, sv := range servers {
		if sv.Invalid != "" {
			res.Errors[sv.Name] = sv.Invalid
			if s.stopDynServer(sv.Name) {
				res.Removed = append(res.Removed, sv.Name)
			}
			continue
		}
		if d := s.dynServer(sv.Name); d != nil && reflect.DeepEqual(d.conf.Config, sv.Config) {
			continue // unchanged: it keeps its connection
		}
		if hosted[sv.Name] && sv.Config.Transport() == mcp.TransportSDK && s.dynServer(sv.Name) == nil {
			continue // the configured one is this very server
		}
		s.takeOver(sv.Name)
		started = append(started, s.startDynServer(sv))
		names = append(names, sv.Name)
		res.Added = append(res.Added, sv.Name)
	}
	sort.Strings(res.Removed)
	return func() MCPSetServersResult {
		ctx, cancel := context.WithTimeout(context.Background(), sdkMCPWait)
		defer cancel()
		for i, mgr := range started {
			mgr.Wait(ctx)
			for _, st := range mgr.Status() {
				if st.State == mcp.StateConnected {
					continue
				}
				msg := st.Err
				if msg == "" {
					msg = "not connected (" + string(st.State) + ")"
				}
				res.Errors[names[i]] = msg
			}
		}
		return res
	}, nil
}

// syncPluginServers starts the plugins' servers that do not run yet (a
// plugin a reload added, under a manager of its own) and stops those a
// reload started whose plugin is gone. Servers configured at start stay
// as they are.
func (s *Server) syncPluginServers(servers []mcp.Server) {
	running := map[string]bool{}
	if s.cfg.MCPStatus != nil {
		for _, st := range s.cfg.MCPStatus() {
			running[st.Name] = true
		}
	}
	want := map[string]bool{}
	for _, sv := range servers {
		want[sv.Name] = true
		if running[sv.Name] || sv.Invalid != "" {
			continue
		}
		if d := s.dynServer(sv.Name); d != nil && reflect.DeepEqual(d.conf.Config, sv.Config) {
			continue
		}
		s.startDynServer(sv)
	}
	for _, d := range s.dynServers() {
		if d.conf.Scope == mcp.ScopePlugin && !want[d.conf.Name] {
			s.stopDynServer(d.conf.Name)
		}
	}
}

// takeOver turns off the configured server of that name, if one is on,
// and remembers it is no longer the session's.
func (s *Server) takeOver(name string) bool {
	if s.cfg.MCPTakeOver == nil || !s.cfg.MCPTakeOver(name) {
		return false
	}
	s.sdkMCP.mu.Lock()
	if s.sdkMCP.released == nil {
		s.sdkMCP.released = map[string]bool{}
	}
	s.sdkMCP.released[name] = true
	s.sdkMCP.mu.Unlock()
	return true
}

// released reports whether the configured server of that name was
// replaced or left out by the client's set.
func (s *Server) released(name string) bool {
	s.sdkMCP.mu.Lock()
	defer s.sdkMCP.mu.Unlock()
	return s.sdkMCP.released[name]
}

// configuredStatus describes the configured servers, without those the
// client's servers replaced.
func (s *Server) configuredStatus() []MCPServerStatus {
	if s.cfg.MCPStatus == nil {
		return nil
	}
	list := s.cfg.MCPStatus()
	s.sdkMCP.mu.Lock()
	defer s.sdkMCP.mu.Unlock()
	return slices.DeleteFunc(list, func(st MCPServerStatus) bool {
		return s.sdkMCP.released[st.Name] || s.sdkMCP.servers[st.Name] != nil
	})
}

// stopDynServer stops and drops the client's server of that name; it
// reports whether there was one.
func (s *Server) stopDynServer(name string) bool {
	s.sdkMCP.mu.Lock()
	d := s.sdkMCP.servers[name]
	delete(s.sdkMCP.servers, name)
	s.sdkMCP.mu.Unlock()
	if d == nil {
		return false
	}
	d.mgr.Close()
	return true
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
