"use client";
/**
 * "Propose an edit" (so the page stays useful without a model): the user drafts a change
 * by hand — create a file (a new path), modify one (its content loaded into the text area from
 * the session branch when it exists, else the default branch, as the server bases the proposal)
 * or delete one — and it becomes a pending change (agent.proposeChange) with the same review,
 * approve and reject flow as the agent's.
 */
import { useEffect, useState } from "react";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { Button } from "@/components/ui/button";
import { Combobox } from "@/components/ui/combobox";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { FileIcon } from "@/components/ui/icons";
import { card, cx, label } from "@/components/ui/styles";

type Kind = "create" | "modify" | "delete";

export function ProposeEdit({
  session,
  repoId,
  files,
  initialPath,
  onProposed,
  onClose,
}: {
  session: { id: string; branch: string; defaultBranch: string };
  repoId: string;
  files: string[];
  initialPath?: string;
  onProposed: () => void;
  onClose: () => void;
}) {
  const client = useTRPCClient();
  const action = useAction();
  const [kind, setKind] = useState<Kind>(initialPath ? "modify" : "create");
  const [path, setPath] = useState(initialPath ?? "");
  const [content, setContent] = useState("");
  const [loaded, setLoaded] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  /** The file's text on the session branch (when it exists) or the default branch. */
  async function load(p: string) {
    setLoading(true);
    setLoadError(null);
    try {
      for (const ref of [session.branch, session.defaultBranch]) {
        try {
          const blob = await client.repos.blob.query({ repoId, ref, path: p });
          if (blob.isBinary || blob.truncated || blob.text === null) throw new Error(`${p} is not a text file this form can edit`);
          setContent(blob.text);
          setLoaded(p);
          return;
        } catch (e) {
          if (ref === session.defaultBranch) throw e;
        }
      }
    } catch (e) {
      setLoaded(null);
      setLoadError(errorMessage(e));
    } finally {
      setLoading(false);
    }
  }

  // starting on a file (the selection's): modify it, its content loaded
  useEffect(() => {
    if (initialPath) void load(initialPath);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const pick = (p: string | null) => {
    setPath(p ?? "");
    if (p && kind === "modify") void load(p);
  };
  const changeKind = (k: Kind) => {
    setKind(k);
    if (k === "modify" && path && loaded !== path) void load(path);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void action.run(
      () =>
        client.agent.proposeChange.mutate({
          sessionId: session.id,
          type: kind,
          path: path.trim(),
          ...(kind === "delete" ? {} : { content }),
        }),
      () => {
        onProposed();
        onClose();
      },
    );
  };

  const options = files.map((f) => ({ value: f, label: f, icon: <FileIcon className="shrink-0 text-subtle-foreground" /> }));
  return (
    <form onSubmit={submit} className={cx(card, "space-y-3 p-3")} data-testid="propose-edit-form" aria-label="Propose an edit">
      <div className="grid gap-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <Field label="Change">
          <NativeSelect value={kind} onChange={(e) => changeKind(e.target.value as Kind)} data-testid="propose-type">
            <option value="create">Create a file</option>
            <option value="modify">Modify a file</option>
            <option value="delete">Delete a file</option>
          </NativeSelect>
        </Field>
        {kind === "create" ? (
          <Field label="New file path">
            <Input
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="docs/plan.md"
              required
              maxLength={4096}
              data-testid="propose-path"
            />
          </Field>
        ) : (
          <div className="min-w-0 space-y-1">
            <span className={label} id="propose-file-label">
              File
            </span>
            <Combobox
              options={options}
              value={path || null}
              onChange={pick}
              placeholder="Pick a file…"
              searchPlaceholder="Filter files…"
              emptyText="No matching file."
              ariaLabel="File"
              testId="propose-file"
              triggerClassName="border border-input bg-card py-1.5"
            />
          </div>
        )}
      </div>
      {kind !== "delete" && (
        <Field
          label="Content"
          hint={
            kind === "modify"
              ? loading
                ? "Loading the file…"
                : loaded
                  ? `Loaded from ${loaded}; edit it here.`
                  : "Pick a file to load its content."
              : undefined
          }
        >
          <Textarea
            value={content}
            onChange={(e) => setContent(e.target.value)}
            rows={10}
            spellCheck={false}
            className="font-mono text-xs"
            data-testid="propose-content"
          />
        </Field>
      )}
      <FormError message={loadError ?? action.error} />
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          variant="primary"
          disabled={action.busy || loading || !path.trim() || (kind === "modify" && loaded !== path)}
          data-testid="propose-submit"
        >
          Propose change
        </Button>
        <Button onClick={onClose} disabled={action.busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
