/**
 * Issue templates {id, repoId, name, title, body, labels (names), priority, createdAt, updatedAt}.
 * Labels must exist when the template is written (BAD_REQUEST otherwise); labels deleted later are
 * skipped when the template is applied by issues.create.
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import type { PriorityKey } from "@/lib/issues/model";
import { labelIdsByName } from "./references";

type Repo = Pick<AuthorizedRepo, "id">;

export interface TemplateView {
  id: string;
  repoId: string;
  name: string;
  title: string | null;
  body: string | null;
  labels: string[];
  priority: PriorityKey | null;
  createdAt: string;
  updatedAt: string;
}

interface TemplateRow {
  id: string;
  repoId: string;
  name: string;
  title: string | null;
  body: string | null;
  labels: string;
  priority: string | null;
  createdAt: Date;
  updatedAt: Date;
}

function view(t: TemplateRow): TemplateView {
  return {
    id: t.id,
    repoId: t.repoId,
    name: t.name,
    title: t.title,
    body: t.body,
    labels: JSON.parse(t.labels) as string[],
    priority: t.priority as PriorityKey | null,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export interface TemplateFields {
  name?: string;
  title?: string | null;
  body?: string | null;
  labels?: string[];
  priority?: PriorityKey | null;
}

/** Repository id of a template (the templateId locator). */
export async function templateRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.issueTemplate.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}

/** issues.listTemplates → templates by name. */
export async function listTemplates(db: Db, repo: Repo): Promise<TemplateView[]> {
  return (await db.issueTemplate.findMany({ where: { repoId: repo.id }, orderBy: [{ name: "asc" }, { createdAt: "asc" }] })).map(view);
}

/** issues.getTemplate {templateId} → the template. */
export async function getTemplate(db: Db, repo: Repo, id: string): Promise<TemplateView> {
  const t = await db.issueTemplate.findFirst({ where: { id, repoId: repo.id } });
  if (!t) throw new AppError("NOT_FOUND", "template not found");
  return view(t);
}

async function checkLabels(db: Db, repo: Repo, labels?: string[]): Promise<string | undefined> {
  if (!labels) return undefined;
  await labelIdsByName(db, repo.id, labels);
  return JSON.stringify([...new Set(labels.map((l) => l.trim()))]);
}

/** issues.createTemplate {name, title?, body?, labels?, priority?} → the template. BAD_REQUEST for unknown labels. */
export async function createTemplate(db: Db, repo: Repo, input: TemplateFields & { name: string }): Promise<TemplateView> {
  const labels = (await checkLabels(db, repo, input.labels)) ?? "[]";
  return view(
    await inTransaction(db, (tx) =>
      tx.issueTemplate.create({
        data: {
          repoId: repo.id,
          name: input.name,
          title: input.title ?? null,
          body: input.body ?? null,
          labels,
          priority: input.priority ?? null,
        },
      }),
    ),
  );
}

/** issues.updateTemplate {templateId, name?, title?, body?, labels?, priority?} (null clears) → the template. */
export async function updateTemplate(db: Db, repo: Repo, id: string, input: TemplateFields): Promise<TemplateView> {
  const labels = await checkLabels(db, repo, input.labels);
  return view(
    await inTransaction(db, (tx) =>
      tx.issueTemplate.update({
        where: { id, repoId: repo.id },
        data: {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.body !== undefined ? { body: input.body } : {}),
          ...(labels !== undefined ? { labels } : {}),
          ...(input.priority !== undefined ? { priority: input.priority } : {}),
        },
      }),
    ),
  );
}

/** issues.deleteTemplate {templateId} → {id, deleted: true}. */
export async function deleteTemplate(db: Db, repo: Repo, id: string): Promise<{ id: string; deleted: true }> {
  await inTransaction(db, (tx) => tx.issueTemplate.delete({ where: { id, repoId: repo.id } }));
  return { id, deleted: true };
}
