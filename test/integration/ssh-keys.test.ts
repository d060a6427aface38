/**
 * SSH user keys and deploy keys (docs/ssh.md "Keys"): sshKeys.* and repos.deployKeys.* through the
 * real router — validation, fingerprints equal to `ssh-keygen -lf`, duplicates, delete, access.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { actorOf, callerFor, makeUser } from "../helpers";

let dir: string;
/** A fresh key pair from ssh-keygen: its public line and ssh-keygen's own fingerprint. */
function keygen(name: string, type: string, bits?: number): { pub: string; fingerprint: string } {
  const file = path.join(dir, name);
  execFileSync("ssh-keygen", ["-q", "-t", type, ...(bits ? ["-b", String(bits)] : []), "-N", "", "-C", `${name}@test`, "-f", file]);
  const pub = readFileSync(`${file}.pub`, "utf8");
  const fingerprint = execFileSync("ssh-keygen", ["-lf", `${file}.pub`], { encoding: "utf8" }).split(" ")[1]!;
  return { pub, fingerprint };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-sshkeys-"));
});

describe("sshKeys", () => {
  it("adds ed25519, ecdsa and rsa keys with ssh-keygen's fingerprints, lists and deletes them", async () => {
    const user = await makeUser("keys");
    const me = await callerFor(actorOf(user));
    const keys = [keygen("ed", "ed25519"), keygen("ec256", "ecdsa", 256), keygen("ec521", "ecdsa", 521), keygen("rsa", "rsa", 2048)];
    for (const [i, k] of keys.entries()) {
      const added = await me.sshKeys.add({ title: `k${i}`, publicKey: k.pub });
      expect(added.fingerprint).toBe(k.fingerprint);
      expect(added.publicKey).toBe(k.pub.split(" ").slice(0, 2).join(" "));
      expect(added.lastUsedAt).toBeNull();
    }
    const listed = await me.sshKeys.list();
    expect(listed.map((k) => k.fingerprint).sort()).toEqual(keys.map((k) => k.fingerprint).sort());
    const other = await callerFor(actorOf(await makeUser("other")));
    await expect(other.sshKeys.delete({ id: listed[0]!.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await me.sshKeys.delete({ id: listed[0]!.id })).toEqual({ deleted: true });
    expect(await me.sshKeys.list()).toHaveLength(3);
    expect(await other.sshKeys.list()).toEqual([]);
  });

  it("refuses short RSA, DSA, private keys and garbage with BAD_REQUEST naming the problem", async () => {
    const me = await callerFor(actorOf(await makeUser("bad")));
    const short = keygen("short", "rsa", 1024);
    await expect(me.sshKeys.add({ title: "t", publicKey: short.pub })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("at least 2048 bits (this one has 1024)"),
    });
    await expect(me.sshKeys.add({ title: "t", publicKey: "ssh-dss AAAAB3NzaC1kc3MAAACBAP" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("ssh-dss is not supported"),
    });
    const priv = readFileSync(path.join(dir, "short"), "utf8");
    await expect(me.sshKeys.add({ title: "t", publicKey: priv })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("private key"),
    });
    await expect(me.sshKeys.add({ title: "t", publicKey: "hello world" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(me.sshKeys.add({ title: "t", publicKey: "ssh-ed25519 AAAAnotakey" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("does not parse"),
    });
    await expect(me.sshKeys.add({ title: "", publicKey: keygen("t1", "ed25519").pub })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("a key is one principal's: the same key for another user, or as a deploy key, is a CONFLICT", async () => {
    const a = await makeUser("dupa");
    const b = await makeUser("dupb");
    const ca = await callerFor(actorOf(a));
    const cb = await callerFor(actorOf(b));
    const k = keygen("dup", "ed25519");
    await ca.sshKeys.add({ title: "laptop", publicKey: k.pub });
    await expect(ca.sshKeys.add({ title: "again", publicKey: k.pub })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(cb.sshKeys.add({ title: "mine", publicKey: k.pub })).rejects.toMatchObject({ code: "CONFLICT" });
    const repo = await cb.repos.create({ name: "dk-conflict" });
    await expect(cb.repos.deployKeys.add({ repoId: repo.id, title: "ci", publicKey: k.pub, readOnly: true })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const d = keygen("deploy", "ed25519");
    await cb.repos.deployKeys.add({ repoId: repo.id, title: "ci", publicKey: d.pub, readOnly: true });
    await expect(ca.sshKeys.add({ title: "steal", publicKey: d.pub })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("repos.deployKeys", () => {
  it("admins add, list and delete; others get NOT_FOUND (private) or FORBIDDEN", async () => {
    const owner = await makeUser("dkowner");
    const me = await callerFor(actorOf(owner));
    const repo = await me.repos.create({ name: "dk-repo", isPrivate: true });
    const k = keygen("dk1", "ecdsa", 384);
    const added = await me.repos.deployKeys.add({ repoId: repo.id, title: "deploy", publicKey: k.pub, readOnly: false });
    expect(added).toMatchObject({ title: "deploy", fingerprint: k.fingerprint, readOnly: false, lastUsedAt: null });
    expect(await me.repos.deployKeys.list({ repoId: repo.id })).toEqual([added]);
    const stranger = await callerFor(actorOf(await makeUser("dkstranger")));
    await expect(stranger.repos.deployKeys.list({ repoId: repo.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(stranger.repos.deployKeys.delete({ repoId: repo.id, id: added.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const writerUser = await makeUser("dkwriter");
    await me.repos.addCollaborator({ repoId: repo.id, username: writerUser.username, role: "write" });
    const writer = await callerFor(actorOf(writerUser));
    await expect(writer.repos.deployKeys.list({ repoId: repo.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      writer.repos.deployKeys.add({ repoId: repo.id, title: "x", publicKey: keygen("dkw", "ed25519").pub, readOnly: true }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const other = await me.repos.create({ name: "dk-other" });
    await expect(me.repos.deployKeys.delete({ repoId: other.id, id: added.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await me.repos.deployKeys.delete({ repoId: repo.id, id: added.id })).toEqual({ deleted: true });
    expect(await me.repos.deployKeys.list({ repoId: repo.id })).toEqual([]);
  });
});
