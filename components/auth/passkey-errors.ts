/**
 * A short message for an error of a passkey ceremony: the browser's cancel / timeout
 * (NotAllowedError), a credential already registered (InvalidStateError), or the server's message.
 */
export function ceremonyError(e: unknown): string {
  const name = (e as { name?: string; cause?: { name?: string } })?.cause?.name ?? (e as { name?: string })?.name;
  if (name === "NotAllowedError") return "the passkey request was cancelled or timed out";
  if (name === "InvalidStateError") return "this authenticator is already registered";
  return e instanceof Error && e.message ? e.message : "the passkey request failed";
}
