//! The app's toasts on Radix Toast: one at a time, 5 s by default, swipe right (50 px) to dismiss, F8
//! focuses the toast region (Radix's hotkey), hover or focus pauses the timer. Pages call
//! useToast().toast({...}).
import * as RadixToast from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { IconX } from "../ui/icons";
import { cx } from "../ui/primitives";

export const TOAST_DEFAULT_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;

export interface ToastOptions {
  title: string;
  description?: ReactNode;
  variant?: "default" | "destructive" | "success";
  duration?: number;
}

interface ActiveToast extends ToastOptions {
  id: number;
}

interface ToastContextValue {
  toast(options: ToastOptions): void;
  dismiss(): void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

export function useToast(): ToastContextValue {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error("useToast outside ToastProvider");
  return ctx;
}

let nextId = 1;

const TONE = {
  default: { box: "border-gray-700 bg-gray-900/95 text-gray-50", dot: "bg-indigo-400" },
  success: { box: "border-emerald-500/30 bg-gray-900/95 text-gray-50", dot: "bg-emerald-400" },
  destructive: { box: "border-red-500/40 bg-red-950/90 text-red-50", dot: "bg-red-400" },
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const toast = useCallback((options: ToastOptions) => setCurrent({ ...options, id: nextId++ }), []);
  const dismiss = useCallback(() => setCurrent(null), []);
  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      <RadixToast.Provider duration={TOAST_DEFAULT_DURATION} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD}>
        {children}
        {/* A new toast gets a new key, so it replaces the shown one at once (one at a time). */}
        {current && <ToastItem key={current.id} toast={current} onDismiss={dismiss} />}
        {/* pointer-events-auto: a modal dialog turns pointer events off on the body; toasts stay swipeable. */}
        <RadixToast.Viewport
          data-testid="toast-region"
          className="pointer-events-auto fixed bottom-0 right-0 z-[100] m-4 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: ActiveToast; onDismiss: () => void }) {
  const variant = toast.variant ?? "default";
  const tone = TONE[variant];
  return (
    <RadixToast.Root
      open
      onOpenChange={(open) => !open && onDismiss()}
      duration={toast.duration}
      type={variant === "destructive" ? "foreground" : "background"}
      data-testid="toast"
      data-variant={variant}
      className={cx(
        "group relative rounded-xl border p-4 pr-10 shadow-2xl shadow-black/40 backdrop-blur transition-[transform,opacity] duration-200",
        "data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:opacity-80 data-[swipe=move]:duration-0 data-[swipe=cancel]:translate-x-0",
        tone.box,
      )}
    >
      <div className="flex items-start gap-3">
        <span className={cx("mt-0.5 h-2 w-2 shrink-0 rounded-full", tone.dot)} />
        <div className="min-w-0 -mt-1.5">
          <RadixToast.Title className="text-sm font-semibold" data-testid="toast-title">
            {toast.title}
          </RadixToast.Title>
          {toast.description && (
            <RadixToast.Description asChild>
              <div className="mt-1 break-words text-sm opacity-80" data-testid="toast-description">
                {toast.description}
              </div>
            </RadixToast.Description>
          )}
        </div>
      </div>
      <RadixToast.Close aria-label="Close" className="absolute right-2 top-2 rounded-md p-1 text-current opacity-50 hover:opacity-100">
        <IconX className="h-4 w-4" />
      </RadixToast.Close>
    </RadixToast.Root>
  );
}
