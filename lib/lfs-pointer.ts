/**
 * Git LFS pointer files (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md): the small
 * text blob git stores in place of a file tracked by LFS.
 *
 *   version https://git-lfs.github.com/spec/v1
 *   oid sha256:<64 lower-case hex>
 *   size <bytes>
 *
 * Pure and isomorphic: the code browser, diffs, raw downloads and the LFS server share it.
 */

/** A pointer's object: `oid` is the lower-case hex SHA-256, `size` in bytes. */
export interface LfsPointer {
  oid: string;
  size: number;
}

/** Pointer files are smaller than this many bytes (the spec's limit); larger blobs are never pointers. */
export const LFS_POINTER_MAX_BYTES = 1024;

const VERSION_LINE = "version https://git-lfs.github.com/spec/v1";
// the spec also accepts the pre-release version URL
const LEGACY_VERSION_LINE = "version https://hawser.github.com/spec/v1";

/** True when `oid` is 64 lower-case hex characters (an LFS SHA-256 object id). */
export function isLfsOid(oid: string): boolean {
  return /^[0-9a-f]{64}$/.test(oid);
}

/**
 * The object a pointer file names, or null when `text` is not a valid pointer: first line the
 * version, then `key value` lines with keys in ascending order including `oid sha256:<hex>` and
 * `size <decimal>`, each line ending in "\n", under LFS_POINTER_MAX_BYTES.
 */
export function parseLfsPointer(text: string): LfsPointer | null {
  if (text.length >= LFS_POINTER_MAX_BYTES || !text.endsWith("\n")) return null;
  const lines = text.slice(0, -1).split("\n");
  if (lines[0] !== VERSION_LINE && lines[0] !== LEGACY_VERSION_LINE) return null;
  let oid: string | null = null;
  let size: number | null = null;
  let previousKey = "";
  for (const line of lines.slice(1)) {
    const m = /^([a-z0-9.-]+) (.*)$/.exec(line);
    if (!m || m[1] <= previousKey) return null;
    previousKey = m[1];
    if (m[1] === "oid") {
      const v = /^sha256:([0-9a-f]{64})$/.exec(m[2]);
      if (!v) return null;
      oid = v[1];
    } else if (m[1] === "size") {
      if (!/^(0|[1-9][0-9]{0,15})$/.test(m[2])) return null;
      size = Number(m[2]);
    }
  }
  return oid !== null && size !== null && Number.isSafeInteger(size) ? { oid, size } : null;
}

/** The canonical pointer text for an object (what `git lfs pointer` writes). */
export function formatLfsPointer(p: LfsPointer): string {
  return `${VERSION_LINE}\noid sha256:${p.oid}\nsize ${p.size}\n`;
}
