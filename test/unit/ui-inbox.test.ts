/** Pure helpers of the inbox page (/inbox): which tab, state, repository and page the URL asks for, links back, labels. */
import { describe, expect, it } from "vitest";
import {
  INBOX_MAX_PAGE,
  countBadge,
  emptyState,
  inboxHref,
  inboxLinkLabel,
  inboxPage,
  inboxPageCount,
  inboxRepo,
  inboxTab,
  participatedState,
} from "@/components/inbox/model";
import { repoFromPath } from "@/components/keyboard/repo-path";

describe("inbox URL state", () => {
  it("reads ?tab= with Awaiting review as the default", () => {
    expect(inboxTab(undefined)).toBe("review");
    expect(inboxTab("mine")).toBe("mine");
    expect(inboxTab("participated")).toBe("participated");
    expect(inboxTab("everything")).toBe("review");
    expect(inboxTab(["mine"])).toBe("review");
  });

  it("reads ?state= of Participated with open as the default", () => {
    expect(participatedState(undefined)).toBe("open");
    expect(participatedState("closed")).toBe("closed");
    expect(participatedState("all")).toBe("all");
    expect(participatedState("merged")).toBe("open");
  });

  it("reads ?repo=owner/name and nothing else", () => {
    expect(inboxRepo("ada/engine")).toEqual({ owner: "ada", name: "engine" });
    expect(inboxRepo("ada/my.repo_v2")).toEqual({ owner: "ada", name: "my.repo_v2" });
    expect(inboxRepo("ada")).toBeNull();
    expect(inboxRepo("ada/engine/extra")).toBeNull();
    expect(inboxRepo("/engine")).toBeNull();
    expect(inboxRepo(undefined)).toBeNull();
    expect(inboxRepo(["ada/engine"])).toBeNull();
  });

  it("reads ?page= as a page from 1 to the last the API can serve", () => {
    expect(inboxPage(undefined)).toBe(1);
    expect(inboxPage("3")).toBe(3);
    expect(inboxPage("0")).toBe(1);
    expect(inboxPage("-2")).toBe(1);
    expect(inboxPage("2.5")).toBe(1);
    expect(inboxPage("9999999")).toBe(INBOX_MAX_PAGE);
    expect((INBOX_MAX_PAGE - 1) * 25).toBeLessThanOrEqual(1_000_000);
  });

  it("counts pages of 25 rows, at least one", () => {
    expect(inboxPageCount(0)).toBe(1);
    expect(inboxPageCount(25)).toBe(1);
    expect(inboxPageCount(26)).toBe(2);
  });

  it("writes links leaving defaults out, and state only on Participated", () => {
    expect(inboxHref({})).toBe("/inbox");
    expect(inboxHref({ tab: "review", state: "closed", page: 1 })).toBe("/inbox");
    expect(inboxHref({ tab: "mine", repo: "ada/engine", page: 2 })).toBe("/inbox?tab=mine&repo=ada%2Fengine&page=2");
    expect(inboxHref({ tab: "participated", state: "all" })).toBe("/inbox?tab=participated&state=all");
    expect(inboxHref({ tab: "participated", state: "open" })).toBe("/inbox?tab=participated");
  });
});

describe("inbox labels", () => {
  it("names the top bar link with the count, and caps the badge", () => {
    expect(inboxLinkLabel(0)).toBe("Inbox");
    expect(inboxLinkLabel(3)).toBe("Inbox, 3 awaiting your review");
    expect(countBadge(7)).toBe("7");
    expect(countBadge(100)).toBe("99+");
  });

  it("gives each list its own empty state, naming the repository filter", () => {
    const titles = new Set([
      emptyState("review", "open", null).title,
      emptyState("mine", "open", null).title,
      emptyState("participated", "open", null).title,
    ]);
    expect(titles.size).toBe(3);
    expect(emptyState("review", "open", "ada/engine").title).toContain("in ada/engine");
    expect(emptyState("participated", "closed", null).title).toBe("No closed pull requests you took part in.");
    expect(emptyState("participated", "all", null).title).toBe("No pull requests you took part in.");
  });

  it("/inbox is not a repository path for the repository shortcuts", () => {
    expect(repoFromPath("/inbox/anything")).toBeNull();
  });
});
