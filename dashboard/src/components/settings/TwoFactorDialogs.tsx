//! Two-factor authentication: enrol (the current password first, then the QR code of the otpauth URI or the
//! secret typed by hand; a code from the app confirms; recovery codes shown once; other sign-ins end) and turn
//! off with the password and a code or a recovery code. The server asks for the password at each step, so a
//! stolen token alone cannot enrol an authenticator of its own.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from "../../hooks/settings";
import { serverMessage } from "../../lib/errors";
import { CopyButton } from "../CopyButton";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { Button, FieldError, Input, Label, Spinner } from "../ui/primitives";

export function TwoFactorEnableDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const setup = useTwoFactorSetup();
  const enable = useTwoFactorEnable();
  const { toast } = useToast();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [recovery, setRecovery] = useState<string[] | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh start each time the dialog opens
  useEffect(() => {
    if (!open) return;
    setPassword("");
    setCode("");
    setRecovery(null);
    enable.reset();
    setup.reset();
  }, [open]);

  function start(e: FormEvent) {
    e.preventDefault();
    setup.mutate({ password });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      toast({ title: "Invalid code", description: "Enter the 6-digit code shown by your authenticator app.", variant: "destructive" });
      return;
    }
    enable.mutate({ password, code: code.trim() }, {
      onSuccess: (data) => {
        setRecovery(data.recoveryCodes);
        toast({ title: "Two-Factor Enabled", description: "Sign-ins now ask for a code from your app; your other sign-ins have ended.", variant: "success" });
      },
      onError: (err) => toast({ title: "Error", description: serverMessage(err), variant: "destructive" }),
    });
  }

  if (recovery) {
    return (
      <Dialog open={open} onClose={onClose} title="Recovery Codes" description="Each code signs you in once if you lose your device. They are shown only now: keep them somewhere safe.">
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-emerald-300" data-testid="recovery-codes">
          {recovery.map((c) => (
            <li key={c} className="rounded-md border border-gray-800 bg-gray-950 px-2 py-1 text-center">
              {c}
            </li>
          ))}
        </ul>
        <div className="mt-4 flex justify-end gap-2">
          <CopyButton text={recovery.join("\n")} label="Copy Codes" copiedLabel="Copied!" successTitle="Codes copied!" successDescription="The recovery codes have been copied to your clipboard." />
          <Button onClick={onClose}>Done</Button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onClose={onClose} title="Enable Two-Factor Authentication" description={setup.data ? "Scan the QR code with an authenticator app, then enter the code it shows." : "Enter your password to start."}>
      {setup.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      ) : !setup.data ? (
        <form onSubmit={start} className="space-y-4" aria-label="Confirm your password">
          <div>
            <Label htmlFor="two-factor-setup-password">Password</Label>
            <Input id="two-factor-setup-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <FieldError>{setup.error ? serverMessage(setup.error) : null}</FieldError>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!password}>
              Continue
            </Button>
          </div>
        </form>
      ) : (
        <form onSubmit={submit} className="space-y-4" aria-label="Enable Two-Factor Authentication">
          <div className="flex flex-col items-center gap-3">
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.data.qrSvg)}`}
              alt="QR code for your authenticator app"
              className="h-48 w-48 rounded-lg bg-white p-1"
              data-testid="two-factor-qr"
            />
            <p className="text-center text-xs text-gray-400">
              Or enter this key: <code className="break-all font-mono text-gray-200" data-testid="two-factor-secret">{setup.data.secret}</code>
            </p>
          </div>
          <div>
            <Label htmlFor="two-factor-code">Verification Code</Label>
            <Input id="two-factor-code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} placeholder="123456" />
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={enable.isPending}>
              {enable.isPending ? "Verifying..." : "Verify and Enable"}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

export function TwoFactorDisableDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const disable = useTwoFactorDisable();
  const { toast } = useToast();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  useEffect(() => {
    if (!open) return;
    setPassword("");
    setCode("");
  }, [open]);

  function submit(e: FormEvent) {
    e.preventDefault();
    disable.mutate({ password, code: code.trim() }, {
      onSuccess: () => {
        onClose();
        toast({ title: "Two-Factor Disabled", description: "Sign-ins no longer ask for a code.", variant: "success" });
      },
      onError: (err) => toast({ title: "Error", description: serverMessage(err), variant: "destructive" }),
    });
  }

  return (
    <Dialog open={open} onClose={onClose} title="Disable Two-Factor Authentication" description="Enter your password and a code from your authenticator app (or a recovery code) to turn two-factor authentication off.">
      <form onSubmit={submit} className="space-y-4" aria-label="Disable Two-Factor Authentication">
        <div>
          <Label htmlFor="two-factor-password">Password</Label>
          <Input id="two-factor-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="two-factor-disable-code">Code or recovery code</Label>
          <Input id="two-factor-disable-code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="123456" />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!password || !code.trim() || disable.isPending}>
            Disable
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
