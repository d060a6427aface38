/**
 * issues router (spec "Issue router", all rows, plus the `move` extension for the board). Thin:
 * input schema + tier + one service call. Permission levels live in server/api/access.ts; the
 * read-level `create` and `addComment` apply the triage / comment rules in the service.
 * Procedures naming an issue, comment, label, template or view by id locate the repository
 * through `repoProcedureBy`. Shapes and rules: docs/issues.md.
 */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { router, publicProcedure, authedProcedure, repoProcedure, repoProcedureBy, type RepoLocatorDef } from "../trpc";
import { getActivity, getRepoActivity } from "@/server/services/issues/activity";
import { listGroupedByStatus, listPriorities, listStatuses } from "@/server/services/issues/board";
import { boardColumn, boardColumns } from "@/server/services/issues/board-page";
import { addComment, commentRepoId, deleteComment, listComments, updateComment } from "@/server/services/issues/comments";
import { createIssue } from "@/server/services/issues/create-issue";
import { listDueSoon, listOverdue } from "@/server/services/issues/due-dates";
import { getIssue } from "@/server/services/issues/get-issue";
import { addLabel, createLabel, deleteLabel, labelRepoId, listLabels, removeLabel, updateLabel } from "@/server/services/issues/labels";
import { countIssues, listIssues } from "@/server/services/issues/list-issues";
import { issueRepoId } from "@/server/services/issues/locate";
import { moveIssue } from "@/server/services/issues/move-issue";
import { addRelation, getRelations, isBlocked, markAsDuplicate, removeRelation } from "@/server/services/issues/relations";
import { createSubIssue, getSubIssueProgress, getSubIssues, removeParent, setParent } from "@/server/services/issues/sub-issues";
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  templateRepoId,
  updateTemplate,
} from "@/server/services/issues/templates";
import { bulkUpdateInput, bulkUpdateIssues } from "@/server/services/issues/bulk-update";
import { getTotalEstimate } from "@/server/services/issues/total-estimate";
import { acceptTriage, listTriage, rejectTriage } from "@/server/services/issues/triage";
import {
  clearDueDate,
  clearEstimate,
  closeIssue,
  reopenIssue,
  setDueDate,
  setEstimate,
  updateIssue,
  updatePriority,
  updateStatus,
} from "@/server/services/issues/update-issue";
import {
  VIEW_QUERY_COLUMNS,
  createView,
  deleteView,
  getIssuesByView,
  getView,
  listViews,
  updateView,
  viewQueryOf,
  viewRepoId,
} from "@/server/services/issues/views";
import * as s from "@/server/services/issues/schemas";
import { uuid } from "@/server/validation/ids";
import { listMineInput, listMyIssues } from "@/server/services/issues/mine";

const byIssueId: RepoLocatorDef<"issueId"> = { key: "issueId", what: "issue", repoIdOf: issueRepoId };
const byCommentId: RepoLocatorDef<"commentId"> = { key: "commentId", what: "comment", repoIdOf: commentRepoId };
const byLabelId: RepoLocatorDef<"labelId"> = { key: "labelId", what: "label", repoIdOf: labelRepoId };
const byTemplateId: RepoLocatorDef<"templateId"> = { key: "templateId", what: "template", repoIdOf: templateRepoId };
const byViewId: RepoLocatorDef<"viewId"> = { key: "viewId", what: "view", repoIdOf: viewRepoId };
/** getIssuesByView: the view's filters and sort come with the authorization query (one query instead of three). */
const byViewIdWithQuery: RepoLocatorDef<"viewId"> = { ...byViewId, via: { table: "IssueView", columns: VIEW_QUERY_COLUMNS } };

const num = s.byNumber;
const projectCycle = z.object({ projectId: uuid("projectId").optional(), cycleId: uuid("cycleId").optional() });
const page = (def: number) => ({ limit: s.limitOf(def, 100), offset: s.offset });

export const issuesRouter = router({
  // ---- issues ----
  /** Extension (dashboard): {filter: "assigned"|"created", state? ("open"), limit? (20)} → the caller's issues in repositories they can read, each with repo {id, owner, name}. */
  listMine: authedProcedure.input(listMineInput).query(({ ctx, input }) => listMyIssues(ctx.db, ctx.actor, input)),
  list: repoProcedure.input(s.listInput).query(({ ctx, input }) => listIssues(ctx.db, ctx.repo, input, ctx.actor?.user.id ?? null)),
  /** Extension: {open, closed} counts of issues matching the list filters (list pages). */
  counts: repoProcedure.input(s.countsInput).query(({ ctx, input }) => countIssues(ctx.db, ctx.repo, input, ctx.actor?.user.id ?? null)),
  get: repoProcedure.input(num).query(({ ctx, input }) => getIssue(ctx.db, ctx.repo, input.number)),
  create: repoProcedure.input(s.createInput).mutation(({ ctx, input }) => createIssue(ctx.db, ctx.actor, ctx.repo, input)),
  update: repoProcedureBy(byIssueId)
    .input(s.updateInput)
    .mutation(({ ctx, input }) => updateIssue(ctx.db, ctx.actor!, ctx.repo, ctx.entityId, input)),
  /** Extension: {repoId, numbers (1–100), patch: {status?, priority?, assigneeId?, dueDate?, estimate?, addLabels?, removeLabels?, projectId?, cycleId?, state?}} → the issues after the change; one transaction. */
  bulkUpdate: repoProcedure.input(bulkUpdateInput).mutation(({ ctx, input }) => bulkUpdateIssues(ctx.db, ctx.actor!, ctx.repo, input)),
  close: repoProcedure.input(num).mutation(({ ctx, input }) => closeIssue(ctx.db, ctx.actor!, ctx.repo, input.number)),
  reopen: repoProcedure.input(num).mutation(({ ctx, input }) => reopenIssue(ctx.db, ctx.actor!, ctx.repo, input.number)),
  updatePriority: repoProcedure
    .input(num.extend({ priority: s.priority }))
    .mutation(({ ctx, input }) => updatePriority(ctx.db, ctx.actor!, ctx.repo, input.number, input.priority)),
  setDueDate: repoProcedure
    .input(num.extend({ dueDate: s.dueDate }))
    .mutation(({ ctx, input }) => setDueDate(ctx.db, ctx.actor!, ctx.repo, input.number, input.dueDate)),
  clearDueDate: repoProcedure.input(num).mutation(({ ctx, input }) => clearDueDate(ctx.db, ctx.actor!, ctx.repo, input.number)),
  setEstimate: repoProcedure
    .input(num.extend({ estimate: s.estimate }))
    .mutation(({ ctx, input }) => setEstimate(ctx.db, ctx.actor!, ctx.repo, input.number, input.estimate)),
  clearEstimate: repoProcedure.input(num).mutation(({ ctx, input }) => clearEstimate(ctx.db, ctx.actor!, ctx.repo, input.number)),
  listOverdue: repoProcedure.input(z.object(page(50))).query(({ ctx, input }) => listOverdue(ctx.db, ctx.repo, input)),
  listDueSoon: repoProcedure
    .input(
      z.object({
        days: z
          .number({ error: "days must be a number" })
          .int("days must be an integer")
          .min(0, "days must not be negative")
          .max(365, "days is at most 365")
          .default(7),
        ...page(50),
      }),
    )
    .query(({ ctx, input }) => listDueSoon(ctx.db, ctx.repo, input.days, input)),
  getTotalEstimate: repoProcedure.input(projectCycle).query(({ ctx, input }) => getTotalEstimate(ctx.db, ctx.repo, input)),

  // ---- sub-issues and relations ----
  setParent: repoProcedure
    .input(num.extend({ parentNumber: s.issueNumber("parentNumber") }))
    .mutation(({ ctx, input }) => setParent(ctx.db, ctx.actor!, ctx.repo, input.number, input.parentNumber)),
  removeParent: repoProcedure.input(num).mutation(({ ctx, input }) => removeParent(ctx.db, ctx.actor!, ctx.repo, input.number)),
  getSubIssues: repoProcedure.input(num).query(({ ctx, input }) => getSubIssues(ctx.db, ctx.repo, input.number)),
  getSubIssueProgress: repoProcedure.input(num).query(({ ctx, input }) => getSubIssueProgress(ctx.db, ctx.repo, input.number)),
  createSubIssue: repoProcedure
    .input(s.createSubIssueInput)
    .mutation(({ ctx, input }) => createSubIssue(ctx.db, ctx.actor, ctx.repo, input)),
  addRelation: repoProcedure.input(s.relationInput).mutation(({ ctx, input }) => addRelation(ctx.db, ctx.actor!, ctx.repo, input)),
  removeRelation: repoProcedure.input(s.relationInput).mutation(({ ctx, input }) => removeRelation(ctx.db, ctx.actor!, ctx.repo, input)),
  getRelations: repoProcedure.input(num).query(({ ctx, input }) => getRelations(ctx.db, ctx.repo, input.number)),
  isBlocked: repoProcedure.input(num).query(({ ctx, input }) => isBlocked(ctx.db, ctx.repo, input.number)),
  markAsDuplicate: repoProcedure
    .input(z.object({ duplicateNumber: s.issueNumber("duplicateNumber"), canonicalNumber: s.issueNumber("canonicalNumber") }))
    .mutation(({ ctx, input }) => markAsDuplicate(ctx.db, ctx.actor!, ctx.repo, input)),

  // ---- comments ----
  addComment: repoProcedure
    .input(num.extend({ body: s.commentBody }))
    .mutation(({ ctx, input }) => addComment(ctx.db, ctx.actor, ctx.repo, input.number, input.body)),
  comments: repoProcedure.input(num).query(({ ctx, input }) => listComments(ctx.db, ctx.repo, input.number)),
  updateComment: repoProcedureBy(byCommentId)
    .input(z.object({ body: s.commentBody }))
    .mutation(({ ctx, input }) => updateComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input.body)),
  deleteComment: repoProcedureBy(byCommentId).mutation(({ ctx }) => deleteComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),

  // ---- labels ----
  listLabels: repoProcedure.query(({ ctx }) => listLabels(ctx.db, ctx.repo)),
  createLabel: repoProcedure
    .input(
      z.object({
        name: s.labelName,
        color: s.color,
        description: line("description").max(100, "description is at most 100 characters").optional(),
      }),
    )
    .mutation(({ ctx, input }) => createLabel(ctx.db, ctx.repo, input)),
  updateLabel: repoProcedureBy(byLabelId)
    .input(
      z.object({
        name: s.labelName.optional(),
        color: s.color.optional(),
        description: line("description").max(100, "description is at most 100 characters").nullable().optional(),
      }),
    )
    .mutation(({ ctx, input }) => updateLabel(ctx.db, ctx.repo, ctx.entityId, input)),
  deleteLabel: repoProcedureBy(byLabelId).mutation(({ ctx }) => deleteLabel(ctx.db, ctx.actor!, ctx.repo, ctx.entityId)),
  addLabel: repoProcedure
    .input(num.extend({ labelId: uuid("labelId") }))
    .mutation(({ ctx, input }) => addLabel(ctx.db, ctx.actor!, ctx.repo, input.number, input.labelId)),
  removeLabel: repoProcedure
    .input(num.extend({ labelId: uuid("labelId") }))
    .mutation(({ ctx, input }) => removeLabel(ctx.db, ctx.actor!, ctx.repo, input.number, input.labelId)),

  // ---- board and triage ----
  listGroupedByStatus: repoProcedure.input(projectCycle).query(({ ctx, input }) => listGroupedByStatus(ctx.db, ctx.repo, input)),
  /** Extension: {projectId?, cycleId?, limit? (1–100, 50)} → {columns: [{status, count, estimate, issues, nextCursor}]} in board order. */
  board: repoProcedure.input(s.boardInput).query(({ ctx, input }) => boardColumns(ctx.db, ctx.repo, input)),
  /** Extension: {status, projectId?, cycleId?, cursor?, limit? (1–100, 50)} → {status, count, estimate, issues, nextCursor}: the next page of one column. */
  boardColumn: repoProcedure.input(s.boardColumnInput).query(({ ctx, input }) => boardColumn(ctx.db, ctx.repo, input)),
  updateStatus: repoProcedure
    .input(num.extend({ status: s.status }))
    .mutation(({ ctx, input }) => updateStatus(ctx.db, ctx.actor!, ctx.repo, input.number, input.status)),
  move: repoProcedure.input(s.moveInput).mutation(({ ctx, input }) => moveIssue(ctx.db, ctx.actor!, ctx.repo, input)),
  statuses: repoProcedure.query(() => listStatuses()),
  priorities: publicProcedure.query(() => listPriorities()),
  listTriage: repoProcedure.input(z.object(page(50))).query(({ ctx, input }) => listTriage(ctx.db, ctx.repo, input)),
  acceptTriage: repoProcedure
    .input(num.extend({ targetStatus: s.status.optional(), priority: s.priority.optional() }))
    .mutation(({ ctx, input }) => acceptTriage(ctx.db, ctx.actor!, ctx.repo, input)),
  rejectTriage: repoProcedure
    .input(
      num.extend({
        reason: text("reason", "reason is required").trim().min(1, "reason is required").max(65_536, "reason is at most 65536 characters"),
      }),
    )
    .mutation(({ ctx, input }) => rejectTriage(ctx.db, ctx.actor!, ctx.repo, input)),

  // ---- activity ----
  getActivity: repoProcedure
    .input(num.extend({ limit: s.limitOf(50, 200) }))
    .query(({ ctx, input }) => getActivity(ctx.db, ctx.actor, ctx.repo, input.number, input.limit)),
  getRepoActivity: repoProcedure
    .input(z.object({ limit: s.limitOf(50, 200) }))
    .query(({ ctx, input }) => getRepoActivity(ctx.db, ctx.actor, ctx.repo, input.limit)),

  // ---- templates ----
  listTemplates: repoProcedure.query(({ ctx }) => listTemplates(ctx.db, ctx.repo)),
  getTemplate: repoProcedureBy(byTemplateId).query(({ ctx }) => getTemplate(ctx.db, ctx.repo, ctx.entityId)),
  createTemplate: repoProcedure.input(z.object(s.templateFields)).mutation(({ ctx, input }) => createTemplate(ctx.db, ctx.repo, input)),
  updateTemplate: repoProcedureBy(byTemplateId)
    .input(z.object({ ...s.templateFields, name: s.templateFields.name.optional() }))
    .mutation(({ ctx, input }) => updateTemplate(ctx.db, ctx.repo, ctx.entityId, input)),
  deleteTemplate: repoProcedureBy(byTemplateId).mutation(({ ctx }) => deleteTemplate(ctx.db, ctx.repo, ctx.entityId)),

  // ---- views ----
  listViews: repoProcedure.query(({ ctx }) => listViews(ctx.db, ctx.repo)),
  getView: repoProcedureBy(byViewId).query(({ ctx }) => getView(ctx.db, ctx.repo, ctx.entityId)),
  createView: repoProcedure.input(z.object(s.viewFields)).mutation(({ ctx, input }) => createView(ctx.db, ctx.actor!, ctx.repo, input)),
  updateView: repoProcedureBy(byViewId)
    .input(z.object({ name: s.viewFields.name.optional(), filters: s.viewFilters.optional(), sort: s.viewSort.nullable().optional() }))
    .mutation(({ ctx, input }) => updateView(ctx.db, ctx.repo, ctx.entityId, input)),
  deleteView: repoProcedureBy(byViewId).mutation(({ ctx }) => deleteView(ctx.db, ctx.repo, ctx.entityId)),
  getIssuesByView: repoProcedureBy(byViewIdWithQuery)
    .input(z.object(page(50)))
    .query(({ ctx, input }) => getIssuesByView(ctx.db, ctx.repo, ctx.entityId, input, ctx.actor?.user.id ?? null, viewQueryOf(ctx.entity))),
});
