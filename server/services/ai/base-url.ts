/**
 * Which base URLs a repository's AI key may point at (docs/ai.md "Repository keys"). Any
 * repository admin can set one, and svc then sends requests there, so by default a repository
 * key may not name this machine or a private network (server-side request forgery). Two checks:
 *
 * - here, when the URL is saved: an IP literal in any spelling URL parsing accepts (decimal,
 *   octal, hex, `127.1`, `[::127.0.0.1]`, `[::ffff:7f00:1]` …) is refused when
 *   server/ai/address-policy.ts refuses it; names that only a local resolver knows are refused
 *   too: single-label names (`localhost`, `vm`, `db`: the hosts file or a search domain) and the
 *   non-public suffixes `.localhost`, `.local`, `.localdomain`, `.internal`, `.intranet`,
 *   `.private`, `.corp`, `.home`, `.lan`, `.home.arpa` (RFC 6761, RFC 6762 appendix G, RFC 8375);
 * - when connecting (server/ai/provider-fetch.ts): every address the name resolves to, pinned for
 *   the connection, and no redirects. That one catches a public-looking name that resolves to a
 *   private address.
 *
 * The server's own OPENAI_BASE_URL is not restricted (an operator set it).
 * `SVC_AI_ALLOW_PRIVATE_BASE_URLS=1` lifts both checks (a single-user install with Ollama).
 */
import { isIPv4 } from "node:net";
import { isRefusedAddress } from "@/server/ai/address-policy";

const LOCAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".localdomain",
  ".internal",
  ".intranet",
  ".private",
  ".corp",
  ".home",
  ".lan",
  ".home.arpa",
];

/**
 * True when `host` (a URL hostname, IPv6 in brackets or not, any numeric IPv4 spelling) names
 * this machine or a private network as far as can be told without resolving it (module
 * docstring); also true for what is no valid host at all.
 */
export function isPrivateHost(host: string): boolean {
  let h: string;
  try {
    const bare = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
    h = new URL(`http://${bare}/`).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return true;
  }
  if (h.startsWith("[") || isIPv4(h)) return isRefusedAddress(h);
  if (!h.includes(".")) return true;
  return LOCAL_SUFFIXES.some((suffix) => h.endsWith(suffix));
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
