// Types for scripts/client-address.mjs (plain Node, run without a build step).
export function forwardedFor(
  incoming: string | string[] | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string | undefined;
export function trustProxyFrom(value: string | undefined): boolean;
