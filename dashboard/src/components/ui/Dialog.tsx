//! Modal dialog on Radix Dialog (focus trap, Escape and backdrop close, focus restored on close), styled
//! dark. On open, focus goes to the first field or a [data-autofocus] element rather than the close button.
import * as RadixDialog from "@radix-ui/react-dialog";
import type { KeyboardEvent, ReactNode } from "react";
import { IconX } from "./icons";
import { cx } from "./primitives";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: "md" | "lg" | "xl";
}

export function Dialog({ open, onClose, title, description, children, footer, size = "md" }: DialogProps) {
  // A toast shown after the dialog opened is the topmost Radix layer, so Radix hands it the Escape key and
  // the dialog would stay open; closing here too keeps Escape meaning "close this dialog". When the dialog
  // is the top layer, Radix has already closed it and marked the event handled.
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === "Escape" && !e.defaultPrevented) onClose();
  }
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center p-4">
          <RadixDialog.Content
            {...(description ? {} : { "aria-describedby": undefined })}
            onOpenAutoFocus={(e) => {
              const first = (e.currentTarget as HTMLElement).querySelector<HTMLElement>("input, select, textarea, [data-autofocus]");
              e.preventDefault();
              (first ?? (e.currentTarget as HTMLElement)).focus();
            }}
            onKeyDown={onKeyDown}
            className={cx(
              "pointer-events-auto relative flex max-h-[90vh] w-full flex-col overflow-hidden rounded-2xl border border-gray-800 bg-gray-900 shadow-2xl shadow-black/60 outline-none",
              size === "xl" ? "max-w-7xl" : size === "lg" ? "max-w-2xl" : "max-w-md",
            )}
          >
            <div className="border-b border-gray-800 px-6 py-5 pr-12">
              <RadixDialog.Title className="text-lg font-semibold text-white">{title}</RadixDialog.Title>
              {description && <RadixDialog.Description className="mt-1 text-sm text-gray-400">{description}</RadixDialog.Description>}
            </div>
            <RadixDialog.Close aria-label="Close dialog" className="absolute right-4 top-4 rounded-md p-1 text-gray-400 hover:bg-gray-800 hover:text-white">
              <IconX className="h-4 w-4" />
            </RadixDialog.Close>
            {/* Only the body scrolls: the title and the footer's buttons stay in view however long the form. */}
            <div className="min-h-0 flex-1 overflow-y-auto px-6 py-5">{children}</div>
            {footer && <div className="flex justify-end gap-2 border-t border-gray-800 px-6 py-4">{footer}</div>}
          </RadixDialog.Content>
        </div>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
