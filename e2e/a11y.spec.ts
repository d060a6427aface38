/**
 * The main pages at desktop (1440×900) and phone (390×844) size, in the light and the dark theme
 * (docs/ui.md "Theme: light, dark and system"), have no serious or critical axe-core violations
 * (WCAG 2.1 A/AA rules, colour contrast included) and no horizontal scroll. This check stays in the
 * suite so every later page is held to it: add new pages to PAGES. Two runs, desktop in the light
 * theme and phone in the dark one, so every page is checked at both sizes and in both themes: the
 * theme decides the colours (contrast), the size the layout (overflow, reflow), and the two other
 * pairings would repeat the same checks at twice the suite's time.
 *
 * One user is signed up (sign-ups are rate-limited per address); the repository is pushed with
 * the real git CLI so the code pages have a README, source files and history.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { signUpIn } from "./session";
import { AxeBuilder } from "./axe";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";

const username = `a11y${Date.now().toString(36)}`;
const REPO = "accessible";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const THEMES = ["light", "dark"] as const;

/** The pages every theme and size is checked on; `ready` is a test id that shows the page is drawn. */
const PAGES: Array<{ name: string; path: () => string; ready: string; act?: (page: Page) => Promise<void> }> = [
  { name: "dashboard", path: () => "/", ready: "repo-list" },
  { name: "repository home", path: () => `/${username}/${REPO}`, ready: "file-tree" },
  { name: "file", path: () => `/${username}/${REPO}/blob/main/src/server.ts`, ready: "file-view" },
  { name: "history", path: () => `/${username}/${REPO}/commits`, ready: "commit-history" },
  { name: "commit", path: () => `/${username}/${REPO}/commit/main`, ready: "diff-viewer" },
  { name: "compare", path: () => `/${username}/${REPO}/compare/main~1...main`, ready: "diff-viewer" },
  { name: "settings", path: () => `/${username}/${REPO}/settings`, ready: "description-form" },
  { name: "settings branches", path: () => `/${username}/${REPO}/settings/branches`, ready: "branch-rules-count" },
  {
    name: "webhooks settings",
    path: () => `/${username}/${REPO}/settings/webhooks`,
    ready: "webhooks-manager",
    act: async (page) => {
      await page.getByTestId("add-webhook").click();
      await expect(page.getByTestId("webhook-form")).toBeVisible();
    },
  },
  { name: "tokens", path: () => "/settings/tokens", ready: "create-token-form" },
  { name: "issues list", path: () => `/${username}/${REPO}/issues`, ready: "issue-list" },
  {
    name: "issues list, bulk-edit bar",
    path: () => `/${username}/${REPO}/issues`,
    ready: "issue-list",
    // select the first row with `x`: the sticky bulk-edit toolbar shows
    act: async (page) => {
      await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
      await page.getByTestId("issue-row").first().focus();
      await page.keyboard.press("x");
      await expect(page.getByTestId("bulk-bar")).toBeVisible();
    },
  },
  { name: "issue", path: () => `/${username}/${REPO}/issues/1`, ready: "issue-page" },
  {
    name: "issue, discard-comment dialog",
    path: () => `/${username}/${REPO}/issues/1`,
    ready: "issue-page",
    // typed text, then Cancel: "Discard your comment?" asks first
    act: async (page) => {
      await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
      await page.getByTestId("edit-body").click();
      await page.getByTestId("body-input").fill("Words not yet saved");
      await page.getByTestId("body-input-cancel").click();
      await expect(page.getByTestId("discard-dialog")).toBeVisible();
    },
  },
  { name: "board", path: () => `/${username}/${REPO}/issues/board`, ready: "board" },
  { name: "board grouped by priority", path: () => `/${username}/${REPO}/issues/board?group=priority`, ready: "board-card" },
  { name: "board with swimlanes by priority", path: () => `/${username}/${REPO}/issues/board?rows=priority`, ready: "board-card" },
  { name: "triage", path: () => `/${username}/${REPO}/issues/triage`, ready: "triage" },
  { name: "pull requests", path: () => `/${username}/${REPO}/pulls`, ready: "pull-list" },
  // the conversation: a review, a general comment and an open inline thread (see beforeAll)
  { name: "pull request", path: () => `/${username}/${REPO}/pulls/${pullNumber}`, ready: "merge-box" },
  { name: "pull request files", path: () => `/${username}/${REPO}/pulls/${pullNumber}/files`, ready: "diff-viewer" },
  { name: "pull request commits", path: () => `/${username}/${REPO}/pulls/${pullNumber}/commits`, ready: "pull-commits" },
  // the conflicting pull request with auto-merge enabled: the merge box's "Auto-merge enabled by …" state
  {
    name: "pull request with auto-merge",
    path: () => `/${username}/${REPO}/pulls/${conflictNumber}`,
    ready: "auto-merge-status",
  },
  // clash/values → feature: both changed src/server.ts (see beforeAll)
  { name: "pull request conflicts", path: () => `/${username}/${REPO}/pulls/${conflictNumber}/conflicts`, ready: "conflict-region" },
  { name: "new pull request", path: () => `/${username}/${REPO}/compare/main...tidy/values`, ready: "create-pull-form" },
  { name: "stacks", path: () => `/${username}/${REPO}/pulls/stacks`, ready: "stack-list" },
  { name: "code search", path: () => `/${username}/${REPO}/search?q=value+line`, ready: "search-results" },
  { name: "inbox", path: () => "/inbox", ready: "inbox-empty" },
  { name: "inbox, your pull requests", path: () => "/inbox?tab=mine", ready: "inbox-list" },
  // a session with a pending and an approved change, and a selection in the context picker (see beforeAll)
  {
    name: "agent",
    path: () => `/${username}/${REPO}/agent?session=${agentSession}&file=src/server.ts&start=2&end=4`,
    ready: "change-card",
  },
];
/** The open pull request of the fixture (feature → main), made in beforeAll. */
let pullNumber = 0;
/** The conflicting pull request of the fixture (clash/values → feature), made in beforeAll. */
let conflictNumber = 0;
/** The agent session of the fixture, made in beforeAll. */
let agentSession = "";

async function trpc(page: Page, baseURL: string, proc: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${proc}`, { headers: { origin: baseURL }, data });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data;
}

/** Pushes a small project (README with a table and raw HTML, TypeScript, nested folders, two commits). */
async function pushFixture(page: Page, baseURL: string) {
  const created = await page.request.post("/api/tokens", {
    headers: { origin: baseURL },
    data: { name: "a11y push", scopes: ["repo:write"] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = await created.json();
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-a11y-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-a11y-repo-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFile(
    dir,
    "README.md",
    [
      "# Accessible",
      "",
      "A fixture for the **accessibility** suite.",
      "",
      "| Page | Checked |",
      "| --- | --- |",
      "| Code | yes |",
      "",
      "<details><summary>More</summary>",
      "",
      "Hidden text.",
      "",
      "</details>",
      "",
    ].join("\n"),
  );
  writeFile(
    dir,
    "src/server.ts",
    Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i} * 2; // line ${i + 1}`).join("\n") + "\n",
  );
  // a long file the pull request changes in one place: its Files tab shows expander rows (unchanged lines)
  const long = Array.from({ length: 80 }, (_, i) => `export const long${i} = ${i};`);
  writeFile(dir, "src/long.ts", long.join("\n") + "\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  writeFile(dir, "docs/guide.md", "# Guide\n\nSee [the server](../src/server.ts).\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Add a guide");
  const remote = new URL(`${baseURL}/${username}/${REPO}.git`);
  remote.username = username;
  remote.password = token;
  git("push", "--quiet", remote.toString(), "main");
  // branches for the pull request pages: one with an open pull request, one to compare, one conflicting with feature
  for (const branch of ["feature", "tidy/values", "clash/values"]) {
    git("checkout", "--quiet", "-B", branch, "main");
    writeFile(
      dir,
      "src/server.ts",
      Array.from(
        { length: 40 },
        (_, i) => `export const value${i} = ${i} * ${{ feature: 3, "tidy/values": 4 }[branch] ?? 5}; // line ${i + 1}`,
      ).join("\n") + "\n",
    );
    writeFile(dir, `docs/${branch.replace("/", "-")}.md`, `# ${branch}\n`);
    if (branch === "feature")
      writeFile(dir, "src/long.ts", long.map((l, i) => (i === 40 ? "export const long40 = -1;" : l)).join("\n") + "\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", `Work on ${branch}`);
    git("push", "--quiet", remote.toString(), branch);
  }
  return {
    main: git("rev-parse", "main").trim(),
    feature: git("rev-parse", "feature").trim(),
    clash: git("rev-parse", "clash/values").trim(),
  };
}

test.beforeAll(async ({ browser, baseURL }) => {
  const page = await browser.newPage();
  await signUpIn(page.context(), username);
  const repo = await trpc(page, baseURL!, "repos.create", { name: REPO, description: "Pages under axe-core" });
  const tips = await pushFixture(page, baseURL!);
  const bug = await trpc(page, baseURL!, "issues.createLabel", { repoId: repo.id, name: "bug", color: "#d73a4a" });
  const first = await trpc(page, baseURL!, "issues.create", {
    repoId: repo.id,
    title: "The first issue, with a label and a body",
    body: "Steps:\n\n1. Open the page\n2. See `code`",
    priority: "high",
    labels: ["bug"],
  });
  await trpc(page, baseURL!, "issues.update", { issueId: first.id, status: "in_progress" });
  await trpc(page, baseURL!, "issues.addComment", {
    repoId: repo.id,
    number: first.number,
    body: "A comment with a [link](https://example.com).",
  });
  await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: "Waiting in triage", status: "triage" });
  const done = await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: "Already done" });
  await trpc(page, baseURL!, "issues.close", { repoId: repo.id, number: done.number });
  const pull = await trpc(page, baseURL!, "pulls.create", {
    repoId: repo.id,
    title: "Triple the values",
    body: "Why: **tests**.",
    sourceBranch: "feature",
    targetBranch: "main",
    headSha: tips.feature,
    baseSha: tips.main,
  });
  pullNumber = pull.number;
  const clash = await trpc(page, baseURL!, "pulls.create", {
    repoId: repo.id,
    title: "Quintuple the values",
    sourceBranch: "clash/values",
    targetBranch: "feature",
    headSha: tips.clash,
    baseSha: tips.feature,
  });
  conflictNumber = clash.number;
  // blocked by its conflicts, so enabling auto-merge waits (the merge box shows the enabled state)
  await trpc(page, baseURL!, "pulls.enableAutoMerge", { prId: clash.id, strategy: "squash" });
  // the conversation shows a label, a review with a body and a general comment
  await trpc(page, baseURL!, "pulls.addLabel", { prId: pull.id, labelId: bug.id });
  await trpc(page, baseURL!, "pulls.addReview", {
    prId: pull.id,
    state: "commented",
    body: "A note on **the values**.",
    commitSha: tips.feature,
  });
  await trpc(page, baseURL!, "pulls.addComment", { prId: pull.id, body: "A general comment with a [link](https://example.com)." });
  // an open inline thread with a reply: the Conversation tab's interactive thread (reply, resolve, the "…" menu)
  const note = await trpc(page, baseURL!, "pulls.addComment", { prId: pull.id, body: "Why **triple**?", path: "src/server.ts", line: 2 });
  await trpc(page, baseURL!, "pulls.addComment", { prId: pull.id, body: "To match the spec.", replyToId: note.id });
  // a stack holding the pull request's branch: the pull request page shows its navigator, the stacks page lists it
  await trpc(page, baseURL!, "stacks.create", {
    repoId: repo.id,
    name: "Values",
    baseBranch: "main",
    branches: ["feature", "tidy/values"],
  });
  // the agent page: one approved and one pending change drafted by hand
  const session = await trpc(page, baseURL!, "agent.createSession", { repoId: repo.id, mode: "code", title: "Tidy the values" });
  agentSession = session.id;
  const readme = await trpc(page, baseURL!, "agent.proposeChange", {
    sessionId: session.id,
    type: "create",
    path: "docs/values.md",
    content: "# Values\n\nDoubled.\n",
  });
  await trpc(page, baseURL!, "agent.approveChange", { changeId: readme.id });
  await trpc(page, baseURL!, "agent.proposeChange", {
    sessionId: session.id,
    type: "modify",
    path: "src/server.ts",
    content: "export const value0 = 0;\n",
  });
  // settings → AI shows a saved (masked) repository key
  await trpc(page, baseURL!, "repoAiKeys.set", {
    repoId: repo.id,
    provider: "openai",
    apiKey: "sk-a11y-fixture-key-0000",
    model: "gpt-a11y",
  });
  await page.context().storageState({ path: storagePath() });
  await page.close();
});

function storagePath() {
  return path.join(os.tmpdir(), `svc-a11y-${username}.json`);
}

const RUNS = [
  { viewport: VIEWPORTS[0], theme: THEMES[0] },
  { viewport: VIEWPORTS[1], theme: THEMES[1] },
];

for (const { viewport, theme } of RUNS) {
  test(`main pages pass axe-core and fit the screen: ${viewport.name}, ${theme}`, async ({ browser, baseURL }) => {
    // 31 pages, each drawn, measured and run through axe: ~2–3 min on the shared 2-CPU machine
    // with the other worker busy, past the suite's 3-minute default
    test.setTimeout(360_000);
    const context = await browser.newContext({
      storageState: storagePath(),
      viewport: { width: viewport.width, height: viewport.height },
      colorScheme: theme,
    });
    // the theme cookie as the theme menu sets it; colorScheme also covers "system"
    await context.addCookies([{ name: "svc-theme", value: theme, url: baseURL! }]);
    const page = await context.newPage();
    const failures: string[] = [];
    for (const p of PAGES) {
      const response = await page.goto(p.path());
      expect(response?.status(), `${p.name} answered`).toBe(200);
      await expect(page.getByTestId(p.ready).first(), `${p.name} is drawn`).toBeVisible();
      await p.act?.(page);
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      if (scrollWidth > innerWidth) failures.push(`${p.name}: ${scrollWidth}px wide in a ${innerWidth}px viewport`);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      for (const v of results.violations) {
        if (v.impact !== "serious" && v.impact !== "critical") continue;
        const where = v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(" ")}${n.failureSummary ? ` (${n.failureSummary.split("\n").slice(1).join(" ").trim()})` : ""}`);
        failures.push(`${p.name}: ${v.id} [${v.impact}] ${v.help} — ${v.nodes.length} node(s): ${where.join("; ")}`);
      }
    }
    // the diff's find box with a query, and (narrow screens) the file tree's sheet
    await page.goto(`/${username}/${REPO}/pulls/${pullNumber}/files`);
    await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
    await page.getByTestId("diff-find-input").fill("a");
    await expect(page.getByTestId("diff-find-count")).toBeVisible();
    if (await page.getByTestId("toggle-file-tree").isVisible()) {
      await page.getByTestId("toggle-file-tree").click();
      await expect(page.getByTestId("diff-file-sheet")).toBeVisible();
    }
    const extra = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    for (const v of extra.violations)
      if (v.impact === "serious" || v.impact === "critical")
        failures.push(`diff find / file sheet: ${v.id} [${v.impact}] ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`);
    await context.close();
    expect(failures, failures.join("\n")).toEqual([]);
  });
}
