/**
 * Code search in a real browser (docs/ai.md "Semantic search"): push a small project with the real
 * git CLI, open "Search code" from the repository tabs, search in plain words, see the function
 * with its name, type, score and engine label, click it and land on the file with exactly its
 * lines selected; a file-type filter narrows the results. The Ask panel (ai.chat) answers from
 * retrieval with the local engine, labelled so, and its references open the file on those lines.
 * With an embedding model named in Settings → AI (a fake OpenAI-compatible server behind the
 * repository's key), the index job embeds the code and searches are hybrid, labelled with that model.
 */
import { test, expect } from "./fixtures";
import { newUser } from "./session";
import { pushInitial } from "./pull-fixture";
import { startFakeOpenAI } from "../test/fixtures/fake-openai";

const stamp = Date.now().toString(36);

const DURATION = `/**
 * Parses a human duration such as "1h 30m" or "45s" into milliseconds.
 * Unknown units are an error.
 */
export function parseDuration(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000 };
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\\d+)\\s*([hms])/g)) {
    total += Number(n) * units[unit]!;
  }
  return total;
}

/** Formats milliseconds as "1h 30m". */
export function formatDuration(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return h ? \`\${h}h \${m}m\` : \`\${m}m\`;
}
`;

const MAILER = `def send_welcome_email(user):
    """Sends the welcome email to a new user."""
    return deliver(user.email, "Welcome!")
`;

test("search code in plain words, open a result on its lines, filter by file type", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "seeker", stamp);
  const { page, username } = user;
  const name = `find${stamp}`;
  await user.trpc("repos.create", { name });
  await pushInitial(user, name, { "README.md": "# Timers\n", "src/duration.ts": DURATION, "app/mailer.py": MAILER });

  await page.goto(`/${username}/${name}`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await page.getByTestId("repo-search-tab").click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${name}/search$`));
  await expect(page.getByRole("heading", { name: /Search code/ })).toBeVisible();

  await page.getByLabel("Query").fill("convert a human readable time span to milliseconds");
  await page.getByTestId("search-submit").click();
  const first = page.getByTestId("search-result").first();
  await expect(first).toContainText("parseDuration");
  await expect(first).toContainText("function");
  await expect(first).toContainText(/score \d\.\d\d/);
  await expect(page.getByTestId("search-engine")).toContainText("local");
  const link = first.getByTestId("search-result-link");
  await expect(link).toHaveText("src/duration.ts:1–12");

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${name}/blob/main/src/duration\\.ts#L1-L12$`));
  const code = page.getByTestId("code-view");
  await expect(code.locator(".line.selected")).toHaveCount(12);
  await expect(code.locator("#L5")).toHaveClass(/selected/);
  await expect(code.locator("#L13")).not.toHaveClass(/selected/);

  // only Python files: the mailer, not the TypeScript
  await page.goBack();
  await page.getByLabel("Query").fill("send an email to a new user");
  await page.getByLabel("File types").fill("py");
  await page.getByTestId("search-submit").click();
  await expect(page).toHaveURL(/type=py/);
  await expect(page.getByTestId("search-result")).toHaveCount(1);
  await expect(page.getByTestId("search-result-link")).toHaveText("app/mailer.py:1–3");

  // nothing matches: a clear empty state
  await page.getByLabel("Query").fill("kubernetes helm chart");
  await page.getByLabel("File types").fill("");
  await page.getByTestId("search-submit").click();
  await expect(page.getByTestId("search-no-results")).toBeVisible();

  // Ask: the local engine answers with the retrieved code, says so, and links its lines
  await page.getByTestId("ask-message").fill("How do I convert a human readable time span to milliseconds?");
  await page.getByTestId("ask-submit").click();
  const turn = page.getByTestId("ask-turn");
  await expect(turn).toHaveCount(1);
  await expect(turn.getByTestId("ai-engine-label")).toHaveText("Retrieved by the local engine");
  await expect(turn.getByTestId("ask-response")).toContainText("Retrieval only");
  await expect(turn.getByTestId("ask-response")).toContainText("parseDuration");
  const ref = turn.getByTestId("ask-reference").filter({ hasText: "src/duration.ts:1–12" });
  await expect(ref).toHaveCount(1);
  await ref.click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${name}/blob/main/src/duration\\.ts#L1-L12$`));
  await expect(page.getByTestId("code-view").locator(".line.selected")).toHaveCount(12);
});

test("an embedding model set in Settings → AI makes search hybrid, labelled with the model", async ({ browser, baseURL }) => {
  const fake = await startFakeOpenAI();
  try {
    const user = await newUser(browser, baseURL!, "vectors", stamp);
    const { page, username } = user;
    const name = `vec${stamp}`;
    const repo = await user.trpc("repos.create", { name });
    // files of their own (search blobs and their vectors are shared by content across repositories)
    await pushInitial(user, name, { "src/duration.ts": `${DURATION}\n// ${name}\n`, "app/mailer.py": `${MAILER}\n# ${name}\n` });

    // the repository's own key, pointing at an OpenAI-compatible server with an embedding model
    await page.goto(`/${username}/${name}/settings#ai`);
    await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
    const section = page.getByTestId("settings-ai");
    await section.getByLabel("API key").fill("sk-e2e-search-fake-0000");
    await section.getByLabel("Base URL").fill(fake.url);
    await expect(section.getByLabel("Embedding model")).toHaveAttribute("placeholder", "nomic-embed-text");
    await section.getByLabel("Embedding model").fill("fake-embed");
    await section.getByTestId("save-ai-key").click();
    await expect(section.getByTestId("ai-key-search-engine")).toContainText("openai:fake-embed");

    // a search notices the index has no vectors for this model and queues the job that embeds every chunk
    await user.trpc("ai.semanticSearch", { repoId: repo.id, query: "duration" });
    const status = `/api/trpc/ai.searchIndexStatus?input=${encodeURIComponent(JSON.stringify({ repoId: repo.id }))}`;
    await expect
      .poll(async () => (await (await user.context.request.get(status)).json()).result?.data?.embeddingModel, { timeout: 60_000 })
      .toBe("openai:fake-embed");
    expect(fake.requests.some((r) => r.path.endsWith("/embeddings"))).toBe(true);

    await page.goto(`/${username}/${name}/search`);
    await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
    await page.getByLabel("Query").fill("send the welcome email to a new user");
    await page.getByTestId("search-submit").click();
    await expect(page.getByTestId("search-engine")).toContainText("openai:fake-embed");
    await expect(page.getByTestId("search-result").first()).toContainText("send_welcome_email");
  } finally {
    await fake.close();
  }
});
