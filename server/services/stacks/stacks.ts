/**
 * Stacks (Graphite-style stacked branches): an ordered list of branches of one
 * repository, each meant to be reviewed on top of the one before it; position 0 sits on
 * `baseBranch`. Rules (docs/pulls.md "Stacks"): every branch and the base exist; no duplicates;
 * the base is not one of the stack's branches; a branch belongs to at most one stack of its
 * repository (CONFLICT naming the stack); names are unique per repository (case-insensitive).
 * Mutations need write permission (access rows); every change commits in one transaction.
 */
import { z } from "zod";
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { line } from "@/server/validation/strings";
import { branchNameProblem } from "@/server/git/refs";
import { listBranches } from "@/server/git/repository";
import { inTransaction } from "@/server/db/transaction";
import type { AuthorizedRepo } from "@/server/services/repos/access";

type Tx = Prisma.TransactionClient;
type Repo = Pick<AuthorizedRepo, "id" | "gitDir" | "owner" | "name">;

const branch = (field: string) => line(field).min(1, `${field} is required`).max(255, `${field} is at most 255 characters`);
const branchList = z
  .array(branch("branch"), { error: "branches must be a list of branch names" })
  .min(1, "a stack needs at least one branch")
  .max(50, "a stack has at most 50 branches");

export const createStackInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters"),
  baseBranch: branch("baseBranch"),
  branches: branchList,
});
export const reorderStackInput = z.object({ branches: branchList });

export interface StackBranchView {
  branchName: string;
  position: number;
  pr: { id: string; number: number; title: string; state: string } | null;
  isCurrent: boolean;
}

/** spec: stack {id, name, baseBranch, branches: [{branchName, position, pr, isCurrent}]}. */
export interface StackView {
  id: string;
  name: string;
  baseBranch: string;
  branches: StackBranchView[];
}

type StackRow = { id: string; repoId: string; name: string; baseBranch: string; branches: { branchName: string; position: number }[] };
type PullRef = { id: string; number: number; title: string; state: string; sourceBranch: string };

/** Builds views of `stacks` with ONE query for all their branches' pull requests. */
async function stackViews(db: Db | Tx, stacks: StackRow[], currentBranch: string | null = null): Promise<StackView[]> {
  if (stacks.length === 0) return [];
  const repoId = stacks[0].repoId;
  const names = stacks.flatMap((s) => s.branches.map((b) => b.branchName));
  const pulls: PullRef[] = await db.pullRequest.findMany({
    where: { repoId, sourceRepoId: repoId, sourceBranch: { in: names } },
    orderBy: { number: "desc" },
    select: { id: true, number: true, title: true, state: true, sourceBranch: true },
  });
  const prOf = (name: string) => {
    const mine = pulls.filter((p) => p.sourceBranch === name);
    const pick = mine.find((p) => p.state === "open") ?? mine[0];
    return pick ? { id: pick.id, number: pick.number, title: pick.title, state: pick.state } : null;
  };
  return stacks.map((stack) => ({
    id: stack.id,
    name: stack.name,
    baseBranch: stack.baseBranch,
    branches: stack.branches.map((b) => ({
      branchName: b.branchName,
      position: b.position,
      pr: prOf(b.branchName),
      isCurrent: b.branchName === currentBranch,
    })),
  }));
}

const stackInclude = { branches: { orderBy: { position: "asc" }, select: { branchName: true, position: true } } } as const;

/**
 * The view of stack `stackId`; `currentBranch` marks isCurrent (the branch of the pull request
 * being looked at). Each branch's pr is its open pull request in the repository, else its newest
 * one, else null. Two queries. NOT_FOUND "stack not found".
 */
export async function stackView(db: Db | Tx, stackId: string, currentBranch: string | null = null): Promise<StackView> {
  const stack = await db.stack.findUnique({ where: { id: stackId }, include: stackInclude });
  if (!stack) throw new AppError("NOT_FOUND", "stack not found");
  return (await stackViews(db, [stack], currentBranch))[0];
}

/** The stack holding `branchName` of repository `repoId`, as a view with that branch current, or null. */
export async function stackOfBranch(db: Db, repoId: string, branchName: string): Promise<StackView | null> {
  const row = await db.stackBranch.findUnique({ where: { repoId_branchName: { repoId, branchName } }, select: { stackId: true } });
  return row ? stackView(db, row.stackId, branchName) : null;
}

/** BAD_REQUEST unless the branches are valid, distinct, exist, and exclude the base. */
async function validateBranches(repo: Repo, baseBranch: string, branches: string[]): Promise<void> {
  for (const b of [baseBranch, ...branches]) {
    const problem = branchNameProblem(b);
    if (problem) throw new AppError("BAD_REQUEST", problem);
  }
  const dup = branches.find((b, i) => branches.indexOf(b) !== i);
  if (dup) throw new AppError("BAD_REQUEST", `branch "${dup}" appears twice in the stack`);
  if (branches.includes(baseBranch)) throw new AppError("BAD_REQUEST", `the base branch "${baseBranch}" cannot also be in the stack`);
  const existing = new Set((await listBranches(repo.gitDir)).map((b) => b.name));
  const missing = [baseBranch, ...branches].filter((b) => !existing.has(b));
  if (missing.length)
    throw new AppError(
      "BAD_REQUEST",
      `branch${missing.length > 1 ? "es" : ""} ${missing.map((m) => `"${m}"`).join(", ")} do${missing.length > 1 ? "" : "es"} not exist in ${repo.owner}/${repo.name}`,
    );
}

/** CONFLICT when one of `branches` already belongs to another stack of the repository. */
async function assertFree(tx: Tx, repoId: string, branches: string[], exceptStackId: string | null): Promise<void> {
  const taken = await tx.stackBranch.findFirst({
    where: { repoId, branchName: { in: branches }, ...(exceptStackId ? { stackId: { not: exceptStackId } } : {}) },
    select: { branchName: true, stack: { select: { name: true } } },
  });
  if (taken) throw new AppError("CONFLICT", `branch "${taken.branchName}" already belongs to stack "${taken.stack.name}"`);
}

/** stacks.create {repoId, name, baseBranch, branches[]} → stack (write). Errors as in the module comment. */
export async function createStack(db: Db, actor: Actor | null, repo: Repo, raw: z.input<typeof createStackInput>): Promise<StackView> {
  const input = createStackInput.parse(raw);
  await validateBranches(repo, input.baseBranch, input.branches);
  return inTransaction(db, async (tx) => {
    const same = await tx.stack.findUnique({
      where: { repoId_nameLower: { repoId: repo.id, nameLower: input.name.toLowerCase() } },
      select: { id: true },
    });
    if (same) throw new AppError("CONFLICT", `a stack named "${input.name}" already exists`);
    await assertFree(tx, repo.id, input.branches, null);
    const stack = await tx.stack.create({
      data: {
        repoId: repo.id,
        name: input.name,
        nameLower: input.name.toLowerCase(),
        baseBranch: input.baseBranch,
        creatorId: actor?.user.id ?? null,
        branches: { create: input.branches.map((branchName, position) => ({ repoId: repo.id, branchName, position })) },
      },
      select: { id: true },
    });
    return stackView(tx, stack.id);
  });
}

/** The stack `stackId` of `repo`, or NOT_FOUND "stack not found". */
async function stackIn(db: Db | Tx, repo: Pick<Repo, "id">, stackId: string) {
  const stack = await db.stack.findFirst({ where: { id: stackId, repoId: repo.id }, select: { id: true, baseBranch: true } });
  if (!stack) throw new AppError("NOT_FOUND", "stack not found");
  return stack;
}

/** stacks.get {stackId} → stack. */
export async function getStack(db: Db, repo: Repo, stackId: string): Promise<StackView> {
  await stackIn(db, repo, stackId);
  return stackView(db, stackId);
}

/** stacks.list {repoId} → stacks by name (at most 200). Two queries. */
export async function listStacks(db: Db, repo: Repo): Promise<StackView[]> {
  const rows = await db.stack.findMany({ where: { repoId: repo.id }, orderBy: { nameLower: "asc" }, take: 200, include: stackInclude });
  return stackViews(db, rows);
}

/**
 * stacks.reorder {stackId, branches[]} → stack: the new order of the stack's branches. The list
 * may also add branches (free ones) or drop some; the same validation as create.
 */
export async function reorderStack(db: Db, repo: Repo, stackId: string, raw: z.input<typeof reorderStackInput>): Promise<StackView> {
  const input = reorderStackInput.parse(raw);
  const stack = await stackIn(db, repo, stackId);
  await validateBranches(repo, stack.baseBranch, input.branches);
  return inTransaction(db, async (tx) => {
    await assertFree(tx, repo.id, input.branches, stackId);
    await tx.stackBranch.deleteMany({ where: { stackId } });
    await tx.stackBranch.createMany({
      data: input.branches.map((branchName, position) => ({ stackId, repoId: repo.id, branchName, position })),
    });
    await tx.stack.update({ where: { id: stackId }, data: { updatedAt: new Date() } });
    return stackView(tx, stackId);
  });
}

/** stacks.delete {stackId} → {id}. The branches and pull requests stay. */
export async function deleteStack(db: Db, repo: Repo, stackId: string): Promise<{ id: string }> {
  await stackIn(db, repo, stackId);
  const r = await db.stack.deleteMany({ where: { id: stackId, repoId: repo.id } });
  if (r.count === 0) throw new AppError("NOT_FOUND", "stack not found");
  return { id: stackId };
}

/** The repository id of stack `id`, or null (the stacks router's locator). */
export async function stackRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.stack.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}
