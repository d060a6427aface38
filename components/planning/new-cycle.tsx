"use client";
/**
 * "New cycle" button and dialog (cycles.create; writers): optional name, first and last day. The
 * last day is inclusive: the cycle ends at 23:59:59.999 UTC that day. The number is the next free
 * one (server).
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { useRefresh } from "@/components/repo-settings/use-refresh";

/** YYYY-MM-DD of a date in UTC. */
const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** The default next cycle: from `start` (YYYY-MM-DD) for two weeks, last day inclusive. */
export function twoWeeksFrom(start: string): string {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 13);
  return ymd(d);
}

export function NewCycleButton({ repoId, defaultStart }: { repoId: string; defaultStart: string }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.cycles.create.mutationOptions());
  const { refresh } = useRefresh();
  const [open, setOpen] = useState(false);
  const initial = { name: "", start: defaultStart, end: twoWeeksFrom(defaultStart) };
  const [v, setV] = useState(initial);
  const [error, setError] = useState<string>();
  const order = v.start && v.end && v.end < v.start ? "The last day must not be before the first" : undefined;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!v.start || !v.end) return setError("Choose the first and last day");
    if (order) return;
    try {
      const cycle = await create.mutateAsync({
        repoId,
        name: v.name.trim() || undefined,
        startsAt: `${v.start}T00:00:00.000Z`,
        endsAt: `${v.end}T23:59:59.999Z`,
      });
      toast.success(`Cycle ${cycle.number}${cycle.name ? ` "${cycle.name}"` : ""} created`);
      setOpen(false);
      setV(initial);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="primary" data-testid="new-cycle">
          New cycle
        </Button>
      </DialogTrigger>
      <DialogContent title="New cycle" description="A time-boxed iteration (a sprint). Cycles are numbered in order; dates are UTC days.">
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
          <FormError message={error} />
          <Field label="Name" hint='Optional, e.g. "Launch sprint".'>
            <Input
              value={v.name}
              maxLength={100}
              onChange={(e) => setV({ ...v, name: e.target.value })}
              autoFocus
              data-testid="cycle-name"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="First day" required>
              <Input
                type="date"
                value={v.start}
                onChange={(e) =>
                  setV({
                    ...v,
                    start: e.target.value,
                    end: v.end && v.end >= e.target.value ? v.end : e.target.value ? twoWeeksFrom(e.target.value) : v.end,
                  })
                }
                data-testid="cycle-start"
              />
            </Field>
            <Field label="Last day" error={order} required>
              <Input
                type="date"
                value={v.end}
                min={v.start || undefined}
                onChange={(e) => setV({ ...v, end: e.target.value })}
                data-testid="cycle-end"
              />
            </Field>
          </div>
          <div className="flex justify-end gap-2 border-t border-border pt-4">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={create.isPending} data-testid="cycle-save">
              {create.isPending ? "Creating…" : "Create cycle"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
