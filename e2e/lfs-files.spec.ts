/**
 * Git LFS files in the browser (docs/lfs.md "In the browser"): a repository whose image and text
 * file are LFS pointers; the file view renders the image and highlights the text with the "Stored
 * with Git LFS" badge, and a pull request's Files changed diffs the two text objects.
 *
 * The objects are uploaded through the LFS batch API with a personal access token, as git-lfs
 * does; the pointers are pushed with the real git CLI.
 */
import { test, expect } from "./fixtures";
import { createHash } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { noAxeViolations } from "./axe";
import { diffReady } from "./diff-ready";
import { openPullRequest } from "./pull-fixture";
import { newUser, type E2EUser } from "./session";

// 1×1 transparent PNG
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const V1 = "export function answer(): number {\n  return 41;\n}\n";
const V2 = "export function answer(): number {\n  return 42;\n}\n";

/**
 * Uploads `content` to repository `owner/name` through svc's LFS API as git-lfs does (batch, then
 * the basic transfer's PUT and verify actions, with a personal access token); returns its pointer.
 */
async function uploadObject(request: APIRequestContext, owner: string, name: string, token: string, content: Buffer | string) {
  const buf = Buffer.from(content);
  const oid = createHash("sha256").update(buf).digest("hex");
  const lfs = { authorization: `Basic ${Buffer.from(`${owner}:${token}`).toString("base64")}`, accept: "application/vnd.git-lfs+json" };
  const batch = await request.post(`/${owner}/${name}.git/info/lfs/objects/batch`, {
    headers: { ...lfs, "content-type": "application/vnd.git-lfs+json" },
    data: { operation: "upload", transfers: ["basic"], objects: [{ oid, size: buf.length }] },
  });
  expect(batch.status()).toBe(200);
  const actions = (await batch.json()).objects[0].actions as Record<string, { href: string; header?: Record<string, string> }> | undefined;
  if (actions?.upload) {
    const put = await request.put(actions.upload.href, { headers: actions.upload.header, data: buf });
    expect(put.status()).toBe(200);
  }
  if (actions?.verify) {
    const verify = await request.post(actions.verify.href, {
      headers: { ...actions.verify.header, "content-type": "application/vnd.git-lfs+json" },
      data: { oid, size: buf.length },
    });
    expect(verify.status()).toBe(200);
  }
  return `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${buf.length}\n`;
}

let owner: E2EUser;
let pullUrl = "";

test.beforeAll(async ({ browser, baseURL }) => {
  owner = await newUser(browser, baseURL!, "lfs");
  const repo = (await owner.trpc("repos.create", { name: "assets" })) as { id: string };
  const token = await owner.token();
  const store = (content: Buffer | string) => uploadObject(owner.page.request, owner.username, "assets", token, content);
  const [logo, v1, v2] = [await store(PNG), await store(V1), await store(V2)];
  const opened = await openPullRequest(owner, {
    repoId: repo.id,
    name: "assets",
    base: { "logo.png": logo, "src/answer.ts": v1 },
    branch: "bump",
    changes: { "src/answer.ts": v2 },
    title: "Bump the answer",
  });
  pullUrl = opened.url;
});

test("the file view shows LFS files as their content", async () => {
  const page = owner.page;
  await page.goto(`/${owner.username}/assets/blob/main/logo.png`);
  await expect(page.getByTestId("lfs-badge")).toHaveText("Stored with Git LFS");
  const img = page.getByRole("img", { name: "logo.png" });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);

  await page.goto(`/${owner.username}/assets/blob/main/src/answer.ts`);
  await expect(page.getByTestId("lfs-badge")).toBeVisible();
  const code = page.getByTestId("code-view");
  await expect(code).toHaveAttribute("data-lang", "typescript");
  await expect(code).toContainText("return 41;");
  await expect(code).not.toContainText("oid sha256");
  await noAxeViolations(page, "LFS file view");

  const raw = await page.request.get(`/${owner.username}/assets/raw/main/logo.png`);
  expect(raw.headers()["content-type"]).toBe("image/png");
  expect(Buffer.from(await raw.body()).equals(PNG)).toBe(true);
});

test("Files changed diffs the LFS objects' contents", async () => {
  const page = owner.page;
  await page.goto(`${pullUrl}/files`);
  await diffReady(page);
  await expect(page.getByTestId("diff-lfs-badge")).toHaveCount(1);
  const viewer = page.getByTestId("diff-viewer");
  await expect(viewer).toContainText("return 42;");
  await expect(viewer).toContainText("return 41;");
  await expect(viewer).not.toContainText("oid sha256");
});
