/**
 * The dashboard's data (docs/ui.md "Pages"): `repos.list {member: true}` lists repositories the
 * caller owns or collaborates on, and `issues.listMine` the issues assigned to / created by the
 * caller in repositories they can read — authorization in the query, tokens capped by their scopes.
 * Through the real router, and once over real HTTP with a PAT.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { getConfig } from "@/server/config";
import { getDb, type Db } from "@/server/db";
import type { Profile } from "@/server/services/users/profile";
import { listMyIssues, listMineInput } from "@/server/services/issues/mine";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";

let owner: Profile;
let collab: Profile;
let stranger: Profile;
let shared: { id: string; name: string };
let secret: { id: string; name: string };
let publicRepo: { id: string; name: string };

beforeAll(async () => {
  owner = await makeUser("downer");
  collab = await makeUser("dcollab");
  stranger = await makeUser("dstranger");
  const o = await callerFor(actorOf(owner));
  shared = await o.repos.create({ name: "shared", isPrivate: true });
  secret = await o.repos.create({ name: "secret", isPrivate: true });
  publicRepo = await o.repos.create({ name: "open" });
  await o.repos.addCollaborator({ repoId: shared.id, username: collab.username, role: "write" });
  // assigned to the collaborator: one open in the shared repo, one closed there, one in a repo
  // they cannot read (assigned while they were a collaborator, then removed)
  await o.issues.create({ repoId: shared.id, title: "fix the build", assigneeId: collab.id });
  const closed = await o.issues.create({ repoId: shared.id, title: "old work", assigneeId: collab.id });
  await o.issues.close({ repoId: shared.id, number: closed.number });
  await o.repos.addCollaborator({ repoId: secret.id, username: collab.username, role: "read" });
  await o.issues.create({ repoId: secret.id, title: "hidden task", assigneeId: collab.id });
  await o.repos.removeCollaborator({ repoId: secret.id, username: collab.username });
  // created by the collaborator: in the shared repo and in the owner's public repo
  const c = await callerFor(actorOf(collab));
  await c.issues.create({ repoId: shared.id, title: "collab's report" });
  await c.issues.create({ repoId: publicRepo.id, title: "public report" });
}, 60_000);

describe("repos.list {member: true}", () => {
  it("lists a private repository the caller collaborates on, with their role, and never others' private ones", async () => {
    const rows = await (await callerFor(actorOf(collab))).repos.list({ member: true });
    expect(rows.map((r) => [r.fullName, r.permission])).toEqual([[`${owner.username}/shared`, "write"]]);
  });

  it("lists everything the owner owns, as admin", async () => {
    const rows = await (await callerFor(actorOf(owner))).repos.list({ member: true });
    expect(rows.map((r) => r.name).sort()).toEqual(["open", "secret", "shared"]);
    expect(new Set(rows.map((r) => r.permission))).toEqual(new Set(["admin"]));
  });

  it("gives a stranger nothing, and a token's scope caps the role it shows", async () => {
    expect(await (await callerFor(actorOf(stranger))).repos.list({ member: true })).toEqual([]);
    const readToken = await (await callerFor(actorOf(collab, ["repo:read"]))).repos.list({ member: true });
    expect(readToken.map((r) => [r.name, r.permission])).toEqual([["shared", "read"]]);
  });

  it("keeps a site admin's dashboard to their own memberships (they may read every repository)", async () => {
    const admin = actorOf(stranger);
    const asAdmin = await callerFor({ ...admin, user: { ...admin.user, isAdmin: true } });
    expect(await asAdmin.repos.list({ member: true })).toEqual([]);
    expect((await asAdmin.repos.list({ owner: owner.username })).map((r) => r.name).sort()).toEqual(["open", "secret", "shared"]);
  });

  it("answers as anonymous (nothing) to a token without repo:read, and to anonymous callers", async () => {
    expect(await (await callerFor(actorOf(collab, ["user:read"]))).repos.list({ member: true })).toEqual([]);
    expect(await (await callerFor(null)).repos.list({ member: true })).toEqual([]);
  });
});

describe("issues.listMine", () => {
  it("lists open issues assigned to the caller in repositories they can read, with the repository", async () => {
    const rows = await (await callerFor(actorOf(collab))).issues.listMine({ filter: "assigned" });
    expect(rows.map((i) => [i.repo.owner, i.repo.name, i.title, i.state])).toEqual([[owner.username, "shared", "fix the build", "open"]]);
    expect(rows[0].number).toBeGreaterThan(0);
    expect(rows[0].assignee?.username).toBe(collab.username);
  });

  it("lists closed ones on request, never from a repository the caller can no longer read", async () => {
    const rows = await (await callerFor(actorOf(collab))).issues.listMine({ filter: "assigned", state: "all" });
    expect(rows.map((i) => i.title).sort()).toEqual(["fix the build", "old work"]);
  });

  it("lists issues the caller created, including in public repositories they do not belong to", async () => {
    const rows = await (await callerFor(actorOf(collab))).issues.listMine({ filter: "created" });
    expect(rows.map((i) => `${i.repo.name}:${i.title}`).sort()).toEqual(["open:public report", "shared:collab's report"]);
  });

  it("is empty for a stranger, and their view is not widened by naming someone else", async () => {
    const s = await callerFor(actorOf(stranger));
    expect(await s.issues.listMine({ filter: "assigned" })).toEqual([]);
    expect(await s.issues.listMine({ filter: "created" })).toEqual([]);
  });

  it("refuses a token without repo:read (FORBIDDEN), anonymous callers (UNAUTHORIZED) and bad input (BAD_REQUEST)", async () => {
    await expect(
      (await callerFor(actorOf(collab, ["user:read", "user:write"]))).issues.listMine({ filter: "assigned" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("repo:read") });
    await expect((await callerFor(null)).issues.listMine({ filter: "assigned" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await callerFor(actorOf(collab))).issues.listMine({ filter: "everything" } as never)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("filter must be"),
    });
    await expect((await callerFor(actorOf(collab))).issues.listMine({ filter: "created", limit: 0 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("answers over HTTP: 200 for a repo:read token, 403 with the message otherwise", async () => {
    const server = await startServer();
    try {
      const url = (input: unknown) => `${server.url}/api/trpc/issues.listMine?input=${encodeURIComponent(JSON.stringify(input))}`;
      const ok = await fetch(url({ filter: "created" }), {
        headers: { authorization: `Bearer ${await makeToken(collab, ["repo:read"])}` },
      });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { result: { data: { repo: { name: string } }[] } };
      expect(body.result.data.map((i) => i.repo.name).sort()).toEqual(["open", "shared"]);
      const no = await fetch(url({ filter: "created" }), {
        headers: { authorization: `Bearer ${await makeToken(collab, ["user:read"])}` },
      });
      expect(no.status).toBe(403);
      expect(((await no.json()) as { error: { message: string } }).error.message).toContain("repo:read");
    } finally {
      await server.close();
    }
  });

  describe("query count", () => {
    let db: Db;
    let queries = 0;
    beforeAll(async () => {
      await getDb();
      const config = getConfig();
      const log = [{ emit: "event" as const, level: "query" as const }];
      db =
        config.provider === "postgresql"
          ? (new PgPrismaClient({ adapter: new PrismaPg({ connectionString: config.databaseUrl }), log }) as unknown as Db)
          : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: config.databaseUrl }), log });
      (db as unknown as { $on: (e: "query", f: () => void) => void }).$on("query", () => {
        queries++;
      });
    });
    afterAll(async () => {
      await db.$disconnect();
    });

    it("makes exactly one query whatever the number of repositories", async () => {
      await db.$queryRawUnsafe("SELECT 1"); // connect
      queries = 0;
      const rows = await listMyIssues(db, actorOf(collab), listMineInput.parse({ filter: "created" }));
      expect(rows).toHaveLength(2);
      expect(queries).toBe(1);
    });
  });
});
