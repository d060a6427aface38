/** Git LFS objects for tests: written where the store keeps them, with their rows (as an upload leaves them). */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getDb } from "@/server/db";
import { formatLfsPointer } from "@/lib/lfs-pointer";
import { lfsObjectPath } from "@/server/services/lfs/object-path";

/** Writes `content` as an LFS object (file + LfsObject row), referenced by `repoIds`; returns the pointer text. */
export async function storeObject(content: Buffer | string, repoIds: string[]): Promise<string> {
  const buf = Buffer.from(content);
  const oid = createHash("sha256").update(buf).digest("hex");
  const file = lfsObjectPath(oid);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, buf);
  const db = await getDb();
  await db.lfsObject.upsert({ where: { oid }, create: { oid, size: BigInt(buf.length) }, update: {} });
  for (const repoId of repoIds) await db.lfsRepoObject.create({ data: { repoId, oid } });
  return formatLfsPointer({ oid, size: buf.length });
}
