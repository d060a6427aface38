/**
 * Input schemas of the issue procedures (spec "Issue router"; extensions marked). The router
 * merges them with the tier's own {repoId} / {issueId}… schema; the services parse with them too,
 * so the CLI gets the same validation. Messages name the field.
 */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { BOARD_PAGE_DEFAULT, BOARD_PAGE_MAX, PRIORITY_KEYS, RELATION_TYPES, STATUS_KEYS, normalizeDueDate } from "@/lib/issues/model";
import { ISSUE_SORTS, parseIssueQuery } from "@/lib/issues/search-query";

export const issueNumber = (field = "number") =>
  z
    .number({ error: `${field} must be an issue number` })
    .int(`${field} must be an integer`)
    .min(1, `${field} must be at least 1`)
    .max(2_147_483_647, `${field} is too large`);

export const title = line("title").trim().min(1, "title is required").max(256, "title is at most 256 characters");
export const body = text("body").max(65_536, "body is at most 65536 characters");
export const priority = z.enum(PRIORITY_KEYS, { error: `priority must be one of ${PRIORITY_KEYS.join(", ")}` });
export const status = z.enum(STATUS_KEYS as [string, ...string[]], { error: `status must be one of ${STATUS_KEYS.join(", ")}` });
export const dueDate = line("dueDate", "dueDate must be an ISO date string (YYYY-MM-DD)")
  .max(40, "dueDate must be an ISO date (YYYY-MM-DD)")
  .transform((v, ctx) => {
    const d = normalizeDueDate(v);
    if (!d) {
      ctx.addIssue({ code: "custom", message: "dueDate must be an ISO date (YYYY-MM-DD)" });
      return z.NEVER;
    }
    return d;
  });
export const estimate = z
  .number({ error: "estimate must be a number" })
  .finite("estimate must be finite")
  .min(0, "estimate must not be negative")
  .max(1_000_000, "estimate is at most 1000000");
export const labelName = line("label name", "label must be a string")
  .trim()
  .min(1, "label name is required")
  .max(50, "label name is at most 50 characters");
export const labelList = z.array(labelName, { error: "labels must be a list of label names" }).max(50, "at most 50 labels");
export const color = line("color").regex(/^#[0-9a-fA-F]{6}$/, "color must be #rrggbb");
export const limitOf = (def: number, max: number) =>
  z
    .number({ error: "limit must be a number" })
    .int("limit must be an integer")
    .min(1, "limit must be at least 1")
    .max(max, `limit is at most ${max}`)
    .default(def);
export const offset = z
  .number({ error: "offset must be a number" })
  .int("offset must be an integer")
  .min(0, "offset must not be negative")
  .max(1_000_000, "offset is too large")
  .default(0);

/** A search query: one line, at most 256 characters (GitHub allows 256 too). */
export const searchText = line("q", "q must be a search query").max(256, "q is at most 256 characters");

export const byNumber = z.object({ number: issueNumber() });

/** issues.list filters. Default limit 20, max 100. */
export const listInput = z.object({
  state: z.enum(["open", "closed"], { error: "state must be open or closed" }).optional(),
  status: status.optional(),
  priority: priority.optional(),
  assignee: uuid("assignee").optional(),
  project: line("project", "project must be a project name").min(1).max(100).optional(),
  cycle: issueNumber("cycle").optional(),
  overdue: z.boolean({ error: "overdue must be a boolean" }).optional(),
  dueSoon: z.boolean({ error: "dueSoon must be a boolean" }).optional(),
  /** Extension: issues carrying any of these label names (case-insensitive). */
  labels: labelList.optional(),
  /** Extension: only these issue numbers (e.g. the titles of an issue's relations in one call). */
  numbers: z
    .array(issueNumber("numbers[]"), { error: "numbers must be a list of issue numbers" })
    .max(100, "at most 100 numbers")
    .optional(),
  /**
   * Extension (issue pickers on the issue page): issues whose title contains this text
   * (case-insensitive for ASCII), or whose number it is (`12` or `#12`). 1–100 characters.
   */
  titleSearch: line("titleSearch")
    .trim()
    .min(1, "titleSearch must not be empty")
    .max(100, "titleSearch must be at most 100 characters")
    .optional(),
  /** Extension: GitHub-style search text, qualifiers and free text (lib/issues/search-query.ts). */
  q: searchText.optional(),
  /** Extension: issues opened by this user (username, case-insensitive). */
  author: line("author", "author must be a username")
    .trim()
    .min(1, "author must be a username")
    .max(100, "author is at most 100 characters")
    .optional(),
  /** Extension: order (default created-desc, newest first); overrides q's sort:. */
  sort: z.enum(ISSUE_SORTS, { error: `sort must be one of ${ISSUE_SORTS.join(", ")}` }).optional(),
  limit: limitOf(20, 100),
  offset,
});

/** issues.counts (extension): the list filters without state, order and paging (q's is: is ignored). */
export const countsInput = listInput.omit({ state: true, limit: true, offset: true, numbers: true, titleSearch: true, sort: true });
export type ListFilters = z.output<typeof listInput>;

export const createInput = z
  .object({
    title: title.optional(),
    body: body.optional(),
    labels: labelList.optional(),
    priority: priority.optional(),
    dueDate: dueDate.optional(),
    estimate: estimate.optional(),
    parentNumber: issueNumber("parentNumber").optional(),
    project: line("project", "project must be a project name").trim().min(1, "project name is required").max(100).optional(),
    cycle: issueNumber("cycle").optional(),
    assigneeId: uuid("assigneeId").optional(),
    templateId: uuid("templateId").optional(),
    /** Extension: initial status for callers with write permission (default backlog). */
    status: status.optional(),
  })
  .refine((v) => v.title !== undefined || v.templateId !== undefined, { message: "title is required", path: ["title"] });
export type CreateIssueInput = z.input<typeof createInput>;

export const updateInput = z.object({
  title: title.optional(),
  body: body.nullable().optional(),
  status: status.optional(),
  priority: priority.optional(),
  /** null clears it. */
  dueDate: dueDate.nullable().optional(),
  /** null clears it. */
  estimate: estimate.nullable().optional(),
  /** null unassigns. */
  assigneeId: uuid("assigneeId").nullable().optional(),
});
export type UpdateIssueInput = z.input<typeof updateInput>;

export const createSubIssueInput = z.object({
  parentNumber: issueNumber("parentNumber"),
  title,
  body: body.optional(),
  priority: priority.optional(),
});

export const relationInput = z.object({
  sourceNumber: issueNumber("sourceNumber"),
  targetNumber: issueNumber("targetNumber"),
  type: z.enum(RELATION_TYPES, { error: `type must be one of ${RELATION_TYPES.join(", ")}` }),
});

export const moveInput = z
  .object({
    number: issueNumber(),
    status,
    beforeNumber: issueNumber("beforeNumber").optional(),
    afterNumber: issueNumber("afterNumber").optional(),
  })
  .refine((v) => v.beforeNumber === undefined || v.afterNumber === undefined, {
    message: "give beforeNumber or afterNumber, not both",
    path: ["beforeNumber"],
  });

/** issues.board (extension): every column's first page, with counts and estimate sums. */
export const boardInput = z.object({
  projectId: uuid("projectId").optional(),
  cycleId: uuid("cycleId").optional(),
  limit: limitOf(BOARD_PAGE_DEFAULT, BOARD_PAGE_MAX),
});

/** issues.boardColumn (extension): one column's page after `cursor` (a previous page's nextCursor). */
export const boardColumnInput = boardInput.extend({
  status,
  cursor: line("cursor").min(1, "cursor must not be empty").max(100, "cursor is invalid").optional(),
});

export const commentBody = text("body").trim().min(1, "body is required").max(65_536, "body is at most 65536 characters");

export const templateFields = {
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters"),
  title: line("title").max(256, "title is at most 256 characters").nullable().optional(),
  body: body.nullable().optional(),
  labels: labelList.optional(),
  priority: priority.nullable().optional(),
};

export const viewFilters = z
  .object(
    {
      status: z.array(status, { error: "filters.status must be a list of statuses" }).max(20).optional(),
      priority: z.array(priority, { error: "filters.priority must be a list of priorities" }).max(5).optional(),
      assignee: z.array(uuid("filters.assignee[]"), { error: "filters.assignee must be a list of user ids" }).max(100).optional(),
      labels: z.array(labelName, { error: "filters.labels must be a list of label names" }).max(50).optional(),
      dueDate: z.enum(["overdue", "due_soon", "no_date"], { error: "filters.dueDate must be overdue, due_soon or no_date" }).optional(),
      /** Extension: a search query (issues.list `q`) the view also applies (AND). */
      q: searchText
        .superRefine((v, ctx) => {
          const errors = parseIssueQuery(v).errors;
          if (errors.length) ctx.addIssue({ code: "custom", message: `filters.q: ${errors.join("; ")}` });
        })
        .optional(),
    },
    { error: "filters must be an object" },
  )
  .strict();
export type ViewFilters = z.output<typeof viewFilters>;

export const SORT_FIELDS = ["number", "createdAt", "updatedAt", "priority", "dueDate", "estimate", "title", "status"] as const;
export const viewSort = z.object(
  {
    field: z.enum(SORT_FIELDS, { error: `sort.field must be one of ${SORT_FIELDS.join(", ")}` }),
    direction: z.enum(["asc", "desc"], { error: "sort.direction must be asc or desc" }),
  },
  { error: "sort must be {field, direction}" },
);
export type ViewSort = z.output<typeof viewSort>;

export const viewFields = {
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters"),
  filters: viewFilters,
  sort: viewSort.nullable().optional(),
};
