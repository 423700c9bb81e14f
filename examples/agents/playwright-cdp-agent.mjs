// A CDP-native outside agent for `contractbench run --agent exec --agent-cdp`:
// it drives the task's browser itself through CONTRACTBENCH_CDP_URL with
// Playwright (playwright-core, pinned in the repository's package.json and
// installed by `make peers`), as an agent framework built on Playwright,
// Puppeteer or raw CDP does. It never calls the harness's MCP tools.
//
// It has no model. Its policy is scripted and fixed: type a query into the
// start page's search box, submit it, and answer with the sentence of the
// result that gives a speed. The query is task-09's ("Look up on Wikipedia
// how fast light travels in a vacuum"); a model would choose it from the
// instruction. Put your framework's loop where the policy is.
//
//   contractbench run --agent exec --agent-cdp \
//     --agent-cmd 'node examples/agents/playwright-cdp-agent.mjs' --task task-09 --gate
//
// It does the task for real, and the contract holds. The run still reports
// task-09 tainted with "trust: unrestricted agent", its one number on a
// line of its own,
//
//   contract held 1 / 1 (unrestricted: the agent could write the evidence)
//
// and --gate fails: forge-agent.mjs makes the same contract hold on a page
// nobody visited, through the same endpoint, and the judge cannot tell the
// two apart (docs/agents.md, "Trust").
//
// The environment contract (docs/agents.md):
//   CONTRACTBENCH_CDP_URL      the browser's DevTools endpoint (only with --agent-cdp)
//   CONTRACTBENCH_TASK         the task id
//   CONTRACTBENCH_START_URL    the page the browser was opened on (may be empty)
//   CONTRACTBENCH_USAGE_FILE   where to write token counts and cost, as JSON
// The final answer is what the agent prints on stdout; logs go to stderr.

import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const env = process.env;
if (!env.CONTRACTBENCH_CDP_URL) {
  console.error("playwright-cdp-agent: no CONTRACTBENCH_CDP_URL; run me with contractbench run --agent exec --agent-cdp");
  process.exit(2);
}

// The scripted policy's only choice, per task.
const queries = { "task-09-wikipedia-speed-of-light": "Speed of light" };
const query = queries[env.CONTRACTBENCH_TASK];
if (!query) {
  console.error(`playwright-cdp-agent: no query for task ${env.CONTRACTBENCH_TASK}; this scripted agent knows ${Object.keys(queries).join(", ")}`);
  process.exit(2);
}

// The harness opened the start page in the browser's default context
// (--agent-cdp gives every task a browser of its own). connectOverCDP
// attaches to that browser; it launches and downloads nothing.
const browser = await chromium.connectOverCDP(env.CONTRACTBENCH_CDP_URL);
try {
  const pages = browser.contexts()[0]?.pages() ?? [];
  const page = pages.find((p) => p.url() === env.CONTRACTBENCH_START_URL) ?? pages[0];
  if (!page) {
    throw new Error("the browser has no page open");
  }
  console.error(`playwright-cdp-agent: on ${page.url()}`);

  const box = page.getByRole("searchbox").or(page.getByRole("combobox")).first();
  await box.fill(query);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), box.press("Enter")]);
  console.error(`playwright-cdp-agent: searched ${JSON.stringify(query)}, now on ${page.url()}`);

  // The first sentence that gives a number of metres per second.
  const text = await page.locator("body").innerText();
  const sentence = text.match(/[^.\n]*\d[\d,\s]* metres per second[^.\n]*\.?/)?.[0];
  const answer = sentence?.trim() ?? (await page.title());

  // No model ran, so nothing was spent; an agent with a model writes its
  // totals here (docs/agents.md has the shape).
  if (env.CONTRACTBENCH_USAGE_FILE) {
    writeFileSync(env.CONTRACTBENCH_USAGE_FILE, JSON.stringify({ model: "scripted", input_tokens: 0, output_tokens: 0, usd: 0 }));
  }
  console.log(answer);
} finally {
  // Over connectOverCDP, close() disconnects and leaves the browser, which
  // the harness owns, running.
  await browser.close();
}
