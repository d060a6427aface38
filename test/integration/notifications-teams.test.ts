/**
 * Notifications meet teams and email (docs/notifications.md, docs/notifications-email.md): a team
 * review request (CODEOWNERS on open, or by hand) notifies the team's members with
 * review_requested, an `@org/team` mention notifies its members with team_mention, and with
 * SMTP_URL set the whole path runs in the job worker — the comment's fan-out writes the outbox,
 * notifications.email sends it to a real SMTP receiver on loopback, threaded per subject.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/server/config";
import { closeMailTransport } from "@/server/mail/transport";
import { cloneOf, member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";
import { drain, startWorker, stopWorker, threadsOf } from "./notifications-fixtures";
import { startSmtpReceiver, type SmtpReceiver } from "../fixtures/smtp-receiver";

let server: Server;
let smtp: SmtpReceiver;
let alice: Member; // organization owner
let author: Member; // on team core, opens the pull requests
let bob: Member; // on team core
let dave: Member; // organization member on team ops
let org: string;
let repoId: string;
let authorWt: WorkTree;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  process.env.SMTP_URL = smtp.url;
  resetConfig();
  closeMailTransport();
  await startWorker();
  server = await startGitServer();
  [alice, author, bob, dave] = await Promise.all(["ntma", "ntmau", "ntmb", "ntmd"].map((p) => member(p)));
  await bob.as.users.updateProfile({ email: `${bob.user.username}@example.com` });
  org = `ntorg${Math.random().toString(36).slice(2, 8)}`;
  await alice.as.orgs.create({ name: org });
  for (const m of [author, bob, dave]) await alice.as.orgs.addMember({ name: org, username: m.user.username });
  repoId = (await alice.as.repos.create({ owner: org, name: "svc", isPrivate: true })).id;
  await alice.as.teams.create({ org, name: "Core", permission: "write" });
  await alice.as.teams.create({ org, name: "Ops" });
  for (const m of [author, bob]) await alice.as.teams.addMember({ org, slug: "core", username: m.user.username });
  await alice.as.teams.addMember({ org, slug: "ops", username: dave.user.username });
  await alice.as.teams.addRepo({ org, slug: "core", repo: "svc" });
  const ownerWt = await seededWorkTree(remoteOf(server, alice.token, org, "svc"));
  await ownerWt.commit(".github/CODEOWNERS", `*.txt @${org}/core\n`);
  await ownerWt.push("main");
  authorWt = await cloneOf(remoteOf(server, author.token, org, "svc"));
}, 120_000);

afterAll(async () => {
  await stopWorker();
  await server.close();
  await smtp.close();
  delete process.env.SMTP_URL;
  resetConfig();
  closeMailTransport();
});

/** A pull request by the author from new branch `name` adding `<name>.<ext>`. */
async function openPull(name: string, ext = "txt") {
  await authorWt.run("fetch", "--quiet", "origin");
  await authorWt.run("checkout", "--quiet", "-B", name, "origin/main");
  const head = await authorWt.commit(`${name}.${ext}`, `${name}\n`);
  await authorWt.push(name);
  return author.as.pulls.create({
    repoId,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: await authorWt.sha("origin/main"),
  });
}

describe("team review requests", () => {
  it("a CODEOWNERS team on open and a team requested by hand notify their members (review_requested), not the author or others", async () => {
    const owned = await openPull("owned");
    await drain();
    expect((await threadsOf(bob.user.id)).get(owned.id)).toMatchObject({ reason: "review_requested", unread: true });
    expect((await threadsOf(dave.user.id)).get(owned.id)).toBeUndefined();
    expect((await threadsOf(author.user.id)).get(owned.id)?.reason).not.toBe("review_requested");

    // by hand: team ops is asked on a pull request CODEOWNERS does not route to it
    const other = await openPull("other", "md");
    await drain();
    expect((await threadsOf(dave.user.id)).get(other.id)).toBeUndefined();
    await alice.as.teams.addRepo({ org, slug: "ops", repo: "svc", permission: "read" });
    await author.as.pulls.requestReview({ prId: other.id, teams: ["ops"] });
    await drain();
    expect((await threadsOf(dave.user.id)).get(other.id)).toMatchObject({ reason: "review_requested", unread: true });
  });

  it("an @org/team mention notifies the team's members who can read the repository (team_mention)", async () => {
    const pr = await openPull("mention", "md");
    await drain();
    await alice.as.pulls.addComment({ prId: pr.id, body: `@${org}/core please look` });
    await drain();
    expect((await threadsOf(bob.user.id)).get(pr.id)).toMatchObject({ reason: "team_mention", unread: true });
    expect((await threadsOf(dave.user.id)).get(pr.id)).toBeUndefined();
  });
});

describe("email, end to end", () => {
  it("a comment is fanned out and mailed by the job worker, threaded under the pull request", async () => {
    const pr = await openPull("mailed");
    const to = `${bob.user.username}@example.com`;
    await expect.poll(() => smtp.messages.filter((m) => m.to.includes(to)).length, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    const c = await alice.as.pulls.addComment({ prId: pr.id, body: "Looks <b>good</b>" });
    await drain();
    // earlier tests' emails may still be arriving: this comment's are the ones naming it
    const mails = () => smtp.messages.filter((m) => m.to.includes(to) && m.text.includes(`#comment-${c.id}`));
    await expect.poll(() => mails().length, { timeout: 30_000, interval: 50 }).toBe(1);
    const mail = mails()[0]!;
    const root = `<${org}/svc/pull/${pr.number}@`;
    expect(smtp.header(mail, "in-reply-to")).toContain(root);
    expect(smtp.header(mail, "references")).toContain(root);
    expect(smtp.header(mail, "subject")).toBe(`Re: [${org}/svc] mailed (PR #${pr.number})`);
    expect(smtp.header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toContain("Looks <b>good</b>");
    expect(mail.html).toContain("Looks &lt;b&gt;good&lt;/b&gt;");
    expect(mail.text).toContain(`#comment-${c.id}`);
  });
});
