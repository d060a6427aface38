/**
 * Settings → Webhooks (docs/api.md "Webhooks"): an admin adds a webhook pointing at a receiver
 * this test starts on loopback, sees its signed `ping` delivery listed with the receiver's
 * answer, opens it, and redelivers it; the receiver gets both, with GitHub's headers.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect } from "./fixtures";
import { newUser } from "./session";

test("add a webhook, see its ping delivered, redeliver it", async ({ browser, baseURL }) => {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(202, { "content-type": "text/plain" });
      res.end("received by the e2e receiver");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const user = await newUser(browser, baseURL!, "hooks");
    await user.trpc("repos.create", { name: "hooked", isPrivate: true });
    const page = user.page;
    await page.goto(`/${user.username}/hooked/settings/webhooks`);
    await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
    await page.getByTestId("add-webhook").click();
    await page.getByTestId("webhook-url").fill(url);
    await page.getByTestId("webhook-secret").fill("e2e-secret");
    await page.getByTestId("webhook-all-events").check();
    await page.getByTestId("save-webhook").click();
    const row = page.getByTestId("webhook-row");
    await expect(row.getByTestId("webhook-row-url")).toHaveText(url);

    await row.getByTestId("webhook-show-deliveries").click();
    const delivery = row.getByTestId("webhook-delivery");
    await expect(delivery.first()).toContainText("ping");
    await expect(delivery.first().getByTestId("delivery-status")).toHaveText("202", { timeout: 30_000 });
    await delivery.first().locator("summary").click();
    await expect(delivery.first().getByTestId("delivery-response-body")).toHaveText("received by the e2e receiver");
    await delivery.first().getByTestId("redeliver").click();
    await expect(delivery).toHaveCount(2);
    await expect(delivery.first().getByTestId("delivery-status")).toHaveText("202", { timeout: 30_000 });

    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(r.headers["x-github-event"]).toBe("ping");
      expect(r.headers["x-hub-signature-256"]).toBe(`sha256=${createHmac("sha256", "e2e-secret").update(r.body).digest("hex")}`);
    }
    expect(got[0]!.headers["x-github-delivery"]).not.toBe(got[1]!.headers["x-github-delivery"]);
    expect(await page.content()).not.toContain("e2e-secret");
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
