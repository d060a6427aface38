import { describe, expect, it } from "vitest";
import { usernameBase, usernameCandidate } from "@/server/services/users/external-user";
import { issuerMatches, loginHint, readOidcClaims, verifiedEmail } from "@/server/services/oidc/claims";
import { oidcFromEnv } from "@/server/config";
import { usernameProblem } from "@/lib/names";

describe("usernameBase", () => {
  it("turns a login into a valid username", () => {
    expect(usernameBase("alice")).toBe("alice");
    expect(usernameBase("Alice Smith")).toBe("Alice-Smith");
    expect(usernameBase("j.doe")).toBe("j-doe");
    expect(usernameBase("j..doe__x")).toBe("j-doe-x");
    expect(usernameBase("alice@corp.example")).toBe("alice");
    expect(usernameBase("--bob--")).toBe("bob");
    expect(usernameBase("__")).toBe("user");
    expect(usernameBase("名前")).toBe("user");
    const long = usernameBase(`${"a".repeat(38)}.b`);
    expect(long.length).toBeLessThanOrEqual(39);
    expect(usernameProblem(long)).toBeNull();
  });

  it("numbers candidates and keeps them valid", () => {
    expect(usernameCandidate("alice", 1)).toBe("alice");
    expect(usernameCandidate("alice", 2)).toBe("alice-2");
    const c = usernameCandidate(`${"a".repeat(29)}-bcdefghi`, 12);
    expect(c).toBe(`${"a".repeat(29)}-12`);
    expect(usernameProblem(c)).toBeNull();
  });
});

describe("OpenID Connect claims", () => {
  it("reads iss and sub, refusing tokens without them", () => {
    expect(readOidcClaims({ sub: "1" })).toBeNull();
    expect(readOidcClaims({ iss: "https://idp" })).toBeNull();
    expect(readOidcClaims({ iss: "https://idp", sub: "x".repeat(256) })).toBeNull();
    expect(readOidcClaims({ iss: "https://idp", sub: "1", preferred_username: " al ", email_verified: "true" })).toMatchObject({
      iss: "https://idp",
      sub: "1",
      preferredUsername: "al",
      emailVerified: true,
    });
  });

  it("takes an email only when verified", () => {
    const c = (extra: Record<string, unknown>) => readOidcClaims({ iss: "https://idp", sub: "1", ...extra })!;
    expect(verifiedEmail(c({ email: "A@X.example", email_verified: true }))).toBe("a@x.example");
    expect(verifiedEmail(c({ email: "a@x.example" }))).toBeNull();
    expect(verifiedEmail(c({ email: "a@x.example", email_verified: false }))).toBeNull();
    expect(verifiedEmail(c({ email: "not an email", email_verified: true }))).toBeNull();
  });

  it("derives the login from preferred_username, else email, else name", () => {
    const c = (extra: Record<string, unknown>) => readOidcClaims({ iss: "https://idp", sub: "1", ...extra })!;
    expect(loginHint(c({ preferred_username: "p", email: "e@x", name: "n" }))).toBe("p");
    expect(loginHint(c({ email: "e@x", name: "n" }))).toBe("e@x");
    expect(loginHint(c({ name: "n" }))).toBe("n");
    expect(loginHint(c({}))).toBe("user");
  });

  it("compares issuers up to a trailing slash", () => {
    expect(issuerMatches("https://a/application/o/svc/", "https://a/application/o/svc")).toBe(true);
    expect(issuerMatches("https://a/realms/x", "https://a/realms/y")).toBe(false);
  });
});

describe("oidcFromEnv", () => {
  const base = { OIDC_ISSUER: "https://idp.example", OIDC_CLIENT_ID: "svc", OIDC_CLIENT_SECRET: "s" };
  it("needs issuer, client id and secret", () => {
    expect(oidcFromEnv({ ...base, OIDC_CLIENT_SECRET: "" })).toBeUndefined();
    expect(oidcFromEnv(base)).toEqual({
      ...{ issuer: "https://idp.example", clientId: "svc", clientSecret: "s" },
      scopes: "openid profile email",
      name: "Single sign-on",
    });
  });
  it("adds openid to the scopes and takes the name", () => {
    expect(oidcFromEnv({ ...base, OIDC_SCOPES: "profile groups", OIDC_NAME: "Keycloak" })).toMatchObject({
      scopes: "openid profile groups",
      name: "Keycloak",
    });
  });
  it("refuses an issuer that is not a URL", () => {
    expect(() => oidcFromEnv({ ...base, OIDC_ISSUER: "idp.example" })).toThrow(/OIDC_ISSUER/);
  });
});
