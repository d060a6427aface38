/**
 * The `fetch` the AI SDK providers use for a repository's key (docs/security.md "Hardening II,
 * item 4"; docs/ai.md "Repository keys"). Any repository admin can set a base URL, so the
 * address is checked where the connection is made, not only where the URL is saved:
 *
 * - The host name is resolved once per connection (dns.lookup, every address), the connection is
 *   refused when ANY of its addresses is refused (server/ai/address-policy.ts), and the socket is
 *   handed exactly the addresses that were checked (undici `connect.lookup`): a second DNS answer
 *   (rebinding) never reaches the socket. An IP literal in the URL is checked the same way.
 * - Redirects are not followed (`redirect: "manual"`): a 3xx answer is a provider error, so a
 *   public server cannot bounce the request (and its body) to a refused address.
 *
 * `SVC_AI_ALLOW_PRIVATE_BASE_URLS=1` allows private addresses (Ollama on this machine); resolution
 * is still pinned and redirects are still not followed.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { refusedAddressReason } from "./address-policy";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name (dns.lookup with `all: true` by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface DestinationPolicy {
  /** True with SVC_AI_ALLOW_PRIVATE_BASE_URLS=1: no address is refused. */
  allowPrivate: boolean;
  /** The resolver (tests inject one); default: the system's (hosts file, then DNS). */
  resolve?: Resolver;
  /** Why an address is refused, or null (tests inject one); default: refusedAddressReason. */
  refuse?: (address: string) => string | null;
  /** The end of a refusal's message: how to allow it (default: the AI base URL's, naming SVC_AI_ALLOW_PRIVATE_BASE_URLS). */
  hint?: string;
  /** True: a 3xx answer is returned as it is (still never followed); default: it is refused (RefusedDestinationError). */
  returnRedirects?: boolean;
}

/** A connection or answer svc refused for a repository's AI base URL; its message says why, without the key. */
export class RefusedDestinationError extends Error {
  override name = "RefusedDestinationError";
  readonly code = "SVC_REFUSED_DESTINATION";
}

const systemResolve: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

const AI_HINT =
  "A repository's AI base URL must be a public server (the server's administrator can allow private ones with SVC_AI_ALLOW_PRIVATE_BASE_URLS=1)";

const refusal = (host: string, address: string, why: string, hint = AI_HINT) =>
  new RefusedDestinationError(`svc does not connect to ${host === address ? address : `${host} (${address})`}: ${why}. ${hint}`);

/**
 * An undici connector for `policy`: IP literals are checked before connecting; host names are
 * resolved by `policy.resolve`, all their addresses checked, and the socket connects only to
 * those addresses (Node's `lookup` hook, called once per connection).
 */
function guardedConnector(policy: DestinationPolicy): buildConnector.connector {
  const reasonFor = (address: string) => (policy.allowPrivate ? null : (policy.refuse ?? refusedAddressReason)(address));
  const resolve = policy.resolve ?? systemResolve;
  const lookup: LookupFunction = (hostname, options, callback) => {
    const checked = resolve(hostname).then((all) => {
      for (const a of all) {
        const why = reasonFor(a.address);
        if (why) throw refusal(hostname, a.address, why, policy.hint);
      }
      const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
      if (wanted.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
      return wanted;
    });
    checked.then(
      (wanted) => {
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
  const connect = buildConnector({ lookup });
  return (opts, callback) => {
    if (isIP(opts.hostname)) {
      const why = reasonFor(opts.hostname);
      if (why) return callback(refusal(opts.hostname, opts.hostname, why, policy.hint), null);
    }
    connect(opts, callback);
  };
}

/**
 * A `fetch` for the AI SDK providers' `fetch` option that connects only where `policy` allows
 * (module docstring) and never follows a redirect. Rejects with RefusedDestinationError for a
 * refused address and for a 3xx answer (not retried by the SDK: it is no network error); other
 * failures are the ones fetch gives. Each call of this function makes its own connection pool.
 */
export function guardedFetch(policy: DestinationPolicy): typeof globalThis.fetch {
  const dispatcher = new Agent({ connect: guardedConnector(policy) });
  const guarded = async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await undiciFetch(input, { ...init, dispatcher, redirect: "manual" });
    } catch (err) {
      // undici reports a connect error as TypeError("fetch failed") with the reason as cause;
      // the SDK would retry that as a network error and prefix it, so the refusal is thrown as is
      if (err instanceof TypeError && err.cause instanceof RefusedDestinationError) throw err.cause;
      throw err;
    }
    if (response.status >= 300 && response.status < 400 && !policy.returnRedirects) {
      await response.body?.cancel().catch(() => {});
      throw new RefusedDestinationError(
        `the AI server answered with a redirect (HTTP ${response.status}); svc does not follow redirects from a repository's AI base URL: set the base URL to the address that answers`,
      );
    }
    return response;
  };
  return guarded as unknown as typeof globalThis.fetch;
}

const shared = new Map<boolean, typeof globalThis.fetch>();

/**
 * The fetch for engines built from a repository's key (server/ai/engine.ts): private addresses
 * refused unless SVC_AI_ALLOW_PRIVATE_BASE_URLS=1 in `env` (read when the engine is built). One
 * connection pool per setting for the process.
 */
export function repositoryProviderFetch(env: Record<string, string | undefined> = process.env): typeof globalThis.fetch {
  const allowPrivate = env.SVC_AI_ALLOW_PRIVATE_BASE_URLS === "1";
  let f = shared.get(allowPrivate);
  if (!f) shared.set(allowPrivate, (f = guardedFetch({ allowPrivate })));
  return f;
}
