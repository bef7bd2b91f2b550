// Drives reins with the TypeScript Agent SDK for qa11_sdk_test.go, using
// the SDK as its documentation shows: one scenario per run (the first
// argument). Prints {"msg": …} for every message the SDK yields, then
// {"summary": …} with what the scenario observed.
import { query } from "@anthropic-ai/claude-agent-sdk";

const scenario = process.argv[2];
const summary = { stderr: "" };
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const base = {
  pathToClaudeCodeExecutable: process.env.REINS_BIN,
  stderr: (d) => (summary.stderr += d),
};

async function run(prompt, options) {
  for await (const m of query({ prompt, options: { ...base, ...options } })) {
    print({ msg: m });
  }
}

const scenarios = {
  // outputFormat json_schema: the structured output of the result.
  schema: () =>
    run("How many?", {
      outputFormat: { type: "json_schema", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
    }),
  // The preset prompt with excludeDynamicSections: the per-user parts
  // go with the conversation, not in the system prompt.
  exclude: () => run("Hi.", { systemPrompt: { type: "preset", preset: "claude_code", excludeDynamicSections: true } }),
  // The preset prompt as it is.
  preset: () => run("Hi.", { systemPrompt: { type: "preset", preset: "claude_code" } }),
};

try {
  const fn = scenarios[scenario];
  if (!fn) throw new Error("unknown scenario " + scenario);
  await fn();
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
