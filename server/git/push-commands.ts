/**
 * The command list of a push (gitprotocol-pack(5) "Reference Update Request"; the same
 * `<old> <new> <ref>` lines a pre-receive hook reads, githooks(5)): read while a receive-pack
 * request streams into git, and which of its updates took effect — for the post-push
 * bookkeeping of server/http/git/smart-http.ts and the push policy.
 */
import { Transform, type TransformCallback } from "node:stream";
import { isZeroSha, SHA_PATTERN } from "@/lib/sha";
import { runGit, userArg } from "./exec";

/** One ref change of a push: full ids (40 or 64 hex; all zeros = created or deleted). */
export interface RefUpdate {
  /** Full ref name, e.g. refs/heads/main. */
  ref: string;
  oldSha: string;
  newSha: string;
}

const COMMAND_RE = new RegExp(`^(${SHA_PATTERN}) (${SHA_PATTERN}) (\\S+)$`);

/** One `<old> <new> <ref>` command line (no trailing newline), or null when it is not one. */
export function parseRefUpdate(line: string): RefUpdate | null {
  const m = COMMAND_RE.exec(line);
  return m ? { oldSha: m[1], newSha: m[2], ref: m[3] } : null;
}

/** Largest receive-pack command section parsed for the post-push hook (bytes). */
const MAX_COMMAND_BYTES = 4 * 1024 * 1024;

/** Up to this many pushed refs are looked up by name; more, and every ref is listed. */
const MAX_PATTERNS = 256;

/**
 * Passes a receive-pack request through unchanged while reading its command list
 * (`<old> <new> <ref>` pkt-lines up to the first flush; gitprotocol-pack(5) "Reference Update
 * Request"), for the post-push hook.
 */
export class CommandSniffer extends Transform {
  readonly commands: RefUpdate[] = [];
  /** False when the command section could not be read completely (too large or malformed). */
  complete = false;
  private buf: Buffer = Buffer.alloc(0);
  private done = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (!this.done) this.scan(chunk);
    cb(null, chunk);
  }

  private scan(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    let pos = 0;
    while (this.buf.length - pos >= 4) {
      const len = parseInt(this.buf.toString("ascii", pos, pos + 4), 16);
      if (Number.isNaN(len) || (len > 0 && len < 4)) return this.stop(false);
      if (len === 0) return this.stop(true);
      if (this.buf.length - pos < len) break;
      const line = this.buf
        .toString("utf8", pos + 4, pos + len)
        .split("\0")[0]
        .replace(/\n$/, "");
      const update = parseRefUpdate(line);
      if (update?.ref.startsWith("refs/")) this.commands.push(update);
      pos += len;
    }
    this.buf = this.buf.subarray(pos);
    if (this.buf.length > MAX_COMMAND_BYTES) this.stop(false);
  }

  private stop(complete: boolean): void {
    this.complete = complete;
    this.done = true;
    this.buf = Buffer.alloc(0);
  }
}

/** The commands of a push that took effect: the ref now has the new value (or is gone for a delete). */
export async function effectiveUpdates(gitDir: string, commands: RefUpdate[]): Promise<RefUpdate[]> {
  if (commands.length === 0) return [];
  // Only the pushed refs (patterns): reading every ref costs ~0.25 s with 3,900 loose refs.
  const patterns = commands.length <= MAX_PATTERNS ? [...new Set(commands.map((c) => userArg(c.ref, "ref name")))] : [];
  const r = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", ...patterns], { gitDir, maxBytes: 256 * 1024 * 1024 });
  if (r.code !== 0) return [];
  const now = new Map<string, string>();
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const i = line.indexOf(" ");
    if (i > 0) now.set(line.slice(i + 1), line.slice(0, i));
  }
  return commands.filter((c) => (isZeroSha(c.newSha) ? !now.has(c.ref) : now.get(c.ref) === c.newSha));
}
