/**
 * A real SMTP receiver on loopback for tests (smtp-server, no TLS, any or no AUTH): collects every
 * message it accepts, parsed into unfolded headers and the decoded text and HTML parts. `reject`
 * makes it refuse messages (a transient 451 by default) until it is cleared; `close` stops it, so
 * a later send finds the port closed.
 */
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

/** One accepted message. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Header name (lower case) → values, in order, unfolded. */
  headers: Map<string, string[]>;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
  raw: string;
}

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>` (user and password are accepted and ignored). */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** The first value of header `name` of `m`. */
  header(m: ReceivedMail, name: string): string | undefined;
  /** Refuse messages with this SMTP code (e.g. 451, 550) until set back to null. */
  reject: number | null;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === "=" && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function splitHeaders(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(i + 1).trim()]);
  }
  return headers;
}

function decodeBody(headers: Map<string, string[]>, body: string): string {
  const enc = (headers.get("content-transfer-encoding")?.[0] ?? "").toLowerCase();
  if (enc === "quoted-printable") return decodeQuotedPrintable(body);
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** Splits a raw message into headers and its text/plain and text/html parts (one level of multipart/alternative, or a single part). */
export function parseMail(raw: string): Omit<ReceivedMail, "to" | "raw"> {
  const cut = raw.search(/\r?\n\r?\n/);
  const headers = splitHeaders(raw.slice(0, cut));
  const body = raw.slice(cut).replace(/^\r?\n\r?\n/, "");
  const type = headers.get("content-type")?.[0] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  const out = { headers, text: "", html: "" };
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw.slice(0, cut) + "\r\n\r\n" + body];
  for (const part of parts) {
    const p = part.replace(/^\r?\n/, "");
    const at = p.search(/\r?\n\r?\n/);
    const ph = splitHeaders(p.slice(0, at));
    const content = decodeBody(
      ph,
      p
        .slice(at)
        .replace(/^\r?\n\r?\n/, "")
        .replace(/\r?\n$/, ""),
    );
    const ct = ph.get("content-type")?.[0] ?? "text/plain";
    if (ct.startsWith("text/html")) out.html = content;
    else if (ct.startsWith("text/plain")) out.text = content;
  }
  return out;
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const receiver: SmtpReceiver = {
    url: "",
    port: 0,
    messages: [],
    reject: null,
    header: (m, name) => m.headers.get(name.toLowerCase())?.[0],
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: "test" }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (receiver.reject !== null) {
          const err = Object.assign(
            new Error(receiver.reject >= 500 ? "rejected by the test receiver" : "try again later (test receiver)"),
            {
              responseCode: receiver.reject,
            },
          );
          return cb(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        receiver.messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, ...parseMail(raw) });
        cb(null);
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  receiver.port = (server.server.address() as AddressInfo).port;
  receiver.url = `smtp://127.0.0.1:${receiver.port}`;
  return receiver;
}
