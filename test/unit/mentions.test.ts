/** lib/mentions.ts: who a body mentions, by the rule the Markdown renderer links `@user` with. */
import { describe, expect, it } from "vitest";
import { parseMentions } from "@/lib/mentions";

describe("parseMentions", () => {
  it("finds users and teams, lower-cased, each once", () => {
    expect(parseMentions("hi @Alice and @bob, also @alice; team @Acme/Core-Team!")).toEqual({
      users: ["alice", "bob"],
      teams: [{ org: "acme", team: "core-team" }],
    });
  });

  it("skips e-mail addresses, paths, code spans and fenced blocks, and reserved names", () => {
    const body = ["mail bob@example.com or /@x", "`@inline`", "```", "@fenced", "```", "@settings @api", "ok @carol."].join("\n");
    expect(parseMentions(body)).toEqual({ users: ["carol"], teams: [] });
  });

  it("refuses names that are not usernames", () => {
    expect(parseMentions("@-dash @a--b @" + "x".repeat(40)).users).toEqual([]);
  });
});
