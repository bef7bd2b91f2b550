package tui

import (
	"context"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// MCPChoice is the answer about one .mcp.json server.
type MCPChoice int

// Answers to ConfirmMCPServers, in the order the prompt offers them.
const (
	// MCPNotNow leaves the server waiting (Esc): nothing is recorded.
	MCPNotNow MCPChoice = iota
	// MCPUseAll approves this server and every later one of the project
	// (enableAllProjectMcpServers).
	MCPUseAll
	// MCPUse approves this server (enabledMcpjsonServers).
	MCPUse
	// MCPRefuse turns this server down (disabledMcpjsonServers).
	MCPRefuse
)

// MCPServerInfo describes a server waiting for approval.
type MCPServerInfo struct {
	Name   string
	Detail string // what it runs: a command line or a URL
}

// MCPApprovalOptions configure ConfirmMCPServers.
type MCPApprovalOptions struct {
	// Servers are the .mcp.json servers waiting for approval.
	Servers []MCPServerInfo
	// Input and Output default to the terminal.
	Input        io.Reader
	Output       io.Writer
	NoColor      bool
	ColorProfile Colors
}

// ConfirmMCPServers asks, before the terminal UI starts, about each
// project (.mcp.json) server that waits for approval, as Claude Code
// does when it finds new ones: use it and every later one, use it, or
// not. It returns an answer for each server by name; after "use all" the
// rest are MCPUseAll too, and Esc leaves the server and those after it
// at MCPNotNow.
func ConfirmMCPServers(ctx context.Context, o MCPApprovalOptions) (map[string]MCPChoice, error) {
	m := &mcpApprovalModel{o: o, st: newStyles(!o.NoColor), width: 80, answers: map[string]MCPChoice{}}
	m.menu.items = []string{"Use it, and every MCP server this project adds later", "Use this server", "Don't use this server"}
	if len(o.Servers) == 0 {
		return m.answers, nil
	}
	if err := runPrompt(ctx, m, o.Input, o.Output, o.ColorProfile); err != nil {
		return m.answers, fmt.Errorf("MCP server approval: %w", err)
	}
	return m.answers, nil
}

type mcpApprovalModel struct {
	o       MCPApprovalOptions
	st      styles
	menu    menu
	width   int
	at      int // the server asked about
	answers map[string]MCPChoice
}

func (m *mcpApprovalModel) Init() tea.Cmd { return nil }

// answer records c for the current server and moves on; it reports
// whether every server is answered.
func (m *mcpApprovalModel) answer(c MCPChoice) bool {
	m.answers[m.o.Servers[m.at].Name] = c
	m.at++
	if c == MCPUseAll {
		for ; m.at < len(m.o.Servers); m.at++ {
			m.answers[m.o.Servers[m.at].Name] = MCPUseAll
		}
	}
	m.menu.sel = 0
	return m.at >= len(m.o.Servers)
}

func (m *mcpApprovalModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = max(20, msg.Width)
	case tea.KeyPressMsg:
		if s := msg.String(); s == "esc" || s == "ctrl+c" {
			m.at = len(m.o.Servers)
			return m, tea.Quit
		}
		if i := m.menu.key(msg); i >= 0 && m.answer(MCPChoice(i+1)) {
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *mcpApprovalModel) View() tea.View {
	if m.at >= len(m.o.Servers) {
		var used, refused []string
		for _, s := range m.o.Servers {
			switch m.answers[s.Name] {
			case MCPUse, MCPUseAll:
				used = append(used, s.Name)
			case MCPRefuse:
				refused = append(refused, s.Name)
			}
		}
		line := "MCP servers from .mcp.json"
		if len(used) > 0 {
			line += " · using " + strings.Join(used, ", ")
		}
		if len(refused) > 0 {
			line += " · not using " + strings.Join(refused, ", ")
		}
		return tea.NewView(m.st.dim.Render(cut(line, m.width)))
	}
	w := m.width
	s := m.o.Servers[m.at]
	var b strings.Builder
	b.WriteString(m.st.bold.Render("This project's .mcp.json adds an MCP server: "+s.Name) + "\n\n")
	if s.Detail != "" {
		b.WriteString(hang("  ", s.Detail, w) + "\n\n")
	}
	b.WriteString(m.st.dim.Render(hang("", "An MCP server can run code and reach your files, services and network; its tool calls still ask for permission. Use it only if you know what it does.", w)) + "\n")
	if n := len(m.o.Servers); n > 1 {
		b.WriteString(m.st.dim.Render(fmt.Sprintf("Server %d of %d", m.at+1, n)) + "\n")
	}
	b.WriteString("\n" + m.menu.view(&m.st, w) + "\n")
	b.WriteString(m.st.dim.Render("enter to confirm · esc to decide later (/mcp enable NAME)"))
	return tea.NewView(frame(&m.st, "MCP server", b.String(), w))
}
