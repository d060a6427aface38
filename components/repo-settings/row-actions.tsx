"use client";
import { Button } from "@/components/ui/button";
import { PencilIcon, TrashIcon } from "@/components/ui/icons-planning";

/**
 * The Edit and Delete buttons at the end of a settings list row (labels, templates), named for
 * screen readers after the item ("Edit label bug"); test ids `edit-<noun>` and `delete-<noun>`.
 */
export function RowActions({ noun, name, onEdit, onDelete }: { noun: string; name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${noun} ${name}`} data-testid={`edit-${noun}`}>
        <PencilIcon /> Edit
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-danger hover:text-danger"
        onClick={onDelete}
        aria-label={`Delete ${noun} ${name}`}
        data-testid={`delete-${noun}`}
      >
        <TrashIcon /> Delete
      </Button>
    </>
  );
}
