/**
 * SSH keys a user manages (settings page /settings/keys, procedures sshKeys.*) and deploy keys a
 * repository admin manages (repos.deployKeys.*); docs/ssh.md "Keys". A key names exactly one
 * principal: its fingerprint may belong to one user key or one deploy key, never both nor two
 * of either (GitHub: "Key is already in use") — so the SSH server finds whom a key is by its
 * fingerprint alone (server/ssh/authenticate.ts).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { AppError } from "@/server/errors";
import { line, text } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { parsePublicKey } from "./parse-key";

/** Most keys one user, or one repository, may have. */
export const MAX_KEYS = 100;

/** A key as listed. Dates are ISO strings; lastUsedAt null = never used. */
export interface KeyRecord {
  id: string;
  title: string;
  publicKey: string;
  fingerprint: string;
  createdAt: string;
  lastUsedAt: string | null;
}
export interface DeployKeyRecord extends KeyRecord {
  readOnly: boolean;
}

const title = line("title").trim().min(1, "title is required").max(100, "title is at most 100 characters");
const publicKey = text("publicKey").max(10_000, "publicKey is too long");

export const addSshKeyInput = z.object({ title, publicKey });
export const deleteKeyInput = z.object({ id: uuid("id", "a key UUID") });
export const addDeployKeyInput = z.object({ title, publicKey, readOnly: z.boolean().default(true) });

type Row = { id: string; title: string; publicKey: string; fingerprint: string; createdAt: Date; lastUsedAt: Date | null };
function toRecord(r: Row): KeyRecord {
  return {
    id: r.id,
    title: r.title,
    publicKey: r.publicKey,
    fingerprint: r.fingerprint,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  };
}

const IN_USE = "this key is already in use (by an account or as a deploy key); a key may be added only once";

/** CONFLICT when the fingerprint already names a user key or a deploy key anywhere. */
async function assertKeyUnused(db: Pick<Db, "sshKey" | "deployKey">, fingerprint: string): Promise<void> {
  const [user, deploy] = await Promise.all([
    db.sshKey.findUnique({ where: { fingerprint }, select: { id: true } }),
    db.deployKey.findFirst({ where: { fingerprint }, select: { id: true } }),
  ]);
  if (user || deploy) throw new AppError("CONFLICT", IN_USE);
}

/** The user's keys, newest first. */
export async function listSshKeys(db: Db, userId: string): Promise<KeyRecord[]> {
  const rows = await db.sshKey.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(toRecord);
}

/**
 * Adds a key to the user's account. Errors: BAD_REQUEST for a bad key (parsePublicKey) or past
 * MAX_KEYS; CONFLICT when the key is already any user's key or any repository's deploy key.
 */
export async function addSshKey(db: Db, userId: string, input: z.infer<typeof addSshKeyInput>): Promise<KeyRecord> {
  const key = parsePublicKey(input.publicKey);
  try {
    const row = await db.$transaction(async (tx) => {
      if ((await tx.sshKey.count({ where: { userId } })) >= MAX_KEYS)
        throw new AppError("BAD_REQUEST", `an account may have at most ${MAX_KEYS} SSH keys`);
      await assertKeyUnused(tx, key.fingerprint);
      return tx.sshKey.create({ data: { userId, title: input.title, publicKey: key.publicKey, fingerprint: key.fingerprint } });
    });
    return toRecord(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", IN_USE);
    throw e;
  }
}

/** Deletes one of the user's keys. NOT_FOUND when it is not theirs (or absent). */
export async function deleteSshKey(db: Db, userId: string, id: string): Promise<{ deleted: true }> {
  const { count } = await db.sshKey.deleteMany({ where: { id, userId } });
  if (count === 0) throw new AppError("NOT_FOUND", "SSH key not found");
  return { deleted: true };
}

function toDeployRecord(r: Row & { readOnly: boolean }): DeployKeyRecord {
  return { ...toRecord(r), readOnly: r.readOnly };
}

/** The repository's deploy keys, newest first. */
export async function listDeployKeys(db: Db, repoId: string): Promise<DeployKeyRecord[]> {
  const rows = await db.deployKey.findMany({ where: { repoId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(toDeployRecord);
}

/**
 * Adds a deploy key to the repository (read-only unless readOnly is false). Errors: BAD_REQUEST
 * for a bad key or past MAX_KEYS; CONFLICT when the key is already a user key or a deploy key of
 * any repository.
 */
export async function addDeployKey(db: Db, repoId: string, input: z.infer<typeof addDeployKeyInput>): Promise<DeployKeyRecord> {
  const key = parsePublicKey(input.publicKey);
  try {
    const row = await db.$transaction(async (tx) => {
      if ((await tx.deployKey.count({ where: { repoId } })) >= MAX_KEYS)
        throw new AppError("BAD_REQUEST", `a repository may have at most ${MAX_KEYS} deploy keys`);
      await assertKeyUnused(tx, key.fingerprint);
      return tx.deployKey.create({
        data: { repoId, title: input.title, publicKey: key.publicKey, fingerprint: key.fingerprint, readOnly: input.readOnly },
      });
    });
    return toDeployRecord(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", IN_USE);
    throw e;
  }
}

/** Deletes one of the repository's deploy keys. NOT_FOUND when it is not this repository's. */
export async function deleteDeployKey(db: Db, repoId: string, id: string): Promise<{ deleted: true }> {
  const { count } = await db.deployKey.deleteMany({ where: { id, repoId } });
  if (count === 0) throw new AppError("NOT_FOUND", "deploy key not found");
  return { deleted: true };
}
