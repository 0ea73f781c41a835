//! Settings, Notifications: the four stored toggles (spec defaults: email alerts and weekly reports on). Weekly
//! Reports and Real-time Alerts send email once the operator sets smtp_url; until then the tab says email is not
//! configured and the toggles are off limits; while the address is not verified, it says none is sent yet.
import { useState } from "react";
import type { NotificationToggles, Notifications } from "../../api/settings";
import { useUpdateNotifications } from "../../hooks/settings";
import { useToast } from "../toast/toast";
import { Button, Card, CardBody, CardHeader } from "../ui/primitives";
import { Switch } from "../ui/Switch";

const ITEMS: { key: keyof NotificationToggles; label: string; description: string }[] = [
  { key: "emailAlerts", label: "Email Alerts", description: "Receive important alerts about your websites by email" },
  { key: "weeklyReports", label: "Weekly Reports", description: "A weekly summary of your analytics" },
  { key: "realTimeAlerts", label: "Real-time Alerts", description: "Instant alerts for traffic spikes and conversions" },
  { key: "marketingEmails", label: "Marketing Emails", description: "Product news and tips" },
];

export function NotificationsTab({ notifications, emailVerified }: { notifications: Notifications; emailVerified: boolean }) {
  const update = useUpdateNotifications();
  const { toast } = useToast();
  const { emailConfigured } = notifications;
  const [draft, setDraft] = useState<NotificationToggles>({
    emailAlerts: notifications.emailAlerts,
    weeklyReports: notifications.weeklyReports,
    realTimeAlerts: notifications.realTimeAlerts,
    marketingEmails: notifications.marketingEmails,
  });

  function save() {
    update.mutate(draft, {
      onSuccess: () => toast({ title: "Notifications Updated", description: "Your notification preferences have been saved.", variant: "success" }),
      onError: () => toast({ title: "Error", description: "Failed to update notifications.", variant: "destructive" }),
    });
  }

  return (
    <Card>
      <CardHeader title="Notification Preferences" description="Choose what you want to hear about" />
      <CardBody className="space-y-1">
        {emailConfigured && !emailVerified && (
          <p role="status" data-testid="email-not-verified-notice" className="rounded-lg border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-200">
            Your email address is not verified, so no reports or alerts are sent to it yet. Follow the link mailed to it, or send a new one from the Profile tab.
          </p>
        )}
        {!emailConfigured && (
          <p role="status" data-testid="email-not-configured" className="rounded-lg border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-200">
            Email is not configured on this server, so no reports or alerts can be sent. The operator enables them by setting{" "}
            <code className="font-mono">smtp_url</code> in the configuration.
          </p>
        )}
        {ITEMS.map((item) => (
          <div key={item.key} className="flex items-center justify-between gap-4 rounded-lg px-1 py-3">
            <div className="min-w-0">
              <label htmlFor={`notify-${item.key}`} className="text-sm font-medium text-gray-200">
                {item.label}
              </label>
              <p className="text-sm text-gray-500">{item.description}</p>
            </div>
            <Switch
              id={`notify-${item.key}`}
              checked={draft[item.key]}
              disabled={!emailConfigured}
              onCheckedChange={(on) => setDraft({ ...draft, [item.key]: on })}
            />
          </div>
        ))}
        <div className="flex justify-end border-t border-gray-800 pt-4">
          <Button onClick={save} disabled={update.isPending || !emailConfigured}>
            {update.isPending ? "Saving..." : "Save Preferences"}
          </Button>
        </div>
      </CardBody>
    </Card>
  );
}
