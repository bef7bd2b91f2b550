// Drives reins with the TypeScript Agent SDK for qa10_sdk_test.go: one
// query() option per scenario (the first argument). Prints {"msg": …} for
// every message the SDK yields, then {"summary": …} with what the
// scenario observed.
import { query, getSessionInfo, SYSTEM_PROMPT_DYNAMIC_BOUNDARY } from "@anthropic-ai/claude-agent-sdk";

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
    if (m.type === "result") summary.session = m.session_id;
  }
}

const scenarios = {
  // A string-list system prompt parted by the SDK's boundary marker.
  boundary: () => run("Hi.", { systemPrompt: ["SHARED-PART.", SYSTEM_PROMPT_DYNAMIC_BOUNDARY, "SESSION-PART."] }),
  // The title option names a new session; a resumed one keeps its name.
  title: async () => {
    await run("Hi.", { title: "Release checklist" });
    const first = summary.session;
    summary.titled = (await getSessionInfo(first, { dir: process.cwd() }))?.customTitle ?? null;
    await run("Again.", { resume: first, title: "Another name" });
    summary.resumedTitle = (await getSessionInfo(first, { dir: process.cwd() }))?.customTitle ?? null;
  },
  // Policy from the host: its deny rule holds over allowedTools, and its
  // allow rule (which would widen) is dropped.
  managed: () =>
    run("Make the files.", {
      allowedTools: ["Bash"],
      managedSettings: { permissions: { deny: ["Bash(touch:*)"], allow: ["Write"] } },
    }),
  // permissionPrompts 'none': nobody answers, so canUseTool is never
  // called and what it would be asked is denied.
  noPrompts: async () => {
    summary.asked = [];
    await run("Make the file.", {
      permissionPrompts: "none",
      canUseTool: async (name, input) => {
        summary.asked.push(name);
        return { behavior: "allow", updatedInput: input };
      },
    });
  },
  // skills as a list: the model sees and may load those alone.
  skills: () => run("Use the skills.", { skills: ["alpha"] }),
  // planModeInstructions: the host's planning workflow for plan mode.
  planInstructions: () =>
    run("Plan it.", { permissionMode: "plan", planModeInstructions: "HOST-WORKFLOW: list the risks first." }),
};

try {
  const fn = scenarios[scenario];
  if (!fn) throw new Error("unknown scenario " + scenario);
  await fn();
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
