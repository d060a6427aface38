/** issues.get: one issue with the numbers of the issues related to it. */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { issueByNumber, issueViewById } from "./core";
import type { IssueView } from "./shapes";
import { getRelationNumbers, type Relations } from "./relation-numbers";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** issues.get: the issue plus `relations` {blocking, blockedBy, related, duplicates, duplicatedBy}. NOT_FOUND. */
export async function getIssue(db: Db, repo: Repo, number: number): Promise<IssueView & { relations: Relations }> {
  const issue = await issueByNumber(db, repo.id, number);
  const [view, relations] = await Promise.all([issueViewById(db, issue), getRelationNumbers(db, issue.id)]);
  return { ...view, relations };
}
