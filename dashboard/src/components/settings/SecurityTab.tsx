//! Settings, Security: two-factor authentication, login notifications with the recent sign-ins, session
//! timeout (saved and applied by the server), the change-password and update-email dialogs, and API keys.
import { useState } from "react";
import type { AccountSettings } from "../../api/settings";
import { useUpdateSecurity } from "../../hooks/settings";
import { serverMessage } from "../../lib/errors";
import { SESSION_TIMEOUT_MAX, SESSION_TIMEOUT_MIN, parseSessionTimeout, sessionTimeoutInRange } from "../../lib/settings";
import { formatDateTime } from "../../lib/time";
import { useToast } from "../toast/toast";
import { Button, Card, CardBody, CardHeader, FieldError, Input, Label } from "../ui/primitives";
import { Switch } from "../ui/Switch";
import { ChangePasswordDialog, UpdateEmailDialog } from "./AccountDialogs";
import { ApiKeysCard } from "./ApiKeysCard";
import { TwoFactorDisableDialog, TwoFactorEnableDialog } from "./TwoFactorDialogs";

export function SecurityTab({ settings }: { settings: AccountSettings }) {
  const { security } = settings;
  const update = useUpdateSecurity();
  const { toast } = useToast();
  const [timeout, setTimeoutText] = useState(String(security.sessionTimeout));
  const [dialog, setDialog] = useState<"password" | "email" | "2fa-on" | "2fa-off" | null>(null);
  const minutes = parseSessionTimeout(timeout);
  const inRange = sessionTimeoutInRange(minutes);

  function save(change: { sessionTimeout?: number; loginNotifications?: boolean }) {
    update.mutate(change, {
      onSuccess: () => toast({ title: "Security Settings Updated", description: "Your security settings have been saved.", variant: "success" }),
      onError: (err) => toast({ title: "Error", description: serverMessage(err) || "Failed to update security settings.", variant: "destructive" }),
    });
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Security Settings" description="Protect your account" />
        <CardBody className="space-y-5">
          <div className="flex items-center justify-between gap-4">
            <div className="min-w-0">
              <label htmlFor="security-2fa" className="text-sm font-medium text-gray-200">
                Two-Factor Authentication
              </label>
              <p className="text-sm text-gray-500">Ask for a code from an authenticator app at every sign-in</p>
            </div>
            <Switch id="security-2fa" checked={security.twoFactorEnabled} onCheckedChange={(on) => setDialog(on ? "2fa-on" : "2fa-off")} />
          </div>
          <div className="flex items-center justify-between gap-4">
            <div className="min-w-0">
              <label htmlFor="security-login-notifications" className="text-sm font-medium text-gray-200">
                Login Notifications
              </label>
              <p className="text-sm text-gray-500">Record each sign-in (time, address, browser) under Recent sign-ins</p>
            </div>
            <Switch id="security-login-notifications" checked={security.loginNotifications} disabled={update.isPending} onCheckedChange={(on) => save({ loginNotifications: on })} />
          </div>
          <div>
            <Label htmlFor="security-timeout">Session Timeout (minutes)</Label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                id="security-timeout"
                type="number"
                min={SESSION_TIMEOUT_MIN}
                max={SESSION_TIMEOUT_MAX}
                value={timeout}
                onChange={(e) => setTimeoutText(e.target.value)}
                className="sm:max-w-[10rem]"
              />
              <Button variant="outline" disabled={!inRange || update.isPending} onClick={() => save({ sessionTimeout: minutes })}>
                Save Timeout
              </Button>
            </div>
            {inRange ? (
              <p className="mt-1.5 text-xs text-gray-500">You are signed out after {minutes} minutes without activity.</p>
            ) : (
              <FieldError>
                Session timeout must be between {SESSION_TIMEOUT_MIN} and {SESSION_TIMEOUT_MAX} minutes.
              </FieldError>
            )}
          </div>
          <div className="flex flex-col gap-2 border-t border-gray-800 pt-5 sm:flex-row">
            <Button variant="outline" onClick={() => setDialog("password")}>
              Change Password
            </Button>
            <Button variant="outline" onClick={() => setDialog("email")}>
              Update Email
            </Button>
          </div>
        </CardBody>
      </Card>
      {security.loginNotifications && (
        <Card>
          <CardHeader title="Recent sign-ins" description="The latest sign-ins to your account" />
          <CardBody>
            {settings.recentSignIns.length === 0 ? (
              <p className="text-sm text-gray-500">No sign-ins recorded yet.</p>
            ) : (
              <ul className="divide-y divide-gray-800" data-testid="recent-sign-ins">
                {settings.recentSignIns.map((s) => (
                  <li key={`${s.at}-${s.ipAddress}`} className="flex flex-col gap-0.5 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between">
                    <span className="text-gray-200">{formatDateTime(s.at)}</span>
                    <span className="text-gray-400">
                      {s.browser} · {s.ipAddress}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardBody>
        </Card>
      )}
      <ApiKeysCard />
      <ChangePasswordDialog open={dialog === "password"} onClose={() => setDialog(null)} />
      <UpdateEmailDialog open={dialog === "email"} onClose={() => setDialog(null)} />
      <TwoFactorEnableDialog open={dialog === "2fa-on"} onClose={() => setDialog(null)} />
      <TwoFactorDisableDialog open={dialog === "2fa-off"} onClose={() => setDialog(null)} />
    </div>
  );
}
