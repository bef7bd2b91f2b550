// Drives a reins MCP server (the command line given) with the TypeScript
// SDK client: lists the tools, calls them, and prints one JSON report.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: { ...process.env, REINS_MCP_TEST_PEER: "serve" }, stderr: "inherit" });
const client = new Client({ name: "ts-test-client", version: "1.0.0" });
await client.connect(transport);
const report = { server: client.getServerVersion(), tools: [], calls: {} };
const { tools } = await client.listTools();
for (const t of tools) {
  report.tools.push({ name: t.name, readOnly: t.annotations?.readOnlyHint ?? null, required: t.inputSchema?.required ?? [] });
}
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError ?? false, text: r.content.map((c) => c.text).join("\n") };
};
report.calls.upper = await call("Upper", { text: "hi" });
report.calls.write = await call("Write", { text: "x" });
report.calls.fail = await call("Fail", { text: "x" });
report.calls.invalid = await call("Upper", { text: 5 });
console.log(JSON.stringify(report));
await client.close();
