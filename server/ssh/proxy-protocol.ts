/**
 * The PROXY protocol header a TCP load balancer puts before the SSH stream (HAProxy's
 * proxy-protocol.txt, version 1 text and version 2 binary; HAProxy `send-proxy`/`send-proxy-v2`,
 * nginx `proxy_protocol on` in a `stream` block), read when SVC_SSH_PROXY_PROTOCOL=1 so the SSH
 * server's per-address limits and the git process gate see the client's address, not the
 * balancer's (docs/ssh.md "Behind a TCP load balancer"; Gitea's SSH_SERVER_USE_PROXY_PROTOCOL).
 * Parsing is proxy-protocol-js's; this module frames the header on the socket.
 */
import net from "node:net";
import { Command, IPv4ProxyAddress, IPv6ProxyAddress, V1ProxyProtocol, V2ProxyProtocol } from "proxy-protocol-js";

/** The 12-byte signature a version 2 header starts with. */
const V2_SIGNATURE = Buffer.from("\r\n\r\n\0\r\nQUIT\n", "latin1");
const V1_PREFIX = Buffer.from("PROXY ", "latin1");
/** A version 1 header is at most 107 bytes, CRLF included (proxy-protocol.txt 2.1). */
const V1_MAX = 107;
/** A version 2 header longer than this (its TLVs) is refused. */
const V2_MAX = 16 + 1024;

/** The client as the header names it. */
export interface ProxiedPeer {
  address: string;
  port: number;
}

/**
 * The header in `buf` when it is complete: `{length, peer}` (`peer` null for a connection of the
 * balancer's own — v1 `UNKNOWN`, v2 `LOCAL` or a non-IP family — which keeps the socket's
 * address), `"more"` when more bytes are needed, or an Error naming what is wrong.
 */
export function parseProxyHeader(buf: Buffer): { length: number; peer: ProxiedPeer | null } | "more" | Error {
  const head = buf.subarray(0, V2_SIGNATURE.length);
  if (V2_SIGNATURE.subarray(0, head.length).equals(head)) {
    if (buf.length < 16) return "more";
    const length = 16 + buf.readUInt16BE(14);
    if (length > V2_MAX) return new Error(`PROXY v2 header of ${length} bytes is too long`);
    if (buf.length < length) return "more";
    try {
      const header = V2ProxyProtocol.parse(new Uint8Array(buf.subarray(0, length)));
      if (header.command === Command.LOCAL) return { length, peer: null };
      const a = header.proxyAddress;
      if (a instanceof IPv4ProxyAddress) return { length, peer: { address: a.sourceAddress.address.join("."), port: a.sourcePort } };
      if (a instanceof IPv6ProxyAddress) return { length, peer: { address: ipv6(a.sourceAddress.address), port: a.sourcePort } };
      return { length, peer: null };
    } catch (e) {
      return new Error(`bad PROXY v2 header: ${(e as { message?: string }).message ?? e}`);
    }
  }
  const prefix = buf.subarray(0, V1_PREFIX.length);
  if (!V1_PREFIX.subarray(0, prefix.length).equals(prefix)) return new Error("the connection does not start with a PROXY protocol header");
  const end = buf.subarray(0, V1_MAX).indexOf("\r\n");
  if (end < 0) return buf.length >= V1_MAX ? new Error("PROXY v1 header longer than 107 bytes") : "more";
  const text = buf.subarray(0, end + 2).toString("latin1");
  if (/^PROXY UNKNOWN[ \r]/.test(text)) return { length: end + 2, peer: null };
  try {
    const header = V1ProxyProtocol.parse(text);
    const { ipAddress: address, port } = header.source;
    // the library's pattern takes any word as an address: check it is one of the family named
    if (net.isIP(address) !== (header.inetProtocol === "TCP6" ? 6 : 4) || !Number.isInteger(port) || port < 0 || port > 65535)
      return new Error(`bad PROXY v1 header: ${JSON.stringify(text.trim())}`);
    return { length: end + 2, peer: { address, port } };
  } catch (e) {
    return new Error(`bad PROXY v1 header: ${(e as { message?: string }).message ?? e}`);
  }
}

/** An IPv6 address from its 16 bytes, in RFC 5952's short form (as Node prints socket addresses). */
function ipv6(bytes: readonly number[]): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  // the longest run of two or more zero groups becomes "::"
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.at < 0) return groups.join(":");
  return `${groups.slice(0, best.at).join(":")}::${groups.slice(best.at + best.len).join(":")}`;
}

/**
 * Reads the header from `socket`, leaving what follows it unread (unshifted) and the socket
 * paused. Resolves the client it names (null: keep the socket's own address); rejects when the
 * connection does not start with a valid header, closes first, or sends none within `timeoutMs`.
 */
export function readProxyHeader(socket: net.Socket, timeoutMs: number): Promise<ProxiedPeer | null> {
  return new Promise((resolve, reject) => {
    let buf: Buffer = Buffer.alloc(0);
    const done = (err: Error | null, peer: ProxiedPeer | null = null, rest?: Buffer) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.pause();
      if (err) return reject(err);
      if (rest?.length) socket.unshift(rest);
      resolve(peer);
    };
    const onData = (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      const r = parseProxyHeader(buf);
      if (r === "more") return;
      if (r instanceof Error) return done(r);
      done(null, r.peer, buf.subarray(r.length));
    };
    const onClose = () => done(new Error("closed before the PROXY header"));
    const timer = setTimeout(() => done(new Error(`no PROXY header within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    socket.on("data", onData);
    socket.once("close", onClose);
  });
}
