// Runs a plan with the TypeScript SDK (run by qa6_plan_test.go): the
// session starts in acceptEdits mode, the model enters plan mode and
// presents a plan, canUseTool approves every call it is asked about (and
// records which), and the messages the SDK yields are printed like
// agent.mjs: {"msg": …} per message, then {"summary": …}.
import { query } from "@anthropic-ai/claude-agent-sdk";

const summary = { asks: [] };
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");

try {
  const q = query({
    prompt: "Plan, then write b.txt.",
    options: {
      pathToClaudeCodeExecutable: process.env.REINS_BIN,
      permissionMode: "acceptEdits",
      stderr: (d) => process.stderr.write(d),
      canUseTool: async (name, input) => {
        summary.asks.push(name);
        return { behavior: "allow", updatedInput: input };
      },
    },
  });
  for await (const m of q) print({ msg: m });
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
