//! The Create Event dialog (spec part 2 §2, §5, §8), also used to edit a definition. Blank event name or
//! display name: the 'Required Fields Missing' toast and nothing is sent. The conversion value field shows
//! only when 'Mark as Conversion Event' is on.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { EVENT_TYPES } from "../../api/events";
import type { EventDefinition, EventType } from "../../api/events";
import { useCreateEventDefinition, useUpdateEventDefinition } from "../../hooks/events";
import { serverMessage } from "../../lib/errors";
import { EMPTY_EVENT_FORM, eventInput, formOf } from "../../lib/events";
import type { EventForm } from "../../lib/events";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { Switch } from "../ui/Switch";
import { Button, FieldError, Input, Label, Select } from "../ui/primitives";

const TYPE_LABELS: Record<EventType, string> = { click: "Click", submit: "Form Submit", pageview: "Page View", custom: "Custom" };
const SELECTOR_HINTS: Record<EventType, string> = {
  click: "button.buy, #signup",
  submit: "form#contact",
  pageview: "/pricing or /blog/*",
  custom: "optional",
};

export function EventDefinitionDialog({
  websiteId,
  open,
  onClose,
  editing,
}: {
  websiteId: number;
  open: boolean;
  onClose: () => void;
  /** The definition to edit; a new one is created without it. */
  editing?: EventDefinition;
}) {
  const create = useCreateEventDefinition(websiteId);
  const update = useUpdateEventDefinition(websiteId);
  const { toast } = useToast();
  const [form, setForm] = useState<EventForm>(EMPTY_EVENT_FORM);
  const [serverError, setServerError] = useState("");
  const set = <K extends keyof EventForm>(key: K, value: EventForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  useEffect(() => {
    if (open) {
      setForm(editing ? formOf(editing) : EMPTY_EVENT_FORM);
      setServerError("");
    }
  }, [open, editing]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const input = eventInput(form);
    if (!input) {
      toast({ title: "Required Fields Missing", description: "Please fill in the event name and display name.", variant: "destructive" });
      return;
    }
    setServerError("");
    if (editing) {
      update.mutate(
        { id: editing.id, changes: input },
        {
          onSuccess: () => {
            onClose();
            toast({ title: "Event Definition Updated", description: "Your changes have been saved.", variant: "success" });
          },
          onError: (err) => {
            setServerError(serverMessage(err));
            toast({ title: "Error", description: "Failed to update event definition. Please try again.", variant: "destructive" });
          },
        },
      );
      return;
    }
    create.mutate(input, {
      onSuccess: () => {
        onClose();
        toast({ title: "Event Definition Created", description: "Your new event definition has been created successfully.", variant: "success" });
      },
      onError: (err) => {
        // The spec's toast text, and the server's reason beside the fields so the owner can fix it.
        setServerError(serverMessage(err));
        toast({ title: "Error", description: "Failed to create event definition. Please try again.", variant: "destructive" });
      },
    });
  }

  const pending = create.isPending || update.isPending;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={editing ? "Edit Event" : "Create Event"}
      description={editing ? "Change how this event is captured." : "Define an event to capture on your site."}
      size="lg"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="event-name">Event Name</Label>
            <Input id="event-name" value={form.name} onChange={(e) => set("name", e.target.value)} placeholder="signup_click" maxLength={100} />
          </div>
          <div>
            <Label htmlFor="event-display-name">Display Name</Label>
            <Input id="event-display-name" value={form.displayName} onChange={(e) => set("displayName", e.target.value)} placeholder="Signup Button Click" maxLength={200} />
          </div>
        </div>
        <div>
          <Label htmlFor="event-description">Description</Label>
          <Input id="event-description" value={form.description} onChange={(e) => set("description", e.target.value)} placeholder="What this event means" maxLength={1000} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="event-type">Event Type</Label>
            <Select id="event-type" value={form.eventType} onChange={(e) => set("eventType", e.target.value as EventType)}>
              {EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="event-selector">{form.eventType === "pageview" ? "URL Pattern" : "CSS Selector"}</Label>
            <Input id="event-selector" value={form.selector} onChange={(e) => set("selector", e.target.value)} placeholder={SELECTOR_HINTS[form.eventType]} className="font-mono" maxLength={500} />
          </div>
        </div>
        <div className="flex items-center justify-between gap-4 rounded-lg border border-gray-800 px-4 py-3">
          <label htmlFor="event-conversion" className="text-sm font-medium text-gray-200">
            Mark as Conversion Event
          </label>
          <Switch id="event-conversion" checked={form.isConversion} onCheckedChange={(v) => set("isConversion", v)} />
        </div>
        {form.isConversion && (
          <div>
            <Label htmlFor="event-conversion-value">Conversion Value</Label>
            <Input id="event-conversion-value" type="number" min={0} step="0.01" inputMode="decimal" value={form.conversionValue} onChange={(e) => set("conversionValue", e.target.value)} placeholder="49.99" />
          </div>
        )}
        <FieldError>{serverError}</FieldError>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {editing ? (pending ? "Saving..." : "Save Changes") : pending ? "Creating..." : "Create Event"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
