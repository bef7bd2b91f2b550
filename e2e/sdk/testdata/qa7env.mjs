// Sends an update_environment_variables message through the TypeScript
// SDK's streaming input, then a prompt whose Bash call prints the
// variable (run by qa7_robust_test.go). Prints like agent.mjs:
// {"msg": …} per message, then {"summary": …}.
import { query } from "@anthropic-ai/claude-agent-sdk";

const summary = {};
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");

let endInput;
const inputEnded = new Promise((r) => (endInput = r));
async function* messages() {
  yield { type: "update_environment_variables", variables: { QA7_TOKEN: "from-the-sdk" } };
  yield { type: "user", message: { role: "user", content: "Print the token." }, parent_tool_use_id: null, session_id: "" };
  await inputEnded;
}

try {
  const q = query({
    prompt: messages(),
    options: { pathToClaudeCodeExecutable: process.env.REINS_BIN, allowedTools: ["Bash"], stderr: (d) => process.stderr.write(d) },
  });
  for await (const m of q) {
    print({ msg: m });
    if (m.type === "result") endInput();
  }
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
