/**
 * The path every interactive sign-in returns through (docs/security.md "Two-factor
 * authentication"): /signin/two-factor asks for the second factor when the new session is
 * pending, and otherwise redirects straight on to `callbackUrl` (already made safe by
 * safeCallbackUrl).
 */
export function twoFactorGate(callbackUrl: string): string {
  return `/signin/two-factor?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}
