/**
 * Which base URLs a repository's AI key may point at (docs/ai.md "Repository keys"). Any
 * repository admin can set one, and svc then sends requests there, so by default a repository
 * key may not name this machine or a private network (server-side request forgery): loopback,
 * RFC 1918, link-local (cloud metadata), CGNAT, unique-local IPv6, `localhost` and `*.localhost`,
 * `*.internal`, `*.local`. The server's own OPENAI_BASE_URL is not restricted (an operator set
 * it). `SVC_AI_ALLOW_PRIVATE_BASE_URLS=1` lifts the rule (a single-user install with Ollama).
 * The check is on the URL as written; a public name that resolves to a private address is not
 * caught (docs/ai.md says so).
 */
import { BlockList, isIP } from "node:net";

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

/** True when `host` (a URL hostname, IPv6 in brackets or not) names this machine or a private network. */
export function isPrivateHost(host: string): boolean {
  const h = host
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".internal") || h.endsWith(".local")) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1];
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  const kind = isIP(h);
  if (kind === 4) return PRIVATE.check(h, "ipv4");
  if (kind === 6) return PRIVATE.check(h, "ipv6");
  // a bare number or hex form ("2130706433", "0x7f000001") that URL parsing left alone
  return /^(0x[0-9a-f]+|\d+)$/.test(h);
}

/**
 * Why `value` is not an acceptable repository base URL, or null: http or https only, no user
 * name or password in it (they would be stored in clear), no query or fragment, and not a
 * private host unless SVC_AI_ALLOW_PRIVATE_BASE_URLS=1.
 */
export function baseUrlProblem(value: string, env: Record<string, string | undefined> = process.env): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "baseUrl must be an http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "baseUrl must be an http or https URL";
  if (url.username || url.password) return "baseUrl must not contain a user name or password; put the key in apiKey";
  if (url.search || url.hash) return "baseUrl must not have a query or fragment";
  if (env.SVC_AI_ALLOW_PRIVATE_BASE_URLS !== "1" && isPrivateHost(url.hostname)) {
    return "baseUrl must be a public server; this one names this machine or a private network (the server's administrator can allow it with SVC_AI_ALLOW_PRIVATE_BASE_URLS=1)";
  }
  return null;
}
