// A small stdio MCP server for the TypeScript SDK scenarios: one tool,
// "reverse", that gives its text back reversed.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "reverser", version: "1.0.0" });
server.tool("reverse", "Reverse the text.", { text: z.string() }, async ({ text }) => ({
  content: [{ type: "text", text: [...text].reverse().join("") }],
}));
await server.connect(new StdioServerTransport());
