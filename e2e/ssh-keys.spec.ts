/**
 * SSH keys (docs/ssh.md "Keys"): Settings → SSH keys adds a key and shows OpenSSH's SHA256
 * fingerprint, refuses a line that is not a public key with the server's message, deletes after a
 * confirmation; a
 * repository's settings add a deploy key the same way. Both pages pass axe.
 */
import { createHash } from "node:crypto";
import ssh2 from "ssh2";
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser } from "./session";

/** A new ed25519 public key line and its `SHA256:` fingerprint as `ssh-keygen -lf` prints it. */
function newKey(): { line: string; fingerprint: string } {
  const line = ssh2.utils.generateKeyPairSync("ed25519").public;
  const blob = Buffer.from(line.split(" ")[1]!, "base64");
  return { line, fingerprint: `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}` };
}

test("SSH keys and deploy keys: add with fingerprint, bad key refused, delete; axe", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "sshkeys");
  const page = user.page;
  await page.goto("/settings/keys");
  await noAxeViolations(page, "SSH keys, none yet");

  await page.getByLabel("Title").fill("laptop");
  await page.getByLabel("Public key").fill("ssh-ed25519 not-a-key");
  await page.getByTestId("add-ssh-key").click();
  await expect(page.getByTestId("form-error")).toContainText(/key/i);
  await expect(page.getByTestId("ssh-key-row")).toHaveCount(0);

  const key = newKey();
  await page.getByLabel("Public key").fill(key.line);
  await page.getByTestId("add-ssh-key").click();
  await expect(page.getByTestId("ssh-key-row")).toHaveCount(1);
  await expect(page.getByTestId("ssh-key-fingerprint")).toContainText(key.fingerprint);
  await noAxeViolations(page, "SSH keys, one key");
  await page.reload();
  await expect(page.getByTestId("ssh-key-fingerprint")).toContainText(key.fingerprint);
  // Delete asks first; Cancel keeps the key
  await page.getByTestId("ssh-key-row").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("confirm-dialog")).toContainText(key.fingerprint);
  await noAxeViolations(page, "delete SSH key confirmation");
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("ssh-key-row")).toHaveCount(1);
  await page.getByTestId("ssh-key-row").getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("confirm-button").click();
  await expect(page.getByTestId("ssh-key-row")).toHaveCount(0);
  await expect(page.getByTestId("confirm-dialog")).toHaveCount(0);

  const repo = await user.trpc("repos.create", { name: "deployed" });
  const deploy = newKey();
  await page.goto(`/${user.username}/${repo.name}/settings`);
  const section = page.locator("#deploy-keys");
  await section.getByLabel("Title").fill("ci");
  await section.getByLabel("Public key").fill(deploy.line);
  await section.getByTestId("add-ssh-key").click();
  await expect(section.getByTestId("ssh-key-fingerprint")).toContainText(deploy.fingerprint);
  await noAxeViolations(page, "repository settings with a deploy key");
});
