"use client";
/**
 * The Files changed tab's client part (issue #8): the shared diff viewer plus the reader's
 * "Viewed" checkboxes. A file counts as viewed while the mark's blob is still the head's blob
 * for that path (GitHub's rule: a new push to the file clears it); viewed files show collapsed.
 * Marks are the caller's own (pulls.viewedFiles / pulls.setFileViewed); a failed save puts the
 * checkbox back and says why.
 */
import { useCallback, useMemo, useState } from "react";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { DiffViewer, type DiffViewerProps } from "@/components/diff/diff-viewer";
import { unpackFile, type DiffFile } from "@/components/diff/model";

type Mark = { path: string; blobSha: string | null };

/** The key a mark is stored under: the file's path at the head (its old path when deleted). */
function pathOf(f: DiffFile): string {
  return f.status === "deleted" ? f.oldPath : f.newPath;
}

export function PullFilesView({ prId, marks, signedIn, ...viewer }: { prId: string; marks: Mark[]; signedIn: boolean } & Omit<DiffViewerProps, "renderFileActions" | "collapsedFile">) {
  const client = useTRPCClient();
  const [viewed, setViewed] = useState(() => new Map(marks.map((m) => [m.path, m.blobSha])));
  const isViewed = useCallback((f: DiffFile) => viewed.has(pathOf(f)) && viewed.get(pathOf(f)) === (f.status === "deleted" ? null : f.newSha), [viewed]);
  const files = useMemo(() => viewer.files.map(unpackFile), [viewer.files]);
  const count = useMemo(() => files.filter(isViewed).length, [files, isViewed]);

  const toggle = async (f: DiffFile, on: boolean) => {
    const path = pathOf(f);
    const blobSha = f.status === "deleted" ? null : f.newSha;
    const before = new Map(viewed);
    setViewed((m) => {
      const next = new Map(m);
      if (on) next.set(path, blobSha);
      else next.delete(path);
      return next;
    });
    try {
      await client.pulls.setFileViewed.mutate({ prId, path, viewed: on, blobSha });
    } catch (e) {
      setViewed(before);
      toast.error(errorMessage(e));
    }
  };

  return (
    <>
      {signedIn && (
        <p className="mb-2 text-right text-xs text-muted-foreground" data-testid="viewed-count">
          {count} / {viewer.totalFiles ?? files.length} files viewed
        </p>
      )}
      <DiffViewer
        {...viewer}
        files={files}
        collapsedFile={isViewed}
        renderFileActions={
          signedIn
            ? (f) => (
                <label className="flex shrink-0 items-center gap-1.5 rounded-md border border-border px-2 py-0.5 font-sans text-xs text-muted-foreground">
                  <input type="checkbox" className="h-3.5 w-3.5 accent-[var(--primary)]" checked={isViewed(f)} onChange={(e) => void toggle(f, e.target.checked)} data-testid="file-viewed" aria-label={`Viewed ${pathOf(f)}`} />
                  Viewed
                </label>
              )
            : undefined
        }
      />
    </>
  );
}
