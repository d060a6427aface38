/**
 * Token scopes (spec "Personal access token" → Scopes) and their implication:
 * repo:admin ⊃ repo:write ⊃ repo:read, user:write ⊃ user:read (docs/security.md "Effective
 * permission: scopes cap the role").
 */
import { AppError } from "@/server/errors";

export const SCOPES = ["repo:read", "repo:write", "repo:admin", "user:read", "user:write"] as const;
export type Scope = (typeof SCOPES)[number];

/** Human descriptions, as the spec words them (CLI `svc token scopes`, settings page). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "repo:read": "clone, pull, fetch, view repositories",
  "repo:write": "push, create branches",
  "repo:admin": "manage settings, collaborators, deletion",
  "user:read": "read own profile",
  "user:write": "update own profile",
};

/** Spec default for new tokens. */
export const DEFAULT_SCOPES: Scope[] = ["repo:read", "repo:write"];

const IMPLIES: Record<Scope, Scope[]> = {
  "repo:read": [],
  "repo:write": ["repo:read"],
  "repo:admin": ["repo:write", "repo:read"],
  "user:read": [],
  "user:write": ["user:read"],
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** True when the granted scopes include `needed` directly or by implication. */
export function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  return granted.some((s) => s === needed || IMPLIES[s].includes(needed));
}

/**
 * Parses scope names from a list or a comma-separated string; trims, drops duplicates, keeps
 * canonical order. Throws BAD_REQUEST naming unknown scopes, or when none are given.
 */
export function parseScopes(input: string | readonly string[]): Scope[] {
  const names = (typeof input === "string" ? input.split(",") : [...input]).map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isScope(n));
  if (unknown.length) {
    throw new AppError(
      "BAD_REQUEST",
      `unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `"${u}"`).join(", ")}; valid scopes: ${SCOPES.join(", ")}`,
    );
  }
  if (!names.length) throw new AppError("BAD_REQUEST", `at least one scope is required; valid scopes: ${SCOPES.join(", ")}`);
  return SCOPES.filter((s) => names.includes(s));
}
