/** A same-origin path to return to after signing in, or "/" (never an absolute or protocol-relative URL). */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  return value;
}
