/**
 * Outgoing email over SMTP (docs/notifications-email.md "Configuring SMTP"): one nodemailer
 * transport per process, built from getConfig().mail (SMTP_URL, SVC_MAIL_FROM) on first use and
 * rebuilt only when the URL changes. Nothing here logs: SMTP_URL carries the password, so errors
 * are passed on as nodemailer words them (it never puts the credentials in a message) and the
 * URL is only ever shown through redactSmtpUrl.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { getConfig } from "@/server/config";

/** Milliseconds to wait for the TCP (and TLS, for smtps://) connection. */
export const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
/** Milliseconds to wait for the server's greeting once connected. */
export const SMTP_GREETING_TIMEOUT_MS = 10_000;
/** Milliseconds of inactivity on the socket before the attempt is abandoned. */
export const SMTP_SOCKET_TIMEOUT_MS = 30_000;

/** One message: `from` defaults to SVC_MAIL_FROM; `headers` are added as given (values already encoded). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The message's own Message-ID (`<…@host>`); nodemailer makes one when absent. */
  messageId?: string;
  headers?: Record<string, string>;
}

/** What the server said: the envelope's accepted and rejected recipients and its reply line. */
export interface SendResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
  response: string;
}

interface TransportState {
  url: string;
  transport: Transporter<SMTPTransport.SentMessageInfo>;
}
// one per process, also when Next loads this module in several bundles
const slot = globalThis as unknown as { __svcMailTransport?: TransportState };

/** `smtp://user:pass@host:587` → `smtp://user:***@host:587` (for messages shown to an admin). */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(an SMTP URL that does not parse)";
  }
}

/** True when SMTP_URL is set (email can be sent from this server). */
export function mailConfigured(): boolean {
  return getConfig().mail !== undefined;
}

function transportFor(url: string): Transporter<SMTPTransport.SentMessageInfo> {
  const current = slot.__svcMailTransport;
  if (current && current.url === url) return current.transport;
  current?.transport.close();
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
    // never log (the SMTP dialogue holds the AUTH exchange); no file or URL attachments
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  } satisfies SMTPTransport.Options);
  slot.__svcMailTransport = { url, transport };
  return transport;
}

/**
 * Sends one message through the process's transport (SMTP_URL), from SVC_MAIL_FROM.
 * Errors: Error("email is off: SMTP_URL is not set") without configuration; nodemailer's errors
 * (connection refused or timed out — SMTP_*_TIMEOUT_MS —, authentication failed, recipient or
 * message rejected: `responseCode` carries the SMTP code) otherwise. A message the server
 * rejected for every recipient is an error too.
 */
export async function sendMail(message: MailMessage): Promise<SendResult> {
  const mail = getConfig().mail;
  if (!mail) throw new Error("email is off: SMTP_URL is not set");
  const info = await transportFor(mail.smtpUrl).sendMail({
    from: mail.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    headers: message.headers,
  });
  const accepted = info.accepted.map(String);
  if (accepted.length === 0) throw new Error(`the SMTP server accepted no recipient: ${info.response}`);
  return { messageId: info.messageId, accepted, rejected: info.rejected.map(String), response: info.response };
}

/** Closes the process's transport (tests, shutdown); the next sendMail builds a new one. */
export function closeMailTransport(): void {
  slot.__svcMailTransport?.transport.close();
  slot.__svcMailTransport = undefined;
}
