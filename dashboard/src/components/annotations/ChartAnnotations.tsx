//! Under the Traffic Overview chart: the range's annotations as a short list (each readable at any width),
//! "Add annotation", and the dialog that writes one, for today or for the day clicked on the chart; an
//! annotation's text opens the same dialog to change its text or day, or delete it. The chart itself marks them
//! (TrafficChart). Writing is offered to editors and up on the site (issue 37): a viewer reads the list only.
import { useId, useState } from "react";
import type { AnnotationMark } from "../../api/annotations";
import { useCreateAnnotation, useDeleteAnnotation, useUpdateAnnotation } from "../../hooks/annotations";
import { todayUtc } from "../../lib/annotations";
import { serverMessage } from "../../lib/errors";
import { dayLabel } from "../../lib/time";
import { Dialog } from "../ui/Dialog";
import { IconPlus, IconX } from "../ui/icons";
import { Button, FieldError, Input, Label } from "../ui/primitives";

const MAX_TEXT = 280;

export function ChartAnnotations({
  websiteId,
  editable,
  annotations,
  adding,
  onAdding,
}: {
  websiteId: number;
  /** Whether the signed-in account's role may write annotations (editor and up). */
  editable: boolean;
  annotations: readonly AnnotationMark[];
  /** The day the add dialog is open for, or null when it is closed. */
  adding: string | null;
  onAdding: (day: string | null) => void;
}) {
  const remove = useDeleteAnnotation(websiteId);
  const [editing, setEditing] = useState<AnnotationMark | null>(null);
  return (
    <div className="mt-3" data-testid="chart-annotations">
      <div className="flex flex-wrap items-center gap-2">
        {annotations.map((a) => (
          <span
            key={a.id}
            className="inline-flex min-w-0 max-w-full items-center gap-1.5 rounded-full bg-amber-500/10 py-1 pl-3 pr-1 text-xs text-amber-100 ring-1 ring-inset ring-amber-500/30"
            data-testid="annotation-item"
          >
            <span className="shrink-0 font-medium text-amber-300">{dayLabel(a.date)}</span>
            {editable ? (
              <button
                type="button"
                aria-label={`Edit annotation ${a.text}`}
                onClick={() => setEditing(a)}
                className="min-w-0 truncate rounded hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                title={a.text}
              >
                {a.text}
              </button>
            ) : (
              <span className="min-w-0 truncate" title={a.text}>
                {a.text}
              </span>
            )}
            {editable && (
              <button
                type="button"
                aria-label={`Delete annotation ${a.text}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(a.id)}
                className="shrink-0 rounded-full p-0.5 text-amber-300 hover:bg-amber-500/30 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
              >
                <IconX className="h-3.5 w-3.5" />
              </button>
            )}
          </span>
        ))}
        {editable && (
          <Button variant="ghost" size="sm" onClick={() => onAdding(todayUtc())}>
            <IconPlus />
            Add annotation
          </Button>
        )}
      </div>
      {editable && adding !== null ? <AnnotationDialog websiteId={websiteId} day={adding} onClose={() => onAdding(null)} /> : null}
      {editable && editing ? <AnnotationDialog websiteId={websiteId} day={editing.date} editing={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

/** Adds an annotation on `day`, or with `editing` changes that one (or deletes it). */
function AnnotationDialog({ websiteId, day, editing, onClose }: { websiteId: number; day: string; editing?: AnnotationMark; onClose: () => void }) {
  const [date, setDate] = useState(day);
  const [text, setText] = useState(editing?.text ?? "");
  const create = useCreateAnnotation(websiteId);
  const update = useUpdateAnnotation(websiteId);
  const remove = useDeleteAnnotation(websiteId);
  const ids = useId();
  const saving = editing ? update : create;
  const submit = () =>
    editing ? update.mutate({ id: editing.id, input: { date, text } }, { onSuccess: onClose }) : create.mutate({ date, text }, { onSuccess: onClose });
  const error = saving.error ?? remove.error;
  const busy = saving.isPending || remove.isPending;
  return (
    <Dialog
      open
      onClose={onClose}
      title={editing ? "Edit annotation" : "Add annotation"}
      description="A note on the chart: a release, a campaign, an outage."
      footer={
        <>
          {editing ? (
            <Button variant="danger" className="mr-auto" disabled={busy} onClick={() => remove.mutate(editing.id, { onSuccess: onClose })}>
              Delete
            </Button>
          ) : null}
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={`${ids}-form`} disabled={busy || text.trim() === ""}>
            Save annotation
          </Button>
        </>
      }
    >
      <form
        id={`${ids}-form`}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div>
          <Label htmlFor={`${ids}-text`}>Text</Label>
          <Input id={`${ids}-text`} value={text} maxLength={MAX_TEXT} onChange={(e) => setText(e.target.value)} placeholder="Release 2.0" />
        </div>
        <div>
          <Label htmlFor={`${ids}-date`}>Day (UTC)</Label>
          <Input id={`${ids}-date`} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <FieldError>{error ? serverMessage(error) : null}</FieldError>
      </form>
    </Dialog>
  );
}
