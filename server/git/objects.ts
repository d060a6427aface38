/**
 * Reading objects in bulk through one `git cat-file` process (git-cat-file(1) "BATCH OUTPUT"),
 * the one place svc runs `--batch-check` and `--batch`: names go on stdin, one per line, so
 * revision expressions built from user input (`<ref>^{commit}`, `<commit>:<path>`) never become
 * arguments. One output format for both modes (`BATCH_FORMAT`). Contents are read only after
 * their sizes are known, in runs of bounded size, so memory stays bounded whatever the objects.
 */
import { AppError } from "@/server/errors";
import { SHA_PATTERN } from "@/lib/sha";
import { runGit } from "./exec";

export type ObjectType = "blob" | "tree" | "commit" | "tag";

/** What `--batch-check` says of one object. */
export interface ObjectInfo {
  /** The full object id (for a revision expression, the object it names). */
  id: string;
  type: ObjectType;
  /** Bytes of the object's content. */
  size: number;
}

/** The header line of every object, in both modes: "<id> <type> <size>". */
const BATCH_FORMAT = "%(objectname) %(objecttype) %(objectsize)";
const INFO_LINE = new RegExp(`^(${SHA_PATTERN}) (blob|tree|commit|tag) (\\d+)$`);

/** Bytes of blob content one `--batch` process reads at most (a single larger blob still gets a run of its own). */
const MAX_RUN_BYTES = 8 * 1024 * 1024;
/** Names one `--batch` process reads at most. */
const MAX_RUN_OBJECTS = 2000;

function stdinOf(names: readonly string[]): string {
  for (const n of names) if (/[\0\n]/.test(n)) throw new AppError("BAD_REQUEST", "an object name contains a newline or NUL");
  return names.map((n) => `${n}\n`).join("");
}

/**
 * Type, id and size of each of `names` (object ids or revision expressions such as
 * `<id>^{}`, `<ref>^{commit}`, `<commit>:<path>`) from one `git cat-file --batch-check`, in input
 * order; null where git finds nothing (missing, ambiguous, a path not in the tree). `env`: extra
 * environment (e.g. a push's quarantine, a fork's borrowed objects). Errors: BAD_REQUEST
 * (AppError) for a name holding a newline or NUL; a plain Error when git fails.
 */
export async function objectInfo(
  gitDir: string,
  names: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<(ObjectInfo | null)[]> {
  if (names.length === 0) return [];
  const r = await runGit(["cat-file", `--batch-check=${BATCH_FORMAT}`], { gitDir, env, input: stdinOf(names) });
  if (r.code !== 0) throw new Error(`git cat-file --batch-check failed (${r.code}): ${r.stderr.trim()}`);
  const lines = r.stdout.toString("utf8").split("\n");
  return names.map((_, i) => {
    const m = INFO_LINE.exec(lines[i] ?? "");
    return m ? { id: m[1], type: m[2] as ObjectType, size: Number(m[3]) } : null;
  });
}

/**
 * The contents of the blobs among `ids` (full object ids; duplicates, missing objects and
 * non-blobs are skipped), handed to `onBlob` one by one in input order. Sizes come first
 * (`objectInfo`); contents then come from `git cat-file --batch` in runs of at most ~8 MiB and
 * 2,000 objects, so a run's output is bounded before it is read. `env`: extra environment, as
 * `objectInfo`'s. Errors: a plain Error when git fails.
 */
export async function readBlobs(
  gitDir: string,
  ids: readonly string[],
  onBlob: (id: string, content: Buffer) => void,
  env: Record<string, string | undefined> = {},
): Promise<void> {
  const unique = [...new Set(ids)];
  const infos = await objectInfo(gitDir, unique, env);
  let run: ObjectInfo[] = [];
  let bytes = 0;
  const flush = async () => {
    if (run.length === 0) return;
    const want = run;
    run = [];
    bytes = 0;
    const r = await runGit(["cat-file", `--batch=${BATCH_FORMAT}`], {
      gitDir,
      env,
      input: stdinOf(want.map((o) => o.id)),
      maxBytes: want.reduce((n, o) => n + o.size + 128, 0),
    });
    if (r.code !== 0) throw new Error(`git cat-file --batch failed (${r.code}): ${r.stderr.trim()}`);
    const out = r.stdout;
    let at = 0;
    while (at < out.length) {
      const nl = out.indexOf(10, at);
      if (nl < 0) break;
      const m = INFO_LINE.exec(out.subarray(at, nl).toString("latin1"));
      if (!m) {
        at = nl + 1; // "<name> missing": removed since its size was read
        continue;
      }
      const size = Number(m[3]);
      onBlob(m[1], out.subarray(nl + 1, nl + 1 + size));
      at = nl + 1 + size + 1; // content, then a newline
    }
  };
  for (const info of infos) {
    if (info?.type !== "blob") continue;
    run.push(info);
    bytes += info.size;
    if (bytes > MAX_RUN_BYTES || run.length >= MAX_RUN_OBJECTS) await flush();
  }
  await flush();
}
