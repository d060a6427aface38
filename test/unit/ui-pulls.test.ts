/** Pure helpers of the pull request pages: list state, paging and links, sentences, default messages. */
import { describe, expect, it } from "vitest";
import { listHref, listPage, listState, mergeSentence, pullUrl, suggestedBody, suggestedTitle } from "@/components/pulls/model";
import { defaultMergeMessage } from "@/components/pulls/merge-message";
import { eventSentence } from "@/components/pulls/timeline";
import { pullLook } from "@/components/pulls/ui";

describe("pull request list state", () => {
  it("reads ?state= with open as the default and ignores anything else", () => {
    expect(listState(undefined)).toBe("open");
    expect(listState("merged")).toBe("merged");
    expect(listState("closed")).toBe("closed");
    expect(listState(["closed"])).toBe("open");
    expect(listState("all")).toBe("open");
  });

  it("clamps the page to the pages there are", () => {
    expect(listPage(undefined, 0)).toEqual({ page: 1, pageCount: 1 });
    expect(listPage("3", 60)).toEqual({ page: 3, pageCount: 3 });
    expect(listPage("9", 60)).toEqual({ page: 3, pageCount: 3 });
    expect(listPage("-1", 60)).toEqual({ page: 1, pageCount: 3 });
    expect(listPage("1e9", 60)).toEqual({ page: 1, pageCount: 3 });
  });

  it("builds list links leaving defaults out", () => {
    expect(listHref("/a/b/pulls", { state: "open" })).toBe("/a/b/pulls");
    expect(listHref("/a/b/pulls", { state: "merged", author: "ann", page: 2 })).toBe("/a/b/pulls?state=merged&author=ann&page=2");
    expect(pullUrl("a b", "r", 4, "files")).toBe("/a%20b/r/pulls/4/files");
  });
});

describe("pull request sentences", () => {
  it("says what the pull request does with its commits", () => {
    expect(mergeSentence({ state: "open" }, 1)).toBe("wants to merge 1 commit into");
    expect(mergeSentence({ state: "merged" }, 3)).toBe("merged 3 commits into");
  });

  it("tells the four looks apart", () => {
    expect(pullLook({ state: "open", isDraft: false })).toBe("open");
    expect(pullLook({ state: "open", isDraft: true })).toBe("draft");
    expect(pullLook({ state: "merged", isDraft: true })).toBe("merged");
    expect(pullLook({ state: "closed", isDraft: false })).toBe("closed");
  });

  it("turns timeline events into sentences and skips unknown ones", () => {
    const at = "2026-11-23T10:00:00.000Z";
    const actor = { username: "ann" };
    expect(eventSentence({ id: 1, type: "pushed", data: { commits: 2, after: "a".repeat(40) }, actor, createdAt: at })).toMatchObject({
      who: "ann",
      text: "pushed 2 commits",
      sha: "aaaaaaa",
    });
    expect(
      eventSentence({ id: 2, type: "merged", data: { strategy: "squash", mergeSha: "b".repeat(40) }, actor, createdAt: at }),
    ).toMatchObject({ text: "merged this pull request (squash)", tone: "merged" });
    expect(
      eventSentence({ id: 3, type: "edited", data: { field: "title", from: "a", to: "b" }, actor: null, createdAt: at }),
    ).toMatchObject({ who: "svc", text: "changed the title from “a” to “b”" });
    expect(eventSentence({ id: 5, type: "auto_merge_enabled", data: { strategy: "squash" }, actor, createdAt: at })).toMatchObject({
      who: "ann",
      text: "enabled auto-merge (squash)",
    });
    expect(
      eventSentence({ id: 6, type: "auto_merge_disabled", data: { reason: "disabled manually" }, actor, createdAt: at }),
    ).toMatchObject({
      text: "disabled auto-merge",
    });
    expect(
      eventSentence({ id: 7, type: "auto_merge_disabled", data: { reason: "the pull request was closed" }, actor: null, createdAt: at }),
    ).toMatchObject({ who: "svc", text: "disabled auto-merge: the pull request was closed" });
    expect(eventSentence({ id: 4, type: "future_thing", data: {}, actor, createdAt: at })).toBeNull();
  });
});

describe("defaults of the create form and the merge box", () => {
  it("proposes the only commit's subject, else the branch name in words", () => {
    expect(suggestedTitle("feature/fix-login", [{ message: "Fix login\n\nbody" }])).toBe("Fix login");
    expect(suggestedTitle("feature/fix-login_page", [{ message: "a" }, { message: "b" }])).toBe("Fix login page");
  });

  it("proposes the only commit's body as the description, nothing for several commits (issue #22 item 9)", () => {
    expect(suggestedBody([{ message: "Fix login\n\nThe body\n\nmore\n" }])).toBe("The body\n\nmore");
    expect(suggestedBody([{ message: "Fix login\nno blank line" }])).toBe("no blank line");
    expect(suggestedBody([{ message: "Fix login" }])).toBe("");
    expect(suggestedBody([{ message: "a\n\nbody a" }, { message: "b\n\nbody b" }])).toBe("");
    expect(suggestedBody([])).toBe("");
  });

  it("prefills merge and squash messages as GitHub does", () => {
    const pr = {
      number: 7,
      title: "Add docs",
      sourceBranch: "docs",
      sourceOwner: "ann",
      commits: [{ message: "one\n\nmore" }, { message: "two" }],
    };
    expect(defaultMergeMessage("merge", pr)).toBe("Merge pull request #7 from ann/docs\n\nAdd docs");
    expect(defaultMergeMessage("squash", pr)).toBe("Add docs (#7)\n\n* one\n* two");
    expect(defaultMergeMessage("rebase", pr)).toBe("");
  });
});
