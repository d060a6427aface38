/** pkt-line framing (gitprotocol-common(5)) and the protocol version of a Git-Protocol value. */

/** One pkt-line (gitprotocol-common(5)): 4 hex digits of length including themselves, then data. */
export function pktLine(data: string): Buffer {
  const body = Buffer.from(data, "utf8");
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0"), "ascii"), body]);
}

/** The flush-pkt "0000". */
export const FLUSH_PKT = Buffer.from("0000", "ascii");

/** The highest `version=N` in a GIT_PROTOCOL value (colon-separated keys), 0 when absent. */
export function protocolVersion(gitProtocol: string | undefined): number {
  let v = 0;
  for (const part of gitProtocol?.split(":") ?? []) {
    const m = /^version=(\d+)$/.exec(part);
    if (m) v = Math.max(v, Number(m[1]));
  }
  return v;
}
