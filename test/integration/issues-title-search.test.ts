/**
 * issues.list `titleSearch` (extension for the issue page's pickers): title contains the
 * text (case-insensitive, `%`/`_` literal) or the number is it; readers may search, strangers of a
 * private repository get NOT_FOUND, bad input is BAD_REQUEST. Runs on SQLite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { codeOf, issueWorld } from "./issues-fixtures";

describe("issues.list titleSearch", () => {
  it("finds issues by title text or by number, with the other filters", async () => {
    const w = await issueWorld();
    const { owner } = w.as;
    const repoId = w.repoId;
    const login = await owner.issues.create({ repoId, title: "Login button does nothing" });
    const dark = await owner.issues.create({ repoId, title: "Add dark mode" });
    const pct = await owner.issues.create({ repoId, title: "Progress shows 100% too early" });
    const under = await owner.issues.create({ repoId, title: "snake_case names" });
    await owner.issues.close({ repoId, number: dark.number });

    const found = async (input: Record<string, unknown>) => (await owner.issues.list({ repoId, ...input })).map((i) => i.number);
    expect(await found({ titleSearch: "LOGIN" })).toEqual([login.number]);
    expect(await found({ titleSearch: "  mode " })).toEqual([dark.number]);
    expect(await found({ titleSearch: "mode", state: "open" })).toEqual([]);
    expect(await found({ titleSearch: "o" })).toEqual([pct.number, dark.number, login.number]);
    // LIKE wildcards are literal
    expect(await found({ titleSearch: "100%" })).toEqual([pct.number]);
    expect(await found({ titleSearch: "%" })).toEqual([pct.number]);
    expect(await found({ titleSearch: "e_c" })).toEqual([under.number]);
    expect(await found({ titleSearch: "_" })).toEqual([under.number]);
    // a number (with or without #) matches the issue number as well as titles containing it
    expect(await found({ titleSearch: `#${dark.number}` })).toEqual([dark.number]);
    expect(await found({ titleSearch: "100" })).toEqual([pct.number]);
    expect(login.number).toBe(1);
    expect(await found({ titleSearch: "1" })).toEqual([pct.number, login.number]);
    expect(await found({ titleSearch: "#1" })).toEqual([login.number]);
    expect(await found({ titleSearch: "nothing here" })).toEqual([]);

    // readers search too; strangers of the private repository do not learn anything
    expect((await w.as.reader.issues.list({ repoId, titleSearch: "dark" })).map((i) => i.number)).toEqual([dark.number]);
    expect(await codeOf(w.as.stranger.issues.list({ repoId, titleSearch: "dark" }))).toBe("NOT_FOUND");
    for (const bad of ["", "   ", "x".repeat(101), "a\u0000b", 12, ["x"]]) {
      expect(await codeOf(owner.issues.list({ repoId, titleSearch: bad as never }))).toBe("BAD_REQUEST");
    }
  });
});
