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
import * as issues from "@/server/services/issues";
import * as s from "@/server/services/issues/schemas";
import { uuid } from "@/server/validation/ids";
import { listMineInput, listMyIssues } from "@/server/services/issues/mine";

const byIssueId: RepoLocatorDef<"issueId"> = { key: "issueId", what: "issue", repoIdOf: issues.issueRepoId };
const byCommentId: RepoLocatorDef<"commentId"> = { key: "commentId", what: "comment", repoIdOf: issues.commentRepoId };
const byLabelId: RepoLocatorDef<"labelId"> = { key: "labelId", what: "label", repoIdOf: issues.labelRepoId };
const byTemplateId: RepoLocatorDef<"templateId"> = { key: "templateId", what: "template", repoIdOf: issues.templateRepoId };
const byViewId: RepoLocatorDef<"viewId"> = { key: "viewId", what: "view", repoIdOf: issues.viewRepoId };
/** getIssuesByView: the view's filters and sort come with the authorization query (one query instead of three). */
const byViewIdWithQuery: RepoLocatorDef<"viewId"> = { ...byViewId, via: { table: "IssueView", columns: issues.VIEW_QUERY_COLUMNS } };

const num = s.byNumber;
const projectCycle = z.object({ projectId: uuid("projectId").optional(), cycleId: uuid("cycleId").optional() });
const page = (def: number) => ({ limit: s.limitOf(def, 100), offset: s.offset });

export const issuesRouter = router({
  // ---- issues ----
  /** Extension (issue #7, dashboard): {filter: "assigned"|"created", state? ("open"), limit? (20)} → the caller's issues in repositories they can read, each with repo {id, owner, name}. */
  listMine: authedProcedure.input(listMineInput).query(({ ctx, input }) => listMyIssues(ctx.db, ctx.actor, input)),
  list: repoProcedure.input(s.listInput).query(({ ctx, input }) => issues.listIssues(ctx.db, ctx.repo, input, ctx.actor?.user.id ?? null)),
  /** Extension: {open, closed} counts of issues matching the list filters (list pages). */
  counts: repoProcedure
    .input(s.countsInput)
    .query(({ ctx, input }) => issues.countIssues(ctx.db, ctx.repo, input, ctx.actor?.user.id ?? null)),
  get: repoProcedure.input(num).query(({ ctx, input }) => issues.getIssue(ctx.db, ctx.repo, input.number)),
  create: repoProcedure.input(s.createInput).mutation(({ ctx, input }) => issues.createIssue(ctx.db, ctx.actor, ctx.repo, input)),
  update: repoProcedureBy(byIssueId)
    .input(s.updateInput)
    .mutation(({ ctx, input }) => issues.updateIssue(ctx.db, ctx.actor!, ctx.repo, ctx.entityId, input)),
  close: repoProcedure.input(num).mutation(({ ctx, input }) => issues.closeIssue(ctx.db, ctx.actor!, ctx.repo, input.number)),
  reopen: repoProcedure.input(num).mutation(({ ctx, input }) => issues.reopenIssue(ctx.db, ctx.actor!, ctx.repo, input.number)),
  updatePriority: repoProcedure
    .input(num.extend({ priority: s.priority }))
    .mutation(({ ctx, input }) => issues.updatePriority(ctx.db, ctx.actor!, ctx.repo, input.number, input.priority)),
  setDueDate: repoProcedure
    .input(num.extend({ dueDate: s.dueDate }))
    .mutation(({ ctx, input }) => issues.setDueDate(ctx.db, ctx.actor!, ctx.repo, input.number, input.dueDate)),
  clearDueDate: repoProcedure.input(num).mutation(({ ctx, input }) => issues.clearDueDate(ctx.db, ctx.actor!, ctx.repo, input.number)),
  setEstimate: repoProcedure
    .input(num.extend({ estimate: s.estimate }))
    .mutation(({ ctx, input }) => issues.setEstimate(ctx.db, ctx.actor!, ctx.repo, input.number, input.estimate)),
  clearEstimate: repoProcedure.input(num).mutation(({ ctx, input }) => issues.clearEstimate(ctx.db, ctx.actor!, ctx.repo, input.number)),
  listOverdue: repoProcedure.input(z.object(page(50))).query(({ ctx, input }) => issues.listOverdue(ctx.db, ctx.repo, input)),
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
    .query(({ ctx, input }) => issues.listDueSoon(ctx.db, ctx.repo, input.days, input)),
  getTotalEstimate: repoProcedure.input(projectCycle).query(({ ctx, input }) => issues.getTotalEstimate(ctx.db, ctx.repo, input)),

  // ---- sub-issues and relations ----
  setParent: repoProcedure
    .input(num.extend({ parentNumber: s.issueNumber("parentNumber") }))
    .mutation(({ ctx, input }) => issues.setParent(ctx.db, ctx.actor!, ctx.repo, input.number, input.parentNumber)),
  removeParent: repoProcedure.input(num).mutation(({ ctx, input }) => issues.removeParent(ctx.db, ctx.actor!, ctx.repo, input.number)),
  getSubIssues: repoProcedure.input(num).query(({ ctx, input }) => issues.getSubIssues(ctx.db, ctx.repo, input.number)),
  getSubIssueProgress: repoProcedure.input(num).query(({ ctx, input }) => issues.getSubIssueProgress(ctx.db, ctx.repo, input.number)),
  createSubIssue: repoProcedure
    .input(s.createSubIssueInput)
    .mutation(({ ctx, input }) => issues.createSubIssue(ctx.db, ctx.actor, ctx.repo, input)),
  addRelation: repoProcedure.input(s.relationInput).mutation(({ ctx, input }) => issues.addRelation(ctx.db, ctx.actor!, ctx.repo, input)),
  removeRelation: repoProcedure
    .input(s.relationInput)
    .mutation(({ ctx, input }) => issues.removeRelation(ctx.db, ctx.actor!, ctx.repo, input)),
  getRelations: repoProcedure.input(num).query(({ ctx, input }) => issues.getRelations(ctx.db, ctx.repo, input.number)),
  isBlocked: repoProcedure.input(num).query(({ ctx, input }) => issues.isBlocked(ctx.db, ctx.repo, input.number)),
  markAsDuplicate: repoProcedure
    .input(z.object({ duplicateNumber: s.issueNumber("duplicateNumber"), canonicalNumber: s.issueNumber("canonicalNumber") }))
    .mutation(({ ctx, input }) => issues.markAsDuplicate(ctx.db, ctx.actor!, ctx.repo, input)),

  // ---- comments ----
  addComment: repoProcedure
    .input(num.extend({ body: s.commentBody }))
    .mutation(({ ctx, input }) => issues.addComment(ctx.db, ctx.actor, ctx.repo, input.number, input.body)),
  comments: repoProcedure.input(num).query(({ ctx, input }) => issues.listComments(ctx.db, ctx.repo, input.number)),
  updateComment: repoProcedureBy(byCommentId)
    .input(z.object({ body: s.commentBody }))
    .mutation(({ ctx, input }) => issues.updateComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input.body)),
  deleteComment: repoProcedureBy(byCommentId).mutation(({ ctx }) => issues.deleteComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),

  // ---- labels ----
  listLabels: repoProcedure.query(({ ctx }) => issues.listLabels(ctx.db, ctx.repo)),
  createLabel: repoProcedure
    .input(
      z.object({
        name: s.labelName,
        color: s.color,
        description: line("description").max(100, "description is at most 100 characters").optional(),
      }),
    )
    .mutation(({ ctx, input }) => issues.createLabel(ctx.db, ctx.repo, input)),
  updateLabel: repoProcedureBy(byLabelId)
    .input(
      z.object({
        name: s.labelName.optional(),
        color: s.color.optional(),
        description: line("description").max(100, "description is at most 100 characters").nullable().optional(),
      }),
    )
    .mutation(({ ctx, input }) => issues.updateLabel(ctx.db, ctx.repo, ctx.entityId, input)),
  deleteLabel: repoProcedureBy(byLabelId).mutation(({ ctx }) => issues.deleteLabel(ctx.db, ctx.actor!, ctx.repo, ctx.entityId)),
  addLabel: repoProcedure
    .input(num.extend({ labelId: uuid("labelId") }))
    .mutation(({ ctx, input }) => issues.addLabel(ctx.db, ctx.actor!, ctx.repo, input.number, input.labelId)),
  removeLabel: repoProcedure
    .input(num.extend({ labelId: uuid("labelId") }))
    .mutation(({ ctx, input }) => issues.removeLabel(ctx.db, ctx.actor!, ctx.repo, input.number, input.labelId)),

  // ---- board and triage ----
  listGroupedByStatus: repoProcedure.input(projectCycle).query(({ ctx, input }) => issues.listGroupedByStatus(ctx.db, ctx.repo, input)),
  /** Extension (issue #7): {projectId?, cycleId?, limit? (1–100, 50)} → {columns: [{status, count, estimate, issues, nextCursor}]} in board order. */
  board: repoProcedure.input(s.boardInput).query(({ ctx, input }) => issues.boardColumns(ctx.db, ctx.repo, input)),
  /** Extension (issue #7): {status, projectId?, cycleId?, cursor?, limit? (1–100, 50)} → {status, count, estimate, issues, nextCursor}: the next page of one column. */
  boardColumn: repoProcedure.input(s.boardColumnInput).query(({ ctx, input }) => issues.boardColumn(ctx.db, ctx.repo, input)),
  updateStatus: repoProcedure
    .input(num.extend({ status: s.status }))
    .mutation(({ ctx, input }) => issues.updateStatus(ctx.db, ctx.actor!, ctx.repo, input.number, input.status)),
  move: repoProcedure.input(s.moveInput).mutation(({ ctx, input }) => issues.moveIssue(ctx.db, ctx.actor!, ctx.repo, input)),
  statuses: repoProcedure.query(() => issues.listStatuses()),
  priorities: publicProcedure.query(() => issues.listPriorities()),
  listTriage: repoProcedure.input(z.object(page(50))).query(({ ctx, input }) => issues.listTriage(ctx.db, ctx.repo, input)),
  acceptTriage: repoProcedure
    .input(num.extend({ targetStatus: s.status.optional(), priority: s.priority.optional() }))
    .mutation(({ ctx, input }) => issues.acceptTriage(ctx.db, ctx.actor!, ctx.repo, input)),
  rejectTriage: repoProcedure
    .input(
      num.extend({
        reason: text("reason", "reason is required").trim().min(1, "reason is required").max(65_536, "reason is at most 65536 characters"),
      }),
    )
    .mutation(({ ctx, input }) => issues.rejectTriage(ctx.db, ctx.actor!, ctx.repo, input)),

  // ---- activity ----
  getActivity: repoProcedure
    .input(num.extend({ limit: s.limitOf(50, 200) }))
    .query(({ ctx, input }) => issues.getActivity(ctx.db, ctx.repo, input.number, input.limit)),
  getRepoActivity: repoProcedure
    .input(z.object({ limit: s.limitOf(50, 200) }))
    .query(({ ctx, input }) => issues.getRepoActivity(ctx.db, ctx.repo, input.limit)),

  // ---- templates ----
  listTemplates: repoProcedure.query(({ ctx }) => issues.listTemplates(ctx.db, ctx.repo)),
  getTemplate: repoProcedureBy(byTemplateId).query(({ ctx }) => issues.getTemplate(ctx.db, ctx.repo, ctx.entityId)),
  createTemplate: repoProcedure
    .input(z.object(s.templateFields))
    .mutation(({ ctx, input }) => issues.createTemplate(ctx.db, ctx.repo, input)),
  updateTemplate: repoProcedureBy(byTemplateId)
    .input(z.object({ ...s.templateFields, name: s.templateFields.name.optional() }))
    .mutation(({ ctx, input }) => issues.updateTemplate(ctx.db, ctx.repo, ctx.entityId, input)),
  deleteTemplate: repoProcedureBy(byTemplateId).mutation(({ ctx }) => issues.deleteTemplate(ctx.db, ctx.repo, ctx.entityId)),

  // ---- views ----
  listViews: repoProcedure.query(({ ctx }) => issues.listViews(ctx.db, ctx.repo)),
  getView: repoProcedureBy(byViewId).query(({ ctx }) => issues.getView(ctx.db, ctx.repo, ctx.entityId)),
  createView: repoProcedure
    .input(z.object(s.viewFields))
    .mutation(({ ctx, input }) => issues.createView(ctx.db, ctx.actor!, ctx.repo, input)),
  updateView: repoProcedureBy(byViewId)
    .input(z.object({ name: s.viewFields.name.optional(), filters: s.viewFilters.optional(), sort: s.viewSort.nullable().optional() }))
    .mutation(({ ctx, input }) => issues.updateView(ctx.db, ctx.repo, ctx.entityId, input)),
  deleteView: repoProcedureBy(byViewId).mutation(({ ctx }) => issues.deleteView(ctx.db, ctx.repo, ctx.entityId)),
  getIssuesByView: repoProcedureBy(byViewIdWithQuery)
    .input(z.object(page(50)))
    .query(({ ctx, input }) =>
      issues.getIssuesByView(ctx.db, ctx.repo, ctx.entityId, input, ctx.actor?.user.id ?? null, issues.viewQueryOf(ctx.entity)),
    ),
});
