/**
 * The repository's stacks (Graphite-style; docs/pulls.md "Stacks in the browser"):
 * `/<owner>/<repo>/pulls/stacks`. One card per stack (stacks.list, by name) with its branches top
 * of the stack first and the base at the bottom, each with its pull request (state icon, number,
 * title) or an "Open pull request" link to the compare page against the branch below; writers get
 * "New stack", Reorder and Delete. Data: stacks.list (two statements) and, for writers,
 * repos.branches.
 */
import Link from "next/link";
import { orNull } from "@/components/code/data";
import { compareUrl } from "@/components/code/urls";
import { BranchIcon } from "@/components/ui/icons";
import { button, card, container, cx } from "@/components/ui/styles";
import type { PullsContext } from "./data";
import { pullUrl, pullsUrl } from "./model";
import { NewStackDialog, StackActions } from "./stack-editor";
import { branchBelow, stackAnchor, type StackView } from "./stack-model";
import { BranchLabel, PullRequestIcon, PullStateIcon } from "./ui";

function StackBranches({ repo, stack, canOpen }: { repo: { owner: string; name: string }; stack: StackView; canOpen: boolean }) {
  const top = [...stack.branches].sort((a, b) => b.position - a.position);
  return (
    <ol className="space-y-1" aria-label={`Branches of ${stack.name}, top of the stack first`} data-testid="stack-branches">
      {top.map((b) => (
        <li
          key={b.branchName}
          className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md px-2 py-1.5 hover:bg-muted"
          data-testid="stack-page-branch"
          data-branch={b.branchName}
        >
          {b.pr ? <PullStateIcon pr={{ state: b.pr.state, isDraft: false }} /> : <BranchIcon className="text-subtle-foreground" />}
          <BranchLabel name={b.branchName} />
          {b.pr ? (
            <Link
              href={pullUrl(repo.owner, repo.name, b.pr.number)}
              className="min-w-0 flex-1 text-sm text-foreground hover:text-primary [overflow-wrap:anywhere]"
              data-testid="stack-page-pull"
            >
              <span className="text-muted-foreground">#{b.pr.number}</span> {b.pr.title}
            </Link>
          ) : (
            <span className="min-w-0 flex-1 text-sm text-subtle-foreground">
              No pull request
              {canOpen && (
                <>
                  {" · "}
                  <Link
                    href={compareUrl(repo.owner, repo.name, branchBelow(stack, b.position), b.branchName)}
                    className="text-primary hover:underline"
                    data-testid="stack-open-pull"
                  >
                    Open one against <span className="font-mono">{branchBelow(stack, b.position)}</span>
                  </Link>
                </>
              )}
            </span>
          )}
        </li>
      ))}
      <li className="flex items-center gap-2 px-2 py-1 text-xs text-subtle-foreground" data-testid="stack-page-base">
        <span className="inline-block h-4 w-4" aria-hidden="true" /> base <BranchLabel name={stack.baseBranch} />
      </li>
    </ol>
  );
}

export async function StacksPage({ ctx }: { ctx: PullsContext }) {
  const { repo, caller, me, canWrite } = ctx;
  const stacks = await caller.stacks.list({ repoId: repo.id });
  const editable = canWrite && !!me;
  const branches = editable ? ((await orNull(caller.repos.branches({ repoId: repo.id }))) ?? []).map((b) => b.name) : [];
  const holders = stacks.flatMap((s) => s.branches.map((b) => ({ stackId: s.id, name: b.branchName })));
  const takenBy = (stackId: string | null) => holders.filter((h) => h.stackId !== stackId).map((h) => h.name);
  return (
    <div className={cx(container, "py-6")} data-testid="stacks-page">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
          <h1 className="text-xl font-semibold text-foreground">Stacks</h1>
          <p className="mt-0.5 text-sm text-muted-foreground">
            Branches reviewed one on top of the other: each pull request targets the branch below it, and merging one retargets the next.
          </p>
        </div>
        <Link href={pullsUrl(repo.owner, repo.name)} className={button.secondary}>
          <PullRequestIcon /> Pull requests
        </Link>
        {editable && <NewStackDialog repo={{ id: repo.id, defaultBranch: repo.defaultBranch }} branches={branches} taken={takenBy(null)} />}
      </div>
      {stacks.length === 0 ? (
        <div className={cx(card, "px-4 py-12 text-center")} data-testid="no-stacks">
          <BranchIcon className="h-6! w-6! text-subtle-foreground" />
          <p className="mt-2 font-medium text-foreground">No stacks yet.</p>
          <p className="mt-1 text-sm text-subtle-foreground">
            {editable
              ? "Group branches that build on each other with “New stack”."
              : "People with write access group branches that build on each other into stacks."}
          </p>
        </div>
      ) : (
        <ul className="space-y-4" data-testid="stack-list">
          {stacks.map((s) => {
            const list = <StackBranches repo={repo} stack={s} canOpen={!!me} />;
            return (
              <li
                key={s.id}
                id={stackAnchor(s.id)}
                className={cx(card, "scroll-mt-20 p-4 target:ring-2 target:ring-ring")}
                data-testid="stack-card"
                data-name={s.name}
              >
                <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                  <div className="min-w-0">
                    <h2 className="font-semibold text-foreground [overflow-wrap:anywhere]" data-testid="stack-name">
                      {s.name}
                    </h2>
                    <p className="text-xs text-subtle-foreground">
                      {s.branches.length} branch{s.branches.length === 1 ? "" : "es"} on <span className="font-mono">{s.baseBranch}</span>
                      {" · "}
                      {s.branches.filter((b) => b.pr?.state === "open").length} open
                    </p>
                  </div>
                  {editable ? (
                    <StackActions stack={s} branches={branches} taken={takenBy(s.id)}>
                      {list}
                    </StackActions>
                  ) : (
                    <div className="basis-full">{list}</div>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
