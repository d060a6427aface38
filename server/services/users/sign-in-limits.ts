/**
 * The sign-in brute-force limits (numbers in server/rate-limit.ts LIMITS and
 * docs/api.md "Rate limits"). An attempt takes its points BEFORE the password is checked, so N
 * parallel guesses can never exceed a limit; a refused attempt gives back what it took at the
 * levels before the one that refused it, so being refused costs nothing elsewhere.
 *
 * Levels, in order:
 *   1. the address, over all accounts (signInAddressFailures, 50 / 15 min);
 *   2. the (address, account) pair (signInFailures, 10 / 15 min) — what a guesser meets first;
 *   3. the account, over all addresses (signInAccountFailures, 100 / hour) — skipped for
 *      addresses that signed in to the account within 14 days (signInKnownAddress).
 * One address therefore adds at most 10 failures per 15 minutes to an account's count, cannot
 * lock the account for anyone at another address, and a distributed attack that trips level 3
 * still cannot keep the owner out of the addresses they sign in from.
 */
import { addressKey, consume, isMarked, mark, reset, reward, type LimitName } from "@/server/rate-limit";

export interface SignInAttempt {
  /** Call after a correct password: gives the points back and remembers the address. */
  succeeded(): Promise<void>;
}

/** Longest account name used in a limit key (usernames are at most 39 characters). */
const MAX_KEY_ACCOUNT = 100;

/**
 * Takes one attempt for `account` (lower-cased username) from `address` (clientAddress text).
 * Throws AppError TOO_MANY_REQUESTS with retryAfter (seconds) when a level is used up; nothing
 * is then taken from the other levels.
 */
export async function takeSignInAttempt(account: string, address: string): Promise<SignInAttempt> {
  const ip = addressKey(address);
  const acct = account.slice(0, MAX_KEY_ACCOUNT);
  const pair = `${ip}|${acct}`; // an address never contains "|", so keys cannot collide
  const known = await isMarked("signInKnownAddress", pair);
  const levels: [LimitName, string][] = [
    ["signInAddressFailures", ip],
    ["signInFailures", pair],
    ...(known ? [] : [["signInAccountFailures", acct] as [LimitName, string]]),
  ];
  const taken: [LimitName, string][] = [];
  try {
    for (const [name, key] of levels) {
      await consume(name, key);
      taken.push([name, key]);
    }
  } catch (e) {
    await Promise.all(taken.map(([name, key]) => reward(name, key)));
    throw e;
  }
  return {
    async succeeded() {
      await Promise.all([
        reward("signInAddressFailures", ip),
        reset("signInFailures", pair),
        known ? undefined : reward("signInAccountFailures", acct),
        mark("signInKnownAddress", pair),
      ]);
    },
  };
}

/**
 * Clears the account-wide sign-in limit (level 3 above) of `account` (username, any case): after an
 * operator's password reset or two-factor removal (svc user set-password / reset-two-factor), the
 * owner can sign in from a new address at once instead of waiting out a guesser's hour. The
 * per-address levels are left: they never keep the owner out of another address. With REDIS_URL
 * the limits are shared, so the CLI's clear reaches the server; in-memory limits belong to the
 * server process (docs/security.md "Lost password or second factor").
 */
export async function clearAccountSignInLimit(account: string): Promise<void> {
  await reset("signInAccountFailures", account.toLowerCase().slice(0, MAX_KEY_ACCOUNT));
}
