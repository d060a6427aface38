import { describe, expect, it } from "vitest";
import {
  Command,
  IPv4Address,
  IPv4ProxyAddress,
  IPv6Address,
  IPv6ProxyAddress,
  TransportProtocol,
  V2ProxyProtocol,
} from "proxy-protocol-js";
import { parseProxyHeader } from "./proxy-protocol";

const v2 = (command: Command, address: IPv4ProxyAddress | IPv6ProxyAddress) =>
  Buffer.from(new V2ProxyProtocol(command, TransportProtocol.STREAM, address).build());

describe("parseProxyHeader (HAProxy proxy-protocol.txt)", () => {
  it("reads a v1 header and says where the SSH stream starts", () => {
    const header = "PROXY TCP4 203.0.113.7 192.0.2.1 51234 22\r\n";
    expect(parseProxyHeader(Buffer.from(`${header}SSH-2.0-OpenSSH_9.2\r\n`))).toEqual({
      length: header.length,
      peer: { address: "203.0.113.7", port: 51234 },
    });
    expect(parseProxyHeader(Buffer.from("PROXY TCP6 2001:db8::7 2001:db8::1 51234 22\r\n"))).toMatchObject({
      peer: { address: "2001:db8::7" },
    });
  });

  it("asks for more until the header is complete, in any split", () => {
    const header = Buffer.from("PROXY TCP4 203.0.113.7 192.0.2.1 51234 22\r\n");
    for (let n = 1; n < header.length; n++) expect(parseProxyHeader(header.subarray(0, n))).toBe("more");
    const bin = v2(
      Command.PROXY,
      new IPv4ProxyAddress(IPv4Address.createFrom([203, 0, 113, 7]), 51234, IPv4Address.createFrom([192, 0, 2, 1]), 22),
    );
    for (let n = 1; n < bin.length; n++) expect(parseProxyHeader(bin.subarray(0, n))).toBe("more");
  });

  it("reads v2 IPv4 and IPv6 (short form) headers; LOCAL and UNKNOWN keep the socket's address", () => {
    const four = v2(
      Command.PROXY,
      new IPv4ProxyAddress(IPv4Address.createFrom([203, 0, 113, 7]), 51234, IPv4Address.createFrom([192, 0, 2, 1]), 22),
    );
    expect(parseProxyHeader(Buffer.concat([four, Buffer.from("SSH-2.0-x\r\n")]))).toEqual({
      length: four.length,
      peer: { address: "203.0.113.7", port: 51234 },
    });
    const src = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7];
    const dst = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const six = v2(Command.PROXY, new IPv6ProxyAddress(IPv6Address.createFrom(src), 40000, IPv6Address.createFrom(dst), 22));
    expect(parseProxyHeader(six)).toEqual({ length: six.length, peer: { address: "2001:db8::7", port: 40000 } });
    const local = v2(
      Command.LOCAL,
      new IPv4ProxyAddress(IPv4Address.createFrom([127, 0, 0, 1]), 1, IPv4Address.createFrom([127, 0, 0, 1]), 22),
    );
    expect(parseProxyHeader(local)).toEqual({ length: local.length, peer: null });
    expect(parseProxyHeader(Buffer.from("PROXY UNKNOWN\r\n"))).toEqual({ length: 15, peer: null });
  });

  it("refuses a connection without a header, a malformed one, and one too long", () => {
    expect(parseProxyHeader(Buffer.from("SSH-2.0-OpenSSH_9.2\r\n"))).toBeInstanceOf(Error);
    expect(parseProxyHeader(Buffer.from("PROXY TCP4 not-an-address 192.0.2.1 1 22\r\n"))).toBeInstanceOf(Error);
    expect(parseProxyHeader(Buffer.from(`PROXY TCP4 ${"1".repeat(120)}`))).toBeInstanceOf(Error);
    const huge = Buffer.alloc(16);
    Buffer.from("\r\n\r\n\0\r\nQUIT\n", "latin1").copy(huge);
    huge[12] = 0x21;
    huge[13] = 0x11;
    huge.writeUInt16BE(60_000, 14);
    expect(parseProxyHeader(huge)).toBeInstanceOf(Error);
  });
});
