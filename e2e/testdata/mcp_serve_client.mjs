// Drives `reins mcp serve` with the TypeScript MCP SDK client: lists the
// tools, reads a file, tries a shell command, and prints a JSON report.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, file, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "e2e-client", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const text = (r) => ({ isError: r.isError ?? false, text: r.content.map((c) => c.text ?? "").join("\n") });
const report = {
  server: client.getServerVersion(),
  tools: tools.map((t) => t.name),
  read: text(await client.callTool({ name: "Read", arguments: { file_path: file } })),
  bash: text(await client.callTool({ name: "Bash", arguments: { command: "touch made-by-mcp" } })),
};
console.log(JSON.stringify(report));
await client.close();
