// A stdio MCP server for the TypeScript SDK scenarios with one MCP Apps
// widget, ui://widget/main, and one ordinary resource.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "ui", version: "1.0.0" });
server.registerResource("widget", "ui://widget/main", { mimeType: "text/html+skybridge" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "text/html+skybridge", text: "<div>widget</div>" }],
}));
server.registerResource("notes", "file:///notes.txt", { mimeType: "text/plain" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "text/plain", text: "notes" }],
}));
await server.connect(new StdioServerTransport());
