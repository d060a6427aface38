import { describe, expect, it } from "vitest";
import { conversationItems, eventSentence, reviewSentence, type PullEvent } from "@/components/pulls/timeline";
import { reviewerState } from "@/components/pulls/review-state";
import { commentPermissions } from "@/components/pulls/review-comment";

const ev = (id: number, type: string, createdAt: string, data: Record<string, unknown> = {}): PullEvent => ({
  id,
  type,
  data,
  actor: { username: "alice" },
  createdAt,
});

describe("the conversation timeline", () => {
  it("merges events, reviews and threads oldest first; an event sorts before a review of the same instant", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const items = conversationItems(
      [
        ev(1, "opened", at(0)),
        ev(2, "pushed", at(5), { commits: 1 }),
        ev(3, "reviewed", at(5)),
        ev(4, "labeled", at(9), { label: { name: "bug" } }),
      ],
      [{ id: "r1", createdAt: at(5) }],
      [
        { id: "t1", createdAt: at(7), isPending: false },
        { id: "t2", createdAt: at(8), isPending: true },
      ],
    );
    expect(items.map((i) => i.key)).toEqual(["e1", "e2", "rr1", "tt1", "e4"]);
  });

  it("says what reviews, review requests and labels did", () => {
    expect(reviewSentence("approved").text).toBe("approved these changes");
    expect(reviewSentence("changes_requested").text).toBe("requested changes");
    expect(reviewSentence("commented").text).toBe("reviewed");
    expect(eventSentence(ev(1, "review_requested", "", { reviewer: { username: "bob" } }))?.text).toBe("requested a review from bob");
    expect(eventSentence(ev(1, "review_request_removed", "", { reviewer: { username: "bob" } }))?.text).toBe(
      "removed the review request for bob",
    );
    expect(eventSentence(ev(1, "unlabeled", "", { label: { name: "bug" } }))?.text).toBe("removed the bug label");
    expect(eventSentence(ev(1, "reviewed", ""))).toBeNull();
  });

  it("shows a reviewer's state: a pending request wins over an older verdict", () => {
    expect(reviewerState({ requested: true, state: null })).toBe("pending");
    expect(reviewerState({ requested: true, state: "approved" })).toBe("pending");
    expect(reviewerState({ requested: false, state: "approved" })).toBe("approved");
    expect(reviewerState({ requested: false, state: "changes_requested" })).toBe("changes_requested");
    expect(reviewerState({ requested: false, state: "commented" })).toBe("commented");
  });

  it("offers Edit to a comment's author only and Delete to its author or a writer, as the services allow", () => {
    const me = { id: "u1", username: "me" };
    const mine = { author: { id: "u1", username: "me", name: null }, isDeleted: false };
    const theirs = { author: { id: "u2", username: "other", name: null }, isDeleted: false };
    expect(commentPermissions(mine, { me, canWrite: false })).toEqual({ canEdit: true, canDelete: true });
    expect(commentPermissions(theirs, { me, canWrite: false })).toEqual({ canEdit: false, canDelete: false });
    expect(commentPermissions(theirs, { me, canWrite: true })).toEqual({ canEdit: false, canDelete: true });
    expect(commentPermissions({ author: null, isDeleted: true }, { me, canWrite: true })).toEqual({ canEdit: false, canDelete: false });
    expect(commentPermissions(mine, { me: null, canWrite: true })).toEqual({ canEdit: false, canDelete: false });
  });
});
