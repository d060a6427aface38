/**
 * Secret detection over the lines a push adds (push protection, docs/git-http.md "Refused pushes: ref
 * names and push protection (pre-receive)"; modelled on GitHub push protection). Two kinds:
 *
 * - `svc-token`: an `svc_<8>_<32+>` personal access token that works in this instance. A
 *   current-format token whose CRC32 checksum is wrong is a look-alike and is dropped without a
 *   database query (tokens/token-format.ts); a legacy token (40 characters, no checksum) or a
 *   checksum-valid one is looked up (`isLiveToken`: stored, hash matches, unexpired).
 * - `private-key`: a PEM/OpenSSH/PGP private key block: the `BEGIN … PRIVATE KEY` armour line
 *   followed by key material (64+ base64 characters on the same line, e.g. a JSON string with
 *   `\n` escapes, or a 40+ character base64 line within the next 6 added lines). The armour alone
 *   (code that parses keys, documentation) is not a secret.
 *
 * Findings name the path, the line and the commit, never the secret.
 */
import type { AddedLine } from "@/server/git/added-lines";
import { tokenKind } from "@/server/services/tokens/token-format";

export type SecretKind = "svc-token" | "private-key";

export interface SecretFinding {
  kind: SecretKind;
  path: string;
  /** 1-based line in the new version of `path`. */
  line: number;
  commit: string;
}

/** Patch bytes scanned per push, or per commit svc writes itself, at most (bytes): 50 MiB. */
export const MAX_SCAN_BYTES = 50 * 1024 * 1024;
/** The push option that lets a push carry secrets (`git push -o allow-secret`). */
export const ALLOW_SECRET_OPTION = "allow-secret";
/** Findings listed in a refusal at most. */
const MAX_LISTED = 20;

const KIND_LABEL: Record<SecretKind, string> = {
  "svc-token": "svc personal access token (valid on this server)",
  "private-key": "private key",
};

/**
 * The refusal's heading and one line per finding (`  path:line  kind (commit <10>)`, at most
 * MAX_LISTED, then "… and N more"): the same words for `git push` (push-policy.ts, as `error:`
 * lines) and for svc's own commits (update-branch.ts, in the FORBIDDEN message). `what` names
 * what adds the secrets ("this push", "this commit").
 */
export function describeFindings(findings: SecretFinding[], what: string): { heading: string; listed: string[] } {
  const listed = findings.slice(0, MAX_LISTED).map((f) => `  ${f.path}:${f.line}  ${KIND_LABEL[f.kind]} (commit ${f.commit.slice(0, 10)})`);
  if (findings.length > MAX_LISTED) listed.push(`  … and ${findings.length - MAX_LISTED} more`);
  return { heading: `push protection: ${what} adds secrets:`, listed };
}

/** At most this many distinct token candidates are looked up per push. */
export const MAX_TOKEN_LOOKUPS = 1000;

const TOKEN_CANDIDATE_RE = /(?<![0-9A-Za-z])svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}/g;
// Written with {5} so this file does not itself contain an armour line.
const KEY_ARMOUR_RE = /-{5}BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-{5}/;
const KEY_BODY_LINE_RE = /^[A-Za-z0-9+/]{40,}={0,2}$/;
const KEY_BODY_INLINE_RE = /[A-Za-z0-9+/]{64}/;
/** Added lines after an armour line within which key material must start. */
const KEY_LOOKAHEAD = 6;

/**
 * Feeds on added lines (`feed`, synchronous, cheap) and then answers the findings (`findings`,
 * which looks token candidates up with `isLive`). One detector per push.
 */
export class SecretDetector {
  private readonly keys: SecretFinding[] = [];
  private readonly candidates = new Map<string, SecretFinding[]>();
  private pendingKey: { at: SecretFinding; last: number; left: number } | null = null;
  /** Token candidates not looked up because MAX_TOKEN_LOOKUPS was reached. */
  skippedCandidates = 0;

  constructor(private readonly isLive: (token: string) => Promise<boolean>) {}

  feed(l: AddedLine): void {
    if (l.text.includes("svc_")) {
      for (const m of l.text.matchAll(TOKEN_CANDIDATE_RE)) {
        if (tokenKind(m[0]) === "no") continue;
        const at = { kind: "svc-token" as const, path: l.path, line: l.line, commit: l.commit };
        const seen = this.candidates.get(m[0]);
        if (seen) seen.push(at);
        else if (this.candidates.size < MAX_TOKEN_LOOKUPS) this.candidates.set(m[0], [at]);
        else this.skippedCandidates++;
      }
    }
    const p = this.pendingKey;
    if (p) {
      if (p.at.path === l.path && p.at.commit === l.commit && l.line === p.last + 1) {
        if (KEY_BODY_LINE_RE.test(l.text.trim())) {
          this.keys.push(p.at);
          this.pendingKey = null;
        } else {
          p.last = l.line;
          if (--p.left === 0) this.pendingKey = null;
        }
      } else this.pendingKey = null;
    }
    if (l.text.includes("PRIVATE KEY")) {
      const m = KEY_ARMOUR_RE.exec(l.text);
      if (!m) return;
      const at: SecretFinding = { kind: "private-key", path: l.path, line: l.line, commit: l.commit };
      const rest = l.text.slice(m.index + m[0].length).replace(/\\[nr]/g, "");
      if (KEY_BODY_INLINE_RE.test(rest)) this.keys.push(at);
      else this.pendingKey = { at, last: l.line, left: KEY_LOOKAHEAD };
    }
  }

  /** Every finding: live tokens (one database lookup per distinct candidate) and key blocks, by commit, path and line. */
  async findings(): Promise<SecretFinding[]> {
    const out = [...this.keys];
    for (const [token, places] of this.candidates) if (await this.isLive(token)) out.push(...places);
    const seen = new Set<string>();
    return out.filter((f) => {
      const k = `${f.kind}\0${f.commit}\0${f.path}\0${f.line}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
}
