//! The Settings dialogs that touch credentials: change password, update email, delete account (spec part 2
//! §5 validations, §8 toasts). On success a dialog closes and its fields reset.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { useChangePassword, useDeleteAccount, useUpdateEmail } from "../../hooks/settings";
import { serverMessage } from "../../lib/errors";
import { deletionProblem, emailProblem, passwordProblem } from "../../lib/settings";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { Button, Input, Label } from "../ui/primitives";

/** Clears fields whenever the dialog opens. */
function useReset(open: boolean, reset: () => void) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset is a fresh closure each render
  useEffect(() => {
    if (open) reset();
  }, [open]);
}

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const change = useChangePassword();
  const { toast } = useToast();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  useReset(open, () => {
    setCurrent("");
    setNext("");
    setConfirm("");
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const problem = passwordProblem(next, confirm);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      return;
    }
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          onClose();
          toast({ title: "Password Updated", description: "Your password has been changed successfully.", variant: "success" });
        },
        onError: (err) => toast({ title: "Error", description: serverMessage(err) || "Failed to change password.", variant: "destructive" }),
      },
    );
  }

  return (
    <Dialog open={open} onClose={onClose} title="Change Password" description="Every other sign-in of your account ends when the password changes.">
      <form onSubmit={submit} className="space-y-4" aria-label="Change Password">
        <div>
          <Label htmlFor="password-current">Current Password</Label>
          <Input id="password-current" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="password-new">New Password</Label>
          <Input id="password-new" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="password-confirm">Confirm New Password</Label>
          <Input id="password-confirm" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? "Updating..." : "Update Password"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function UpdateEmailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const update = useUpdateEmail();
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  useReset(open, () => {
    setEmail("");
    setPassword("");
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const problem = emailProblem(email);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      return;
    }
    update.mutate(
      { newEmail: email, currentPassword: password },
      {
        onSuccess: (answer) => {
          onClose();
          toast({
            title: "Email Updated",
            description: answer.emailVerified
              ? "Your email address has been changed successfully."
              : "Your email address has been changed. Reports and alerts go to it once it is verified (see the Profile tab).",
            variant: "success",
          });
        },
        onError: (err) => toast({ title: "Error", description: serverMessage(err) || "Failed to change email.", variant: "destructive" }),
      },
    );
  }

  return (
    <Dialog open={open} onClose={onClose} title="Update Email" description="Your current password confirms the change.">
      <form onSubmit={submit} className="space-y-4" aria-label="Update Email" noValidate>
        <div>
          <Label htmlFor="email-new">New Email</Label>
          <Input id="email-new" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="email-password">Current Password</Label>
          <Input id="email-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Updating..." : "Update Email"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function DeleteAccountDialog({ open, onClose, onDeleted }: { open: boolean; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteAccount();
  const { toast } = useToast();
  const [password, setPassword] = useState("");
  useReset(open, () => setPassword(""));

  function submit(e: FormEvent) {
    e.preventDefault();
    const problem = deletionProblem(password);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      return;
    }
    remove.mutate(password, {
      onSuccess: () => {
        onClose();
        toast({ title: "Account Deleted", description: "Your account has been successfully deleted.", variant: "success" });
        onDeleted();
      },
      onError: (err) => toast({ title: "Error", description: serverMessage(err) || "Failed to delete account.", variant: "destructive" }),
    });
  }

  return (
    <Dialog open={open} onClose={onClose} title="Delete Account" description="This permanently deletes your account, your websites and all their data. It cannot be undone.">
      <form onSubmit={submit} className="space-y-4" aria-label="Delete Account">
        <div>
          <Label htmlFor="delete-password">Password</Label>
          <Input id="delete-password" type="password" autoComplete="current-password" placeholder="Enter your password to confirm" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!password || remove.isPending}>
            {remove.isPending ? "Deleting..." : "Delete Account"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
