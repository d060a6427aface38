"use client";
/**
 * Base and head pickers of the compare page (docs/pulls.md "Viewer"): choosing one opens
 * base...head. With a fork network, a head repository select too: a fork's branch is written
 * "owner:branch".
 */
import { useRouter } from "next/navigation";
import { Select } from "@/components/ui/select";
import { compareUrl } from "@/components/code/urls";

export function ComparePickers({
  owner,
  repo,
  branches,
  base,
  head,
  headBranches,
  headOwner,
  network,
}: {
  owner: string;
  repo: string;
  branches: string[];
  base: string;
  head: string;
  /** branches of the head repository (this one's when null `headOwner`) */
  headBranches: string[];
  /** the owner of the fork the head branch is in, or null for this repository */
  headOwner: string | null;
  /** the readable parent and forks (repos.network) */
  network: { id: string; owner: string; name: string; isParent: boolean }[];
}) {
  const router = useRouter();
  const options = (current: string, list: string[]) => [...new Set([current, ...list])].map((b) => ({ value: b, label: b }));
  const headOf = (branch: string, forkOwner: string | null) => (forkOwner ? `${forkOwner}:${branch}` : branch);
  const self = "__self__";
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm" data-testid="compare-pickers">
      <span className="text-muted-foreground">base:</span>
      <Select
        value={base}
        onValueChange={(b) => router.push(compareUrl(owner, repo, b, headOf(head, headOwner)))}
        options={options(base, branches)}
        ariaLabel="Base branch"
        testId="compare-base"
        className="w-auto max-w-[12rem] font-mono"
      />
      <span aria-hidden="true" className="text-subtle-foreground">
        ←
      </span>
      {network.length > 0 && (
        <Select
          value={headOwner ?? self}
          onValueChange={(o) => router.push(compareUrl(owner, repo, base, headOf(head, o === self ? null : o)))}
          options={[
            { value: self, label: `${owner}/${repo}` },
            ...network.map((r) => ({ value: r.owner, label: `${r.owner}/${r.name}${r.isParent ? " (parent)" : ""}` })),
          ]}
          ariaLabel="Head repository"
          testId="compare-head-repo"
          className="w-auto max-w-[14rem]"
        />
      )}
      <span className="text-muted-foreground">compare:</span>
      <Select
        value={head}
        onValueChange={(h) => router.push(compareUrl(owner, repo, base, headOf(h, headOwner)))}
        options={options(head, headBranches)}
        ariaLabel="Head branch"
        testId="compare-head"
        className="w-auto max-w-[12rem] font-mono"
      />
    </div>
  );
}
