/**
 * The agent page (docs/agent.md "The coding agent"). Offline (no model on the e2e server): the page
 * says so and names what to set; "Ask the agent about these lines" in the code browser carries the
 * selected range into the context picker; a session is started, edits are proposed by hand (a
 * modify of the selected file, its content loaded from the file, and a new file), one is approved
 * and one rejected with a reason, the commit opens in the code browser with the new content, and a
 * pull request is opened from the session branch. With a model: a fake OpenAI-compatible server
 * (test/fixtures/fake-openai.ts) behind one repository's AI key streams a reply with a
 * proposeChange tool call; the reply streams in, the change is approved; Stop ends a slow reply,
 * which is stored as stopped (the fake sees its request cancelled). In pm mode a proposed issue is
 * a card of its own, approved into an issue.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { newUser } from "./session";
import { pushInitial } from "./pull-fixture";
import { startFakeOpenAI } from "../test/fixtures/fake-openai";

const stamp = Date.now().toString(36);
const UTIL = ["export function add(a: number, b: number) {", "  return a + b;", "}", "", "export const ZERO = 0;", ""].join("\n");

async function ready(page: Page) {
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
}

test("offline: ask about lines, propose edits by hand, approve one, reject one, open the commit and a pull request", async ({
  browser,
  baseURL,
}) => {
  const user = await newUser(browser, baseURL!, "agoff", stamp);
  await user.trpc("repos.create", { name: "agentoff" });
  await pushInitial(user, "agentoff", { "README.md": "# Agent offline\n", "src/util.ts": UTIL });
  const page = user.page;
  const repoPath = `/${user.username}/agentoff`;

  // the code browser: select lines 1–3, then ask the agent about them
  await page.goto(`${repoPath}/blob/main/src/util.ts`);
  await ready(page);
  const code = page.getByTestId("code-view");
  await expect(page.getByTestId("ask-agent-lines")).toHaveCount(0);
  await code.locator('a[href="#L1"]').click();
  await code.locator('a[href="#L3"]').click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("ask-agent-lines")).toHaveText("Ask the agent about these lines");
  await page.getByTestId("ask-agent-lines").click();
  await expect(page).toHaveURL(new RegExp(`${repoPath}/agent`));
  await ready(page);
  await expect(page.getByTestId("repo-agent-tab")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("agent-pending-selection")).toContainText("src/util.ts:1–3");

  // no model: honest, names the variables, links the docs; sending is off
  await expect(page.getByTestId("agent-unavailable")).toContainText("OPENAI_API_KEY");
  await expect(page.getByTestId("agent-unavailable")).toContainText("ANTHROPIC_API_KEY");
  await expect(page.getByTestId("agent-docs-link")).toHaveAttribute("href", "/help/agent");

  // a session that is deleted again, then the one to work in
  await page.getByTestId("new-session-mode").selectOption("pm");
  await page.getByTestId("new-session-title").fill("Scratch");
  await page.getByTestId("new-session-submit").click();
  await expect(page.getByTestId("session-heading")).toHaveText("Scratch");
  await expect(page.getByTestId("session-mode")).toHaveText("pm mode");
  await page.getByTestId("session-delete").click();
  await page.getByTestId("confirm-button").click();
  await expect(page.getByTestId("session-item")).toHaveCount(0);

  await page.getByTestId("new-session-mode").selectOption("code");
  await page.getByTestId("new-session-title").fill("Tidy util");
  await page.getByTestId("new-session-submit").click();
  await expect(page.getByTestId("session-heading")).toHaveText("Tidy util");
  await expect(page).toHaveURL(/\?session=/);
  await expect(page.getByTestId("context-selection")).toHaveText(/src\/util\.ts:1–3/);
  await expect(page.getByTestId("agent-input")).toBeDisabled();
  await expect(page.getByTestId("agent-send")).toBeDisabled();
  // rename
  await page.getByTestId("session-rename").click();
  await page.getByTestId("session-title-input").fill("Tidy the util");
  await page.getByTestId("session-rename-save").click();
  await expect(page.getByTestId("session-heading")).toHaveText("Tidy the util");
  await expect(page.getByTestId("session-title")).toHaveText(["Tidy the util"]);

  // propose a modify of the selected file: its content is loaded, edited by hand
  await page.getByTestId("propose-edit").click();
  await expect(page.getByTestId("propose-type")).toHaveValue("modify");
  await expect(page.getByTestId("propose-content")).toHaveValue(UTIL);
  await page.getByTestId("propose-content").fill(UTIL.replace("  return a + b;", "  // sum of two numbers\n  return a + b;"));
  await page.getByTestId("propose-submit").click();
  const util = page.locator('[data-testid="change-card"][data-path="src/util.ts"]');
  await expect(util.getByTestId("change-status")).toHaveText("Pending");
  await expect(util.getByTestId("change-diff").locator('[data-line-type="add"]')).toHaveText([/\+ {2}\/\/ sum of two numbers$/]);

  // and a new file
  await page.getByTestId("propose-edit").click();
  await page.getByTestId("propose-type").selectOption("create");
  await page.getByTestId("propose-path").fill("docs/plan.md");
  await page.getByTestId("propose-content").fill("# Plan\n\nNothing yet.\n");
  await page.getByTestId("propose-submit").click();
  const plan = page.locator('[data-testid="change-card"][data-path="docs/plan.md"]');
  await expect(plan.getByTestId("change-kind")).toHaveText("New file");
  await expect(plan.getByTestId("change-status")).toHaveText("Pending");

  // reject the new file with a reason; approve the edit
  await plan.getByTestId("reject-change").click();
  await plan.getByTestId("reject-reason").fill("Plans live in issues");
  await plan.getByTestId("confirm-reject").click();
  await expect(plan.getByTestId("change-status")).toHaveText("Rejected");
  await expect(plan.getByTestId("change-reason")).toHaveText("Rejected: Plans live in issues");
  await util.getByTestId("approve-change").click();
  await expect(util.getByTestId("change-status")).toHaveText("Approved");
  await expect(util.getByTestId("change-commit-link")).toHaveText(/^Commit [0-9a-f]{7}$/);
  await expect(page.getByTestId("approve-all")).toHaveCount(0);

  // the commit in the code browser has exactly the content
  await util.getByTestId("change-view-file").click();
  await expect(page).toHaveURL(/\/blob\/[0-9a-f]{40}\/src\/util\.ts$/);
  await expect(page.getByTestId("code-view").locator("code")).toContainText("// sum of two numbers");
  await page.goBack();
  await ready(page);

  // a pull request from the session branch
  await page.getByTestId("open-pull-request").click();
  await expect(page.getByTestId("pull-link")).toContainText("Tidy the util");
  // after a reload it is linked, not offered again
  const session = new URL(page.url()).searchParams.get("session");
  await page.reload();
  await ready(page);
  await expect(page.getByTestId("pull-link")).toContainText("Tidy the util");
  await expect(page.getByTestId("open-pull-request")).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get("session")).toBe(session);
  await page.getByTestId("pull-link").click();
  await expect(page).toHaveURL(new RegExp(`${repoPath}/pulls/\\d+$`));
  await expect(page.getByText(/agent\/[0-9a-f]+/).first()).toBeVisible();
  await user.context.close();
});

test("with a model: the reply streams in with its tool activity, the proposed change is approved", async ({ browser, baseURL }) => {
  const fake = await startFakeOpenAI();
  try {
    const user = await newUser(browser, baseURL!, "agai", stamp);
    const repo = await user.trpc("repos.create", { name: "agentai" });
    await pushInitial(user, "agentai", { "README.md": "# Agent with a model\n", "src/util.ts": UTIL });
    // this repository's own key points at the fake (the server allows private base URLs in e2e)
    await user.trpc("repoAiKeys.set", {
      repoId: repo.id,
      provider: "openai",
      apiKey: "sk-e2e-agent-fake-0000",
      model: "fake-agent",
      baseUrl: fake.url,
    });
    const next = UTIL.replace("export const ZERO = 0;", "export const ZERO = 0;\nexport const ONE = 1;");
    // first step: text streamed in slow pieces, then the tool call; second step (after the tool result): the closing words
    // (the first step ends in a list: the second step's text must start a block of its own, not join its last item)
    fake.reply({
      chunks: ["I will ", "add a ", "constant ", "ONE.\n", "- read the file\n", "- add ONE\n"],
      delayMs: 400,
      toolCalls: [{ name: "proposeChange", arguments: { type: "modify", path: "src/util.ts", content: next } }],
    });
    fake.reply({ chunks: ["Proposed ", "**the change**."], delayMs: 400 });

    const page = user.page;
    await page.goto(`/${user.username}/agentai/agent`);
    await ready(page);
    await expect(page.getByTestId("agent-model")).toContainText("fake-agent");
    await expect(page.getByTestId("agent-unavailable")).toHaveCount(0);
    await page.getByTestId("new-session-title").fill("Add ONE");
    await page.getByTestId("new-session-submit").click();
    await expect(page.getByTestId("session-heading")).toHaveText("Add ONE");

    await page.getByTestId("agent-input").fill("Add a constant ONE to src/util.ts");
    await page.getByTestId("agent-send").click();
    // streaming: the live turn grows piece by piece, Stop is offered meanwhile
    const live = page.getByTestId("agent-live");
    await expect(live).toBeVisible();
    await expect(page.getByTestId("agent-stop")).toBeVisible();
    await expect(live.getByTestId("agent-live-text")).toContainText("I will");
    await expect(live.getByTestId("agent-live-text")).not.toContainText("ONE.");
    await expect(live.getByTestId("agent-live-text")).toContainText("I will add a constant ONE.");
    await expect(live.getByTestId("agent-tool").first()).toContainText("src/util.ts");
    // the turn ends: the stored reply replaces the live view
    await expect(live).toHaveCount(0, { timeout: 30_000 });
    const reply = page.locator('[data-testid="agent-message"][data-role="assistant"]').last();
    await expect(reply).toContainText("Proposed the change.");
    const replyText = reply.getByTestId("agent-message-text");
    await expect(replyText.locator("li")).toHaveText(["read the file", "add ONE"]);
    await expect(replyText.locator("p", { hasText: "Proposed the change." })).toHaveCount(1);
    await expect(replyText.locator("li", { hasText: "Proposed" })).toHaveCount(0);
    await expect(page.getByTestId("agent-send")).toBeVisible();

    const card = page.locator('[data-testid="change-card"][data-path="src/util.ts"]');
    await expect(card.getByTestId("change-status")).toHaveText("Pending");
    await expect(card.getByTestId("change-diff").locator('[data-line-type="add"]')).toHaveText([/\+export const ONE = 1;$/]);
    await card.getByTestId("approve-change").click();
    await expect(card.getByTestId("change-status")).toHaveText("Approved");
    await card.getByTestId("change-view-file").click();
    await expect(page.getByTestId("code-view").locator("code")).toContainText("export const ONE = 1;");

    // Stop: unsubscribing ends the stream, the fake sees the request cancelled, the partial reply is stored as stopped
    fake.reply({ chunks: ["Thinking ", "about ", "it ", "slowly ", "and ", "at ", "length."], delayMs: 1500 });
    await page.goBack();
    await ready(page);
    await page.getByTestId("agent-input").fill("Explain the file");
    await page.getByTestId("agent-send").click();
    await expect(page.getByTestId("agent-live-text")).toContainText("Thinking");
    await page.getByTestId("agent-stop").click();
    const stopped = page.locator('[data-testid="agent-message"][data-role="assistant"][data-status="stopped"]');
    await expect(stopped).toContainText("Thinking", { timeout: 20_000 });
    await expect(stopped).toContainText("Stopped");
    await expect.poll(() => fake.cancelled).toBeGreaterThan(0);

    // the model ran with the session's tools and saw the user's message
    const first = fake.requests.find((r) => r.path.endsWith("/chat/completions"));
    expect(JSON.stringify(first?.body.messages)).toContain("Add a constant ONE");
    expect(first?.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("proposeChange");
    await user.context.close();
  } finally {
    await fake.close();
  }
});

test("pm mode: a proposed issue is a card with its title and body, approved into an issue", async ({ browser, baseURL }) => {
  const fake = await startFakeOpenAI();
  try {
    const user = await newUser(browser, baseURL!, "agpm", stamp);
    const repo = await user.trpc("repos.create", { name: "agentpm" });
    await pushInitial(user, "agentpm", { "README.md": "# Agent pm\n" });
    await user.trpc("repoAiKeys.set", {
      repoId: repo.id,
      provider: "openai",
      apiKey: "sk-e2e-agent-fake-0000",
      model: "fake-pm",
      baseUrl: fake.url,
    });
    fake.reply({
      content: "A ticket for it.",
      toolCalls: [{ name: "proposeIssue", arguments: { title: "Write a contributing guide", body: "Explain **how** to send changes." } }],
    });
    fake.reply({ content: "Proposed one issue." });

    const page = user.page;
    await page.goto(`/${user.username}/agentpm/agent`);
    await ready(page);
    await page.getByTestId("new-session-mode").selectOption("pm");
    await page.getByTestId("new-session-submit").click();
    await expect(page.getByTestId("session-mode")).toHaveText("pm mode");
    await page.getByTestId("agent-input").fill("We need a contributing guide");
    await page.getByTestId("agent-send").click();
    await expect(page.locator('[data-testid="agent-message"][data-role="assistant"]').last()).toContainText("Proposed one issue.", {
      timeout: 30_000,
    });

    const card = page.locator('[data-testid="change-card"]').filter({ hasText: "Write a contributing guide" });
    await expect(card.getByTestId("change-kind")).toHaveText("Issue");
    await expect(card.getByTestId("change-issue-body")).toContainText("Explain how to send changes.");
    await card.getByTestId("approve-change").click();
    await expect(card.getByTestId("change-status")).toHaveText("Approved");
    await expect(card.getByTestId("change-issue-link")).toHaveText("Issue #1");
    // an issue, not a commit: no session branch, so no pull request to open
    await expect(page.getByTestId("open-pull-request")).toHaveCount(0);
    await card.getByTestId("change-issue-link").click();
    await expect(page).toHaveURL(new RegExp(`/${user.username}/agentpm/issues/1$`));
    await expect(page.getByRole("heading", { name: /Write a contributing guide/ })).toBeVisible();
    await user.context.close();
  } finally {
    await fake.close();
  }
});
