/**
 * A repository's AI base URL (docs/security.md "Hardening II, item 4"): the address classifier
 * (server/ai/address-policy.ts), the check when the URL is saved (services/ai/base-url.ts) and
 * the one when connecting (server/ai/provider-fetch.ts): every resolved address checked, the
 * checked address pinned for the socket (DNS rebinding), no redirects followed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isRefusedAddress, refusedAddressReason } from "@/server/ai/address-policy";
import { guardedFetch, RefusedDestinationError, type Resolver } from "@/server/ai/provider-fetch";
import { baseUrlProblem, isPrivateHost } from "@/server/services/ai/base-url";

/** Ways to write an address of this machine, a private network or a special block in a URL. */
const REFUSED_URLS = [
  "http://127.0.0.1/v1",
  "http://127.1/v1",
  "http://2130706433/v1",
  "http://0x7f000001/v1",
  "http://0177.0.0.1/v1",
  "http://017700000001/v1",
  "http://0x7f.1/v1",
  "http://127.0.0.1./v1",
  "http://0/v1",
  "http://0.0.0.0/v1",
  "http://[::]/v1",
  "http://[::1]/v1",
  "http://[0:0:0:0:0:0:0:1]/v1",
  "http://[::ffff:127.0.0.1]/v1",
  "http://[0:0:0:0:0:ffff:7f00:1]/v1",
  "http://[::127.0.0.1]/v1",
  "http://[::ffff:0:7f00:1]/v1",
  "http://169.254.169.254/latest",
  "http://0xa9fea9fe/latest",
  "http://2852039166/latest",
  "http://[::ffff:169.254.169.254]/latest",
  "http://10.0.0.1/v1",
  "http://172.16.0.1/v1",
  "http://192.168.1.1/v1",
  "http://100.64.0.1/v1",
  "http://198.18.0.1/v1",
  "http://[fd00::1]/v1",
  "http://[fe80::1]/v1",
  "http://[64:ff9b::7f00:1]/v1",
  "http://[64:ff9b::a9fe:a9fe]/v1",
  "http://[2002:7f00:1::1]/v1",
  "http://[2001::1]/v1",
  "http://224.0.0.1/v1",
  "http://[ff02::1]/v1",
  "http://255.255.255.255/v1",
];

const PUBLIC_ADDRESSES = ["8.8.8.8", "1.1.1.1", "[2606:4700:4700::1111]", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"];

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server recording every request it gets, answering `answer` (default 200 "{}"). */
async function recorder(host: string, port = 0, answer?: (res: http.ServerResponse) => void) {
  const got: string[] = [];
  const server = http.createServer((req, res) => {
    got.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    if (answer) answer(res);
    else res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return { got, port: (server.address() as AddressInfo).port };
}

const post = (f: typeof fetch, url: string) => f(url, { method: "POST", headers: { authorization: "Bearer sk-secret" }, body: "{}" });

describe("address classifier", () => {
  it("refuses every spelling of this machine, private networks and special blocks, in the URL and when connecting", async () => {
    expect(REFUSED_URLS.length).toBeGreaterThanOrEqual(31);
    const f = guardedFetch({ allowPrivate: false });
    for (const url of REFUSED_URLS) {
      expect(isRefusedAddress(new URL(url).hostname), url).toBe(true);
      expect(baseUrlProblem(url, {}), url).toMatch(/must be a public server/);
      const err = await post(f, url).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(RefusedDestinationError);
      expect((err as Error).message, url).toMatch(/^svc does not connect to .+: .+SVC_AI_ALLOW_PRIVATE_BASE_URLS=1/);
    }
    expect(refusedAddressReason("[::127.0.0.1]")).toMatch(/IPv4-compatible/);
    expect(refusedAddressReason("::ffff:7f00:1")).toMatch(/IPv4-mapped IPv6 of loopback/);
    expect(refusedAddressReason("64:ff9b::a9fe:a9fe")).toMatch(/NAT64 of link-local/);
    expect(refusedAddressReason("vm")).toBe("not an IP address");
  });

  it("lets global unicast through, also when IPv6 carries a public IPv4 address", () => {
    for (const a of PUBLIC_ADDRESSES) expect(refusedAddressReason(a), a).toBeNull();
    expect(baseUrlProblem("https://api.openai.com/v1", {})).toBeNull();
    expect(baseUrlProblem("http://[2606:4700:4700::1111]/v1", {})).toBeNull();
  });

  it("refuses, when saved, names only a local resolver knows; SVC_AI_ALLOW_PRIVATE_BASE_URLS=1 allows them", () => {
    for (const host of [
      "vm",
      "localhost",
      "localhost.",
      "LOCALHOST",
      "db.localhost",
      "metadata.google.internal",
      "nas.lan",
      "printer.local",
      "r.home.arpa",
    ]) {
      expect(isPrivateHost(host), host).toBe(true);
      expect(baseUrlProblem(`http://${host}:4101/v1`, {}), host).toMatch(/must be a public server/);
      expect(baseUrlProblem(`http://${host}:4101/v1`, { SVC_AI_ALLOW_PRIVATE_BASE_URLS: "1" }), host).toBeNull();
    }
    expect(["example.com", "llm.example.com.", "8.8.8.8"].map(isPrivateHost)).toEqual([false, false, false]);
  });
});

describe("guardedFetch", () => {
  it("refuses a host name that resolves to a refused address (hosts file), and the server never gets the key", async () => {
    const local = await recorder("127.0.0.1");
    const hostsFile: Resolver = async (name) => (name === "vm" ? [{ address: "127.0.0.1", family: 4 }] : []);
    const err = await post(guardedFetch({ allowPrivate: false, resolve: hostsFile }), `http://vm:${local.port}/v1/chat/completions`).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RefusedDestinationError);
    expect((err as Error).message).toContain("svc does not connect to vm (127.0.0.1): loopback (127.0.0.0/8)");
    // the system resolver (hosts file): localhost is this machine
    const viaSystem = await post(guardedFetch({ allowPrivate: false }), `http://localhost:${local.port}/v1`).catch((e: unknown) => e);
    expect(viaSystem).toBeInstanceOf(RefusedDestinationError);
    expect(local.got).toEqual([]);
    // allowed by the administrator: the same name reaches the server
    const allowed = await post(guardedFetch({ allowPrivate: true, resolve: hostsFile }), `http://vm:${local.port}/v1/chat/completions`);
    expect(allowed.status).toBe(200);
    expect(local.got).toEqual(["POST /v1/chat/completions Bearer sk-secret"]);
  });

  it("refuses a name when ANY of its addresses is refused", async () => {
    const local = await recorder("127.0.0.1");
    const mixed: Resolver = async () => [
      { address: "127.0.0.1", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ];
    // 127.0.0.1 is treated as public here, so only the second address refuses the name
    const refuse = (a: string) => (a === "127.0.0.1" ? null : refusedAddressReason(a));
    const err = await post(guardedFetch({ allowPrivate: false, resolve: mixed, refuse }), `http://twofaced.test:${local.port}/v1`).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toContain("twofaced.test (10.0.0.1): a private network (10.0.0.0/8)");
    expect(local.got).toEqual([]);
  });

  it("pins the checked address: a second DNS answer (rebinding) never reaches the socket", async () => {
    // the "public" server on 127.0.0.2 and the refused one on 127.0.0.1, on the same port
    let pub: Awaited<ReturnType<typeof recorder>> | undefined;
    let priv: Awaited<ReturnType<typeof recorder>> | undefined;
    for (let attempt = 0; !priv && attempt < 20; attempt++) {
      pub = await recorder("127.0.0.2");
      priv = await recorder("127.0.0.1", pub.port).catch(() => undefined);
    }
    if (!pub || !priv) throw new Error("no port free on both 127.0.0.1 and 127.0.0.2");
    const answers: string[] = [];
    const rebinding: Resolver = async () => {
      const address = answers.length === 0 ? "127.0.0.2" : "127.0.0.1";
      answers.push(address);
      return [{ address, family: 4 }];
    };
    const refuse = (a: string) => (a === "127.0.0.2" ? null : refusedAddressReason(a));
    const f = guardedFetch({ allowPrivate: false, resolve: rebinding, refuse });
    const res = await post(f, `http://rebind.test:${pub.port}/v1/chat/completions`);
    expect(res.status).toBe(200);
    await res.text();
    expect(answers).toEqual(["127.0.0.2"]); // resolved once, for the check and the socket together
    expect(pub.got).toHaveLength(1);
    expect(priv.got).toEqual([]);
    // a new connection resolves again and is checked again: the rebound answer is refused
    const next = await post(guardedFetch({ allowPrivate: false, resolve: rebinding, refuse }), `http://rebind.test:${pub.port}/v1`).catch(
      (e: unknown) => e,
    );
    expect(next).toBeInstanceOf(RefusedDestinationError);
    expect(priv.got).toEqual([]);
  });

  it("does not follow redirects, not even between allowed addresses", async () => {
    const target = await recorder("127.0.0.1");
    for (const status of [301, 302, 303, 307, 308]) {
      const bouncer = await recorder("127.0.0.1", 0, (res) =>
        res.writeHead(status, { location: `http://127.0.0.1:${target.port}/v1/chat/completions` }).end(),
      );
      const err = await post(guardedFetch({ allowPrivate: true }), `http://127.0.0.1:${bouncer.port}/v1/chat/completions`).catch(
        (e: unknown) => e,
      );
      expect(err, String(status)).toBeInstanceOf(RefusedDestinationError);
      expect((err as Error).message).toContain(`answered with a redirect (HTTP ${status})`);
      expect(bouncer.got).toHaveLength(1);
    }
    expect(target.got).toEqual([]);
  });
});
