//! Pure helpers of the Events screen: the create/edit form's check and the body it sends.
import type { EventDefinition, EventDefinitionInput, EventType } from "../api/events";

/** The create/edit form: the fields of a create body, as typed (untrimmed). */
export type EventForm = Omit<EventDefinitionInput, "isActive">;

export const EMPTY_EVENT_FORM: EventForm = {
  name: "",
  displayName: "",
  description: "",
  eventType: "click",
  selector: "",
  isConversion: false,
  conversionValue: "",
};

export function formOf(def: EventDefinition): EventForm {
  return {
    name: def.name,
    displayName: def.displayName,
    description: def.description,
    // The contract types it as text; the daemon stores one of the four types (it refuses others).
    eventType: def.eventType as EventType,
    selector: def.selector,
    isConversion: def.isConversion,
    conversionValue: def.conversionValue ?? "",
  };
}

/** The body to send, or null when event name or display name is blank (spec §5: nothing is sent then). */
export function eventInput(form: EventForm): EventDefinitionInput | null {
  const name = form.name.trim();
  const displayName = form.displayName.trim();
  if (!name || !displayName) return null;
  return {
    name,
    displayName,
    description: form.description.trim(),
    eventType: form.eventType,
    selector: form.selector.trim(),
    isConversion: form.isConversion,
    // The value only means something on a conversion; the field is hidden otherwise.
    conversionValue: form.isConversion ? form.conversionValue.trim() : "",
  };
}

/** Trigger counts by definition id. */
export function triggersById(triggers: { id: number; count: number }[] | undefined): Map<number, number> {
  return new Map((triggers ?? []).map((t) => [t.id, t.count]));
}
