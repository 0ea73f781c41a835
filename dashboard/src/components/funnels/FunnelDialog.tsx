//! The Create Funnel dialog (spec part 2 "Conversion Funnels", §5): name, website and the steps, which can be
//! edited, added, removed and reordered (the spec's defaults prefilled). Also edits an existing funnel.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import type { Funnel, FunnelInput, FunnelStepInput } from "../../api/funnels";
import type { Website } from "../../api/types";
import { useCreateFunnel, useUpdateFunnel } from "../../hooks/funnels";
import { serverMessage } from "../../lib/errors";
import { DEFAULT_STEPS, MAX_FUNNEL_STEPS, funnelBody, hasErrors, moveStep, validateFunnelForm } from "../../lib/funnels";
import type { FunnelFormErrors } from "../../lib/funnels";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { IconPlus, IconTrash } from "../ui/icons";
import { Button, FieldError, Input, Label, Select } from "../ui/primitives";

function initialForm(websites: Website[], funnel?: Funnel): FunnelInput {
  if (funnel) {
    return {
      name: funnel.name,
      websiteId: funnel.websiteId,
      steps: funnel.steps.map((s) => ({ name: s.name, url: s.url, eventName: s.eventName ?? "" })),
    };
  }
  return { name: "", websiteId: websites[0]?.id ?? "", steps: DEFAULT_STEPS.map((s) => ({ ...s })) };
}

export function FunnelDialog({
  open,
  onClose,
  websites,
  funnel,
}: {
  open: boolean;
  onClose: () => void;
  websites: Website[];
  /** The funnel to edit; a new one when absent. */
  funnel?: Funnel;
}) {
  const create = useCreateFunnel();
  const update = useUpdateFunnel();
  const { toast } = useToast();
  const [form, setForm] = useState<FunnelInput>(() => initialForm(websites, funnel));
  const [errors, setErrors] = useState<FunnelFormErrors>({});

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) {
      setForm(initialForm(websites, funnel));
      setErrors({});
    }
  }, [open]);

  const setStep = (i: number, change: Partial<FunnelStepInput>) =>
    setForm((f) => ({ ...f, steps: f.steps.map((s, j) => (j === i ? { ...s, ...change } : s)) }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateFunnelForm(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const body = funnelBody(form);
    if (funnel) {
      update.mutate(
        { id: funnel.id, ...body },
        {
          onSuccess: () => {
            onClose();
            toast({ title: "Funnel updated", variant: "success" });
          },
          onError: (err) => toast({ title: "Error updating funnel", description: serverMessage(err), variant: "destructive" }),
        },
      );
      return;
    }
    create.mutate(body, {
      onSuccess: () => {
        onClose();
        toast({ title: "Funnel created", variant: "success" });
      },
      onError: (err) => toast({ title: "Error creating funnel", description: serverMessage(err), variant: "destructive" }),
    });
  }

  const pending = create.isPending || update.isPending;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={funnel ? "Edit Funnel" : "Create Funnel"}
      description="A visit counts for a step when it reached every step before it, in order. Use * in a URL to match any text."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="funnel-form" disabled={pending}>
            {funnel ? "Save Changes" : "Create Funnel"}
          </Button>
        </>
      }
    >
      <form id="funnel-form" onSubmit={submit} noValidate className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="funnel-name">Funnel name</Label>
            <Input id="funnel-name" placeholder="Checkout funnel" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
            <FieldError>{errors.name}</FieldError>
          </div>
          <div>
            <Label htmlFor="funnel-website">Website</Label>
            <Select
              id="funnel-website"
              value={form.websiteId === "" ? "" : String(form.websiteId)}
              onChange={(e) => setForm({ ...form, websiteId: e.target.value === "" ? "" : Number(e.target.value) })}
            >
              <option value="">Select a website</option>
              {websites.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </Select>
            <FieldError>{errors.websiteId}</FieldError>
          </div>
        </div>

        <fieldset>
          <legend className="mb-2 text-sm font-medium text-gray-300">Steps</legend>
          <ol className="space-y-3">
            {form.steps.map((step, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; the index is their identity here
              <li key={i} data-testid="funnel-step-input" className="rounded-lg border border-gray-800 bg-gray-950/40 p-3">
                <div className="mb-2 flex items-center justify-between gap-2">
                  <span className="text-xs font-semibold uppercase tracking-wide text-gray-500">Step {i + 1}</span>
                  <div className="flex items-center gap-1">
                    <Button variant="ghost" size="sm" aria-label={`Move step ${i + 1} up`} disabled={i === 0} onClick={() => setForm({ ...form, steps: moveStep(form.steps, i, -1) })}>
                      ↑
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Move step ${i + 1} down`}
                      disabled={i === form.steps.length - 1}
                      onClick={() => setForm({ ...form, steps: moveStep(form.steps, i, 1) })}
                    >
                      ↓
                    </Button>
                    <Button variant="ghost" size="sm" aria-label={`Remove step ${i + 1}`} onClick={() => setForm({ ...form, steps: form.steps.filter((_, j) => j !== i) })}>
                      <IconTrash />
                    </Button>
                  </div>
                </div>
                <div className="grid gap-2 sm:grid-cols-3">
                  <div>
                    <Input aria-label={`Step ${i + 1} name`} placeholder="Step name" value={step.name} onChange={(e) => setStep(i, { name: e.target.value })} />
                    <FieldError>{errors.step?.[i]?.name}</FieldError>
                  </div>
                  <div>
                    <Input aria-label={`Step ${i + 1} URL`} placeholder="/path or /product/*" value={step.url} onChange={(e) => setStep(i, { url: e.target.value })} />
                    <FieldError>{errors.step?.[i]?.url}</FieldError>
                  </div>
                  <Input
                    aria-label={`Step ${i + 1} event name`}
                    placeholder="Event name (optional)"
                    value={step.eventName ?? ""}
                    onChange={(e) => setStep(i, { eventName: e.target.value })}
                  />
                </div>
              </li>
            ))}
          </ol>
          <FieldError>{errors.steps}</FieldError>
          <Button
            variant="outline"
            size="sm"
            className="mt-3"
            disabled={form.steps.length >= MAX_FUNNEL_STEPS}
            onClick={() => setForm({ ...form, steps: [...form.steps, { name: "", url: "", eventName: "" }] })}
          >
            <IconPlus /> Add Step
          </Button>
        </fieldset>
      </form>
    </Dialog>
  );
}
