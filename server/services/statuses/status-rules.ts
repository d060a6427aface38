/**
 * The vocabulary, bounds and input schemas of commit statuses and check runs (issue #23; GitHub's
 * REST "Commit statuses" and "Check runs" pages, whose names and values these are). Shared by the
 * REST transport (server/http/rest-v3/) and the services beside this file.
 */
import { z } from "zod";
import { AppError } from "@/server/errors";
import { line, text } from "@/server/validation/strings";

/** A commit status's states (GitHub's). */
export const STATUS_STATES = ["pending", "success", "failure", "error"] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/** A check run's statuses and conclusions (GitHub's). */
export const CHECK_STATUSES = ["queued", "in_progress", "completed"] as const;
export const CHECK_CONCLUSIONS = ["success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export type CheckConclusion = (typeof CHECK_CONCLUSIONS)[number];

/** GitHub's limit: at most this many statuses per sha and context (and svc's, per sha and check name). */
export const MAX_PER_CONTEXT = 1000;

/** String bounds, in characters: context and check names, descriptions (GitHub: 140), URLs, output title / summary / text (GitHub: 65,535). */
export const LIMITS = { context: 255, description: 140, url: 2048, title: 255, output: 65_535, externalId: 255 } as const;

/**
 * A validation failure answered 422 "Validation Failed" by the REST transport, with GitHub's
 * `errors: [{resource, field, code, message}]` (code "custom", "invalid" or "missing_field").
 * Its AppError code is BAD_REQUEST so any other transport answers 400.
 */
export class ValidationFailed extends AppError {
  constructor(
    readonly errors: { resource: string; field: string; code: string; message: string }[],
    message = "Validation Failed",
  ) {
    super("BAD_REQUEST", message);
    this.name = "ValidationFailed";
  }
}

/** An http(s) URL of at most LIMITS.url characters, or null/absent (links svc renders: never javascript: or data:). */
function webUrl(field: string) {
  return line(field)
    .max(LIMITS.url, `${field} is too long (maximum is ${LIMITS.url} characters)`)
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), `${field} must be an http or https URL`)
    .nullish();
}

/** An ISO 8601 timestamp with a time and a zone (`2026-05-01T12:00:00Z`), or null/absent. */
function isoTime(field: string) {
  return line(field)
    .max(40, `${field} must be an ISO 8601 timestamp`)
    .refine(
      (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(v) && !Number.isNaN(Date.parse(v)),
      `${field} must be an ISO 8601 timestamp`,
    )
    .nullish();
}

/** POST /statuses/{sha} body: {state, target_url?, description?, context? = "default"}. */
export const createStatusInput = z.object({
  state: z.enum(STATUS_STATES, { error: `state is not included in the list (${STATUS_STATES.join(", ")})` }),
  target_url: webUrl("target_url"),
  description: line("description")
    .max(LIMITS.description, `description is too long (maximum is ${LIMITS.description} characters)`)
    .nullish(),
  context: line("context")
    .trim()
    .min(1, "context must not be empty")
    .max(LIMITS.context, `context is too long (maximum is ${LIMITS.context} characters)`)
    .optional(),
});
export type CreateStatusInput = z.input<typeof createStatusInput>;

const output = z
  .object({
    title: line("output.title").max(LIMITS.title, `output.title is too long (maximum is ${LIMITS.title} characters)`).nullish(),
    summary: text("output.summary").max(LIMITS.output, `output.summary is too long (maximum is ${LIMITS.output} characters)`).nullish(),
    text: text("output.text").max(LIMITS.output, `output.text is too long (maximum is ${LIMITS.output} characters)`).nullish(),
  })
  .nullish();

const checkFields = {
  details_url: webUrl("details_url"),
  external_id: line("external_id").max(LIMITS.externalId, `external_id is too long (maximum is ${LIMITS.externalId} characters)`).nullish(),
  status: z.enum(CHECK_STATUSES, { error: `status is not included in the list (${CHECK_STATUSES.join(", ")})` }).optional(),
  conclusion: z.enum(CHECK_CONCLUSIONS, { error: `conclusion is not included in the list (${CHECK_CONCLUSIONS.join(", ")})` }).nullish(),
  started_at: isoTime("started_at"),
  completed_at: isoTime("completed_at"),
  output,
};
const checkName = line("name")
  .trim()
  .min(1, "name must not be empty")
  .max(LIMITS.context, `name is too long (maximum is ${LIMITS.context} characters)`);

/** POST /check-runs body: {name, head_sha, status?, conclusion?, details_url?, external_id?, started_at?, completed_at?, output?}. */
export const createCheckRunInput = z.object({
  name: checkName,
  head_sha: line("head_sha").min(1, "head_sha must not be empty"),
  ...checkFields,
});
export type CreateCheckRunInput = z.input<typeof createCheckRunInput>;

/** PATCH /check-runs/{id} body: any field of the create body but head_sha. */
export const updateCheckRunInput = z.object({ name: checkName.optional(), ...checkFields });
export type UpdateCheckRunInput = z.input<typeof updateCheckRunInput>;

/** Parses `input` with `schema`; errors: ValidationFailed naming each bad field under `resource` ("Status", "CheckRun"). */
export function parseOrFail<T extends z.ZodType>(schema: T, input: unknown, resource: string): z.output<T> {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new ValidationFailed([{ resource, field: "", code: "invalid", message: "the body must be a JSON object" }]);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ValidationFailed(
    parsed.error.issues.map((i) => ({
      resource,
      field: i.path.join("."),
      code: i.code === "invalid_type" && i.input === undefined ? "missing_field" : "custom",
      message: i.code === "invalid_type" && i.input === undefined ? `${i.path.join(".")} is required` : i.message,
    })),
  );
}

/**
 * The status-context state of a check run for svc's combined view: queued / in_progress → pending;
 * completed with success, neutral or skipped → success; any other conclusion → failure (GitHub's
 * check suites count neutral and skipped as passing).
 */
export function checkRunState(status: string, conclusion: string | null): StatusState {
  if (status !== "completed") return "pending";
  return conclusion === "success" || conclusion === "neutral" || conclusion === "skipped" ? "success" : "failure";
}

/**
 * GitHub's combined state of the latest state per context: failure if any is failure or error;
 * pending if any is pending or there are none; else success.
 */
export function combineStates(states: readonly StatusState[]): "pending" | "success" | "failure" {
  if (states.some((s) => s === "failure" || s === "error")) return "failure";
  if (states.length === 0 || states.includes("pending")) return "pending";
  return "success";
}
