// Moves a running call to the background with the TypeScript SDK's
// backgroundTasks() (run by bgmove_test.go): once the model's call (its
// tool_use id is the argument) is running and a "started" file exists,
// backgroundTasks of an unknown tool_use id answers false and
// backgroundTasks(id) true; after the first result the script
// lets the command end (it waits for a "release" file) and ends the input
// after the second result, the turn that tells the model the task ended.
// Prints like agent.mjs: {"msg": …} per message, then {"summary": …}.
import { query } from "@anthropic-ai/claude-agent-sdk";
import fs from "node:fs";

const target = process.argv[2];
const summary = {};
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let endInput;
const inputEnded = new Promise((r) => (endInput = r));
async function* messages() {
  yield { type: "user", message: { role: "user", content: "Start the long job." }, parent_tool_use_id: null, session_id: "" };
  await inputEnded;
}

async function move(q) {
  while (!fs.existsSync("started")) await sleep(20);
  summary.unknown = await q.backgroundTasks("toolu_nope");
  // The call can move once its command runs; until then the answer is
  // false, so ask again.
  let moved = false;
  for (summary.attempts = 1; !(moved = await q.backgroundTasks(target)); summary.attempts++) await sleep(20);
  summary.moved = moved;
}

try {
  const q = query({
    prompt: messages(),
    options: { pathToClaudeCodeExecutable: process.env.REINS_BIN, allowedTools: ["Bash"], stderr: (d) => process.stderr.write(d) },
  });
  let moving = null;
  let results = 0;
  for await (const m of q) {
    print({ msg: m });
    const calls = m.type === "assistant" ? m.message.content.filter((b) => b.type === "tool_use" && b.id === target) : [];
    if (calls.length > 0 && !moving) moving = move(q);
    if (m.type === "result") {
      results++;
      if (results === 1) {
        await moving;
        fs.writeFileSync("release", "");
      } else {
        endInput();
      }
    }
  }
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
