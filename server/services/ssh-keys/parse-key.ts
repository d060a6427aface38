/**
 * Parses and checks one OpenSSH public key line (`<type> <base64> [comment]`, as in
 * `~/.ssh/id_ed25519.pub`) for user keys and deploy keys (docs/ssh.md "Keys"). Accepted types:
 * ssh-ed25519, ecdsa-sha2-nistp256/384/521 and ssh-rsa of at least 2048 bits (GitHub's rule;
 * DSA and short RSA keys are refused). The fingerprint is OpenSSH's, as `ssh-keygen -lf` prints it.
 */
import { createHash } from "node:crypto";
import ssh2 from "ssh2";
import { AppError } from "@/server/errors";

// ssh2 is CommonJS: Node's ESM loader (the CLI, scripts/serve.ts) gives it as a default export only
const { utils } = ssh2;

/** Key types accepted (docs/ssh.md). */
export const ALLOWED_KEY_TYPES = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"] as const;
/** Smallest RSA modulus accepted, in bits. */
export const MIN_RSA_BITS = 2048;
/** Longest key line accepted, in characters (an RSA 16384-bit key line is ~2.8 KB). */
export const MAX_KEY_LINE = 8192;

export interface ParsedPublicKey {
  type: (typeof ALLOWED_KEY_TYPES)[number];
  /** `<type> <base64 blob>`, without the comment. */
  publicKey: string;
  /** `SHA256:<unpadded base64 of sha256(blob)>`. */
  fingerprint: string;
  /** The wire-format key blob. */
  blob: Buffer;
}

/** OpenSSH's SHA256 fingerprint of a key blob: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintOf(blob: Buffer): string {
  return "SHA256:" + createHash("sha256").update(blob).digest("base64").replace(/=+$/, "");
}

/** Bit length of an RSA key's modulus, read from its wire blob (string type, mpint e, mpint n). */
function rsaBits(blob: Buffer): number {
  let off = 0;
  const next = (): Buffer => {
    if (off + 4 > blob.length) throw new AppError("BAD_REQUEST", "publicKey: the RSA key data is truncated");
    const len = blob.readUInt32BE(off);
    off += 4;
    if (off + len > blob.length) throw new AppError("BAD_REQUEST", "publicKey: the RSA key data is truncated");
    const part = blob.subarray(off, off + len);
    off += len;
    return part;
  };
  next(); // type
  next(); // e
  let n = next();
  while (n.length > 0 && n[0] === 0) n = n.subarray(1);
  return n.length === 0 ? 0 : (n.length - 1) * 8 + (32 - Math.clz32(n[0]!));
}

/**
 * Parses one public key line. Errors: BAD_REQUEST naming the problem (empty, several lines, a
 * private key, not an OpenSSH public key, a refused type, an RSA key under 2048 bits).
 */
export function parsePublicKey(input: string): ParsedPublicKey {
  const lineText = input.trim();
  if (!lineText) throw new AppError("BAD_REQUEST", "publicKey is required");
  if (lineText.length > MAX_KEY_LINE) throw new AppError("BAD_REQUEST", `publicKey is longer than ${MAX_KEY_LINE} characters`);
  if (/[\r\n]/.test(lineText)) {
    if (/PRIVATE KEY/.test(lineText)) throw new AppError("BAD_REQUEST", "publicKey: this is a private key; paste the .pub file instead");
    throw new AppError("BAD_REQUEST", "publicKey must be a single line (`<type> <base64> [comment]`)");
  }
  const [type, data] = lineText.split(/\s+/);
  if (!type || !data || !/^[A-Za-z0-9+/]+={0,2}$/.test(data))
    throw new AppError("BAD_REQUEST", "publicKey is not an OpenSSH public key (expected `<type> <base64> [comment]`)");
  if (!(ALLOWED_KEY_TYPES as readonly string[]).includes(type))
    throw new AppError("BAD_REQUEST", `publicKey: key type ${type.slice(0, 40)} is not supported (use ${ALLOWED_KEY_TYPES.join(", ")})`);
  const parsed = utils.parseKey(`${type} ${data}`);
  if (parsed instanceof Error || Array.isArray(parsed) || parsed.isPrivateKey())
    throw new AppError("BAD_REQUEST", "publicKey is not a valid OpenSSH public key (the key data does not parse)");
  if (parsed.type !== type) throw new AppError("BAD_REQUEST", `publicKey: the key data is a ${parsed.type} key, not ${type}`);
  const blob = parsed.getPublicSSH();
  if (type === "ssh-rsa") {
    const bits = rsaBits(blob);
    if (bits < MIN_RSA_BITS)
      throw new AppError("BAD_REQUEST", `publicKey: RSA keys must have at least ${MIN_RSA_BITS} bits (this one has ${bits})`);
  }
  return { type: type as ParsedPublicKey["type"], publicKey: `${type} ${blob.toString("base64")}`, fingerprint: fingerprintOf(blob), blob };
}
