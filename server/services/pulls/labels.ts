/**
 * pulls.labels / pulls.addLabel / pulls.removeLabel (docs/pulls.md "Pages", the sidebar): pull
 * requests carry the repository's issue labels (the same Label rows; create them with
 * issues.createLabel). Labelling needs write permission (GitHub: triage or write; svc has no triage
 * role), from the access table. A label of another repository is NOT_FOUND. Adding a label already
 * there or removing one that is not changes nothing (as issues.addLabel/removeLabel); otherwise the
 * timeline gets `labeled` / `unlabeled` {label {id, name, color}} in the same transaction. At most
 * 50 labels per pull request (the issue cap).
 */
import { type Tx, inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { labelSelect, type LabelView } from "@/server/services/issues/shapes";
import { MAX_LABELS_PER_ISSUE } from "@/server/services/issues/labels";
import { loadPull } from "./locate";
import { recordPullEvent } from "./events";
import type { ReviewRepo } from "./review-context";
import { emitPullRequestEvent, webhookLabel } from "@/server/services/webhooks/domain-events";

type Repo = Pick<ReviewRepo, "id">;

async function labelsOf(db: Db | Tx, prId: string): Promise<LabelView[]> {
  const rows = await db.pullRequestLabel.findMany({
    where: { pullRequestId: prId },
    select: { label: { select: labelSelect } },
    orderBy: { label: { nameLower: "asc" } },
  });
  return rows.map((r) => r.label);
}

async function repoLabel(db: Db | Tx, repo: Repo, labelId: string) {
  const label = await db.label.findFirst({ where: { id: labelId, repoId: repo.id }, select: { id: true, name: true, color: true } });
  if (!label) throw new AppError("NOT_FOUND", "label not found");
  return label;
}

/** pulls.labels {prId} → the pull request's labels by name [{id, name, color, description}]. */
export async function listPullLabels(db: Db, repo: Repo, prId: string): Promise<LabelView[]> {
  const pr = await loadPull(db, repo, prId);
  return labelsOf(db, pr.id);
}

/** pulls.addLabel {prId, labelId} → the labels. NOT_FOUND (pull request or label), BAD_REQUEST past 50 labels. */
export async function addPullLabel(db: Db, actor: Actor, repo: Repo, prId: string, labelId: string): Promise<LabelView[]> {
  const pr = await loadPull(db, repo, prId);
  return inTransaction(db, async (tx) => {
    const label = await repoLabel(tx, repo, labelId);
    const has = await tx.pullRequestLabel.findUnique({
      where: { pullRequestId_labelId: { pullRequestId: pr.id, labelId } },
      select: { labelId: true },
    });
    if (!has) {
      // touching the row first locks it (PostgreSQL), so concurrent adds count in turn
      await tx.pullRequest.update({ where: { id: pr.id }, data: { updatedAt: new Date() } });
      if ((await tx.pullRequestLabel.count({ where: { pullRequestId: pr.id } })) >= MAX_LABELS_PER_ISSUE)
        throw new AppError("BAD_REQUEST", `a pull request has at most ${MAX_LABELS_PER_ISSUE} labels; remove one first`);
      await tx.pullRequestLabel.create({ data: { pullRequestId: pr.id, labelId } });
      await recordPullEvent(tx, pr.id, "labeled", { label }, actor.user.id);
      await emitPullRequestEvent(tx, repo.id, "labeled", actor.user, pr.id, { label: webhookLabel(label) });
    }
    return labelsOf(tx, pr.id);
  });
}

/** pulls.removeLabel {prId, labelId} → the labels. NOT_FOUND for an unknown pull request or a label of another repository. */
export async function removePullLabel(db: Db, actor: Actor, repo: Repo, prId: string, labelId: string): Promise<LabelView[]> {
  const pr = await loadPull(db, repo, prId);
  return inTransaction(db, async (tx) => {
    const label = await repoLabel(tx, repo, labelId);
    const removed = await tx.pullRequestLabel.deleteMany({ where: { pullRequestId: pr.id, labelId } });
    if (removed.count) {
      await tx.pullRequest.update({ where: { id: pr.id }, data: { updatedAt: new Date() } });
      await recordPullEvent(tx, pr.id, "unlabeled", { label }, actor.user.id);
      await emitPullRequestEvent(tx, repo.id, "unlabeled", actor.user, pr.id, { label: webhookLabel(label) });
    }
    return labelsOf(tx, pr.id);
  });
}
