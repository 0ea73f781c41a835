//! A member's own emails of a site (issue 37), on the site's card in Your Websites: the site's weekly report and
//! its traffic alerts, each off until the member turns it on. The owner's follow Settings → Notifications (the
//! account's switches), so the owner's card does not show this.
import { useOwnEmails, useSetOwnEmails } from "../../hooks/members";
import { Switch } from "../ui/Switch";

const CHOICES = [
  { key: "reports", label: "Weekly report" },
  { key: "alerts", label: "Traffic alerts" },
] as const;

export function MemberEmails({ site, name }: { site: number; name: string }) {
  const emails = useOwnEmails(site);
  const save = useSetOwnEmails(site);
  if (!emails.data) return null;
  const current = emails.data;
  return (
    <fieldset className="mt-4 border-t border-gray-800 pt-3" data-testid="member-emails">
      <legend className="sr-only">Emails about {name}</legend>
      <p className="mb-2 text-xs font-medium uppercase tracking-wide text-gray-500">Emails</p>
      {CHOICES.map((choice) => {
        const id = `emails-${site}-${choice.key}`;
        return (
          <div key={choice.key} className="flex items-center justify-between gap-2 py-1 text-sm">
            <label htmlFor={id} className="text-gray-300">
              {choice.label}
            </label>
            <Switch
              id={id}
              checked={current[choice.key]}
              disabled={save.isPending}
              onCheckedChange={(on) => save.mutate({ [choice.key]: on })}
            />
          </div>
        );
      })}
      {save.isError && (
        <p role="alert" className="mt-1 text-xs text-red-400">
          Could not save: {String(save.error)}
        </p>
      )}
    </fieldset>
  );
}
