/**
 * projects and cycles routers (spec: "not shown"; minimal so the issue filters by project and
 * cycle are real: docs/issues.md "Projects and cycles"). Write permission creates, read permission
 * lists and reads; lists carry exact issue counts for the projects and cycles pages.
 */
import { z } from "zod";
import { line } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { router, repoProcedure } from "../trpc";
import { createProject, getProject, listProjects } from "@/server/services/projects/projects";
import { createCycle, listCycles } from "@/server/services/cycles/cycles";
import { addIssueTo, removeIssueFrom } from "@/server/services/projects/assign";
import { issueNumber } from "@/server/services/issues/schemas";

const isoDate = (field: string) =>
  line(field, `${field} must be an ISO date or date-time string`)
    .max(40, `${field} must be an ISO date`)
    .transform((v, ctx) => {
      const t = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(v) ? Date.parse(v) : NaN;
      if (Number.isNaN(t)) {
        ctx.addIssue({ code: "custom", message: `${field} must be an ISO date or date-time string` });
        return z.NEVER;
      }
      return new Date(t);
    });

export const projectsRouter = router({
  /** {repoId, name} → {id, repoId, name, createdAt}. CONFLICT for a taken name. */
  create: repoProcedure
    .input(z.object({ name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters") }))
    .mutation(({ ctx, input }) => createProject(ctx.db, ctx.repo, input.name)),
  /** {repoId} → projects by name, each with issues {total, open, done, canceled} (extension). */
  list: repoProcedure.query(({ ctx }) => listProjects(ctx.db, ctx.repo)),
  /** Extension: {repoId, projectId} → the project with its issue counts. NOT_FOUND. */
  get: repoProcedure
    .input(z.object({ projectId: uuid("projectId") }))
    .query(({ ctx, input }) => getProject(ctx.db, ctx.repo, input.projectId)),
  /** Extension: {repoId, projectId, number} → the issue, now in the project (moved from another). NOT_FOUND. */
  addIssue: repoProcedure
    .input(z.object({ projectId: uuid("projectId"), number: issueNumber() }))
    .mutation(({ ctx, input }) => addIssueTo(ctx.db, ctx.actor!, ctx.repo, "project", input.projectId, input.number)),
  /** Extension: {repoId, projectId, number} → the issue, out of the project (a no-op if it was not in it). NOT_FOUND. */
  removeIssue: repoProcedure
    .input(z.object({ projectId: uuid("projectId"), number: issueNumber() }))
    .mutation(({ ctx, input }) => removeIssueFrom(ctx.db, ctx.actor!, ctx.repo, "project", input.projectId, input.number)),
});

export const cyclesRouter = router({
  /** {repoId, number?, name?, startsAt, endsAt} → {id, repoId, number, name, startsAt, endsAt, createdAt}. */
  create: repoProcedure
    .input(
      z.object({
        number: z
          .number({ error: "number must be a number" })
          .int("number must be an integer")
          .min(1, "number must be at least 1")
          .max(1_000_000, "number is too large")
          .optional(),
        name: line("name").trim().min(1, "name must not be empty").max(100, "name is at most 100 characters").optional(),
        startsAt: isoDate("startsAt"),
        endsAt: isoDate("endsAt"),
      }),
    )
    .mutation(({ ctx, input }) => createCycle(ctx.db, ctx.repo, input)),
  /** {repoId} → cycles by number, each with issues {total, open, done, canceled} and timing (upcoming|current|past) (extension). */
  list: repoProcedure.query(({ ctx }) => listCycles(ctx.db, ctx.repo)),
  /** Extension: {repoId, cycleId, number} → the issue, now in the cycle (moved from another). NOT_FOUND. */
  addIssue: repoProcedure
    .input(z.object({ cycleId: uuid("cycleId"), number: issueNumber() }))
    .mutation(({ ctx, input }) => addIssueTo(ctx.db, ctx.actor!, ctx.repo, "cycle", input.cycleId, input.number)),
  /** Extension: {repoId, cycleId, number} → the issue, out of the cycle (a no-op if it was not in it). NOT_FOUND. */
  removeIssue: repoProcedure
    .input(z.object({ cycleId: uuid("cycleId"), number: issueNumber() }))
    .mutation(({ ctx, input }) => removeIssueFrom(ctx.db, ctx.actor!, ctx.repo, "cycle", input.cycleId, input.number)),
});
