// Drives reins with the TypeScript Agent SDK for qa11_mcp_test.go: an
// MCP server (the path in GAP_SERVER) asks for input while its tool runs,
// and the SDK's onElicitation answers. Prints {"msg": …} for every
// message, then {"summary": …} with the requests onElicitation saw.
import { query } from "@anthropic-ai/claude-agent-sdk";

const summary = { stderr: "", elicitations: [] };
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
try {
  const options = {
    pathToClaudeCodeExecutable: process.env.REINS_BIN,
    stderr: (d) => (summary.stderr += d),
    mcpServers: { gap: { command: process.env.GAP_SERVER } },
    allowedTools: ["mcp__gap__ask"],
    onElicitation: async (req) => {
      summary.elicitations.push(req);
      return { action: "accept", content: { name: "From the SDK" } };
    },
  };
  for await (const m of query({ prompt: "Write the report.", options })) print({ msg: m });
} catch (e) {
  summary.error = String((e && e.stack) || e);
}
print({ summary });
